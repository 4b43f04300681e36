#include "ui/heatmap_widget.h"

#include "ui/drawn_text.h"
#include "ui/exercise_card.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>

namespace attn::ui {

void heatmap_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const auto* d = static_cast<const HeatmapDraw*>(cmd->UserCallbackData);
  const ImDrawData* dd = ImGui::GetDrawData();
  const float sx = dd->FramebufferScale.x, sy = dd->FramebufferScale.y;
  const int fb_w = static_cast<int>(dd->DisplaySize.x * sx), fb_h = static_cast<int>(dd->DisplaySize.y * sy);
  const float x = (d->x - dd->DisplayPos.x) * sx, w = d->w * sx, h = d->h * sy;
  const float y_from_top = (d->y - dd->DisplayPos.y) * sy;
  // Clip to the command's rectangle (the window or child the heatmap sits in): the backend
  // sets the scissor only for the commands it draws itself, so a callback would otherwise
  // inherit whatever rectangle the previous command had and lose part of its picture.
  const ImVec4 clip((cmd->ClipRect.x - dd->DisplayPos.x) * sx, (cmd->ClipRect.y - dd->DisplayPos.y) * sy,
                    (cmd->ClipRect.z - dd->DisplayPos.x) * sx, (cmd->ClipRect.w - dd->DisplayPos.y) * sy);
  if (clip.z <= clip.x || clip.w <= clip.y) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<int>(clip.x), static_cast<int>(static_cast<float>(fb_h) - clip.w),
            static_cast<int>(clip.z - clip.x), static_cast<int>(clip.w - clip.y));
  d->program->draw(*d->texture, fb_w, fb_h, x, static_cast<float>(fb_h) - y_from_top - h, w, h, d->view, d->style);
}

namespace {

ImU32 to_u32(Rgb8 c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

// The heatmap's cache, marked as drawn in this frame; what it made for another matrix (a new
// key: other values, shape or version) is dropped, to be made again when next needed.
HeatmapCache& cache_for(UiContext& ctx, const HeatmapSpec& spec) {
  HeatmapCache& c = ctx.heatmaps[spec.id];
  c.last_drawn = ctx.heatmap_frame;
  const HeatmapKey key = heatmap_key(*spec.values, spec.version, spec.made_in_frame);
  if (key == c.key) return c;
  c.key = key;
  c.texture_range = -1;
  c.has_scale = false;
  c.ranged.range = -1;
  c.row_labels = {};
  c.col_labels = {};
  return c;
}

// Range of the colour scale: [0, 1] for probabilities, symmetric around 0 otherwise.
std::pair<float, float> value_range(HeatmapCache& cache, const HeatmapSpec& spec) {
  if (spec.colormap == Colormap::Sequential) return {0.0f, 1.0f};
  if (cache.has_scale) return cache.scale;
  float m = 0.0f;
  const Mat& v = *spec.values;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const float x = v.data()[i];
    if (std::isfinite(x)) m = std::max(m, std::fabs(x));
  }
  if (m == 0.0f) m = 1.0f;
  cache.has_scale = true;
  cache.scale = {-m, m};
  return cache.scale;
}

// Where the heatmap lands this frame: the label strips, the matrix's frame and the scale
// beside it. Cells are measured with the view as it was before this frame's zoom and pan.
struct HeatmapFrame {
  int rows = 0, cols = 0;
  float font = 0, label_w = 0, label_h = 0, scale_w = 0;
  bool upright_cols = false;  // column labels stand upright (too wide to lie in their cells)
  ImVec2 origin;          // top-left of the whole widget, labels included
  float w = 0, h = 0;     // the matrix's frame
  ImVec2 hm_min, hm_max;  // its corners
  float cell_w = 0, cell_h = 0;
};

// The rows and columns at least partly inside the view.
struct VisibleCells {
  int r0 = 0, r1 = 0, c0 = 0, c1 = 0;
};

// A heatmap that is not zoomable, or whose matrix changed size, shows the whole matrix.
void fit_view(gfx::HeatmapView& view, std::pair<int, int>& shown_size, const HeatmapSpec& spec, int rows, int cols) {
  const bool resized = shown_size != std::pair{rows, cols};
  shown_size = {rows, cols};
  if (!spec.zoomable || resized || view.w > cols || view.h > rows || view.w <= 0) view = {0, 0, float(cols), float(rows)};
}

// A weights matrix in the per-row or log colour range, made again when the weights or the
// choice change: per row, each weight over its row's largest (a row of zeros stays 0); log,
// log10 of each weight, from 0 (a weight of 1) down to the decade of the smallest positive
// weight (at most 8 decades; zeros take the bottom of the scale).
const RangedWeights& ranged_weights(HeatmapCache& cache, const HeatmapSpec& spec, WeightRange range) {
  RangedWeights& r = cache.ranged;
  if (r.range == static_cast<int>(range)) return r;
  const Mat& v = *spec.values;
  r.range = static_cast<int>(range);
  r.values.resize(v.rows(), v.cols());
  if (range == WeightRange::Row) {
    r.lo = 0.0f;
    for (Eigen::Index i = 0; i < v.rows(); ++i) {
      float m = 0.0f;
      for (Eigen::Index j = 0; j < v.cols(); ++j)
        if (std::isfinite(v(i, j))) m = std::max(m, v(i, j));
      for (Eigen::Index j = 0; j < v.cols(); ++j) r.values(i, j) = m > 0.0f ? v(i, j) / m : 0.0f;
    }
  } else {
    float smallest = 1.0f;
    for (Eigen::Index k = 0; k < v.size(); ++k)
      if (v.data()[k] > 0.0f && std::isfinite(v.data()[k])) smallest = std::min(smallest, v.data()[k]);
    r.lo = std::max(-8.0f, std::min(-1.0f, std::floor(std::log10(smallest))));
    for (Eigen::Index k = 0; k < v.size(); ++k) {
      const float x = v.data()[k];
      r.values.data()[k] = x > 0.0f && std::isfinite(x) ? std::max(r.lo, std::log10(x)) : r.lo;
    }
  }
  return r;
}

// The widest of the labels, in pixels: measured again only when the heatmap's key (the
// labels belong to the same results), the labels' count or the font size changed (at 1024
// tokens, thousands of labels per frame).
float widest_label(LabelWidth& c, const std::vector<std::string>* labels) {
  if (!labels) return 0.0f;
  const float font = ImGui::GetFontSize();
  if (c.measured && c.count == labels->size() && c.font == font) return c.widest;
  float w = 0.0f;
  for (const std::string& l : *labels) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
  c = {true, labels->size(), font, w};
  return w;
}

HeatmapFrame place_heatmap(HeatmapCache& cache, const HeatmapSpec& spec, ImVec2 size, int rows, int cols,
                           const gfx::HeatmapView& view) {
  HeatmapFrame f;
  f.rows = rows;
  f.cols = cols;
  f.font = ImGui::GetFontSize();
  // Row labels get the room of the widest (up to 7 em; longer ones end in an ellipsis).
  f.label_w = spec.row_labels ? std::min(widest_label(cache.row_labels, spec.row_labels) + f.font * 0.4f, f.font * 7.0f) : 0.0f;
  f.label_h = spec.show_col_labels ? f.font * 1.3f : 0.0f;
  f.scale_w = spec.show_scale ? f.font * 4.2f : 0.0f;
  f.origin = ImGui::GetCursorScreenPos();
  const float avail_w = std::max(16.0f, size.x - f.label_w - f.scale_w);
  // Square-ish cells: keep the aspect of the matrix inside the space given.
  auto cell_for = [&](float label_h) { return std::min(avail_w / cols, std::max(16.0f, size.y - label_h) / rows); };
  float cell = cell_for(f.label_h);
  // Column labels too wide for their cells stand upright (read bottom to top), in a strip as
  // tall as the widest (up to 5 em). Labels of one or two glyphs (a hanzi, a digit) stay level
  // and are thinned instead: a turned hanzi reads worse than every other one.
  if (spec.show_col_labels && spec.col_labels) {
    const float widest = widest_label(cache.col_labels, spec.col_labels);
    if (widest > cell - f.font * 0.3f && widest > f.font * 1.5f) {
      f.upright_cols = true;
      f.label_h = std::min(widest, f.font * 5.0f) + f.font * 0.3f;
      cell = cell_for(f.label_h);
    }
  }
  // A zoomable heatmap keeps its frame when zooming: the frame has the matrix's full-view size.
  f.w = cell * cols;
  f.h = cell * rows;
  f.hm_min = ImVec2(f.origin.x + f.label_w, f.origin.y + f.label_h);
  f.hm_max = ImVec2(f.hm_min.x + f.w, f.hm_min.y + f.h);
  f.cell_w = f.w / view.w;
  f.cell_h = f.h / view.h;
  return f;
}

// Zoom around the pointer with the wheel; pan by dragging.
void zoom_and_pan(gfx::HeatmapView& view, const HeatmapFrame& f) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.MouseWheel != 0.0f) {
    const float fx = (io.MousePos.x - f.hm_min.x) / f.w, fy = (io.MousePos.y - f.hm_min.y) / f.h;
    const float factor = std::pow(0.8f, io.MouseWheel);  // several notches in one frame add up
    const float nw = std::clamp(view.w * factor, 4.0f, float(f.cols)), nh = std::clamp(view.h * factor, 4.0f, float(f.rows));
    view.x0 += (view.w - nw) * fx;
    view.y0 += (view.h - nh) * fy;
    view.w = nw;
    view.h = nh;
  }
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    view.x0 -= io.MouseDelta.x / f.cell_w;
    view.y0 -= io.MouseDelta.y / f.cell_h;
  }
  view.x0 = std::clamp(view.x0, 0.0f, f.cols - view.w);
  view.y0 = std::clamp(view.y0, 0.0f, f.rows - view.h);
}

// The matrix itself is drawn by our shader inside ImGui's render pass.
void queue_heatmap_draw(UiContext& ctx, ImDrawList* dl, const gfx::MatrixTexture& texture, const HeatmapSpec& spec,
                        const gfx::HeatmapView& view, const HeatmapFrame& f, float lo, float hi) {
  HeatmapDraw& d = ctx.draws.emplace_back();
  d.program = &ctx.program;
  d.texture = &texture;
  d.style.range_lo = lo;
  d.style.range_hi = hi;
  d.style.colormap = spec.colormap;
  d.view = view;
  d.x = f.hm_min.x;
  d.y = f.hm_min.y;
  d.w = f.w;
  d.h = f.h;
  dl->AddCallback(heatmap_callback, &d);
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

VisibleCells visible_cells(const gfx::HeatmapView& view, int rows, int cols) {
  VisibleCells v;
  v.c0 = static_cast<int>(view.x0);
  v.c1 = std::min(cols, static_cast<int>(std::ceil(view.x0 + view.w)));
  v.r0 = static_cast<int>(view.y0);
  v.r1 = std::min(rows, static_cast<int>(std::ceil(view.y0 + view.h)));
  return v;
}

// The room a label needs along its axis, in lines of the font: a row label, an upright
// column label. A label whose cell is smaller is thinned (every step-th one drawn).
constexpr float kRowLabelSpace = 1.0f, kUprightColLabelSpace = 1.05f;

// Labels: every step-th token so they never overlap; each whole, or cut with an ellipsis.
void draw_axis_labels(ImDrawList* dl, const HeatmapSpec& spec, const gfx::HeatmapView& view, const HeatmapFrame& f,
                      const VisibleCells& v, ImU32 text_col) {
  char buf[64];
  const float col_space = f.upright_cols ? f.font * kUprightColLabelSpace : f.font * 2.2f;
  const int col_step = std::max(1, static_cast<int>(std::ceil(col_space / f.cell_w)));
  const int row_step = std::max(1, static_cast<int>(std::ceil(f.font * kRowLabelSpace / f.cell_h)));
  for (int j = v.c0 - v.c0 % col_step; spec.show_col_labels && j < v.c1; j += col_step) {
    if (j < v.c0) continue;
    std::string label;
    if (spec.col_labels && j < static_cast<int>(spec.col_labels->size())) label = (*spec.col_labels)[j];
    else label = (std::snprintf(buf, sizeof buf, "%d", j), buf);
    const float center = f.hm_min.x + (j + 0.5f - view.x0) * f.cell_w;
    if (f.upright_cols) {
      label = fit_text(label, f.label_h - f.font * 0.3f);
      add_upright_text(dl, ImVec2(center - f.font * 0.5f, f.hm_min.y - f.font * 0.2f), text_col, label.c_str());
    } else {
      label = fit_text(label, f.cell_w * col_step - f.font * 0.3f);
      const float tw = ImGui::CalcTextSize(label.c_str()).x;
      // Centred on its column, but kept within the heatmap's width: over narrow cells the
      // first label ("0") would reach left of the clip and show as half a glyph.
      const float x = std::max(f.origin.x, std::min(center - tw * 0.5f, f.hm_max.x - tw));
      add_text(dl, ImVec2(x, f.origin.y), text_col, label.c_str());
    }
  }
  if (spec.row_labels)
    for (int i = v.r0 - v.r0 % row_step; i < v.r1; i += row_step) {
      if (i < v.r0 || i >= static_cast<int>(spec.row_labels->size())) continue;
      const std::string label = fit_text((*spec.row_labels)[i], f.label_w - f.font * 0.3f);
      add_text(dl, ImVec2(f.origin.x, f.hm_min.y + (i + 0.5f - view.y0) * f.cell_h - f.font * 0.5f), text_col,
                  label.c_str());
    }
}

// Numbers in cells that fit them, dark or light against the cell's colour.
// `shown` is what the colours map (the values, or their per-row or log form).
void draw_cell_numbers(ImDrawList* dl, const HeatmapSpec& spec, const Mat& shown, const gfx::HeatmapView& view,
                       const HeatmapFrame& f, const VisibleCells& v, float lo, float hi) {
  if (!(f.cell_w >= f.font * 3.0f && f.cell_h >= f.font * 1.4f)) return;
  const Mat& values = *spec.values;
  char buf[64];
  for (int i = v.r0; i < v.r1; ++i)
    for (int j = v.c0; j < v.c1; ++j) {
      const float x = values(i, j);
      if (std::isinf(x)) std::snprintf(buf, sizeof buf, x < 0 ? "-inf" : "inf");
      else std::snprintf(buf, sizeof buf, std::fabs(x) >= 100 ? "%.0f" : std::fabs(x) >= 10 ? "%.1f" : "%.2f", x);
      const ImVec2 ts = ImGui::CalcTextSize(buf);
      const float t = std::isfinite(x) ? (shown(i, j) - lo) / (hi - lo) : 0.5f;
      const Rgb8 bg = colormap_at(spec.colormap, t);
      const bool dark_text = std::isinf(x) || 0.2126f * bg.r + 0.7152f * bg.g + 0.0722f * bg.b > 140.0f;
      add_text(dl, ImVec2(f.hm_min.x + (j + 0.5f - view.x0) * f.cell_w - ts.x * 0.5f,
                         f.hm_min.y + (i + 0.5f - view.y0) * f.cell_h - ts.y * 0.5f),
                  dark_text ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255), buf);
    }
}

// The cursor's row: a bright frame around it.
void draw_cursor_row(UiContext& ctx, ImDrawList* dl, const HeatmapSpec& spec, const gfx::HeatmapView& view,
                     const HeatmapFrame& f, const VisibleCells& v) {
  if (spec.highlight_row < v.r0 || spec.highlight_row >= v.r1) return;
  const float y = f.hm_min.y + (spec.highlight_row - view.y0) * f.cell_h;
  dl->AddRect(ImVec2(f.hm_min.x, y), ImVec2(f.hm_max.x, y + f.cell_h), kFocusPink, 0.0f, 0, highlight_frame_thickness(ctx));
}

// Colour scale with its range.
void draw_colour_scale(ImDrawList* dl, const HeatmapSpec& spec, const HeatmapFrame& f, float lo, float hi,
                       WeightRange range, ImU32 text_col) {
  const float bx = f.hm_max.x + f.font * 0.6f, bw = f.font * 0.9f;
  const int steps = 48;
  for (int s = 0; s < steps; ++s) {
    const float t0 = float(s) / steps, t1 = float(s + 1) / steps;
    dl->AddRectFilled(ImVec2(bx, f.hm_min.y + t0 * f.h), ImVec2(bx + bw, f.hm_min.y + t1 * f.h),
                      to_u32(colormap_at(spec.colormap, 1.0f - (t0 + t1) * 0.5f)));
  }
  char hi_text[64], lo_text[64];
  std::snprintf(hi_text, sizeof hi_text, "%.3g", hi);
  std::snprintf(lo_text, sizeof lo_text, "%.3g", lo);
  if (range == WeightRange::Row) std::snprintf(hi_text, sizeof hi_text, "%s", tr(S::weight_range_row_top));
  if (range == WeightRange::Log) {
    std::snprintf(hi_text, sizeof hi_text, "1");
    std::snprintf(lo_text, sizeof lo_text, "1e%d", static_cast<int>(std::lround(lo)));
  }
  const float tx = bx + bw + f.font * 0.2f;
  if (f.h >= f.font * 2.1f) {
    add_text(dl, ImVec2(tx, f.hm_min.y), text_col, hi_text);
    add_text(dl, ImVec2(tx, f.hm_max.y - f.font), text_col, lo_text);
    return;
  }
  // A bar shorter than two lines: one label at its middle, "±hi" for a symmetric range.
  char both[140];
  if (range == WeightRange::Fixed && spec.colormap == Colormap::Diverging && lo == -hi) std::snprintf(both, sizeof both, "±%s", hi_text);
  else std::snprintf(both, sizeof both, "[%s, %s]", lo_text, hi_text);
  add_text(dl, ImVec2(tx, (f.hm_min.y + f.hm_max.y - f.font) * 0.5f), text_col, both);
}

// A veiled heatmap: its cells one flat colour with a grid where the cells are big enough to
// pick (a cell exercise is answered by a click on them).
void cover_cells(UiContext& ctx, ImDrawList* dl, const std::string& id, const gfx::HeatmapView& view, const HeatmapFrame& f,
                 int rows, int cols) {
  cover_veiled(ctx, dl, id, f.hm_min, f.hm_max);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
  if (f.cell_w >= 6.0f)
    for (int j = static_cast<int>(std::ceil(view.x0)); j <= std::min(cols, static_cast<int>(view.x0 + view.w)); ++j) {
      const float x = f.hm_min.x + (j - view.x0) * f.cell_w;
      dl->AddLine(ImVec2(x, f.hm_min.y), ImVec2(x, f.hm_max.y), grid);
    }
  if (f.cell_h >= 6.0f)
    for (int i = static_cast<int>(std::ceil(view.y0)); i <= std::min(rows, static_cast<int>(view.y0 + view.h)); ++i) {
      const float y = f.hm_min.y + (i - view.y0) * f.cell_h;
      dl->AddLine(ImVec2(f.hm_min.x, y), ImVec2(f.hm_max.x, y), grid);
    }
}

// The cell under the pointer, and whether it was clicked (a drag is a pan, not a click).
HeatmapResult hovered_cell(const gfx::HeatmapView& view, const HeatmapFrame& f) {
  HeatmapResult result;
  const ImVec2 mp = ImGui::GetIO().MousePos;
  result.hovered = true;
  result.col = std::clamp(static_cast<int>(view.x0 + (mp.x - f.hm_min.x) / f.cell_w), 0, f.cols - 1);
  result.row = std::clamp(static_cast<int>(view.y0 + (mp.y - f.hm_min.y) / f.cell_h), 0, f.rows - 1);
  result.clicked = ImGui::IsItemClicked() && !ImGui::IsMouseDragging(ImGuiMouseButton_Left);
  return result;
}

}  // namespace

float heatmap_height_for_labels(UiContext& ctx, const HeatmapSpec& spec, float width, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return 0.0f;
  gfx::HeatmapView whole;
  whole.w = static_cast<float>(cols);
  whole.h = static_cast<float>(rows);
  // Placed with room to spare, the cells are as wide as the width allows, and so is the
  // choice between level and upright column labels.
  const HeatmapFrame f = place_heatmap(cache_for(ctx, spec), spec, ImVec2(width, 1e6f), rows, cols, whole);
  // Square cells with room for a row label, and for an upright column label where they stand
  // upright, with a hair to spare for rounding.
  const float cell = f.font * std::max(kRowLabelSpace, f.upright_cols ? kUprightColLabelSpace : 0.0f) * 1.01f;
  if (f.cell_w < cell) return 0.0f;  // the width alone keeps the cells smaller: labels thinned
  return f.label_h + cell * rows;
}

void end_heatmap_frame(UiContext& ctx) {
  std::erase_if(ctx.heatmaps, [&](const auto& entry) { return ctx.heatmap_frame - entry.second.last_drawn > 1; });
  ++ctx.heatmap_frame;
}

HeatmapResult heatmap_widget(UiContext& ctx, const HeatmapSpec& spec, ImVec2 size) {
  HeatmapResult result;
  const Mat& values = *spec.values;
  const int rows = static_cast<int>(values.rows()), cols = static_cast<int>(values.cols());
  if (rows == 0 || cols == 0) return result;
  HeatmapCache& cache = cache_for(ctx, spec);
  // Weights (the [0, 1] scale) in the chosen colour range: the texture holds their per-row or
  // log form; numbers, readouts and tests keep reading the weights themselves.
  const WeightRange range = spec.colormap != Colormap::Sequential ? WeightRange::Fixed
                            : spec.weight_range ? *spec.weight_range
                                                : ctx.weight_range;
  const RangedWeights* ranged = range == WeightRange::Fixed ? nullptr : &ranged_weights(cache, spec, range);
  const Mat& shown = ranged ? ranged->values : values;
  if (cache.texture_range != static_cast<int>(range)) {  // a new matrix, or a new colour range
    const auto upload_started = std::chrono::steady_clock::now();
    cache.texture.upload(shown.data(), rows, cols);
    cache.texture_range = static_cast<int>(range);
    ctx.timings.upload_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - upload_started).count();
  }

  gfx::HeatmapView& view = ctx.views[spec.id];
  fit_view(view, ctx.view_sizes[spec.id], spec, rows, cols);
  const HeatmapFrame f = place_heatmap(cache, spec, size, rows, cols, view);
  ImGui::SetCursorScreenPos(f.hm_min);
  ImGui::InvisibleButton(spec.id.c_str(), ImVec2(f.w, f.h));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const auto [lo, hi] = ranged ? std::pair{ranged->lo, 1.0f} : value_range(cache, spec);
  // Veiled by an exercise (ui/exercise_card.h): labels, grid and the cursor's row, no values.
  const bool hidden = veiled(ctx, spec.id);
  if (spec.zoomable && hovered && !hidden) zoom_and_pan(view, f);
  if (hidden) cover_cells(ctx, dl, spec.id, view, f, rows, cols);
  else queue_heatmap_draw(ctx, dl, cache.texture, spec, view, f, lo, hi);

  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  const VisibleCells v = visible_cells(view, rows, cols);
  dl->PushClipRect(ImVec2(f.origin.x, f.origin.y), ImVec2(f.hm_max.x + f.scale_w, f.hm_max.y), true);
  draw_axis_labels(dl, spec, view, f, v, text_col);
  if (!hidden) draw_cell_numbers(dl, spec, shown, view, f, v, lo, hi);
  draw_cursor_row(ctx, dl, spec, view, f, v);
  dl->PopClipRect();
  if (spec.show_scale && !hidden) draw_colour_scale(dl, spec, f, lo, hi, range, text_col);

  if (hovered) result = hovered_cell(view, f);
  if (hidden) {
    // A click answers the cell exercise asked on this heatmap; it moves no cursor, and a
    // veiled cell tells nothing on hover.
    if (result.clicked && ctx.exercise.answer_on == spec.id) {
      ctx.exercise.cell_clicked = true;
      ctx.exercise.cell_row = result.row;
      ctx.exercise.cell_col = result.col;
    }
    result = HeatmapResult();
  }
  ctx.placements[spec.id] = {f.hm_min.x, f.hm_min.y, f.w, f.h, rows, cols, view, lo, hi, static_cast<int>(range)};
  ImGui::SetCursorScreenPos(ImVec2(f.origin.x, f.hm_max.y + f.font * 0.3f));
  ImGui::Dummy(ImVec2(f.label_w + f.w + f.scale_w, 0.0f));
  return result;
}

HeatmapResult titled_heatmap(UiContext& ctx, const char* title, const std::string& id, const Mat& m,
                             std::uint64_t version, Colormap map, const std::vector<std::string>* labels, ImVec2 size,
                             bool show_scale, int highlight_row) {
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x);
  wrapped_text(title);
  ImGui::PopTextWrapPos();
  HeatmapSpec spec;
  spec.id = id;
  spec.values = &m;
  spec.version = version;
  spec.colormap = map;
  spec.row_labels = labels;
  spec.col_labels = labels;
  spec.show_scale = show_scale;
  spec.highlight_row = highlight_row;
  const HeatmapResult r = heatmap_widget(ctx, spec, size);
  ImGui::EndGroup();
  return r;
}

}  // namespace attn::ui
