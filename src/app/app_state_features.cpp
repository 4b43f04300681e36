// The state's doors to the features below it (app/app_state.h, section 5): each feature is
// handed the scene (scene_view) and its own settings and results, never the whole state;
// the imported scene made, rebuilt for a layer and its model view filled; a tour step opened.
#include "app/app_state.h"

#include "app/app_messages.h"
#include "app/tour.h"
#include "core/attention/score_terms.h"
#include "core/attention/attention_messages.h"
#include "files/import_view.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

namespace attn {

SceneView scene_view(const AppState& state) {
  const Settings& s = state.settings;
  return SceneView{.has_results = state.has_results,
                   .trace = state.trace,
                   .weights = state.weights,
                   .tokens = state.tokens,
                   .revision = state.revision,
                   .panel = s.panel,
                   .head = s.head,
                   .cursor = s.cursor,
                   .generated_sentence = s.source == SceneSource::Generated ? &s.sentence : nullptr,
                   .d_model = s.d_model,
                   .seed = s.seed,
                   .rope_base = s.rope_base,
                   .rope_pairing = s.rope_pairing,
                   .causal = s.math.mask.causal};
}

// ---- the panels' figures ----------------------------------------------------------------

void update_modern_panels(AppState& state) { update_modern_panels(scene_view(state), state.settings.modern, state.modern); }

void update_variant_panels(AppState& state, double chart_budget_seconds) {
  update_variant_panels(scene_view(state), state.settings.variants, state.variants, state.cost_chart, chart_budget_seconds);
}

bool advance_lm(AppState& state, double now_seconds) {
  if (state.settings.source != SceneSource::Language || !state.lm_scene) return false;
  const Settings& s = state.settings;
  if (s.lm.random_beside && s.panel == Panel::Heads && state.has_results && state.computed_for.source == SceneSource::Language)
    update_random_head(state.tokens, s.d_model, s.heads, std::clamp(s.head, 0, s.heads - 1), s.seed, state.lm);
  const bool changed = advance_lm_play(state.settings.lm, state.lm, now_seconds);
  if (state.settings.panel == Panel::Language && state.has_results)
    advance_lm_ablation(*state.lm_scene, state.settings.math, state.settings.lm, state.lm, kLmAblationBudgetMs);
  if (state.settings.panel == Panel::LmPatch) {
    update_lm_patch(state.lm_scene->model, state.lm_scene->fingerprint, s.patch, state.lm_patch);
    advance_lm_patch(state.lm_patch, kLmPatchBudgetMs);
  }
  return changed;
}

bool advance_overview_panel(AppState& state, double budget_ms) {
  if (!state.overview.file || state.settings.panel != Panel::Overview) return false;
  const bool changed = update_overview(state.overview, state.settings.overview);
  return advance_overview(state.overview, budget_ms) || changed;
}

void open_panel_with(AppState& state, const char* panel, const char* patch) {
  // The patches are ours and checked by the tests; a refused one still opens the panel.
  apply_state_json(state, std::string(R"({"panel": ")") + panel + "\"}");
  apply_state_json(state, patch);
}

bool update_tour(AppState& state) {
  const int step = state.settings.tour;
  if (step == state.tour_opened) return false;
  state.tour_opened = step;
  if (step < 1 || step > kTourSteps) return false;
  const TourStep& s = tour_step(step);
  open_panel_with(state, s.panel, s.patch);
  state.settings.tour = step;
  state.settings.exercise = 0;  // a tour step and an exercise are not shown together
  return true;
}

// ---- the imported scene -----------------------------------------------------------------

Status set_imported(AppState& state, ImportedAttention data, const std::string& name) {
  // Every view of an imported scene reads its weights: a file of q and k alone goes to the
  // overview (app/overview_state.h), and the scene stays as it was.
  if (!data.has_weights) {
    set_overview_file(state.overview, state.settings.overview, std::move(data), name);
    state.settings.panel = Panel::Overview;
    state.notice = Status::success();
    return Status::success();
  }
  state.imported = std::make_shared<const ImportedAttention>(std::move(data));
  state.imported_name = name;
  Settings& s = state.settings;
  s.source = SceneSource::Imported;
  s.import_id += 1;
  s.heads = state.imported->heads;
  s.layer = 0;
  s.head = 0;
  s.diff_head = state.imported->heads > 1 ? 1 : 0;
  s.cursor = 0;
  s.compare = false;
  s.panel = Panel::ModelView;
  state.notice = Status::success();
  return Status::success();
}

Status import_into_state(AppState& state, const std::uint8_t* bytes, std::size_t size, const std::string& name,
                         const ImportOptions& options, const InflateFn& inflate) {
  ImportedAttention data;
  const Status s = import_attention(bytes, size, options, inflate, data);
  if (!s.ok) return s.within(name);
  return set_imported(state, std::move(data), name);
}

void update_imported_results(AppState& state) {
  const ImportedAttention& data = *state.imported;
  Settings& s = state.settings;
  s.heads = data.heads;
  s.layer = std::clamp(s.layer, 0, data.layers - 1);
  const VisibleTokens visible = visible_tokens(data, s.hide_special);
  state.visible_rows = visible.rows;
  state.visible_cols = visible.cols;
  state.tokens.clear();
  state.key_tokens.clear();
  for (int i : visible.rows) state.tokens.push_back(data.query_tokens[i]);
  for (int j : visible.cols) state.key_tokens.push_back(data.key_tokens[j]);
  const int n_q = static_cast<int>(visible.rows.size()), n_k = static_cast<int>(visible.cols.size());
  s.head = std::clamp(s.head, 0, data.heads - 1);
  s.diff_head = std::clamp(s.diff_head, 0, data.heads - 1);
  s.cursor = std::clamp(s.cursor, -1, n_q - 1);

  // 1 thumbnails of every layer and head for the model view (as shown: hidden tokens out).
  // Only when the file or the token view changed: picking a layer does not redo them.
  const bool thumbs_stale = !state.has_results || state.computed_for.source != SceneSource::Imported ||
                            state.computed_for.import_id != s.import_id || state.computed_for.hide_special != s.hide_special ||
                            state.computed_for.renormalise != s.renormalise;
  if (thumbs_stale) {
    state.thumbnails.assign(static_cast<size_t>(data.layers) * data.heads, Mat());
    state.thumbnails_done = 0;
  }

  // 2 the selected layer as a trace (side B too with Q/K/V in compare mode: the same Q, K, V
  // under the compare settings), and each head's share on the first key in the file.
  state.sink_share.clear();
  for (int h = 0; h < data.heads; ++h) state.sink_share.push_back(first_token_share(data.head_weights(s.layer, h)));
  state.qkv_max_difference = 0.0f;
  state.trace = imported_layer_trace(data, s.layer, visible, s.renormalise, pipeline_config(s, s.math, n_k),
                                     &state.qkv_max_difference);
  state.compare_trace = s.compare && data.has_qkv
                            ? imported_layer_trace(data, s.layer, visible, s.renormalise, pipeline_config(s, s.compare_math, n_k), nullptr)
                            : PipelineTrace();
  state.head_metrics.clear();
  for (const HeadTrace& h : state.trace.heads) state.head_metrics.push_back(head_metrics(h.weights));
}

bool advance_thumbnails(AppState& state, double budget_ms) {
  if (state.settings.source != SceneSource::Imported || !state.imported || !state.has_results) return false;
  const VisibleTokens visible{state.visible_rows, state.visible_cols};
  return fill_thumbnails(*state.imported, visible, state.computed_for.renormalise, state.thumbnails, state.thumbnails_done,
                         budget_ms);
}

bool frames_have_work(const AppState& state) {
  const Settings& s = state.settings;
  if (state.train.settings.running || state.train.scaling.running) return true;
  if (state.cost_chart.running || state.modern.decoding_running) return true;
  if (s.source == SceneSource::Language && state.lm_scene) {
    if (s.lm.playing) return true;
    if (s.panel == Panel::Language && state.lm.ablation_job) return true;
    if (s.panel == Panel::LmPatch && state.lm_patch.job) return true;
  }
  if (s.source == SceneSource::Imported && state.imported && state.has_results &&
      state.thumbnails_done < static_cast<int>(state.thumbnails.size()))
    return true;
  return s.panel == Panel::Overview && state.overview.job != nullptr;
}

bool imported_panel_needs_qkv(const AppState& state, Panel panel) {
  if (state.settings.source != SceneSource::Imported || !state.imported || state.imported->has_qkv) return false;
  return panel_info(panel).has(kPanelNeedsScores);
}

// ---- the model view across layers ---------------------------------------------------------

namespace {

// Every layer's heads of the scene, square, over all its tokens; false when the scene has
// none (`why` says why where it is the input's fault: cross-attention, too many tokens).
bool scene_layers(const AppState& state, std::vector<std::vector<Mat>>& out, Status& why) {
  const SceneSource source = state.computed_for.source;
  // A model's heads, layer * heads + head, grouped by layer.
  auto by_layer = [&out](std::vector<Mat> w, int heads) {
    out.assign(w.size() / static_cast<std::size_t>(heads), {});
    for (std::size_t i = 0; i < w.size(); ++i) out[i / static_cast<std::size_t>(heads)].push_back(std::move(w[i]));
  };
  if (source == SceneSource::Language && state.lm_scene) {
    const train::ModelConfig& c = state.lm_scene->model.config;
    const std::vector<Mat>& w = state.lm.attention.trace.weights;
    if (w.size() != static_cast<std::size_t>(c.layers * c.heads)) return false;
    by_layer(w, c.heads);
    return true;
  }
  if (source == SceneSource::Trained && state.train.trained) {
    by_layer(trained_scene_weights(*state.train.trained), state.train.trained->model.model().heads);
    return true;
  }
  if (source != SceneSource::Imported || !state.imported) return false;
  const ImportedAttention& d = *state.imported;
  if (d.cross_attention()) {
    why = Status::error(msg::att_rollout_cross, d.n_q, d.n_k);
    return false;
  }
  if (d.n_q > kAcrossLayersMaxTokens) {
    why = Status::error(msg::app_across_too_many, kAcrossLayersMaxTokens, d.n_q);
    return false;
  }
  out.assign(static_cast<std::size_t>(d.layers), {});
  for (int l = 0; l < d.layers; ++l)
    for (int h = 0; h < d.heads; ++h) out[static_cast<std::size_t>(l)].push_back(d.head_weights(l, h));
  return true;
}

// The rows and keys the scene shows (an imported file may hide special tokens).
Mat shown_part(const AppState& state, const Mat& m) {
  if (state.computed_for.source != SceneSource::Imported) return m;
  Mat out(static_cast<Eigen::Index>(state.visible_rows.size()), static_cast<Eigen::Index>(state.visible_cols.size()));
  for (std::size_t i = 0; i < state.visible_rows.size(); ++i)
    for (std::size_t j = 0; j < state.visible_cols.size(); ++j)
      out(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = m(state.visible_rows[i], state.visible_cols[j]);
  return out;
}

}  // namespace

bool update_across_layers(AppState& state) {
  AcrossLayersResults& r = state.across;
  const Settings& s = state.settings;
  if (s.panel != Panel::ModelView || s.across == AcrossLayers::Heads || !state.has_results) {
    if (!r.layers.empty() || !r.status.ok || r.revision != 0) {
      const std::uint64_t version = r.version;
      r = AcrossLayersResults{};
      r.version = version;  // a later recompute still names new matrices anew
    }
    return false;
  }
  if (r.revision == state.revision && r.mode == s.across && r.residual == s.rollout_residual) return false;
  AcrossLayersResults next;
  next.version = r.version + 1;
  next.revision = state.revision;
  next.mode = s.across;
  next.residual = s.rollout_residual;
  std::vector<std::vector<Mat>> layers;
  std::vector<Mat> out;
  if (scene_layers(state, layers, next.status)) {
    next.status = across_layers(layers, s.across, s.rollout_residual, out);
    for (const Mat& m : out) next.layers.push_back(shown_part(state, m));
  }
  r = std::move(next);
  return true;
}

// ---- why this cell ------------------------------------------------------------------------

bool update_cell_why(AppState& state) {
  CellWhy& c = state.cell;
  const Settings& s = state.settings;
  if (s.cursor < 0 || s.cursor_key < 0 || !state.has_results || !state.trace.status.ok || state.trace.heads.empty()) {
    if (c.shown || !c.status.ok) c = CellWhy{};
    return false;
  }
  const int head = std::clamp(s.head, 0, static_cast<int>(state.trace.heads.size()) - 1);
  if (c.revision == state.revision && c.for_row == s.cursor && c.for_col == s.cursor_key && c.for_head == head) return false;
  CellWhy next;
  next.revision = state.revision;
  next.for_row = s.cursor;
  next.for_col = s.cursor_key;
  next.for_head = head;
  next.head = head;
  const HeadTrace& h = state.trace.heads[static_cast<std::size_t>(head)];
  const ScoreFunction score = state.computed_for.math.score;
  next.status = explain_cell(h, s.cursor, s.cursor_key, score == ScoreFunction::Dot, to_string(score), next);
  // RoPE rotates q and k by their positions: the same head's q and k before the rotation
  // (the scene's inputs through its projections) give the score without it.
  const Settings& was = state.computed_for;
  const SceneSource src = was.source;
  if (next.shown && was.positional == Positional::Rope && state.weights.wq.size() > 0 &&
      src == SceneSource::Generated && state.trace.x_q.rows() > s.cursor &&
      state.trace.x_k.rows() > s.cursor_key) {
    const int dk = static_cast<int>(h.q.cols());
    RowVec q = state.trace.x_q.row(s.cursor) * state.weights.wq.middleCols(head * dk, dk);
    RowVec k = state.trace.x_k.row(s.cursor_key) * state.weights.wk.middleCols(head * dk, dk);
    if (state.weights.bq.size()) q += state.weights.bq.segment(head * dk, dk);
    if (state.weights.bk.size()) k += state.weights.bk.segment(head * dk, dk);
    next.rope = true;
    next.raw_unrotated = q.cast<double>().dot(k.cast<double>());
  }
  c = std::move(next);
  return true;
}

}  // namespace attn
