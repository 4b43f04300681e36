// The state's operations: recomputing the results when a scene setting changed (with the
// trained and language scenes' fixes), the clamps, the pipeline's configuration and the head
// figures. Its JSON (writer, reader, schema) is app/state_json.cpp.
#include "app/app_state.h"

#include "app/app_messages.h"

#include "core/base/rng.h"
#include "core/base/utf8.h"
#include "core/attention/softmax.h"
#include "files/import_view.h"

#include <algorithm>
#include <cmath>

namespace attn {

const char* to_string(SceneSource s) { return choice_row(kSceneSources, s).name; }

bool shows_random_projections(const Settings& s) {
  return choice_row(kSceneSources, s.source).weights == SceneWeights::Random && panel_shows_projections(s.panel);
}

const char* to_string(Positional p) { return positional_info(p).name; }

const char* to_string(ScoreFunction f) { return choice_row(kScoreFunctions, f).name; }

namespace {

// The layers and heads of `source`'s model (none for the scenes without one).
ModelGridShape model_grid_shape_of(const AppState& state, SceneSource source) {
  if (source == SceneSource::Imported && state.imported) return {state.imported->layers, state.imported->heads};
  if (source == SceneSource::Language && state.lm_scene)
    return {state.lm_scene->model.config.layers, state.lm_scene->model.config.heads};
  if (source == SceneSource::Trained && state.train.trained)
    return {state.train.trained->model.model().layers, state.train.trained->model.model().heads};
  return {};
}

// `side` is "" for side A and "compare." for side B (their keys in the schema).
void clamp_math(MathSettings& m, int n, const std::string& side) {
  m.custom_scale = key_range(side + "scale").clamp(m.custom_scale, 1.0f);
  m.temperature = key_range(side + "temperature").clamp(m.temperature, 1.0f);
  m.mask.window = key_range(side + "mask.window").clamp(m.mask.window);
  m.mask.stride = key_range(side + "mask.stride").clamp(m.mask.stride);
  m.mask.block = key_range(side + "mask.block").clamp(m.mask.block);
  // Token indices past the end of the sentence are dropped, duplicates removed.
  for (std::vector<int>* list : {&m.mask.global_tokens, &m.mask.padding_tokens}) {
    list->erase(std::remove_if(list->begin(), list->end(), [n](int t) { return t < 0 || t >= n; }), list->end());
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  normalize_painted(m.mask.painted, n);
  m.finite_fill = key_range(side + "maskFill").clamp(m.finite_fill, -1e9f);
}

}  // namespace

Status check_sentence(const std::string& sentence) {
  if (sentence.size() > static_cast<size_t>(kMaxSentenceBytes))
    return Status::error(msg::app_text_too_long, sentence.size(), kMaxSentenceBytes);
  // Text that entered through a door is UTF-8 already; this keeps every other caller honest.
  if (const std::size_t bad = first_invalid_utf8(sentence); bad != std::string::npos)
    return Status::error(msg::app_text_not_utf8, bad);
  const size_t n = tokenize(sentence).size();
  if (n > static_cast<size_t>(kMaxTokens))
    return Status::error(msg::app_text_too_many_tokens, n, kMaxTokens);
  return Status::success();
}

Settings clamped(Settings s, int n) {
  if (s.source == SceneSource::WorkedExample) {
    // The worked example fixes its inputs: two tokens, d_k = 2, one head, no projections.
    s.d_model = 2;
    s.heads = 1;
  }
  s.d_model = key_range("dModel").clamp(s.d_model);
  // An imported scene takes its heads and layers from the file (update_imported_results).
  const bool imported = s.source == SceneSource::Imported;
  if (!imported) s.heads = key_range("heads").clamp(s.heads);
  if (!imported && s.d_model % s.heads != 0) s.heads = 1;
  clamp_math(s.math, n, "");
  clamp_math(s.compare_math, n, "compare.");
  s.cursor = std::clamp(s.cursor, -1, std::max(0, n - 1));
  s.cursor_key = std::clamp(s.cursor_key, -1, std::max(0, n - 1));
  s.head = std::clamp(s.head, 0, s.heads - 1);
  s.diff_head = std::clamp(s.diff_head, 0, s.heads - 1);
  // Generated and worked-example scenes have one layer; the trained scene's model and an
  // imported file say how many they have (update_results clamps to them).
  if (s.source == SceneSource::Trained) s.layer = std::clamp(s.layer, 0, train::kMaxLayers - 1);
  else if (s.source == SceneSource::Language) s.layer = std::clamp(s.layer, 0, lm::kLanguageModelLimits.layers - 1);
  else if (!imported) s.layer = 0;
  s.lm.shown = std::clamp(s.lm.shown, 0, s.lm.tokens);
  s.ui_scale = key_range("uiScale").clamp(s.ui_scale, 1.0f);
  return s;
}

PipelineConfig pipeline_config(const Settings& s, const MathSettings& m, int n) {
  PipelineConfig c;
  c.d_model = s.d_model;
  c.heads = s.heads;
  c.score = m.score;
  c.scale_kind = m.scale_kind;
  c.custom_scale = m.custom_scale;
  c.temperature = m.temperature;
  c.mask.causal = m.mask.causal;
  c.mask.window = m.mask.window;
  c.mask.stride = m.mask.stride;
  c.mask.block = m.mask.block;
  c.mask.global_tokens = m.mask.global_tokens;
  if (!m.mask.padding_tokens.empty()) {
    c.mask.key_padding.assign(n, 0);
    for (int t : m.mask.padding_tokens) c.mask.key_padding[t] = 1;
  }
  if (!m.mask.painted.empty()) {
    // Painted cells override the composed mask: the whole result becomes the custom matrix.
    BoolMat allowed = build_mask(c.mask, n, n);
    apply_painted(m.mask.painted, allowed);
    c.mask = MaskSpec{};
    c.mask.custom = allowed;
  }
  c.fill = m.fill;
  c.finite_fill = m.finite_fill;
  // Positions belong to the generated scene: the worked example, a trained model and an
  // imported file bring their own (or none).
  if (s.source != SceneSource::Generated) return c;
  const PositionalInfo& positions = positional_info(s.positional);
  c.positional = positions.encoding;
  // ALiBi's slope is the paper's per head (run_pipeline); RoPE's base and pairing the scene's.
  c.attention_positions.kind = positions.inside;
  c.attention_positions.rope_base = s.rope_base;
  c.attention_positions.rope_pairing = s.rope_pairing;
  return c;
}

namespace {

HeadMetrics mean_of(const WeightRowStats& s) {
  HeadMetrics m;
  const int rows = static_cast<int>(s.entropy.size());
  if (rows == 0) return m;
  double entropy = 0.0, max_weight = 0.0, distance = 0.0;
  for (int i = 0; i < rows; ++i) {
    entropy += s.entropy[i];
    max_weight += s.max_weight[i];
    distance += s.distance[i];
  }
  m.mean_entropy = static_cast<float>(entropy / rows);
  m.mean_max_weight = static_cast<float>(max_weight / rows);
  m.mean_distance = static_cast<float>(distance / rows);
  return m;
}

}  // namespace

// On the SIMD kernels: at n = 1024 the plain loops (a log per weight) took as long as the
// head's attention itself.
HeadMetrics head_metrics(const Mat& w) { return mean_of(weight_row_stats(w)); }

HeadMetrics head_metrics(const HeadTrace& head) {
  if (static_cast<Eigen::Index>(head.row_stats.entropy.size()) == head.weights.rows()) return mean_of(head.row_stats);
  return head_metrics(head.weights);
}

namespace {

void clamp_scaling_lab(ScalingLabSettings& l) {
  for (auto [key, v] : {std::pair{"lab.q", &l.q}, std::pair{"lab.k", &l.k}, std::pair{"lab.kLong", &l.k_long}})
    for (float& c : *v) c = key_range(key).clamp(c, 0.0f);
  for (auto [key, m] : {std::pair{"lab.wq", &l.wq}, std::pair{"lab.wk", &l.wk}, std::pair{"lab.wv", &l.wv}})
    for (float& c : *m) c = key_range(key).clamp(c, 0.0f);
  l.dk = key_range("lab.dk").clamp(l.dk);
  l.temperature = key_range("lab.temperature").clamp(l.temperature, 1.0f);
  if (l.row.empty()) l.row = {0.0f};
  if (l.row.size() > static_cast<size_t>(kScalingLabMaxRow)) l.row.resize(kScalingLabMaxRow);
  for (float& x : l.row) x = key_range("lab.row").clamp(x, 0.0f);
}

// A model's scene has the model's d_model and heads, and a layer and heads that it has.
void take_model_shape(const train::ModelConfig& m, Settings& s) {
  s.d_model = m.d_model;
  s.heads = m.heads;
  s.layer = std::min(s.layer, m.layers - 1);
  s.head = std::min(s.head, m.heads - 1);
  s.diff_head = std::min(s.diff_head, m.heads - 1);
}

// The trained scene: its model fixes d_model, heads and layers; entered, the explorer's math
// starts as the model's own (dot product, its scaling, causal), so the weights shown are the
// ones the model computes. Without a trained model it falls back to the sentence.
void fix_trained_scene(AppState& state) {
  if (state.settings.source != SceneSource::Trained) return;
  if (!state.train.trained) {
    state.settings.source = SceneSource::Generated;
    state.notice = Status::error(msg::app_trained_not_loaded);
    return;
  }
  const train::ModelConfig& m = state.train.trained->model.model();
  if (!state.has_results || state.computed_for.source != SceneSource::Trained) {
    state.settings.math = MathSettings{};
    state.settings.math.scale_kind = m.scale_scores ? ScaleKind::Default : ScaleKind::None;
    state.settings.math.mask.causal = true;
  }
  take_model_shape(m, state.settings);
}

// The language scene before anything is computed: asked for without its model, it waits for
// the page to fetch it (the previous scene stays); entered, it starts from the model's own math;
// its model fixes d_model, heads and layers.
void fix_lm_scene(AppState& state) {
  if (state.settings.source != SceneSource::Language) return;
  if (!state.lm_scene) {
    state.lm_wanted_layer = state.settings.layer;
    state.settings.source = state.has_results ? state.computed_for.source : SceneSource::Generated;
    state.lm_wanted = true;
    state.notice = Status::error(state.lm_unavailable ? msg::app_lm_unavailable : msg::app_lm_loading);
  } else {
    const train::ModelConfig& m = state.lm_scene->model.config;
    if (!state.has_results || state.computed_for.source != SceneSource::Language) {
      // Entering the scene: the model's own math (dot product, 1/sqrt(d_k), causal).
      state.settings.math = MathSettings{};
      state.settings.math.mask.causal = true;
      state.settings.compare = false;
    }
    take_model_shape(m, state.settings);
  }
}

// Computes the language scene's results; on a refusal says why and puts back the settings
// it last showed (false), or leaves the scene when there was none.
bool refresh_lm_scene(AppState& state) {
  const Settings& s = state.settings;
  if (Status st = update_lm_results(*state.lm_scene, s.sentence, s.math, s.lm, state.lm); !st.ok) {
    state.notice = st;
    if (state.has_results && state.computed_for.source == SceneSource::Language) {
      state.settings.sentence = state.computed_for.sentence;
      state.settings.lm = state.computed_for.lm;
    } else {
      state.settings.source = SceneSource::Generated;
    }
    return false;
  }
  return true;
}

}  // namespace

void enter_wanted_lm_scene(AppState& state) {
  if (!state.lm_wanted || !state.lm_scene) return;
  state.lm_wanted = false;
  state.notice = Status::success();
  state.settings.source = SceneSource::Language;
  state.settings.layer = state.lm_wanted_layer;  // the model's shape clamps it on the next update
}

namespace {

// The sentence's scene when only a scaling step moved (temperature, scale kind, custom
// scale of either side): its kept raw scores and masks are rescaled (rescale_pipeline), the
// projections and scores are not computed again. At n = 1024 that is most of the work.
bool rescale_results(AppState& state) {
  const Settings& s = state.settings;
  if (!state.has_results || s.source != SceneSource::Generated || !state.trace.status.ok) return false;
  if (s.compare && !state.compare_trace.status.ok) return false;
  Settings was = state.computed_for;
  for (auto [to, from] : {std::pair{&was.math, &s.math}, std::pair{&was.compare_math, &s.compare_math}}) {
    to->scale_kind = from->scale_kind;
    to->custom_scale = from->custom_scale;
    to->temperature = from->temperature;
  }
  if (!s.same_scene(was)) return false;
  const int n = static_cast<int>(state.tokens.size());
  if (!rescale_pipeline(state.trace, state.weights, pipeline_config(s, s.math, n))) return false;
  if (s.compare && !rescale_pipeline(state.compare_trace, state.weights, pipeline_config(s, s.compare_math, n)))
    return false;
  state.settings = clamped(state.settings, n);
  state.head_metrics.clear();
  for (const HeadTrace& h : state.trace.heads) state.head_metrics.push_back(head_metrics(h));
  state.computed_for = state.settings;
  ++state.revision;
  return true;
}

}  // namespace

namespace {
bool update_scene_results(AppState& state);
}  // namespace

bool update_results(AppState& state) {
  const bool changed = update_scene_results(state);
  const bool across = update_across_layers(state);  // app_state_features.cpp
  return update_cell_why(state) || across || changed;
}

namespace {

bool update_scene_results(AppState& state) {
  clamp_scaling_lab(state.settings.scaling_lab);
  // The lab's figures only while a lab panel shows them: the page's first frame does not
  // wait for them, and each sampled figure only for the panel that draws it.
  if (is_scaling_lab_panel(state.settings.panel)) {
    const bool variance = state.settings.panel == Panel::Variance;
    const bool saturation = state.settings.panel == Panel::Saturation;
    if (!state.has_scaling_lab || !(state.settings.scaling_lab == state.scaling_lab_computed_for) ||
        (variance && !state.scaling_lab.has_variance_for(state.settings.scaling_lab)) || (saturation && !state.scaling_lab.has_saturation())) {
      update_scaling_lab(state.settings.scaling_lab, state.has_scaling_lab ? &state.scaling_lab_computed_for : nullptr, state.scaling_lab, variance, saturation);
      state.scaling_lab_computed_for = state.settings.scaling_lab;
      state.has_scaling_lab = true;
    }
  }
  // The training lab's runs likewise: built when one of their panels shows or a run is asked
  // to go. They are three models with a probe and a held-out set each (the live run, and the
  // experiment's runs with and without the scale), which a page that never opens the chapter
  // does not need; once built, a run is reset only when its settings change.
  if (is_training_runs_panel(state.settings.panel) || state.train.settings.running || state.train.scaling.running)
    update_training(state.train);
  // Token-indexed settings are clamped after the tokens are known (a new sentence may be longer).
  state.settings = clamped(state.settings, kMaxTokens);
  fix_trained_scene(state);
  fix_lm_scene(state);
  const Settings& s = state.settings;
  if (state.has_results && s.same_scene(state.computed_for)) return false;
  if (rescale_results(state)) return true;
  if (s.source == SceneSource::Language && !refresh_lm_scene(state)) {
    if (state.settings.source == SceneSource::Language) return false;  // refused: the scene as it was
    return update_results(state);                                       // no scene to keep: the sentence's
  }
  if (s.source != SceneSource::Language && !state.lm.text.empty()) release_lm_text_results(state.lm);


  if (s.source == SceneSource::Imported && state.imported) {
    update_imported_results(state);
    state.computed_for = state.settings;
    state.has_results = true;
    ++state.revision;
    return true;
  }
  Mat x;
  if (s.source == SceneSource::WorkedExample) {
    state.tokens = {"token 1", "token 2"};
  } else if (s.source == SceneSource::Trained) {
    state.tokens.assign(state.train.trained->tokens.size(), std::string());
  } else if (s.source == SceneSource::Language) {
    state.tokens.assign(state.lm.attention.tokens.size(), std::string());
  } else {
    const std::vector<Token> tokens = tokenize(s.sentence);
    state.tokens.clear();
    for (const Token& t : tokens) state.tokens.push_back(t.text);
    x = token_embeddings(tokens, s.d_model, s.seed);
    state.weights = random_projection_weights(s.d_model, s.heads, s.seed ^ 0x5eedf00dull);
  }
  const int n = static_cast<int>(state.tokens.size());
  // Token-indexed settings (cursor, global and padding tokens) follow the new length.
  state.settings = clamped(state.settings, n);

  auto run = [&](const MathSettings& math) {
    const PipelineConfig c = pipeline_config(s, math, n);
    if (s.source == SceneSource::WorkedExample) {
      const WorkedExample ex = worked_example();
      return run_pipeline_qkv(ex.q, ex.k, ex.v, c);
    }
    if (s.source == SceneSource::Trained) return trained_scene_trace(*state.train.trained, s.layer, c, state.tokens);
    if (s.source == SceneSource::Language) return lm_scene_trace(*state.lm_scene, state.lm, s.layer, c, state.tokens);
    if (n == 0) {
      PipelineTrace empty;
      empty.status = Status::error(msg::app_type_a_sentence);
      return empty;
    }
    return run_pipeline(x, x, x, state.weights, c);
  };
  state.trace = run(s.math);
  state.compare_trace = s.compare ? run(s.compare_math) : PipelineTrace();
  state.key_tokens = state.tokens;  // after run: the trained and language scenes label their tokens there
  if (s.source == SceneSource::Language || s.source == SceneSource::Trained) {
    const int heads = model_grid_shape_of(state, s.source).heads;
    if (s.source == SceneSource::Language)
      model_grid(state.lm.attention.trace.weights, heads, s.layer, state.thumbnails, state.sink_share);
    else
      model_grid(trained_scene_weights(*state.train.trained), heads, s.layer, state.thumbnails, state.sink_share);
    state.thumbnails_done = static_cast<int>(state.thumbnails.size());
  }
  state.head_metrics.clear();
  if (state.trace.status.ok)
    for (const HeadTrace& h : state.trace.heads) state.head_metrics.push_back(head_metrics(h));
  state.computed_for = state.settings;
  state.has_results = true;
  ++state.revision;
  return true;
}

}  // namespace

ModelGridShape model_grid_shape(const AppState& state) {
  if (!state.has_results) return {};
  return model_grid_shape_of(state, state.computed_for.source);
}

}  // namespace attn
