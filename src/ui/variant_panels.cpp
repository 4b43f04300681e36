// Panels of masks, scoring functions and efficient attention.
//   1 mask editor        compose patterns and restrictions, paint cells, undo/redo; the
//                        mask, the masked scores (-inf striped) and the weights
//   2 scoring functions  dot, scaled dot, cosine, additive on the same Q and K
//   3 efficient variants a variant beside exact attention: pattern, weights, error, cost
//   4 cost chart         measured time per variant against n, log-log, with slopes
// Figures come from app/variants_state.h (computed when their inputs change); these
// functions only draw them and edit Settings.
#include "ui/heatmap_widget.h"
#include "ui/message_strings.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/schema_controls.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace attn::ui {
namespace {

// A row of checkboxes, one per token, editing a sorted list of token indices.
void token_checkboxes(const char* id, const std::vector<std::string>& tokens, std::vector<int>& list) {
  ImGui::PushID(id);
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (int t = 0; t < static_cast<int>(tokens.size()); ++t) {
    bool on = std::binary_search(list.begin(), list.end(), t);
    char label[96];
    std::snprintf(label, sizeof label, "%d %.40s##%d", t, tokens[t].c_str(), t);
    const float w = ImGui::CalcTextSize(label).x + ImGui::GetFrameHeight() * 1.6f;
    if (t > 0) {
      ImGui::SameLine();
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    if (ImGui::Checkbox(label, &on)) {
      if (on) list.insert(std::lower_bound(list.begin(), list.end(), t), t);
      else list.erase(std::remove(list.begin(), list.end(), t), list.end());
    }
  }
  ImGui::PopID();
}

}  // namespace

// ---------------------------------------------------------------------------------------
// 1 mask editor
// ---------------------------------------------------------------------------------------

void draw_mask_panel(AppState& state, UiContext& ctx) {
  Settings& s = state.settings;
  MaskSettings& mask = s.math.mask;
  const int n = static_cast<int>(state.tokens.size());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize();
  // Controls on the left; in a narrow figure (a course page's), above the heatmaps in a
  // scrolling strip, so the heatmaps keep a readable size.
  const bool stacked = avail.x < font * 30.0f;
  const float controls_w = stacked ? avail.x : std::min(avail.x * 0.34f, font * 26.0f);
  begin_wrapped_child("mask-controls", ImVec2(controls_w, stacked ? font * 10.0f : avail.y));
  wrapped_checkbox(tr(S::mask_causal), &mask.causal);
  ImGui::SliderInt(fitted(tr(S::mask_window)), &mask.window, 0, std::max(1, n));
  ImGui::SliderInt(fitted(tr(S::mask_stride)), &mask.stride, 0, std::max(1, n));
  ImGui::SliderInt(fitted(tr(S::mask_block)), &mask.block, 0, std::max(1, n));
  ImGui::TextUnformatted(tr(S::mask_padding_tokens));
  token_checkboxes("padding", state.tokens, mask.padding_tokens);
  ImGui::TextUnformatted(tr(S::mask_global_tokens));
  token_checkboxes("global", state.tokens, mask.global_tokens);
  ImGui::Separator();
  int brush = s.variants.paint_allow ? 1 : 0;
  choice_row(tr(S::mask_brush), brush, {tr(S::mask_brush_block), tr(S::mask_brush_allow)});
  s.variants.paint_allow = brush == 1;
  ImGui::BeginDisabled(state.mask_history.undo_steps() == 0);
  if (ImGui::Button(tr(S::mask_undo))) state.mask_history.undo(mask);
  ImGui::EndDisabled();
  flow_button(tr(S::mask_redo));
  ImGui::BeginDisabled(state.mask_history.redo_steps() == 0);
  if (ImGui::Button(tr(S::mask_redo))) state.mask_history.redo(mask);
  ImGui::EndDisabled();
  ImGui::Text(tr(S::mask_painted_count), static_cast<int>(mask.painted.size()));
  flow_button(tr(S::mask_clear_painted));
  ImGui::BeginDisabled(mask.painted.empty());
  if (ImGui::SmallButton(tr(S::mask_clear_painted))) mask.painted.clear();
  ImGui::EndDisabled();
  ImGui::Separator();
  // Keys per row of the composed mask, and any fully masked row explained.
  const HeadTrace* head = state.has_results && state.trace.status.ok && !state.trace.heads.empty()
                              ? &state.trace.heads[std::clamp(s.head, 0, static_cast<int>(state.trace.heads.size()) - 1)]
                              : nullptr;
  if (head) {
    std::string counts;
    for (int c : nonzeros_per_row(state.trace.allowed)) counts += std::to_string(c) + " ";
    ImGui::TextUnformatted(tr(S::mask_nonzeros));
    wrapped_text(counts.c_str());
    int explained = 0;
    for (size_t i = 0; i < head->fully_masked_rows.size() && explained < 3; ++i)
      if (head->fully_masked_rows[i]) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.35f, 1.0f));
        ImGui::TextWrapped(tr(S::fully_masked), static_cast<int>(i));
        ImGui::PopStyleColor();
        ++explained;
      }
  }
  hint_text(tr(S::mask_neg_inf_legend));
  end_wrapped_child();
  if (!stacked) ImGui::SameLine();

  // The mask (paintable), the masked scores and the weights on the right (or below).
  ImGui::BeginGroup();
  const VariantResults& r = state.variants;
  if (!head || r.mask_allowed.size() == 0) {
    ImGui::TextUnformatted(state.trace.status.ok ? tr(S::no_results) : status_text(state.trace.status).c_str());
  } else {
    const float w = ((stacked ? avail.x : avail.x - controls_w) - ImGui::GetStyle().ItemSpacing.x * 2) * 0.5f;
    const float h = stacked ? std::max(w, font * 10.0f) : (avail.y - font * 3.0f) * 0.5f;
    const HeatmapResult hit = titled_heatmap(ctx, tr(S::mask_allowed), "mask/allowed", r.mask_allowed, state.revision,
                                             Colormap::Sequential, &state.tokens, ImVec2(w, h), false);
    // Painting: press on a cell starts a stroke; dragging paints the line from the last cell.
    const bool down = ImGui::IsMouseDown(ImGuiMouseButton_Left);
    if (hit.hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      ctx.painting = true;
      paint_cell(mask.painted, hit.row, hit.col, s.variants.paint_allow);
      ctx.paint_row = hit.row;
      ctx.paint_col = hit.col;
    } else if (ctx.painting && down && hit.hovered && (hit.row != ctx.paint_row || hit.col != ctx.paint_col)) {
      paint_line(mask.painted, ctx.paint_row, ctx.paint_col, hit.row, hit.col, s.variants.paint_allow);
      ctx.paint_row = hit.row;
      ctx.paint_col = hit.col;
    }
    if (!down) ctx.painting = false;
    ImGui::SameLine();
    titled_heatmap(ctx, tr(S::masked_scores), "mask/maskedScores", head->masked_scores, state.revision,
                   Colormap::Diverging, &state.tokens, ImVec2(w, h));
    titled_heatmap(ctx, tr(S::weights), "mask/weights", head->weights, state.revision, Colormap::Sequential,
                   &state.tokens, ImVec2(w, h));
  }
  ImGui::EndGroup();
  // One undo step per settled edit: a whole stroke, a slider once released.
  state.mask_history.observe(mask, ctx.painting || ImGui::IsAnyItemActive());
}

// ---------------------------------------------------------------------------------------
// 2 scoring functions
// ---------------------------------------------------------------------------------------

void draw_scoring_panel(AppState& state, UiContext& ctx) {
  const VariantResults& r = state.variants;
  if (!r.has_scoring || r.scoring.size() != 4) {
    ImGui::TextUnformatted(state.trace.status.ok ? tr(S::no_results) : status_text(state.trace.status).c_str());
    return;
  }
  wrapped_text(tr(S::scoring_hint));
  const S titles[] = {S::scoring_dot, S::scoring_scaled_dot, S::scoring_cosine, S::scoring_additive};
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float w = (avail.x - 3 * gap) / 4.0f, h = (avail.y - ImGui::GetFontSize() * 6.0f) * 0.38f;
  for (int i = 0; i < 4; ++i) {
    if (i) ImGui::SameLine();
    char title[160];
    std::snprintf(title, sizeof title, "%s  (x %.3g)", tr(titles[i]), r.scoring[i].scale);
    titled_heatmap(ctx, title, "scoring/" + std::string(r.scoring[i].name) + "/weights", r.scoring[i].weights,
                   state.variants.version, Colormap::Sequential, i == 0 ? &state.tokens : nullptr, ImVec2(w, h));
  }
  for (int i = 0; i < 4; ++i) {
    if (i) ImGui::SameLine();
    char title[160];
    std::snprintf(title, sizeof title, "%s %s", tr(titles[i]), tr(S::minus_scaled_dot));
    titled_heatmap(ctx, title, "scoring/" + std::string(r.scoring[i].name) + "/difference", r.scoring[i].difference,
                   state.variants.version, Colormap::Diverging, i == 0 ? &state.tokens : nullptr, ImVec2(w, h));
  }
  ImGui::TextUnformatted(tr(S::scoring_additive_params));
  const float ph = ImGui::GetContentRegionAvail().y - ImGui::GetFontSize() * 1.5f;
  titled_heatmap(ctx, "W_q", "scoring/additive/wq", r.additive_wq, state.variants.version, Colormap::Diverging, nullptr,
                 ImVec2(w, ph));
  ImGui::SameLine();
  titled_heatmap(ctx, "W_k", "scoring/additive/wk", r.additive_wk, state.variants.version, Colormap::Diverging, nullptr,
                 ImVec2(w, ph));
  ImGui::SameLine();
  titled_heatmap(ctx, "v", "scoring/additive/v", r.additive_v, state.variants.version, Colormap::Diverging, nullptr,
                 ImVec2(w, ph));
}

// ---------------------------------------------------------------------------------------
// 3 efficient variants
// ---------------------------------------------------------------------------------------

namespace {

// A variant's name in the UI's language (the English is the core's name, as states write it).
const char* variant_label(EfficientKind kind) {
  switch (kind) {
    case EfficientKind::Exact: return tr(S::kind_exact);
    case EfficientKind::Window: return tr(S::kind_window);
    case EfficientKind::Strided: return tr(S::kind_strided);
    case EfficientKind::BlockSparse: return tr(S::kind_blocksparse);
    case EfficientKind::Linear: return tr(S::kind_linear);
    case EfficientKind::Performer: return tr(S::kind_performer);
    case EfficientKind::Linformer: return tr(S::kind_linformer);
  }
  return "?";
}

}  // namespace

void draw_variants_panel(AppState& state, UiContext& ctx) {
  VariantSettings& v = state.settings.variants;
  const std::vector<EfficientKind> kinds = efficient_variants();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::BeginCombo(tr(S::variant_kind), variant_label(v.kind))) {
    for (EfficientKind k : kinds)
      if (ImGui::Selectable(variant_label(k), k == v.kind)) v.kind = k;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  const int n = static_cast<int>(state.tokens.size());
  switch (v.kind) {
    case EfficientKind::Window: ImGui::SliderInt(fitted(tr(S::variant_window)), &v.window, 1, std::max(1, n)); break;
    case EfficientKind::Strided: ImGui::SliderInt(fitted(tr(S::variant_stride)), &v.stride, 1, std::max(1, n)); break;
    case EfficientKind::BlockSparse: ImGui::SliderInt(fitted(tr(S::variant_block)), &v.block, 1, std::max(1, n)); break;
    case EfficientKind::Performer: schema_slider(tr(S::variant_features), v.features, "variants.features"); break;
    case EfficientKind::Linformer: ImGui::SliderInt(fitted(tr(S::variant_rank)), &v.rank, 1, std::max(1, n)); break;
    case EfficientKind::Linear:
    case EfficientKind::Exact: break;
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!efficient_kind_info(v.kind).causal);  // no causal form
  ImGui::Checkbox(tr(S::variant_causal), &v.causal);
  ImGui::EndDisabled();
  if (v.kind == EfficientKind::Performer || v.kind == EfficientKind::Linformer) {
    ImGui::SameLine();
    int seed = static_cast<int>(v.seed & 0x7fffffff);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (ImGui::InputInt(fitted(tr(S::variant_seed)), &seed)) v.seed = static_cast<std::uint64_t>(std::max(seed, 0));
  }

  const VariantResults& r = state.variants;
  if (!r.has_variant) {
    ImGui::TextUnformatted(r.status.ok ? tr(S::no_results) : status_text(r.status).c_str());
    return;
  }
  const int rows = static_cast<int>(r.report.output.rows());
  ImGui::Text(tr(S::variant_error), r.report.relative_error);
  ImGui::TextWrapped(tr(S::variant_cost), rows, r.cost.pairs, r.cost.multiply_adds_formula.c_str(), r.cost.multiply_adds,
                     r.exact_cost.multiply_adds, r.cost.memory_formula.c_str(), r.cost.memory_floats,
                     r.exact_cost.memory_floats);
  ImGui::Text(tr(S::variant_time), r.seconds * 1e6, r.exact_seconds * 1e6);
  if (!r.report.has_display) {
    ImGui::TextUnformatted(tr(S::variant_no_display));
    return;
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float w = (avail.x - gap) * 0.5f, h = (avail.y - ImGui::GetFontSize() * 3.0f) * 0.5f;
  titled_heatmap(ctx, tr(S::variant_pattern), "variant/pattern", r.pattern, state.variants.version, Colormap::Sequential,
                 &state.tokens, ImVec2(w, h), false);
  ImGui::SameLine();
  // Kernel methods and the linformer can give weights outside [0, 1]: a signed scale then.
  const bool signed_weights = r.report.weights.minCoeff() < 0.0f || r.report.weights.maxCoeff() > 1.0f;
  titled_heatmap(ctx, tr(S::variant_weights), "variant/weights", r.report.weights, state.variants.version,
                 signed_weights ? Colormap::Diverging : Colormap::Sequential, &state.tokens, ImVec2(w, h));
  titled_heatmap(ctx, tr(S::variant_exact_weights), "variant/exactWeights", r.report.exact_weights,
                 state.variants.version, Colormap::Sequential, &state.tokens, ImVec2(w, h));
  ImGui::SameLine();
  titled_heatmap(ctx, tr(S::variant_weight_error), "variant/weightError", r.report.weight_error, state.variants.version,
                 Colormap::Diverging, &state.tokens, ImVec2(w, h));
}

// ---------------------------------------------------------------------------------------
// 4 cost chart
// ---------------------------------------------------------------------------------------

namespace {

// The first series is drawn in the theme's text colour (white on dark, black on light).
const ImU32 kSeriesColors[] = {0, IM_COL32(230, 159, 0, 255),  IM_COL32(86, 180, 233, 255),
                               IM_COL32(0, 158, 115, 255),   IM_COL32(240, 228, 66, 255), IM_COL32(213, 94, 0, 255),
                               IM_COL32(204, 121, 167, 255)};

PlotSeries cost_series(const std::string& label, size_t index) {
  PlotSeries s;
  s.label = label;
  const size_t k = index % (sizeof kSeriesColors / sizeof kSeriesColors[0]);
  s.color = k == 0 ? ImGui::GetColorU32(ImGuiCol_Text) : kSeriesColors[k];
  s.points = true;
  return s;
}

// A log-log plot against n.
PlotSpec against_n(const char* id, const char* y_title) {
  PlotSpec plot;
  plot.id = id;
  plot.x_title = "n";
  plot.y_title = y_title;
  plot.log_x = plot.log_y = true;
  return plot;
}

// What each kind costs by its formula (multiply-adds) at the chart's n: there from the start.
PlotSpec formula_plot(const CostChartConfig& config) {
  PlotSpec plot = against_n("cost/formulas", tr(S::cost_formula_axis));
  for (size_t i = 0; i < config.kinds.size(); ++i) {
    PlotSeries s = cost_series(variant_label(config.kinds[i]), i);
    EfficientConfig c = config.variant;
    c.kind = config.kinds[i];
    for (int n : config.ns) {
      s.x.push_back(n);
      s.y.push_back(efficient_cost(c, n, config.d_k, config.d_v).multiply_adds);
    }
    plot.series.push_back(s);
  }
  return plot;
}

// The measured seconds per run, with each series' fitted slope.
PlotSpec measured_plot(const CostChartRun& run) {
  PlotSpec plot = against_n("cost/measured", tr(S::cost_measured_axis));
  for (size_t i = 0; i < run.chart.series.size(); ++i) {
    const CostSeries& cs = run.chart.series[i];
    char label[128];
    if (std::isfinite(cs.slope) && !run.running) std::snprintf(label, sizeof label, tr(S::cost_slope), variant_label(cs.kind), cs.slope, run.chart.fit_min_n);
    else std::snprintf(label, sizeof label, "%s", variant_label(cs.kind));
    PlotSeries s = cost_series(label, i);
    for (const CostSample& p : cs.samples) {
      s.x.push_back(p.n);
      s.y.push_back(p.seconds);
    }
    plot.series.push_back(s);
  }
  return plot;
}

}  // namespace

void draw_cost_chart_panel(AppState& state, UiContext& ctx) {
  VariantSettings& v = state.settings.variants;
  const CostChartRun& run = state.cost_chart;
  ImGui::TextWrapped(tr(S::cost_hint), app_cost_chart_config().d_k);
  ImGui::BeginDisabled(run.running);
  if (ImGui::Button(tr(S::cost_run))) ++v.cost_chart_request;
  ImGui::EndDisabled();
  ImGui::SameLine();
  const int total = run.samples_total(), done = run.samples_done();
  char progress[96];
  std::snprintf(progress, sizeof progress, tr(S::cost_progress), done, total, run.frames);
  ImGui::ProgressBar(total ? float(done) / float(total) : 0.0f, ImVec2(ImGui::GetFontSize() * 16, 0), progress);
  if (!run.chart.status.ok) ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.35f, 1.0f), "%s", status_text(run.chart.status).c_str());
  CostChartConfig config = app_cost_chart_config();
  if (!validate_cost_chart_config(config).ok) return;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x, w = (avail.x - gap) * 0.5f;
  const float h = std::max(ImGui::GetFontSize() * 12, avail.y - ImGui::GetFontSize() * 1.5f);
  ImGui::BeginGroup();
  ImGui::TextUnformatted(tr(S::cost_formula_title));
  plot_widget(ctx, formula_plot(config), ImVec2(w, h));
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextUnformatted(tr(S::cost_measured_title));
  if (run.chart.series.empty()) wrapped_text(tr(S::cost_not_run));
  else plot_widget(ctx, measured_plot(run), ImVec2(w, h));
  ImGui::EndGroup();
}

}  // namespace attn::ui
