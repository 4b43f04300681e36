// Panels of the first slice.
//   1 controls   scene source, seed, sizes, scale, mask
//   2 weights    the heatmap (our shader, via an ImDrawList callback), labels, colour scale
#include "ui/panels.h"

#include "app/colormap.h"
#include "ui/app.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attn::ui {

// ---------------------------------------------------------------------------------------
// 1 controls
// ---------------------------------------------------------------------------------------

void draw_controls_panel(AppState& state) {
  Settings& s = state.settings;
  ImGui::TextUnformatted("Scene");
  int source = static_cast<int>(s.source);
  ImGui::RadioButton("Worked example (2 tokens)", &source, static_cast<int>(SceneSource::WorkedExample));
  ImGui::RadioButton("Random Q, K, V", &source, static_cast<int>(SceneSource::Random));
  s.source = static_cast<SceneSource>(source);

  if (s.source == SceneSource::Random) {
    int seed = static_cast<int>(s.seed & 0x7fffffff);
    if (ImGui::InputInt("seed", &seed)) s.seed = static_cast<std::uint64_t>(std::max(seed, 0));
    ImGui::SliderInt("tokens n", &s.n, 1, 64);
    ImGui::SliderInt("d_k", &s.d_k, 1, 256, "%d", ImGuiSliderFlags_Logarithmic);
  } else {
    ImGui::TextWrapped("Q = [[1,2],[2,1]], K = [[2,1],[1,2]], V = [[3,0],[0,3]], d_k = 2");
  }

  ImGui::Separator();
  ImGui::TextUnformatted("Scaling");
  int mode = static_cast<int>(s.scale_mode);
  ImGui::RadioButton("1/sqrt(d_k)", &mode, static_cast<int>(ScaleMode::Default));
  ImGui::SameLine();
  ImGui::RadioButton("none", &mode, static_cast<int>(ScaleMode::None));
  ImGui::SameLine();
  ImGui::RadioButton("custom", &mode, static_cast<int>(ScaleMode::Custom));
  s.scale_mode = static_cast<ScaleMode>(mode);
  if (s.scale_mode == ScaleMode::Custom) ImGui::SliderFloat("scale", &s.custom_scale, 0.0f, 4.0f);

  ImGui::Separator();
  bool causal = s.mask == MaskKind::Causal;
  if (ImGui::Checkbox("causal mask (query i sees keys j <= i)", &causal))
    s.mask = causal ? MaskKind::Causal : MaskKind::None;

  if (state.has_results) {
    ImGui::Separator();
    ImGui::Text("applied scale %.4f", state.result.scale);
    if (!state.result.status.ok) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", state.result.status.message.c_str());
  }
}

// ---------------------------------------------------------------------------------------
// 2 weights
// ---------------------------------------------------------------------------------------

namespace {

void heatmap_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const auto* draw = static_cast<const HeatmapDraw*>(cmd->UserCallbackData);
  const ImDrawData* dd = ImGui::GetDrawData();
  const float sx = dd->FramebufferScale.x, sy = dd->FramebufferScale.y;
  const int fb_w = static_cast<int>(dd->DisplaySize.x * sx);
  const int fb_h = static_cast<int>(dd->DisplaySize.y * sy);
  const float x = (draw->x - dd->DisplayPos.x) * sx;
  const float w = draw->w * sx, h = draw->h * sy;
  const float y_from_top = (draw->y - dd->DisplayPos.y) * sy;
  draw->renderer->draw(fb_w, fb_h, x, static_cast<float>(fb_h) - y_from_top - h, w, h, draw->style);
}

ImU32 to_imu32(Rgb8 c) { return IM_COL32(c.r, c.g, c.b, 255); }

}  // namespace

void draw_weights_panel(const AppState& state, const gfx::HeatmapRenderer& renderer,
                        HeatmapDraw& draw, Layout& layout) {
  if (!state.has_results || !state.result.status.ok) {
    ImGui::TextUnformatted("No weights to show.");
    return;
  }
  const Mat& w = state.result.weights;
  const int rows = static_cast<int>(w.rows()), cols = static_cast<int>(w.cols());
  ImGui::Text("weights = softmax(Q K^T * %.3f%s)   (%d x %d)", state.result.scale,
              state.settings.mask == MaskKind::Causal ? " + causal mask" : "", rows, cols);

  // Room for labels on the left and top, and the colour scale on the right.
  const float font = ImGui::GetFontSize();
  const float label_w = font * 2.5f, label_h = font * 1.4f, bar_w = font * 4.0f;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side = std::max(16.0f, std::min(avail.x - label_w - bar_w - font, avail.y - label_h - font));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 hm_min(origin.x + label_w, origin.y + label_h);
  const float cell_w = side / cols, cell_h = side / rows;

  draw.renderer = &renderer;
  draw.style = gfx::HeatmapStyle{0.0f, 1.0f, Colormap::Sequential};
  draw.x = hm_min.x;
  draw.y = hm_min.y;
  draw.w = side;
  draw.h = side;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddCallback(heatmap_callback, &draw);
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);

  // Token labels: k_j across the top, q_i down the left, thinned when cells are small.
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  const int step = std::max(1, static_cast<int>(std::ceil(font * 1.6f / std::min(cell_w, cell_h))));
  char buf[32];
  for (int j = 0; j < cols; j += step) {
    std::snprintf(buf, sizeof buf, "k%d", j);
    dl->AddText(ImVec2(hm_min.x + (j + 0.5f) * cell_w - ImGui::CalcTextSize(buf).x * 0.5f, origin.y), text_col, buf);
  }
  for (int i = 0; i < rows; i += step) {
    std::snprintf(buf, sizeof buf, "q%d", i);
    dl->AddText(ImVec2(origin.x, hm_min.y + (i + 0.5f) * cell_h - font * 0.5f), text_col, buf);
  }
  // Numbers in the cells once they fit.
  if (cell_w >= font * 3.2f && cell_h >= font * 1.5f) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        std::snprintf(buf, sizeof buf, "%.3f", w(i, j));
        const ImVec2 ts = ImGui::CalcTextSize(buf);
        const ImVec2 pos(hm_min.x + (j + 0.5f) * cell_w - ts.x * 0.5f, hm_min.y + (i + 0.5f) * cell_h - ts.y * 0.5f);
        const ImU32 col = w(i, j) > 0.6f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
        dl->AddText(pos, col, buf);
      }
  }
  // Colour scale with its range.
  const float bar_x = hm_min.x + side + font;
  const int steps = 64;
  for (int s = 0; s < steps; ++s) {
    const float t0 = static_cast<float>(s) / steps, t1 = static_cast<float>(s + 1) / steps;
    const ImU32 c = to_imu32(colormap_at(Colormap::Sequential, 1.0f - (t0 + t1) * 0.5f));
    dl->AddRectFilled(ImVec2(bar_x, hm_min.y + t0 * side), ImVec2(bar_x + font, hm_min.y + t1 * side), c);
  }
  dl->AddText(ImVec2(bar_x + font * 1.3f, hm_min.y), text_col, "1.0");
  dl->AddText(ImVec2(bar_x + font * 1.3f, hm_min.y + side - font), text_col, "0.0");

  ImGui::Dummy(ImVec2(label_w + side + bar_w, label_h + side));

  layout.heatmap_x = hm_min.x;
  layout.heatmap_y = hm_min.y;
  layout.heatmap_w = side;
  layout.heatmap_h = side;
}

}  // namespace attn::ui
