// "Long-input overview" (app/overview_state.h): a file's q and k of up to 32,768 tokens, its
// weights pooled over blocks (computed off the frame), each key's total weight, and a clicked
// region's exact weights.
//
// Sections: 1 the pooled picture  2 the region  3 the panel
#include "ui/heatmap_widget.h"
#include "ui/message_strings.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace attn::ui {
namespace {

// ---- 1 the pooled picture -----------------------------------------------------------------

// "1.07 G" for the matrix the pass never holds.
std::string count_text(double n) {
  char out[32];
  if (n >= 1e9) std::snprintf(out, sizeof out, "%.2f G", n / 1e9);
  else if (n >= 1e6) std::snprintf(out, sizeof out, "%.1f M", n / 1e6);
  else std::snprintf(out, sizeof out, "%.0f", n);
  return out;
}

// A zoomable heatmap of `values` with labels on both axes.
HeatmapSpec labelled(const char* id, const Mat& values, std::uint64_t version, const std::vector<std::string>& rows,
                     const std::vector<std::string>& cols) {
  HeatmapSpec spec;
  spec.id = id;
  spec.values = &values;
  spec.version = version;
  spec.row_labels = &rows;
  spec.col_labels = &cols;
  spec.zoomable = true;
  spec.weight_range = WeightRange::Log;  // block means over 32k keys are ~1e-5: a fixed 0-1 scale shows nothing
  return spec;
}

// Labels of the pooled rows or columns: each block's first token.
std::vector<std::string> block_labels(int count, int block) {
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(std::to_string(i * block));
  return out;
}

void pooled_picture(AppState& state, UiContext& ctx, float width, float height) {
  OverviewState& st = state.overview;
  OverviewSettings& s = state.settings.overview;
  const OverviewResult& r = st.result;
  static std::vector<std::string> rows, cols;  // the labels live while the frame draws
  rows = block_labels(static_cast<int>(r.pooled.rows()), r.block);
  cols = block_labels(static_cast<int>(r.pooled.cols()), r.block);
  const HeatmapSpec spec = labelled("overview/pooled", r.pooled, st.version, rows, cols);
  const HeatmapResult hit = heatmap_widget(ctx, spec, ImVec2(width, height));
  if (hit.hovered && hit.row >= 0 && hit.col >= 0 && hit.row < r.pooled.rows() && hit.col < r.pooled.cols())
    ImGui::SetTooltip(tr(S::overview_block_tip), hit.row * r.block, std::min((hit.row + 1) * r.block, r.n_q) - 1, hit.col * r.block,
                      std::min((hit.col + 1) * r.block, r.n_k) - 1, static_cast<double>(r.pooled(hit.row, hit.col)));
  if (hit.clicked && hit.row >= 0 && hit.col >= 0) {
    // The region centred on the clicked block, as far as the edges allow.
    const int half = s.side / 2, centre_q = hit.row * r.block + r.block / 2, centre_k = hit.col * r.block + r.block / 2;
    s.q0 = std::clamp(centre_q - half, 0, std::max(r.n_q - s.side, 0));
    s.k0 = std::clamp(centre_k - half, 0, std::max(r.n_k - s.side, 0));
  }
}

void key_totals_plot(const OverviewState& st, UiContext& ctx, float width) {
  const OverviewResult& r = st.result;
  PlotSpec p;
  p.id = "overview/key-totals";
  p.x_title = tr(S::overview_key_axis);
  p.y_title = tr(S::overview_total_axis);
  p.include_zero_y = true;
  PlotSeries line;
  // At most 2,048 points: each the largest total of its run of keys (a sink shows as a spike).
  const int n = static_cast<int>(r.key_totals.size()), step = std::max(1, n / 2048);
  for (int j = 0; j < n; j += step) {
    const int end = std::min(n, j + step);
    Eigen::Index at = 0;
    const float top = r.key_totals.segment(j, end - j).maxCoeff(&at);
    line.x.push_back(static_cast<double>(j + at));
    line.y.push_back(top);
  }
  p.series.push_back(std::move(line));
  plot_widget(ctx, p, ImVec2(width, ImGui::GetFontSize() * 9.0f));
}

// ---- 2 the region -------------------------------------------------------------------------

void region_picture(AppState& state, UiContext& ctx, float width, float height) {
  const OverviewState& st = state.overview;
  if (st.region.size() == 0) {
    hint_text(tr(S::overview_pick_region));
    return;
  }
  const ImportedAttention& f = *st.file;
  static std::vector<std::string> rows, cols;
  rows.clear();
  cols.clear();
  for (Eigen::Index i = 0; i < st.region.rows(); ++i) rows.push_back(f.query_tokens[static_cast<std::size_t>(st.region_q0 + i)]);
  for (Eigen::Index j = 0; j < st.region.cols(); ++j) cols.push_back(f.key_tokens[static_cast<std::size_t>(st.region_k0 + j)]);
  char line[512];
  std::snprintf(line, sizeof line, tr(S::overview_region_note), st.region_q0, st.region_q0 + static_cast<int>(st.region.rows()) - 1,
                st.region_k0, st.region_k0 + static_cast<int>(st.region.cols()) - 1,
                100.0 * st.region.cast<double>().sum() / static_cast<double>(st.region.rows()));
  wrapped_text(line, width);
  const HeatmapSpec spec = labelled("overview/region", st.region, st.region_version, rows, cols);
  const HeatmapResult hit = heatmap_widget(ctx, spec, ImVec2(width, std::max(height - ImGui::GetFontSize() * 3.0f, ImGui::GetFontSize() * 8.0f)));
  if (hit.hovered && hit.row >= 0 && hit.col >= 0 && hit.row < st.region.rows() && hit.col < st.region.cols())
    ImGui::SetTooltip("%d %s -> %d %s: %.5f", st.region_q0 + hit.row, rows[static_cast<std::size_t>(hit.row)].c_str(),
                      st.region_k0 + hit.col, cols[static_cast<std::size_t>(hit.col)].c_str(),
                      static_cast<double>(st.region(hit.row, hit.col)));
}

// ---- 3 the panel --------------------------------------------------------------------------

void controls(AppState& state) {
  const OverviewState& st = state.overview;
  OverviewSettings& s = state.settings.overview;
  const ImportedAttention& f = *st.file;
  const float font = ImGui::GetFontSize();
  if (f.layers > 1) {
    ImGui::SetNextItemWidth(font * 8.0f);
    ImGui::SliderInt(fitted(tr(S::layer)), &s.layer, 0, f.layers - 1);
    ImGui::SameLine();
  }
  if (f.heads > 1) {
    ImGui::SetNextItemWidth(font * 8.0f);
    ImGui::SliderInt(fitted(tr(S::head)), &s.head, 0, f.heads - 1);
    ImGui::SameLine();
  }
  ImGui::Checkbox(tr(S::overview_causal), &s.causal);
  int pool = static_cast<int>(s.pool);
  if (choice_row(tr(S::overview_pool), pool, {tr(S::overview_pool_mean), tr(S::overview_pool_max)}))
    s.pool = static_cast<BlockPool>(pool);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 8.0f);
  ImGui::SliderInt(fitted(tr(S::overview_side)), &s.side, 16, kOverviewMaxRegion);
}

}  // namespace

void draw_overview_panel(AppState& state, UiContext& ctx) {
  const OverviewState& st = state.overview;
  if (!st.file) {
    wrapped_text(tr(S::overview_intro));
    hint_text(tr(S::overview_empty));
    return;
  }
  const ImportedAttention& f = *st.file;
  char line[768];
  std::snprintf(line, sizeof line, tr(S::overview_summary), st.name.c_str(), f.layers, f.heads, f.n_q, f.n_k, f.d_k,
                count_text(static_cast<double>(f.n_q) * f.n_k).c_str(), count_text(4.0 * f.n_q * f.n_k).c_str());
  wrapped_text(line);
  controls(state);
  if (!st.status.ok) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", status_text(st.status).c_str());
  const float font = ImGui::GetFontSize();
  if (!st.done) {
    std::snprintf(line, sizeof line, tr(st.external ? S::overview_running_worker : S::overview_running), 100.0 * st.progress);
    ImGui::ProgressBar(static_cast<float>(st.progress), ImVec2(-1, 0), line);
    return;
  }
  std::snprintf(line, sizeof line, tr(st.result.pool == BlockPool::Max ? S::overview_pooled_max : S::overview_pooled_mean),
                st.result.block, st.result.block, static_cast<int>(st.result.pooled.rows()), static_cast<int>(st.result.pooled.cols()));
  wrapped_text(line);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool stacked = avail.x < font * 50.0f;
  const float left_w = stacked ? avail.x : avail.x * 0.5f - font * 0.5f;
  const float pic_h = std::max(font * 14.0f, (stacked ? avail.y * 0.5f : avail.y) - font * 11.0f);
  ImGui::BeginGroup();
  pooled_picture(state, ctx, left_w, pic_h);
  key_totals_plot(st, ctx, left_w);
  ImGui::EndGroup();
  if (!stacked) ImGui::SameLine();
  ImGui::BeginGroup();
  region_picture(state, ctx, stacked ? avail.x : ImGui::GetContentRegionAvail().x, pic_h + font * 9.0f);
  ImGui::EndGroup();
}

}  // namespace attn::ui
