// "Activation patching" (app/lm_patch.h): the two prompts, the answer and the foil, the grid
// asked for, both runs' logit differences, and the grid of the gap restored as it fills in (a
// few runs a frame), with a sentence on what its largest cell shows.
//
// Sections: 1 the request  2 the grid  3 the panel
#include "core/base/utf8.h"
#include "ui/heatmap_widget.h"
#include "ui/message_strings.h"
#include "ui/panels.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace attn::ui {
namespace {

// ---- 1 the request ------------------------------------------------------------------------

// A one-line text field over a std::string; true when it changed.
bool text_field(const char* label, std::string& value, float width) {
  char buffer[kMaxPatchPromptBytes + 1];
  std::snprintf(buffer, sizeof buffer, "%s", value.c_str());
  ImGui::SetNextItemWidth(width);
  if (!ImGui::InputText(label, buffer, sizeof buffer)) return false;
  value = buffer;
  return true;
}

void request_controls(LmPatchSettings& p, int positions) {
  const float font = ImGui::GetFontSize();
  ImGui::TextUnformatted(tr(S::lm_patch_presets));
  ImGui::SameLine();
  if (ImGui::SmallButton(tr(S::lm_patch_preset_previous))) p = with_lm_patch_preset(p, 0);
  ImGui::SameLine();
  if (ImGui::SmallButton(tr(S::lm_patch_preset_word))) p = with_lm_patch_preset(p, 1);
  const float field = std::max(font * 10.0f, ImGui::GetContentRegionAvail().x - font * 8.0f);
  text_field(tr(S::lm_patch_clean), p.clean, field);
  text_field(tr(S::lm_patch_corrupt), p.corrupt, field);
  text_field(tr(S::lm_patch_answer), p.answer, font * 3.0f);
  ImGui::SameLine();
  text_field(tr(S::lm_patch_foil), p.foil, font * 3.0f);
  int by = static_cast<int>(p.by);
  if (choice_row(tr(S::lm_patch_grid), by, {tr(S::lm_patch_by_head), tr(S::lm_patch_by_residual)}))
    p.by = static_cast<lm::PatchBy>(by);
  if (p.by != lm::PatchBy::Head) return;
  int one = p.position == lm::kAllPositions ? 0 : 1;
  ImGui::SameLine();
  if (choice_row(tr(S::lm_patch_where), one, {tr(S::lm_patch_all_positions), tr(S::lm_patch_one_position)}))
    p.position = one ? std::max(positions - 1, 0) : lm::kAllPositions;
  if (p.position != lm::kAllPositions && positions > 0) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(font * 8.0f);
    ImGui::SliderInt(fitted(tr(S::lm_patch_position)), &p.position, 0, positions - 1);
  }
}

// ---- 2 the grid ---------------------------------------------------------------------------

void grid_labels(const lm::PatchResult& g, std::vector<std::string>& rows, std::vector<std::string>& cols) {
  char text[64];
  for (int r = 0; r < g.rows; ++r) {
    const bool after = g.by == lm::PatchBy::Residual && r == g.rows - 1;
    const S label = after ? S::lm_patch_after_last : g.by == lm::PatchBy::Residual ? S::lm_patch_into_layer : S::lm_patch_layer_row;
    std::snprintf(text, sizeof text, tr(label), after ? r - 1 : r);
    rows.push_back(text);
  }
  if (g.by == lm::PatchBy::Residual) {
    for (int c = 0; c < g.cols && c < static_cast<int>(g.clean_tokens.size()); ++c)
      cols.push_back(std::to_string(c) + " " + g.clean_tokens[static_cast<std::size_t>(c)]);
    return;
  }
  for (int c = 0; c < g.cols; ++c) {
    std::snprintf(text, sizeof text, tr(S::lm_patch_head_col), c);
    cols.push_back(text);
  }
}

// What the largest cell of the head grid shows: the head, its share, where it looks.
void peak_sentence(const LmPatchResults& r, float width) {
  const lm::PatchResult& g = r.result;
  const LmPatchPeak peak = lm_patch_peak(g);
  const float w = lm_patch_head_weight_on_changed(r, peak.cell);
  if (peak.cell < 0 || w < 0 || r.changed >= static_cast<int>(g.clean_tokens.size())) return;
  char line[768];
  std::snprintf(line, sizeof line, tr(S::lm_patch_peak_head), peak.cell / g.cols, peak.cell % g.cols, 100.0 * peak.restored,
                100.0 * w, r.changed, g.clean_tokens[static_cast<std::size_t>(r.changed)].c_str());
  wrapped_text(line, width);
  if (w >= 0.5f && peak.restored >= 0.5f) wrapped_text(tr(S::lm_patch_peak_carries), width);
}

void draw_grid(const LmPatchResults& r, UiContext& ctx) {
  const lm::PatchResult& g = r.result;
  const float width = ImGui::GetContentRegionAvail().x;
  char line[512];
  std::snprintf(line, sizeof line, tr(S::lm_patch_differences), r.computed_for.answer.c_str(), r.computed_for.foil.c_str(),
                static_cast<double>(g.clean_difference), static_cast<double>(g.corrupt_difference),
                static_cast<double>(g.clean_difference - g.corrupt_difference));
  wrapped_text(line, width);
  if (!g.defined()) {
    hint_text(tr(S::lm_patch_no_gap));
    return;
  }
  if (r.cells_done < r.cells) {
    std::snprintf(line, sizeof line, tr(S::lm_patch_progress), r.cells_done, r.cells);
    ImGui::ProgressBar(static_cast<float>(r.cells_done) / static_cast<float>(std::max(r.cells, 1)), ImVec2(width, 0.0f), line);
  }
  hint_text(tr(g.by == lm::PatchBy::Head ? S::lm_patch_head_rows : S::lm_patch_residual_rows));
  if (g.by == lm::PatchBy::Head) peak_sentence(r, width);
  std::vector<std::string> rows, cols;
  grid_labels(g, rows, cols);
  HeatmapSpec spec;
  spec.id = "lm-patch/grid";
  spec.values = &r.grid;
  spec.version = r.version;
  spec.colormap = Colormap::Diverging;
  spec.row_labels = &rows;
  spec.col_labels = &cols;
  const float cell = g.by == lm::PatchBy::Head ? ImGui::GetFontSize() * 4.0f : ImGui::GetFontSize() * 2.2f;
  const float w = std::min(width, cell * static_cast<float>(g.cols) + ImGui::GetFontSize() * 8.0f);
  const float h = std::max(heatmap_height_for_labels(ctx, spec, w, g.rows, g.cols),
                           std::min(ImGui::GetContentRegionAvail().y, cell * static_cast<float>(g.rows) + ImGui::GetFontSize() * 4.0f));
  const HeatmapResult hit = heatmap_widget(ctx, spec, ImVec2(w, h));
  if (hit.hovered && hit.row >= 0 && hit.row < g.rows && hit.col >= 0 && hit.col < g.cols) {
    const float v = g.restored[static_cast<std::size_t>(hit.row) * g.cols + hit.col];
    if (std::isfinite(v)) ImGui::SetTooltip("%s, %s: %.3f", rows[static_cast<std::size_t>(hit.row)].c_str(),
                                            cols[static_cast<std::size_t>(hit.col)].c_str(), static_cast<double>(v));
  }
}

}  // namespace

// ---- 3 the panel --------------------------------------------------------------------------

void draw_lm_patch_panel(AppState& state, UiContext& ctx) {
  wrapped_text(tr(S::lm_patch_intro));
  if (!state.lm_scene || state.settings.source != SceneSource::Language) {
    hint_text(tr(S::lm_patch_open_scene));
    if (ImGui::Button(tr(S::source_language))) state.settings.source = SceneSource::Language;
    if (state.lm_wanted) hint_text(tr(S::lm_loading));
    return;
  }
  const LmPatchResults& r = state.lm_patch;
  request_controls(state.settings.patch, static_cast<int>(r.result.clean_tokens.size()));
  if (!r.status.ok) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", status_text(r.status).c_str());
  if (r.result.rows > 0) draw_grid(r, ctx);
}

}  // namespace attn::ui
