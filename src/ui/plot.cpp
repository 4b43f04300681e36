#include "ui/plot.h"
#include "ui/drawn_text.h"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace attn::ui {

std::vector<double> plot_ticks(double lo, double hi, bool log_axis) {
  std::vector<double> ticks;
  if (!(hi > lo)) return {lo};
  if (log_axis) {
    const double a = std::floor(std::log10(lo) + 1e-9), b = std::ceil(std::log10(hi) - 1e-9);
    const bool fine = b - a < 3;
    for (double e = a; e <= b; e += 1.0)
      for (double m : fine ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
        const double v = m * std::pow(10.0, e);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back(v);
      }
    return ticks;
  }
  const double raw = (hi - lo) / 5.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) {
      step = m * power;
      break;
    }
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    ticks.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  return ticks;
}

std::string tick_text(double v, bool log_axis) {
  char buf[32];
  const double a = std::fabs(v);
  if (log_axis && (a >= 1e4 || (a > 0 && a < 1e-2))) std::snprintf(buf, sizeof buf, "%.0e", v);
  else if (a >= 1e4 && std::fmod(a, 1000.0) == 0) std::snprintf(buf, sizeof buf, "%gk", v / 1000.0);
  else std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

namespace {

// Data range of the series, references and segments on one axis, padded a little.
void data_range(const PlotSpec& spec, bool x_axis, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = -lo;
  const bool log_axis = x_axis ? spec.log_x : spec.log_y;
  auto take = [&](double v) {
    if (!std::isfinite(v) || (log_axis && v <= 0)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (const PlotSeries& s : spec.series)
    for (double v : x_axis ? s.x : s.y) take(v);
  for (const PlotSegment& s : spec.segments) {
    take(x_axis ? s.x0 : s.y0);
    take(x_axis ? s.x1 : s.y1);
  }
  for (const PlotReference& r : spec.references)
    if (r.vertical == x_axis) take(r.value);
  if (!x_axis && spec.include_zero_y) take(0.0);
  if (x_axis && !spec.x_categories.empty()) {
    take(-0.5);
    take(static_cast<double>(spec.x_categories.size()) - 0.5);
  }
  if (!(hi >= lo)) {
    lo = log_axis ? 1 : 0;
    hi = log_axis ? 10 : 1;
  }
  if (log_axis) {
    lo = std::pow(10.0, std::floor(std::log10(lo)));
    hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (hi <= lo) hi = lo * 10;
  } else {
    if (hi == lo) {
      lo -= 1;
      hi += 1;
    }
    const double pad = (hi - lo) * 0.05;
    if (x_axis && !spec.x_categories.empty()) return;
    lo -= pad;
    hi += pad;
  }
}

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float thickness, float dash) {
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  if (len <= 0) return;
  const ImVec2 d((b.x - a.x) / len, (b.y - a.y) / len);
  for (float t = 0; t < len; t += 2 * dash) {
    const float e = std::min(len, t + dash);
    dl->AddLine(ImVec2(a.x + d.x * t, a.y + d.y * t), ImVec2(a.x + d.x * e, a.y + d.y * e), color, thickness);
  }
}

// Where a plot lands this frame: its box, the axes' box, the data ranges and the ticks.
struct PlotFrame {
  ImDrawList* dl = nullptr;
  float font = 0, px = 1;
  ImVec2 origin, size, lo, hi;  // the widget's box; the axes' box (lo top-left, hi bottom-right)
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
  std::vector<double> xt, yt;
  std::vector<std::string> y_labels;
  std::vector<const PlotSeries*> named;  // in the legend
  bool legend_below = false;             // under the axes (a narrow plot), else at their right
  float upright_h = 0;                   // category labels turned upright (too many to fit level): their room
  float x_labels_h = 0;                  // under the axes: tick labels and the x title
  ImU32 text = 0, grid = 0, axis = 0;

  float fx(const PlotSpec& spec, double v) const {
    const double t = spec.log_x ? (std::log10(v) - std::log10(x_lo)) / (std::log10(x_hi) - std::log10(x_lo))
                                : (v - x_lo) / (x_hi - x_lo);
    return lo.x + static_cast<float>(t) * (hi.x - lo.x);
  }
  float fy(const PlotSpec& spec, double v) const {
    const double t = spec.log_y ? (std::log10(v) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo))
                                : (v - y_lo) / (y_hi - y_lo);
    return hi.y - static_cast<float>(t) * (hi.y - lo.y);
  }
};

PlotFrame plot_frame(const UiContext& ctx, const PlotSpec& spec, ImVec2 size) {
  PlotFrame f;
  f.dl = ImGui::GetWindowDrawList();
  f.font = ImGui::GetFontSize();
  f.px = std::max(1.0f, ctx.dpi_scale);
  f.origin = ImGui::GetCursorScreenPos();
  f.size = size;
  f.text = ImGui::GetColorU32(ImGuiCol_Text);
  f.grid = ImGui::GetColorU32(ImGuiCol_Border, 0.55f);
  f.axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  data_range(spec, true, f.x_lo, f.x_hi);
  data_range(spec, false, f.y_lo, f.y_hi);
  if (spec.x_range[1] > spec.x_range[0]) f.x_lo = spec.x_range[0], f.x_hi = spec.x_range[1];
  if (spec.y_range[1] > spec.y_range[0]) f.y_lo = spec.y_range[0], f.y_hi = spec.y_range[1];
  if (spec.x_categories.empty()) f.xt = plot_ticks(f.x_lo, f.x_hi, spec.log_x);
  f.yt = plot_ticks(f.y_lo, f.y_hi, spec.log_y);
  float y_label_w = 0;
  for (double v : f.yt) {
    f.y_labels.push_back(tick_text(v, spec.log_y));
    y_label_w = std::max(y_label_w, ImGui::CalcTextSize(f.y_labels.back().c_str()).x);
  }
  // Legend on the right, if any series is named.
  float legend_w = 0;
  for (const PlotSeries& s : spec.series)
    if (!s.label.empty()) {
      f.named.push_back(&s);
      legend_w = std::max(legend_w, ImGui::CalcTextSize(s.label.c_str()).x + f.font * 2.2f);
    }
  // A legend wider than 40% of a narrow plot goes under the x axis's title, a line an entry,
  // rather than being cut at the plot's edge.
  f.legend_below = legend_w > size.x * 0.4f;
  if (f.legend_below) legend_w = 0;
  const float below = f.legend_below ? f.font * 1.4f * static_cast<float>(f.named.size()) : 0.0f;
  const float left = y_label_w + f.font * 0.6f, right = legend_w > 0 ? legend_w + f.font : f.font * 0.8f;
  // The y axis's title sits on a line of its own above the axes (ImGui draws no rotated text).
  const float top = f.font * (spec.y_title.empty() ? 0.6f : 1.7f);
  // Category labels that do not fit level side by side (long tokens, many of them) are
  // turned upright rather than dropped, where the plot is tall enough to keep 4 lines of axes
  // beside them; a shorter plot keeps them level and draws those that fit.
  if (!spec.x_categories.empty()) {
    const float axis_w = size.x - left - right;
    const float step = axis_w / static_cast<float>(spec.x_categories.size());
    float widest = 0;
    for (const std::string& c : spec.x_categories) widest = std::max(widest, ImGui::CalcTextSize(c.c_str()).x);
    const float upright = std::min(widest, f.font * 5.0f);
    if (widest + f.font * 0.4f > step && size.y - top - upright - f.font * 1.6f - below >= f.font * 4.0f) f.upright_h = upright;
  }
  f.x_labels_h = f.upright_h > 0 ? f.upright_h + f.font * 1.6f : f.font * 2.8f;
  f.lo = ImVec2(f.origin.x + left, f.origin.y + top);
  f.hi = ImVec2(f.origin.x + size.x - right, f.origin.y + size.y - f.x_labels_h - below);
  if (spec.equal_aspect && f.hi.x > f.lo.x && f.hi.y > f.lo.y) {
    // Widen the smaller data range so one unit has one length on both axes.
    const double sx = (f.hi.x - f.lo.x) / (f.x_hi - f.x_lo), sy = (f.hi.y - f.lo.y) / (f.y_hi - f.y_lo);
    double& a = sx > sy ? f.x_lo : f.y_lo;
    double& b = sx > sy ? f.x_hi : f.y_hi;
    const double c = 0.5 * (a + b), half = 0.5 * (sx > sy ? (f.hi.x - f.lo.x) / sy : (f.hi.y - f.lo.y) / sx);
    a = c - half;
    b = c + half;
    f.xt = plot_ticks(f.x_lo, f.x_hi, false);
    f.yt = plot_ticks(f.y_lo, f.y_hi, false);
    f.y_labels.clear();
    for (double v : f.yt) f.y_labels.push_back(tick_text(v, false));
  }
  // A short plot keeps every k-th y tick (counted from 0 where 0 is one), so labels stay a
  // line and a third apart where 3 remain so, else just apart (never over each other, however
  // few remain: a tiny plot keeps one or two).
  if (f.yt.size() > 2 && f.hi.y > f.lo.y) {
    const float spacing = std::max((f.hi.y - f.lo.y) / static_cast<float>(f.yt.size() - 1), 1.0f);
    std::size_t k = static_cast<std::size_t>(std::ceil(f.font * 1.3f / spacing));
    if ((f.yt.size() - 1) / k + 1 < 3) k = static_cast<std::size_t>(std::ceil(f.font * 1.05f / spacing));
    if (k > 1) {
      std::size_t anchor = 0;
      for (std::size_t i = 0; i < f.yt.size(); ++i)
        if (f.yt[i] == 0.0) anchor = i;
      // Counted from 0, unless another start keeps more ticks where 0's would keep under 3.
      const auto kept_from = [&](std::size_t r) { return (f.yt.size() - r + k - 1) / k; };
      std::size_t start = anchor % k;
      for (std::size_t r = 0; r < k && r < f.yt.size(); ++r)
        if (kept_from(start) < 3 && kept_from(r) > kept_from(start)) start = r;
      std::vector<double> kept;
      std::vector<std::string> labels;
      for (std::size_t i = 0; i < f.yt.size(); ++i)
        if (i % k == start) {
          kept.push_back(f.yt[i]);
          labels.push_back(f.y_labels[i]);
        }
      if (!kept.empty()) {
        f.yt = std::move(kept);
        f.y_labels = std::move(labels);
      }
    }
  }
  return f;
}

// Gridlines, ticks and their labels, the axes' frame and titles.
void draw_axes(const PlotFrame& f, const PlotSpec& spec, PlotPlacement& placement) {
  ImDrawList* dl = f.dl;
  const float font = f.font;
  dl->PushClipRect(f.origin, ImVec2(f.origin.x + f.size.x, f.origin.y + f.size.y), true);
  for (size_t i = 0; i < f.yt.size(); ++i) {
    const float y = f.fy(spec, f.yt[i]);
    dl->AddLine(ImVec2(f.lo.x, y), ImVec2(f.hi.x, y), f.grid, f.px);
    add_text(dl, ImVec2(f.lo.x - font * 0.3f - ImGui::CalcTextSize(f.y_labels[i].c_str()).x, y - font * 0.5f), f.text,
                f.y_labels[i].c_str());
    placement.y_ticks.push_back(f.y_labels[i]);
  }
  // x labels (token labels on a categorical axis), thinned so they never overlap.
  float next_free = -1e9f;
  const size_t count = spec.x_categories.empty() ? f.xt.size() : spec.x_categories.size();
  for (size_t i = 0; i < count; ++i) {
    const bool categorical = !spec.x_categories.empty();
    const float x = f.fx(spec, categorical ? static_cast<double>(i) : f.xt[i]);
    const std::string label = categorical ? spec.x_categories[i] : tick_text(f.xt[i], spec.log_x);
    if (categorical) dl->AddLine(ImVec2(x, f.hi.y), ImVec2(x, f.hi.y + font * 0.25f), f.axis, f.px);
    else dl->AddLine(ImVec2(x, f.lo.y), ImVec2(x, f.hi.y), f.grid, f.px);
    if (categorical && f.upright_h > 0) {
      // Upright, reading upwards from under the axis; a line apart at least.
      if (x - font * 0.5f < next_free) continue;
      const std::string fitted = fit_text(label, f.upright_h);
      const float w = ImGui::CalcTextSize(fitted.c_str()).x;
      add_upright_text(dl, ImVec2(x - font * 0.5f, f.hi.y + font * 0.3f + w), f.text, fitted.c_str());
      placement.x_ticks.push_back(label);
      next_free = x + font * 0.55f;
      continue;
    }
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    if (x - w * 0.5f < next_free) continue;
    add_text(dl, ImVec2(x - w * 0.5f, f.hi.y + font * 0.3f), f.text, label.c_str());
    placement.x_ticks.push_back(label);
    next_free = x + w * 0.5f + font * (categorical ? 0.4f : 0.5f);
  }
  dl->AddRect(f.lo, f.hi, f.axis, 0.0f, 0, f.px);
  if (!spec.x_title.empty()) {
    const float w = ImGui::CalcTextSize(spec.x_title.c_str()).x;
    const float title_y = f.hi.y + (f.upright_h > 0 ? f.upright_h + font * 0.5f : font * 1.45f);
    add_text(dl, ImVec2(0.5f * (f.lo.x + f.hi.x) - w * 0.5f, title_y), f.text, spec.x_title.c_str());
  }
  if (!spec.y_title.empty()) add_text(dl, ImVec2(f.origin.x, f.origin.y + font * 0.2f), f.text, spec.y_title.c_str());
  dl->PopClipRect();
}

// A point's label at its right, else its left, above or below, wherever it stays within the
// axes and covers no label placed before; where every side is taken the label is left out
// (the pointer's readout names the point), so close points never print their names over each
// other.
void place_label(ImDrawList* dl, std::vector<ImRect>& placed, const ImRect& axes, ImVec2 p, float px, ImU32 color,
                 const std::string& text) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float gap = 4.5f * px;
  const ImVec2 tries[] = {{p.x + gap, p.y - size.y * 0.5f},
                          {p.x - gap - size.x, p.y - size.y * 0.5f},
                          {p.x - size.x * 0.5f, p.y - gap - size.y},
                          {p.x - size.x * 0.5f, p.y + gap}};
  for (const ImVec2& at : tries) {
    // A little room around each label: letters of two labels never touch.
    const ImRect box(ImVec2(at.x - gap * 0.5f, at.y - px), ImVec2(at.x + size.x + gap * 0.5f, at.y + size.y + px));
    if (!axes.Contains(box)) continue;  // the axes clip it
    const bool free = std::none_of(placed.begin(), placed.end(), [&](const ImRect& r) {
      return box.Min.x < r.Max.x - 1 && r.Min.x < box.Max.x - 1 && box.Min.y < r.Max.y - 1 && r.Min.y < box.Max.y - 1;
    });
    if (!free) continue;
    placed.push_back(box);
    add_text(dl, at, color, text.c_str());
    return;
  }
}

// Reference lines, segments and series, clipped to the axes. Returns the point nearest the
// pointer (series * 1'000'000 + point) within a little over a line's height, or -1.
int draw_data(const PlotFrame& f, const PlotSpec& spec, PlotPlacement& placement) {
  ImDrawList* dl = f.dl;
  const float font = f.font, px = f.px;
  dl->PushClipRect(f.lo, f.hi, true);
  for (const PlotReference& r : spec.references) {
    const ImU32 c = ImGui::GetColorU32(ImGuiCol_PlotLinesHovered);
    const ImVec2 a = r.vertical ? ImVec2(f.fx(spec, r.value), f.lo.y) : ImVec2(f.lo.x, f.fy(spec, r.value));
    const ImVec2 b = r.vertical ? ImVec2(a.x, f.hi.y) : ImVec2(f.hi.x, a.y);
    dashed_line(dl, a, b, c, 1.5f * px, font * 0.4f);
    if (!r.label.empty()) {
      const ImVec2 at = r.vertical ? ImVec2(a.x + font * 0.25f, f.hi.y - font * 1.3f)
                                   : ImVec2(f.hi.x - ImGui::CalcTextSize(r.label.c_str()).x - font * 0.3f, a.y - font * 1.1f);
      add_text(dl, at, c, r.label.c_str());
    }
    placement.references.push_back(r.label);
  }
  for (const PlotSegment& s : spec.segments)
    dl->AddLine(ImVec2(f.fx(spec, s.x0), f.fy(spec, s.y0)), ImVec2(f.fx(spec, s.x1), f.fy(spec, s.y1)), s.color, s.thickness * px);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool inside = mouse.x >= f.lo.x && mouse.x <= f.hi.x && mouse.y >= f.lo.y && mouse.y <= f.hi.y;
  int nearest = -1;
  float nearest_d2 = (font * 1.2f) * (font * 1.2f);
  std::vector<ImRect> labels;  // the points' labels placed so far
  for (size_t si = 0; si < spec.series.size(); ++si) {
    const PlotSeries& s = spec.series[si];
    if (s.bars) {
      // Bars 70% of the x step wide, from y = 0 (or the axis's edge); the one under the
      // pointer is the column it stands in.
      const float step = std::fabs(f.fx(spec, 1.0) - f.fx(spec, 0.0));
      const float half = std::max(0.5f * px, 0.35f * step);
      const float base = f.fy(spec, std::clamp(0.0, f.y_lo, f.y_hi));
      for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
        if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
        const float x = f.fx(spec, s.x[i]), y = f.fy(spec, s.y[i]);
        dl->AddRectFilled(ImVec2(x - half, std::min(y, base)), ImVec2(x + half, std::max(y, base)), s.color);
        const float dx = std::fabs(x - mouse.x);
        if (inside && dx <= std::max(half, 0.5f * step) && dx * dx < nearest_d2) {
          nearest_d2 = dx * dx;
          nearest = static_cast<int>(si * 1000000 + i);
        }
      }
      continue;
    }
    ImVec2 prev;
    bool has_prev = false;
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i]) || (spec.log_x && s.x[i] <= 0) || (spec.log_y && s.y[i] <= 0)) {
        has_prev = false;
        continue;
      }
      const ImVec2 p(f.fx(spec, s.x[i]), f.fy(spec, s.y[i]));
      if (s.line && has_prev && s.dashed) dashed_line(dl, prev, p, s.color, 1.5f * px, font * 0.35f);
      else if (s.line && has_prev) dl->AddLine(prev, p, s.color, 2.0f * px);
      const float r = 3.5f * px;
      if (s.points && s.square) dl->AddRectFilled(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), s.color);
      else if (s.points) dl->AddCircleFilled(p, r, s.color);
      if (i < s.point_labels.size() && !s.point_labels[i].empty())
        place_label(dl, labels, ImRect(f.lo, f.hi), p, px, s.color, s.point_labels[i]);
      const float d2 = (p.x - mouse.x) * (p.x - mouse.x) + (p.y - mouse.y) * (p.y - mouse.y);
      if (inside && d2 < nearest_d2) {
        nearest_d2 = d2;
        nearest = static_cast<int>(si * 1000000 + i);
      }
      prev = p;
      has_prev = true;
    }
  }
  dl->PopClipRect();
  return nearest;
}

void draw_legend(const PlotFrame& f, PlotPlacement& placement) {
  float ly = f.legend_below ? f.hi.y + f.x_labels_h : f.lo.y;
  for (const PlotSeries* s : f.named) {
    const float lx = f.legend_below ? f.lo.x : f.hi.x + f.font * 0.8f;
    f.dl->AddRectFilled(ImVec2(lx, ly + f.font * 0.3f), ImVec2(lx + f.font * 0.9f, ly + f.font * 0.9f), s->color);
    f.dl->PushClipRect(ImVec2(lx, ly), ImVec2(f.origin.x + f.size.x, ly + f.font * 2), true);
    add_text(f.dl, ImVec2(lx + f.font * 1.3f, ly), f.text, s->label.c_str());
    f.dl->PopClipRect();
    placement.legend.push_back(s->label);
    ly += f.font * 1.4f;
  }
}

// The point under the pointer, as a tooltip: its label (or series) and its coordinates.
std::string readout_text(const PlotSpec& spec, int nearest) {
  const PlotSeries& s = spec.series[nearest / 1000000];
  const size_t i = static_cast<size_t>(nearest % 1000000);
  char buf[160];
  if (i < s.point_labels.size() && !s.point_labels[i].empty()) {
    std::snprintf(buf, sizeof buf, "%s: %.4g, %.4g", s.point_labels[i].c_str(), s.x[i], s.y[i]);
    return buf;
  }
  const std::string xs = spec.x_categories.empty() ? tick_text(s.x[i], false)
                                                   : spec.x_categories[std::min(i, spec.x_categories.size() - 1)];
  std::snprintf(buf, sizeof buf, "%s%s%s = %s, %s = %.4g", s.label.c_str(), s.label.empty() ? "" : ": ",
                spec.x_title.empty() ? "x" : spec.x_title.c_str(), xs.c_str(), spec.y_title.empty() ? "y" : spec.y_title.c_str(), s.y[i]);
  return buf;
}

}  // namespace

PlotSpec category_bars(std::string id, std::string x_title, std::string y_title, std::vector<std::string> categories,
                       const std::vector<double>& values) {
  PlotSpec p;
  p.id = std::move(id);
  p.x_title = std::move(x_title);
  p.y_title = std::move(y_title);
  p.include_zero_y = true;
  p.x_categories = std::move(categories);
  PlotSeries bars;
  bars.bars = true;
  for (std::size_t i = 0; i < values.size(); ++i) bars.x.push_back(static_cast<double>(i));
  bars.y = values;
  p.series.push_back(std::move(bars));
  return p;
}

int plot_widget(UiContext& ctx, const PlotSpec& spec, ImVec2 size) {
  const PlotFrame f = plot_frame(ctx, spec, size);
  PlotPlacement& placement = ctx.plots[spec.id];
  placement = PlotPlacement{.x = f.lo.x, .y = f.lo.y, .w = f.hi.x - f.lo.x, .h = f.hi.y - f.lo.y,
                            .x_title = spec.x_title, .y_title = spec.y_title, .x_lo = f.x_lo, .x_hi = f.x_hi,
                            .y_lo = f.y_lo, .y_hi = f.y_hi, .log_x = spec.log_x, .log_y = spec.log_y,
                            .x_ticks = {}, .y_ticks = {}, .legend = {}, .references = {}, .readout = {}};
  draw_axes(f, spec, placement);
  const int nearest = draw_data(f, spec, placement);
  draw_legend(f, placement);
  if (nearest >= 0) {
    placement.readout = readout_text(spec, nearest);
    ImGui::SetTooltip("%s", placement.readout.c_str());
  }
  ImGui::Dummy(size);
  return nearest;
}

}  // namespace attn::ui
