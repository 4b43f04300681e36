#include "ui/plot.h"

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

}  // namespace

int plot_widget(UiContext& ctx, const PlotSpec& spec, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const float px = std::max(1.0f, ctx.dpi_scale);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_Border, 0.55f);
  const ImU32 axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);

  double x_lo, x_hi, y_lo, y_hi;
  data_range(spec, true, x_lo, x_hi);
  data_range(spec, false, y_lo, y_hi);
  std::vector<double> xt = spec.x_categories.empty() ? plot_ticks(x_lo, x_hi, spec.log_x) : std::vector<double>();
  const std::vector<double> yt = plot_ticks(y_lo, y_hi, spec.log_y);
  std::vector<std::string> y_labels;
  float y_label_w = 0;
  for (double v : yt) {
    y_labels.push_back(tick_text(v, spec.log_y));
    y_label_w = std::max(y_label_w, ImGui::CalcTextSize(y_labels.back().c_str()).x);
  }
  // Legend on the right, if any series is named.
  float legend_w = 0;
  std::vector<const PlotSeries*> named;
  for (const PlotSeries& s : spec.series)
    if (!s.label.empty()) {
      named.push_back(&s);
      legend_w = std::max(legend_w, ImGui::CalcTextSize(s.label.c_str()).x + font * 2.2f);
    }
  legend_w = std::min(legend_w, size.x * 0.4f);
  const float left = y_label_w + font * (spec.y_title.empty() ? 0.6f : 1.9f);
  // The y axis's title sits on a line of its own above the axes (ImGui draws no rotated text).
  ImVec2 lo(origin.x + left, origin.y + font * (spec.y_title.empty() ? 0.6f : 1.7f));
  ImVec2 hi(origin.x + size.x - (legend_w > 0 ? legend_w + font : font * 0.8f), origin.y + size.y - font * 2.8f);
  if (spec.equal_aspect && hi.x > lo.x && hi.y > lo.y) {
    // Widen the smaller data range so one unit has one length on both axes.
    const double sx = (hi.x - lo.x) / (x_hi - x_lo), sy = (hi.y - lo.y) / (y_hi - y_lo);
    if (sx > sy) {
      const double c = 0.5 * (x_lo + x_hi), half = 0.5 * (hi.x - lo.x) / sy;
      x_lo = c - half;
      x_hi = c + half;
    } else {
      const double c = 0.5 * (y_lo + y_hi), half = 0.5 * (hi.y - lo.y) / sx;
      y_lo = c - half;
      y_hi = c + half;
    }
    xt = plot_ticks(x_lo, x_hi, false);
  }
  const auto fx = [&](double v) {
    const double t = spec.log_x ? (std::log10(v) - std::log10(x_lo)) / (std::log10(x_hi) - std::log10(x_lo))
                                : (v - x_lo) / (x_hi - x_lo);
    return lo.x + static_cast<float>(t) * (hi.x - lo.x);
  };
  const auto fy = [&](double v) {
    const double t = spec.log_y ? (std::log10(v) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo))
                                : (v - y_lo) / (y_hi - y_lo);
    return hi.y - static_cast<float>(t) * (hi.y - lo.y);
  };
  PlotPlacement& placement = ctx.plots[spec.id];
  placement = PlotPlacement{};
  placement.x = lo.x;
  placement.y = lo.y;
  placement.w = hi.x - lo.x;
  placement.h = hi.y - lo.y;
  placement.x_title = spec.x_title;
  placement.y_title = spec.y_title;
  placement.x_lo = x_lo;
  placement.x_hi = x_hi;
  placement.y_lo = y_lo;
  placement.y_hi = y_hi;
  placement.log_x = spec.log_x;
  placement.log_y = spec.log_y;

  // Grid, ticks and their labels.
  dl->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
  for (size_t i = 0; i < yt.size(); ++i) {
    const float y = fy(yt[i]);
    dl->AddLine(ImVec2(lo.x, y), ImVec2(hi.x, y), grid, px);
    dl->AddText(ImVec2(lo.x - font * 0.3f - ImGui::CalcTextSize(y_labels[i].c_str()).x, y - font * 0.5f), text, y_labels[i].c_str());
    placement.y_ticks.push_back(y_labels[i]);
  }
  if (!spec.x_categories.empty()) {
    // Token labels, thinned so they never overlap.
    float next_free = -1e9f;
    for (size_t i = 0; i < spec.x_categories.size(); ++i) {
      const float x = fx(static_cast<double>(i));
      const std::string& label = spec.x_categories[i];
      const float w = ImGui::CalcTextSize(label.c_str()).x;
      if (x - w * 0.5f < next_free) continue;
      dl->AddLine(ImVec2(x, hi.y), ImVec2(x, hi.y + font * 0.25f), axis, px);
      dl->AddText(ImVec2(x - w * 0.5f, hi.y + font * 0.3f), text, label.c_str());
      placement.x_ticks.push_back(label);
      next_free = x + w * 0.5f + font * 0.4f;
    }
  } else {
    float next_free = -1e9f;
    for (double v : xt) {
      const float x = fx(v);
      dl->AddLine(ImVec2(x, lo.y), ImVec2(x, hi.y), grid, px);
      const std::string label = tick_text(v, spec.log_x);
      const float w = ImGui::CalcTextSize(label.c_str()).x;
      if (x - w * 0.5f < next_free) continue;
      dl->AddText(ImVec2(x - w * 0.5f, hi.y + font * 0.3f), text, label.c_str());
      placement.x_ticks.push_back(label);
      next_free = x + w * 0.5f + font * 0.5f;
    }
  }
  dl->AddRect(lo, hi, axis, 0.0f, 0, px);
  // Axis titles: x under the tick labels, y written above the axis (ImGui draws no rotated text).
  if (!spec.x_title.empty()) {
    const float w = ImGui::CalcTextSize(spec.x_title.c_str()).x;
    dl->AddText(ImVec2(0.5f * (lo.x + hi.x) - w * 0.5f, hi.y + font * 1.45f), text, spec.x_title.c_str());
  }
  if (!spec.y_title.empty()) dl->AddText(ImVec2(origin.x, origin.y + font * 0.2f), text, spec.y_title.c_str());
  dl->PopClipRect();

  // Data, clipped to the axes.
  dl->PushClipRect(lo, hi, true);
  for (const PlotReference& r : spec.references) {
    const ImU32 c = ImGui::GetColorU32(ImGuiCol_PlotLinesHovered);
    if (r.vertical) {
      const float x = fx(r.value);
      dashed_line(dl, ImVec2(x, lo.y), ImVec2(x, hi.y), c, 1.5f * px, font * 0.4f);
      if (!r.label.empty()) dl->AddText(ImVec2(x + font * 0.25f, hi.y - font * 1.3f), c, r.label.c_str());
    } else {
      const float y = fy(r.value);
      dashed_line(dl, ImVec2(lo.x, y), ImVec2(hi.x, y), c, 1.5f * px, font * 0.4f);
      if (!r.label.empty())
        dl->AddText(ImVec2(hi.x - ImGui::CalcTextSize(r.label.c_str()).x - font * 0.3f, y - font * 1.1f), c, r.label.c_str());
    }
    placement.references.push_back(r.label);
  }
  for (const PlotSegment& s : spec.segments)
    dl->AddLine(ImVec2(fx(s.x0), fy(s.y0)), ImVec2(fx(s.x1), fy(s.y1)), s.color, s.thickness * px);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool inside = mouse.x >= lo.x && mouse.x <= hi.x && mouse.y >= lo.y && mouse.y <= hi.y;
  int nearest = -1;
  float nearest_d2 = (font * 1.2f) * (font * 1.2f);
  for (size_t si = 0; si < spec.series.size(); ++si) {
    const PlotSeries& s = spec.series[si];
    const size_t count = std::min(s.x.size(), s.y.size());
    ImVec2 prev;
    bool has_prev = false;
    for (size_t i = 0; i < count; ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i]) || (spec.log_x && s.x[i] <= 0) || (spec.log_y && s.y[i] <= 0)) {
        has_prev = false;
        continue;
      }
      const ImVec2 p(fx(s.x[i]), fy(s.y[i]));
      if (s.line && has_prev) dl->AddLine(prev, p, s.color, 2.0f * px);
      if (s.points) {
        const float r = 3.5f * px;
        if (s.square) dl->AddRectFilled(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), s.color);
        else dl->AddCircleFilled(p, r, s.color);
      }
      if (i < s.point_labels.size() && !s.point_labels[i].empty())
        dl->AddText(ImVec2(p.x + 4.5f * px, p.y - font * 0.55f), s.color, s.point_labels[i].c_str());
      if (inside) {
        const float d2 = (p.x - mouse.x) * (p.x - mouse.x) + (p.y - mouse.y) * (p.y - mouse.y);
        if (d2 < nearest_d2) {
          nearest_d2 = d2;
          nearest = static_cast<int>(si * 1000000 + i);
        }
      }
      prev = p;
      has_prev = true;
    }
  }
  dl->PopClipRect();

  // Legend.
  float ly = lo.y;
  for (const PlotSeries* s : named) {
    const float lx = hi.x + font * 0.8f;
    dl->AddRectFilled(ImVec2(lx, ly + font * 0.3f), ImVec2(lx + font * 0.9f, ly + font * 0.9f), s->color);
    dl->PushClipRect(ImVec2(lx, ly), ImVec2(origin.x + size.x, ly + font * 2), true);
    dl->AddText(ImVec2(lx + font * 1.3f, ly), text, s->label.c_str());
    dl->PopClipRect();
    placement.legend.push_back(s->label);
    ly += font * 1.4f;
  }

  // Readout of the nearest point.
  if (nearest >= 0) {
    const PlotSeries& s = spec.series[nearest / 1000000];
    const size_t i = static_cast<size_t>(nearest % 1000000);
    char buf[160];
    const std::string xs = spec.x_categories.empty() ? tick_text(s.x[i], false)
                                                     : spec.x_categories[std::min(i, spec.x_categories.size() - 1)];
    std::snprintf(buf, sizeof buf, "%s%s%s = %s, %s = %.4g", s.label.c_str(), s.label.empty() ? "" : ": ",
                  spec.x_title.empty() ? "x" : spec.x_title.c_str(), xs.c_str(), spec.y_title.empty() ? "y" : spec.y_title.c_str(), s.y[i]);
    if (i < s.point_labels.size() && !s.point_labels[i].empty())
      std::snprintf(buf, sizeof buf, "%s: %.4g, %.4g", s.point_labels[i].c_str(), s.x[i], s.y[i]);
    placement.readout = buf;
    ImGui::SetTooltip("%s", buf);
  }
  ImGui::Dummy(size);
  return nearest;
}

}  // namespace attn::ui
