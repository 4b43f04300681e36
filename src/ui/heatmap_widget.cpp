#include "ui/heatmap_widget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace attn::ui {
namespace {

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

ImU32 to_u32(Rgb8 c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

// Range of the colour scale: [0, 1] for probabilities, symmetric around 0 otherwise.
std::pair<float, float> value_range(UiContext& ctx, const HeatmapSpec& spec) {
  if (spec.colormap == Colormap::Sequential) return {0.0f, 1.0f};
  auto& cached = ctx.ranges[spec.id];
  if (cached.first == spec.revision + 1) return cached.second;  // +1: revision 0 is valid
  float m = 0.0f;
  const Mat& v = *spec.values;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const float x = v.data()[i];
    if (std::isfinite(x)) m = std::max(m, std::fabs(x));
  }
  if (m == 0.0f) m = 1.0f;
  cached = {spec.revision + 1, {-m, m}};
  return cached.second;
}

}  // namespace

HeatmapResult heatmap_widget(UiContext& ctx, const HeatmapSpec& spec, ImVec2 size) {
  HeatmapResult result;
  const Mat& values = *spec.values;
  const int rows = static_cast<int>(values.rows()), cols = static_cast<int>(values.cols());
  if (rows == 0 || cols == 0) return result;
  gfx::MatrixTexture& texture = ctx.program.texture(spec.id);
  texture.upload(values.data(), rows, cols, spec.revision);

  const float font = ImGui::GetFontSize();
  const float label_w = spec.row_labels ? font * 4.0f : 0.0f;
  const float label_h = spec.show_col_labels ? font * 1.3f : 0.0f;
  const float scale_w = spec.show_scale ? font * 4.2f : 0.0f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float avail_w = std::max(16.0f, size.x - label_w - scale_w);
  const float avail_h = std::max(16.0f, size.y - label_h);
  // Square-ish cells: keep the aspect of the matrix inside the space given.
  const float cell = std::min(avail_w / cols, avail_h / rows);
  gfx::HeatmapView& view = ctx.views[spec.id];
  if (!spec.zoomable || view.w > cols || view.h > rows || view.w <= 0) view = {0, 0, float(cols), float(rows)};
  // A zoomable heatmap keeps its frame when zooming: the frame has the matrix's full-view size.
  const float w = cell * cols, h = cell * rows;
  const ImVec2 hm_min(origin.x + label_w, origin.y + label_h), hm_max(hm_min.x + w, hm_min.y + h);
  const float cell_w = w / view.w, cell_h = h / view.h;

  ImGui::SetCursorScreenPos(hm_min);
  ImGui::InvisibleButton(spec.id.c_str(), ImVec2(w, h));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const auto [lo, hi] = value_range(ctx, spec);

  // Zoom around the pointer with the wheel; pan by dragging.
  if (spec.zoomable && hovered) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.MouseWheel != 0.0f) {
      const float fx = (io.MousePos.x - hm_min.x) / w, fy = (io.MousePos.y - hm_min.y) / h;
      const float factor = std::pow(0.8f, io.MouseWheel);  // several notches in one frame add up
      const float nw = std::clamp(view.w * factor, 4.0f, float(cols)), nh = std::clamp(view.h * factor, 4.0f, float(rows));
      view.x0 += (view.w - nw) * fx;
      view.y0 += (view.h - nh) * fy;
      view.w = nw;
      view.h = nh;
    }
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
      view.x0 -= io.MouseDelta.x / cell_w;
      view.y0 -= io.MouseDelta.y / cell_h;
    }
    view.x0 = std::clamp(view.x0, 0.0f, cols - view.w);
    view.y0 = std::clamp(view.y0, 0.0f, rows - view.h);
  }

  HeatmapDraw& d = ctx.draws.emplace_back();
  d.program = &ctx.program;
  d.texture = &texture;
  d.style.range_lo = lo;
  d.style.range_hi = hi;
  d.style.colormap = spec.colormap;
  d.view = view;
  d.x = hm_min.x;
  d.y = hm_min.y;
  d.w = w;
  d.h = h;
  dl->AddCallback(heatmap_callback, &d);
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);

  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  dl->PushClipRect(ImVec2(origin.x, origin.y), ImVec2(hm_max.x + scale_w, hm_max.y), true);
  // Labels: every step-th token so they never overlap.
  char buf[64];
  const int col_step = std::max(1, static_cast<int>(std::ceil(font * 2.2f / cell_w)));
  const int row_step = std::max(1, static_cast<int>(std::ceil(font * 1.1f / cell_h)));
  const int c0 = static_cast<int>(view.x0), c1 = std::min(cols, static_cast<int>(std::ceil(view.x0 + view.w)));
  const int r0 = static_cast<int>(view.y0), r1 = std::min(rows, static_cast<int>(std::ceil(view.y0 + view.h)));
  for (int j = c0 - c0 % col_step; spec.show_col_labels && j < c1; j += col_step) {
    if (j < c0) continue;
    const char* label = buf;
    if (spec.col_labels && j < static_cast<int>(spec.col_labels->size())) label = (*spec.col_labels)[j].c_str();
    else std::snprintf(buf, sizeof buf, "%d", j);
    const float tw = std::min(ImGui::CalcTextSize(label).x, cell_w * col_step);
    const float x = hm_min.x + (j + 0.5f - view.x0) * cell_w - tw * 0.5f;
    dl->PushClipRect(ImVec2(x, origin.y), ImVec2(x + tw, hm_min.y), true);
    dl->AddText(ImVec2(x, origin.y), text_col, label);
    dl->PopClipRect();
  }
  if (spec.row_labels)
    for (int i = r0 - r0 % row_step; i < r1; i += row_step) {
      if (i < r0 || i >= static_cast<int>(spec.row_labels->size())) continue;
      dl->PushClipRect(ImVec2(origin.x, hm_min.y), ImVec2(hm_min.x - font * 0.2f, hm_max.y), true);
      dl->AddText(ImVec2(origin.x, hm_min.y + (i + 0.5f - view.y0) * cell_h - font * 0.5f), text_col,
                  (*spec.row_labels)[i].c_str());
      dl->PopClipRect();
    }
  // Numbers in cells that fit them.
  if (cell_w >= font * 3.0f && cell_h >= font * 1.4f) {
    for (int i = r0; i < r1; ++i)
      for (int j = c0; j < c1; ++j) {
        const float v = values(i, j);
        if (std::isinf(v)) std::snprintf(buf, sizeof buf, v < 0 ? "-inf" : "inf");
        else std::snprintf(buf, sizeof buf, std::fabs(v) >= 100 ? "%.0f" : std::fabs(v) >= 10 ? "%.1f" : "%.2f", v);
        const ImVec2 ts = ImGui::CalcTextSize(buf);
        const float t = std::isfinite(v) ? (v - lo) / (hi - lo) : 0.5f;
        const Rgb8 bg = colormap_at(spec.colormap, t);
        const bool dark_text = std::isinf(v) || 0.2126f * bg.r + 0.7152f * bg.g + 0.0722f * bg.b > 140.0f;
        dl->AddText(ImVec2(hm_min.x + (j + 0.5f - view.x0) * cell_w - ts.x * 0.5f,
                           hm_min.y + (i + 0.5f - view.y0) * cell_h - ts.y * 0.5f),
                    dark_text ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255), buf);
      }
  }
  // The cursor's row: a bright frame around it.
  if (spec.highlight_row >= r0 && spec.highlight_row < r1) {
    const float y = hm_min.y + (spec.highlight_row - view.y0) * cell_h;
    dl->AddRect(ImVec2(hm_min.x, y), ImVec2(hm_max.x, y + cell_h), IM_COL32(255, 64, 160, 255), 0.0f, 0,
                std::max(2.0f, ctx.dpi_scale * 2.0f));
  }
  dl->PopClipRect();

  // Colour scale with its range.
  if (spec.show_scale) {
    const float bx = hm_max.x + font * 0.6f, bw = font * 0.9f;
    const int steps = 48;
    for (int s = 0; s < steps; ++s) {
      const float t0 = float(s) / steps, t1 = float(s + 1) / steps;
      dl->AddRectFilled(ImVec2(bx, hm_min.y + t0 * h), ImVec2(bx + bw, hm_min.y + t1 * h),
                        to_u32(colormap_at(spec.colormap, 1.0f - (t0 + t1) * 0.5f)));
    }
    std::snprintf(buf, sizeof buf, "%.3g", hi);
    dl->AddText(ImVec2(bx + bw + font * 0.2f, hm_min.y), text_col, buf);
    std::snprintf(buf, sizeof buf, "%.3g", lo);
    dl->AddText(ImVec2(bx + bw + font * 0.2f, hm_max.y - font), text_col, buf);
  }

  if (hovered) {
    const ImVec2 mp = ImGui::GetIO().MousePos;
    result.hovered = true;
    result.col = std::clamp(static_cast<int>(view.x0 + (mp.x - hm_min.x) / cell_w), 0, cols - 1);
    result.row = std::clamp(static_cast<int>(view.y0 + (mp.y - hm_min.y) / cell_h), 0, rows - 1);
    result.clicked = ImGui::IsItemClicked() && !ImGui::IsMouseDragging(ImGuiMouseButton_Left);
  }
  HeatmapPlacement& p = ctx.placements[spec.id];
  p = {hm_min.x, hm_min.y, w, h, rows, cols, view, lo, hi};
  ImGui::SetCursorScreenPos(ImVec2(origin.x, hm_max.y + font * 0.3f));
  ImGui::Dummy(ImVec2(label_w + w + scale_w, 0.0f));
  return result;
}

}  // namespace attn::ui
