// Panels of the imported scene (files/import_view.h), the model view also of the language
// model's scene (app/lm_state.h) and of the trained model's (app/train_state.h):
//   1 scene summary   what the file holds, in the controls' scene section
//   2 model view      the layer x head grid of small heatmaps (BertViz's model view), the
//                     layer selector, the focused head large with its attention sink
#include "files/import_view.h"
#include "ui/heatmap_widget.h"
#include "ui/model_view_panel.h"
#include "ui/message_strings.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace attn::ui {

// ---------------------------------------------------------------------------------------
// 1 scene summary
// ---------------------------------------------------------------------------------------

void draw_import_summary(AppState& state) {
  if (!state.imported) {
    wrapped_text(tr(S::import_hint));
    return;
  }
  const ImportedAttention& d = *state.imported;
  ImGui::TextWrapped(tr(S::import_summary), state.imported_name.c_str(), d.layers, d.heads, d.n_q, d.n_k);
  if (d.batch > 1) ImGui::Text(tr(S::import_batch), d.batch_index, d.batch);
  if (d.has_qkv) ImGui::TextWrapped(tr(S::import_qkv), static_cast<double>(state.qkv_max_difference));
  else wrapped_text(tr(S::import_weights_only));
  Settings& s = state.settings;
  ImGui::Checkbox(tr(S::hide_special), &s.hide_special);
  ImGui::BeginDisabled(!s.hide_special);
  ImGui::Checkbox(tr(S::renormalise), &s.renormalise);
  ImGui::EndDisabled();
  if (s.hide_special && !s.renormalise) hint_text(tr(S::weights_raw_note));
}

// ---------------------------------------------------------------------------------------
// 2 model view
// ---------------------------------------------------------------------------------------

namespace {

// The tile's height / width: the thumbnails' shape (cross-attention is not square; large ones
// are pooled square), so rows of layers follow each other without gaps.
float thumbnail_aspect(const std::vector<Mat>& thumbnails) {
  for (const Mat& t : thumbnails)
    if (t.size() > 0) return std::clamp(static_cast<float>(t.rows()) / static_cast<float>(t.cols()), 0.25f, 4.0f);
  return 1.0f;
}

// One head's thumbnail: a click focuses it, the focused one is framed as drawn.
void draw_head_thumbnail(AppState& state, UiContext& ctx, int l, int h, size_t index, ImVec2 tile, ImDrawList* dl) {
  Settings& s = state.settings;
  HeatmapSpec spec;
  spec.id = "model/" + std::to_string(l) + "/" + std::to_string(h);
  spec.values = &state.thumbnails[index];
  spec.version = state.revision;
  spec.show_scale = false;
  spec.show_col_labels = false;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const HeatmapResult r = heatmap_widget(ctx, spec, tile);
  if (r.clicked) {
    s.layer = l;
    s.head = h;
  }
  if (r.hovered) ImGui::SetTooltip("%s %d, %s %d", tr(S::layer), l, tr(S::head), h);
  if (l == s.layer && h == s.head) {
    const HeatmapPlacement& p = ctx.placements[spec.id];
    dl->AddRect(ImVec2(p.x - 1, p.y - 1), ImVec2(p.x + p.w + 1, p.y + p.h + 1), kFocusPink, 0.0f, 0,
                highlight_frame_thickness(ctx));
  }
  ImGui::SetCursorScreenPos(ImVec2(at.x + tile.x, at.y));
  ImGui::Dummy(ImVec2(0, tile.y));
}

// The grid on the left: one row per layer, one column per head.
void draw_layer_head_grid(AppState& state, UiContext& ctx, ModelGridShape d) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize();
  const float gap = 2.0f * ctx.dpi_scale;
  const float grid_w = avail.x * 0.5f - font * 2.5f;
  const float aspect = thumbnail_aspect(state.thumbnails);
  const float tile_w = std::max(6.0f, std::min((grid_w - gap * d.heads) / d.heads, ((avail.y - font * 2) / d.layers - gap) / aspect));
  const float tile_h = tile_w * aspect;
  ImGui::BeginGroup();
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(gap, gap));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int l = 0; l < d.layers; ++l) {
    ImGui::AlignTextToFramePadding();
    ImGui::Text("%2d", l);
    for (int h = 0; h < d.heads; ++h) {
      ImGui::SameLine();
      const size_t index = static_cast<size_t>(l) * d.heads + h;
      if (index >= state.thumbnails.size()) break;
      if (state.thumbnails[index].size() == 0) {  // not computed yet (a few per frame)
        ImGui::Dummy(ImVec2(tile_w, tile_h));
        continue;
      }
      draw_head_thumbnail(state, ctx, l, h, index, ImVec2(tile_w, tile_h), dl);
    }
  }
  ImGui::PopStyleVar();
  ImGui::EndGroup();
}

// How much of the focused head's weight goes to the first key, and the layer's mean.
void draw_sink_share(const AppState& state, int head, float right_w) {
  const float share = head < static_cast<int>(state.sink_share.size()) ? state.sink_share[head] : 0.0f;
  const float layer_mean = state.sink_share.empty()
                               ? 0.0f
                               : std::accumulate(state.sink_share.begin(), state.sink_share.end(), 0.0f) /
                                     static_cast<float>(state.sink_share.size());
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + right_w);
  ImGui::Text(tr(S::sink_share), 100.0 * share, state.key_tokens.empty() ? "" : state.key_tokens[0].c_str(), 100.0 * layer_mean);
  ImGui::PopTextWrapPos();
}

// The sink: the first key's column outlined while it is visible.
void outline_sink_column(const AppState& state, UiContext& ctx, const std::string& id) {
  const auto placed = ctx.placements.find(id);
  const bool imported = state.computed_for.source == SceneSource::Imported;  // else every key is shown
  if ((imported && (state.visible_cols.empty() || state.visible_cols[0] != 0)) || placed == ctx.placements.end()) return;
  const HeatmapPlacement& p = placed->second;
  const float cw = p.w / p.view.w;
  const float x = p.x + (0.0f - p.view.x0) * cw;
  if (x + cw > p.x) {
    ImGui::GetWindowDrawList()->AddRect(ImVec2(std::max(x, p.x), p.y), ImVec2(x + cw, p.y + p.h),
                                        IM_COL32(255, 200, 0, 255), 0.0f, 0, highlight_frame_thickness(ctx));
    hint_text(tr(S::sink_column));
  }
}

// Across layers on the right, in place of the focused head: the chosen layer's heads pooled,
// or rollout up to it, with a sentence on what it is, the focused query's row as bars, and a
// note when the first token takes most of the mass.
void draw_across_layers(AppState& state, UiContext& ctx) {
  Settings& s = state.settings;
  const AcrossLayersResults& r = state.across;
  ImGui::BeginGroup();
  const float right_w = ImGui::GetContentRegionAvail().x;
  if (!r.status.ok || s.layer >= static_cast<int>(r.layers.size())) {
    if (!r.status.ok) wrapped_text(status_text(r.status), right_w);
    ImGui::EndGroup();
    return;
  }
  const Mat& m = r.layers[static_cast<std::size_t>(s.layer)];
  char line[512];
  if (s.across == AcrossLayers::Rollout)
    std::snprintf(line, sizeof line, tr(S::across_rollout_note), s.layer, static_cast<double>(s.rollout_residual));
  else
    std::snprintf(line, sizeof line, tr(s.across == AcrossLayers::Mean ? S::across_mean_note : S::across_max_note), s.layer,
                  model_grid_shape(state).heads);
  wrapped_text(line, right_w);  // breaks between hanzi too
  const float share = m.rows() > 0 && m.cols() > 0 ? m.col(0).mean() : 0.0f;
  if (share > 0.5f) {
    std::snprintf(line, sizeof line, tr(S::across_sink), 100.0 * share);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1.0f));
    wrapped_text(line, right_w);
    ImGui::PopStyleColor();
  }
  const bool row = s.cursor >= 0 && s.cursor < m.rows();
  const float bars_h = ImGui::GetFontSize() * 8.0f;
  HeatmapSpec spec;
  spec.id = "model/across";
  spec.values = &m;
  spec.version = r.version;
  spec.row_labels = &state.tokens;
  spec.col_labels = &state.key_tokens;
  spec.highlight_row = s.cursor;
  spec.zoomable = true;
  const float heat_h = ImGui::GetContentRegionAvail().y - bars_h - ImGui::GetFontSize() * 2.5f;
  const HeatmapResult h = heatmap_widget(ctx, spec, ImVec2(right_w, std::max(ImGui::GetFontSize() * 8.0f, heat_h)));
  if (h.clicked) s.cursor = h.row;
  if (h.hovered && h.row < m.rows() && h.col < m.cols() && h.row < static_cast<int>(state.tokens.size()) &&
      h.col < static_cast<int>(state.key_tokens.size()))
    ImGui::SetTooltip("%s -> %s: %.4f", state.tokens[h.row].c_str(), state.key_tokens[h.col].c_str(),
                      static_cast<double>(m(h.row, h.col)));
  if (!row) {
    hint_text(tr(S::across_pick_query));
  } else {
    std::vector<std::string> keys;
    std::vector<double> shares;
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      keys.push_back(j < static_cast<Eigen::Index>(state.key_tokens.size()) ? state.key_tokens[static_cast<std::size_t>(j)] : "");
      shares.push_back(m(s.cursor, j));
    }
    const PlotSpec p = category_bars("model/across-row", tr(S::across_keys), tr(S::across_share), std::move(keys), shares);
    plot_widget(ctx, p, ImVec2(right_w, bars_h));
  }
  ImGui::EndGroup();
}

// The focused head on the right, with the attention sink marked.
void draw_focused_head(AppState& state, UiContext& ctx) {
  Settings& s = state.settings;
  ImGui::BeginGroup();
  const int head = std::clamp(s.head, 0, static_cast<int>(state.trace.heads.size()) - 1);
  ImGui::Text("%s %d, %s %d", tr(S::layer), s.layer, tr(S::head), head);
  const float right_w = ImGui::GetContentRegionAvail().x;
  draw_sink_share(state, head, right_w);
  HeatmapSpec spec;
  spec.id = "model/focus";
  spec.values = &state.trace.heads[head].weights;
  spec.version = state.revision;
  spec.row_labels = &state.tokens;
  spec.col_labels = &state.key_tokens;
  spec.highlight_row = s.cursor;
  spec.zoomable = true;
  const HeatmapResult r = heatmap_widget(ctx, spec, ImVec2(right_w, ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 1.5f));
  if (r.clicked) s.cursor = r.row;
  if (r.hovered && r.row < static_cast<int>(state.tokens.size()) && r.col < static_cast<int>(state.key_tokens.size()))
    ImGui::SetTooltip("%s -> %s: %.4f", state.tokens[r.row].c_str(), state.key_tokens[r.col].c_str(),
                      static_cast<double>(state.trace.heads[head].weights(r.row, r.col)));
  outline_sink_column(state, ctx, spec.id);
  ImGui::EndGroup();
}

}  // namespace

void draw_model_view_panel(AppState& state, UiContext& ctx) {
  const ModelGridShape d = model_grid_shape(state);
  if (d.layers == 0 || state.settings.source != state.computed_for.source || state.trace.heads.empty()) {
    wrapped_text(tr(S::model_view_empty));
    return;
  }
  Settings& s = state.settings;
  int layer = s.layer;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
  if (ImGui::SliderInt(fitted(tr(S::layer)), &layer, 0, d.layers - 1)) s.layer = layer;
  ImGui::SameLine();
  hint_text(tr(S::model_hint));
  int across = static_cast<int>(s.across);
  if (choice_row(tr(S::across_title), across, {tr(S::across_heads), tr(S::across_mean), tr(S::across_max), tr(S::across_rollout)}))
    s.across = static_cast<AcrossLayers>(across);
  if (s.across == AcrossLayers::Rollout) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderFloat(fitted(tr(S::across_residual)), &s.rollout_residual, 0.0f, 1.0f, "%.2f");
  }
  draw_layer_head_grid(state, ctx, d);
  ImGui::SameLine();
  if (s.across == AcrossLayers::Heads) draw_focused_head(state, ctx);
  else draw_across_layers(state, ctx);
}

}  // namespace attn::ui
