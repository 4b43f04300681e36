#include "app/app_state.h"

#include "app/app_messages.h"
#include "app/state_schema.h"
#include "files/import_view.h"
#include "files/json_text.h"

#include "core/base/rng.h"
#include "core/base/utf8.h"
#include "core/attention/softmax.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace attn {

using json = nlohmann::json;

const char* to_string(SceneSource s) { return choice_row(kSceneSources, s).name; }

const char* to_string(Positional p) { return positional_info(p).name; }

const char* to_string(ScoreFunction f) { return choice_row(kScoreFunctions, f).name; }

namespace {

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
    state.settings.source = state.has_results ? state.computed_for.source : SceneSource::Generated;
    state.lm_wanted = true;
    state.notice = Status::error(msg::app_lm_loading);
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

bool update_results(AppState& state) {
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
  if (s.source == SceneSource::Language) {
    lm_model_grid(*state.lm_scene, state.lm, s.layer, state.thumbnails, state.sink_share);
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

ModelGridShape model_grid_shape(const AppState& state) {
  if (!state.has_results) return {};
  const SceneSource source = state.computed_for.source;
  if (source == SceneSource::Imported && state.imported) return {state.imported->layers, state.imported->heads};
  if (source == SceneSource::Language && state.lm_scene)
    return {state.lm_scene->model.config.layers, state.lm_scene->model.config.heads};
  return {};
}

// ---- JSON ---------------------------------------------------------------------------------

namespace {

json math_to_json(const MathSettings& m) {
  json j;
  if (m.scale_kind == ScaleKind::Default) j["scale"] = "default";
  else if (m.scale_kind == ScaleKind::None) j["scale"] = "none";
  else j["scale"] = m.custom_scale;
  j["temperature"] = m.temperature;
  j["score"] = to_string(m.score);
  j["mask"] = {{"causal", m.mask.causal}, {"window", m.mask.window}, {"stride", m.mask.stride},
               {"block", m.mask.block}, {"global", m.mask.global_tokens}, {"padding", m.mask.padding_tokens},
               {"painted", encode_painted(m.mask.painted)}};
  if (m.fill == MaskFill::NegInfinity) j["maskFill"] = "-inf";
  else j["maskFill"] = m.finite_fill;
  return j;
}

// key's refusal, named inside the object that holds it when that is not the top level
// ("'scale' in 'compare'"): `plain` takes the key and args, `inside` the key, where and args.
template <class... A>
Status key_error(const MessageText& plain, const MessageText& inside, const std::string& key, const std::string& where,
                 const A&... args) {
  return where.empty() ? Status::error(plain, key, args...) : Status::error(inside, key, where, args...);
}

// A bound as a person writes it in a message: 10, -100, 0.05, 1e4, -1e30.
std::string bound_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e4) return std::to_string(static_cast<long long>(v));
  const double exponent = std::log10(std::fabs(v));
  if (exponent == std::floor(exponent)) return std::string(v < 0 ? "-" : "") + "1e" + std::to_string(static_cast<int>(exponent));
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// True when d lies in [lo, hi], or rounds to a float in [float(lo), float(hi)]: settings are
// floats, and the state writes a float bound such as 0.01f or -1e30f as the double it is
// (0.0099999998, -1.00000002e30), which must read back. Never casts a double beyond float's
// range (that cast is undefined).
bool within_as_float(double d, double lo, double hi) {
  if (d >= lo && d <= hi) return true;
  if (!(std::fabs(d) <= static_cast<double>(std::numeric_limits<float>::max()))) return false;
  const float f = static_cast<float>(d);
  return f >= static_cast<float>(lo) && f <= static_cast<float>(hi);
}

Status read_number(const json& j, const std::string& key, KeyRange range, double& out) {
  const double lo = range.min, hi = range.max;
  if (!j.contains(key)) return Status::success();
  const json& v = j[key];
  if (!v.is_number()) return Status::error(msg::app_key_number, key);
  const double d = v.get<double>();
  if (!within_as_float(d, lo, hi))
    return Status::error(msg::app_key_between, key, json_text(json(lo)), json_text(json(hi)));
  out = d;
  return Status::success();
}

Status read_int(const json& j, const std::string& key, KeyRange range, long long& out) {
  const long long lo = static_cast<long long>(range.min), hi = static_cast<long long>(range.max);
  if (!j.contains(key)) return Status::success();
  const json& v = j[key];
  if (!v.is_number() || std::floor(v.get<double>()) != v.get<double>())
    return Status::error(msg::app_key_whole, key);
  const double d = v.get<double>();
  if (!(d >= static_cast<double>(lo) && d <= static_cast<double>(hi)))
    return Status::error(msg::app_key_between, key, lo, hi);
  out = static_cast<long long>(d);
  return Status::success();
}

// The int at j[key], checked against the schema's range for `path` (key's full path).
template <typename T>
Status read_int_into(const json& j, const std::string& key, const std::string& path, T& target) {
  long long v = static_cast<long long>(target);
  if (Status st = read_int(j, key, key_range(path), v); !st.ok) return st;
  target = static_cast<T>(v);
  return Status::success();
}

Status read_bool(const json& j, const std::string& key, bool& out) {
  if (!j.contains(key)) return Status::success();
  if (!j[key].is_boolean()) return Status::error(msg::app_key_bool, key);
  out = j[key].get<bool>();
  return Status::success();
}

// j[key] as the name of one of the table's rows, else `rule` with the names.
template <class Row, std::size_t N, class E>
Status read_choice(const json& j, const char* key, const Row (&table)[N], const MessageText& rule, E& out) {
  if (!j.contains(key)) return Status::success();
  const Row* row = j[key].is_string() ? choice_from_name(table, j[key].get<std::string>()) : nullptr;
  if (!row) return Status::error(rule, quoted_names(table));
  out = row->value;
  return Status::success();
}

Status read_index_list(const json& j, const std::string& key, std::vector<int>& out) {
  if (!j.contains(key)) return Status::success();
  const json& v = j[key];
  if (!v.is_array() || v.size() > static_cast<size_t>(kMaxTokens))
    return Status::error(msg::app_key_index_list, key, kMaxTokens);
  std::vector<int> list;
  for (const json& e : v) {
    if (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() >= kMaxTokens)
      return Status::error(msg::app_key_index_range, key, kMaxTokens - 1);
    list.push_back(static_cast<int>(e.get<long long>()));
  }
  out = list;
  return Status::success();
}

// `where` names the object that holds j ("" at the top).
Status check_keys(const json& j, std::initializer_list<const char*> known, const std::string& where) {
  for (const auto& item : j.items()) {
    if (std::none_of(known.begin(), known.end(), [&](const char* k) { return item.key() == k; }))
      return key_error(msg::app_unknown_key, msg::app_unknown_key_in, item.key(), where);
  }
  return Status::success();
}

// One side's math: `side` is "" (side A) or "compare." (side B), `where` "" or "compare" for messages.
Status read_math(const json& j, MathSettings& m, const std::string& side, const std::string& where) {
  const KeyRange scale = key_range(side + "scale"), fill = key_range(side + "maskFill");
  if (j.contains("scale")) {
    const json& v = j["scale"];
    if (v == "default") {
      m.scale_kind = ScaleKind::Default;
    } else if (v == "none") {
      m.scale_kind = ScaleKind::None;
    } else if (v.is_number() && v.get<double>() >= scale.min && v.get<double>() <= scale.max) {
      m.scale_kind = ScaleKind::Custom;
      m.custom_scale = v.get<float>();
    } else {
      return key_error(msg::app_scale_rule, msg::app_scale_rule_in, "scale", where, bound_text(scale.min), bound_text(scale.max));
    }
  }
  double t = m.temperature;
  if (Status st = read_number(j, "temperature", key_range(side + "temperature"), t); !st.ok) return st;
  m.temperature = static_cast<float>(t);
  if (j.contains("score")) {
    const json& v = j["score"];
    const ScoreFunctionInfo* row = v.is_string() ? choice_from_name(kScoreFunctions, v.get<std::string>()) : nullptr;
    if (!row) return key_error(msg::app_score_rule, msg::app_score_rule_in, "score", where, quoted_names(kScoreFunctions));
    m.score = row->value;
  }
  if (j.contains("mask")) {
    const json& mk = j["mask"];
    if (!mk.is_object()) return key_error(msg::app_key_object, msg::app_key_object_in, "mask", where);
    if (Status st = check_keys(mk, {"causal", "window", "stride", "block", "global", "padding", "painted"}, "mask"); !st.ok)
      return st;
    MaskSettings ms = m.mask;
    if (Status st = read_bool(mk, "causal", ms.causal); !st.ok) return st;
    if (Status st = read_int_into(mk, "window", side + "mask.window", ms.window); !st.ok) return st;
    if (Status st = read_int_into(mk, "stride", side + "mask.stride", ms.stride); !st.ok) return st;
    if (Status st = read_int_into(mk, "block", side + "mask.block", ms.block); !st.ok) return st;
    if (Status st = read_index_list(mk, "global", ms.global_tokens); !st.ok) return st;
    if (Status st = read_index_list(mk, "padding", ms.padding_tokens); !st.ok) return st;
    if (mk.contains("painted")) {
      const std::string mask_where = where.empty() ? "mask" : where + ".mask";
      if (!mk["painted"].is_string()) return Status::error(msg::app_painted_string, mask_where);
      if (Status st = decode_painted(mk["painted"].get<std::string>(), ms.painted); !st.ok)
        return st.within(msg::app_painted_in, mask_where);
    }
    m.mask = ms;
  }
  if (j.contains("maskFill")) {
    const json& v = j["maskFill"];
    if (v == "-inf") {
      m.fill = MaskFill::NegInfinity;
    } else if (v.is_number() && within_as_float(v.get<double>(), fill.min, fill.max)) {
      m.fill = MaskFill::Finite;
      m.finite_fill = v.get<float>();
    } else {
      return key_error(msg::app_fill_rule, msg::app_fill_rule_in, "maskFill", where, bound_text(fill.min), bound_text(fill.max));
    }
  }
  return Status::success();
}

// Schema version 1 (the first release): source "random", n, dK, mask "none"/"causal".
Status migrate_v1(json& j) {
  if (j.contains("source") && j["source"] == "random") j["source"] = "generated";
  if (j.contains("mask") && j["mask"].is_string()) {
    if (j["mask"] != "none" && j["mask"] != "causal") return Status::error(msg::app_v1_mask);
    j["mask"] = json{{"causal", j["mask"] == "causal"}};
  }
  j.erase("n");
  j.erase("dK");
  j.erase("appliedScale");
  return Status::success();
}

// Schema version 2: positional was a switch, true (the sinusoidal encoding) or false.
Status migrate_v2(json& j) {
  if (j.contains("positional") && j["positional"].is_boolean())
    j["positional"] = to_string(j["positional"].get<bool>() ? Positional::Sinusoidal : Positional::None);
  return Status::success();
}

}  // namespace

json settings_json(const Settings& s) {
  json j = math_to_json(s.math);
  j["version"] = kStateVersion;
  j["source"] = to_string(s.source);
  j["sentence"] = s.sentence;
  j["panel"] = to_string(s.panel);
  j["dModel"] = s.d_model;
  j["heads"] = s.heads;
  j["positional"] = to_string(s.positional);
  j["ropeBase"] = s.rope_base;
  j["ropePairing"] = choice_row(kRopePairings, s.rope_pairing).name;
  j["seed"] = s.seed;
  j["cursor"] = s.cursor;
  j["head"] = s.head;
  j["diffHead"] = s.diff_head;
  j["layer"] = s.layer;
  j["tour"] = s.tour;
  json compare = math_to_json(s.compare_math);
  compare["enabled"] = s.compare;
  j["compare"] = compare;
  j["theme"] = choice_row(kThemes, s.theme).name;
  j["weightRange"] = choice_row(kWeightRanges, s.weight_range).name;
  j["presentation"] = s.presentation;
  j["uiScale"] = s.ui_scale;
  j["language"] = choice_row(kUiLanguages, s.language).name;
  j["hideSpecial"] = s.hide_special;
  j["renormalise"] = s.renormalise;
  j["variants"] = variant_settings_json(s.variants);
  j["modern"] = modern_settings_json(s.modern);
  j["lm"] = lm_settings_json(s.lm);
  const ScalingLabSettings& l = s.scaling_lab;
  j["lab"] = {{"q", l.q}, {"k", l.k}, {"kLong", l.k_long}, {"dk", l.dk}, {"scaled", l.scaled},
              {"temperature", l.temperature}, {"row", l.row}, {"half", l.half},
              {"wq", l.wq}, {"wk", l.wk}, {"wv", l.wv}};
  return j;
}

std::string settings_to_json(const Settings& settings) { return json_text(settings_json(settings)); }

std::string state_to_json(const AppState& state) {
  const Settings& s = state.settings;
  json j = settings_json(s);
  j["tokens"] = state.tokens;
  if (s.source == SceneSource::Imported && state.imported) {
    const ImportedAttention& d = *state.imported;
    const char* format = import_format_name(d.format);
    json unavailable = json::array();
    for (const PanelInfo& p : kPanels)
      if (imported_panel_needs_qkv(state, p.panel)) unavailable.push_back(p.id);
    j["import"] = {{"name", state.imported_name}, {"format", format}, {"layers", d.layers}, {"heads", d.heads},
                   {"nQ", d.n_q}, {"nK", d.n_k}, {"batch", d.batch}, {"batchIndex", d.batch_index},
                   {"hasQkv", d.has_qkv}, {"tokensGiven", d.tokens_given}, {"keyTokens", state.key_tokens},
                   {"visibleRows", state.visible_rows}, {"visibleCols", state.visible_cols},
                   {"sinkShare", state.sink_share}, {"qkvMaxDifference", state.qkv_max_difference},
                   {"unavailablePanels", unavailable}, {"thumbnailsDone", state.thumbnails_done}};
  }

  json figures;
  figures["n"] = state.tokens.size();
  if (state.has_results && state.trace.status.ok) {
    figures["appliedScale"] = state.trace.heads.empty() ? 0.0f : state.trace.heads[0].scale;
    json heads = json::array();
    for (size_t h = 0; h < state.head_metrics.size(); ++h) {
      const HeadMetrics& m = state.head_metrics[h];
      heads.push_back({{"entropy", m.mean_entropy}, {"maxWeight", m.mean_max_weight}, {"distance", m.mean_distance}});
    }
    figures["heads"] = heads;
    json fully = json::array();
    const HeadTrace& focused = state.trace.heads[std::min<size_t>(s.head, state.trace.heads.size() - 1)];
    for (size_t i = 0; i < focused.fully_masked_rows.size(); ++i)
      if (focused.fully_masked_rows[i]) fully.push_back(i);
    figures["fullyMaskedRows"] = fully;
  } else if (state.has_results) {
    figures["error"] = state.trace.status.message;
  }
  // The lab's figures exist while (and once) a lab panel has shown them; the sampled ones
  // once their panel has ("variance" absent, empty saturation curves until then).
  if (state.has_scaling_lab && state.scaling_lab_computed_for == s.scaling_lab) {
    const ScalingLabResults& r = state.scaling_lab;
    json lab;
    lab["dotProduct"] = {{"qNorm", r.q_norm}, {"kNorm", r.k_norm}, {"cos", r.cos_qk}, {"dot", r.dot_qk},
                         {"kLongNorm", r.k_long_norm}, {"cosLong", r.cos_q_long}, {"dotLong", r.dot_q_long}};
    json var = json::array();
    for (const VariancePoint& p : r.variance) var.push_back({{"dk", p.dk}, {"raw", p.raw}, {"scaled", p.scaled}});
    if (r.has_variance_for(s.scaling_lab))
      lab["variance"] = {{"curve", var}, {"dk", s.scaling_lab.dk}, {"raw", r.var_raw_at_dk}, {"scaled", r.var_scaled_at_dk},
                         {"histRaw", r.hist_raw.counts}, {"histScaled", r.hist_scaled.counts}};
    json sat_raw = json::array(), sat_scaled = json::array();
    for (const SaturationPoint& p : r.saturation_raw)
      sat_raw.push_back({{"dk", p.d_k}, {"maxWeight", p.mean_max_weight}, {"entropy", p.mean_entropy}, {"jacobianNorm", p.mean_jacobian_norm}});
    for (const SaturationPoint& p : r.saturation_scaled)
      sat_scaled.push_back({{"dk", p.d_k}, {"maxWeight", p.mean_max_weight}, {"entropy", p.mean_entropy}, {"jacobianNorm", p.mean_jacobian_norm}});
    lab["saturation"] = {{"unscaled", sat_raw}, {"scaled", sat_scaled}, {"exampleEntropy", r.example_entropy},
                         {"exampleMax", r.example_max}, {"exampleJacobian", r.example_jacobian}};
    lab["softmax"] = {{"max", r.row_max}, {"shifted", r.shifted}, {"exps", r.exps}, {"sum", r.exp_sum}, {"weights", r.weights}};
    auto finite_or_null = [](const std::vector<float>& v) {
      json a = json::array();
      for (float x : v) a.push_back(std::isfinite(x) ? json(x) : json(nullptr));
      return a;
    };
    lab["stability"] = {{"naive32", finite_or_null(r.naive32)}, {"stable32", finite_or_null(r.stable32)},
                        {"naive16", finite_or_null(r.naive16)}, {"stable16", finite_or_null(r.stable16)},
                        {"naive32Overflow", r.naive32_overflow}, {"stable32Overflow", r.stable32_overflow},
                        {"naive16Overflow", r.naive16_overflow}, {"stable16Overflow", r.stable16_overflow},
                        {"maskedInf", r.masked_inf}, {"maskedFinite", r.masked_finite},
                        {"fullyInf", r.fully_inf}, {"fullyFinite", r.fully_finite}, {"fullyInfFlag", r.fully_inf_flag}};
    auto flat = [](const Mat& m) { return std::vector<float>(m.data(), m.data() + m.size()); };
    if (r.walk.status.ok)
      lab["walkthrough"] = {{"rawScores", flat(r.walk.raw_scores)}, {"scale", r.walk.scale}, {"scores", flat(r.walk.scores)},
                            {"weights", flat(r.walk.weights)}, {"output", flat(r.walk.output)}};
    figures["lab"] = lab;
  }
  figures["variants"] = variant_figures_json(state.variants, state.cost_chart);
  figures["variants"]["maskHistory"] = {{"undo", state.mask_history.undo_steps()}, {"redo", state.mask_history.redo_steps()}};
  figures["modern"] = modern_figures_json(state.modern, state.settings.panel);
  const bool lm_shown = state.settings.source == SceneSource::Language && state.has_results;
  figures["lm"] = lm_figures_json(state.lm_scene.get(), state.lm, lm_shown);
  if (state.lm_scene && lm_shown) {
    // The model view: its thumbnails filled, and the chosen layer's share on the first token.
    figures["lm"]["thumbnails"] = state.thumbnails_done;
    figures["lm"]["sinkShare"] = state.sink_share;
  }
  j["training"] = training_settings_json(state.train);
  j["scalingRun"] = scaling_settings_json(state.train);
  figures["training"] = training_figures_json(state.train);
  j["figures"] = figures;
  if (!state.notice.ok) j["notice"] = state.notice.message;
  return json_text(j);
}

std::string state_schema_json() { return schema_json(settings_json(Settings{})); }

namespace {

// ---- the steps of apply_state_json: each reads its keys of j into s, or says what is wrong

// The scene: where the tokens come from, the sentence, the embedding and projection sizes.
Status read_scene(const json& j, const AppState& state, Settings& s) {
  if (j.contains("source")) {
    const json& v = j["source"];
    const SceneSourceInfo* row = v.is_string() ? choice_from_name(kSceneSources, v.get<std::string>()) : nullptr;
    if (!row) return Status::error(msg::app_source_rule, quoted_names(kSceneSources));
    if (row->needs == SceneSourceNeeds::TrainedModel && !state.train.trained)
      return Status::error(msg::app_trained_not_loaded_yet);
    if (row->needs == SceneSourceNeeds::ImportedFile && !state.imported) return Status::error(msg::app_imported_needs_file);
    s.source = row->value;  // the language model: update_results asks for it if it is not here
  }
  if (j.contains("sentence")) {
    if (!j["sentence"].is_string()) return Status::error(msg::app_sentence_string);
    const std::string sentence = j["sentence"].get<std::string>();
    if (Status st = check_sentence(sentence); !st.ok) return st;
    s.sentence = sentence;
  }
  if (Status st = read_int_into(j, "dModel", "dModel", s.d_model); !st.ok) return st;
  if (Status st = read_int_into(j, "heads", "heads", s.heads); !st.ok) return st;
  // Leaving an imported file (whose head count came from the file) restores a valid head count.
  if (state.settings.source == SceneSource::Imported && s.source != SceneSource::Imported && !j.contains("heads") &&
      (s.heads > kMaxHeads || s.d_model % s.heads != 0))
    s.heads = 1;
  if (s.source == SceneSource::Generated && s.d_model % s.heads != 0)
    return Status::error(msg::app_dmodel_heads, s.d_model, s.heads);
  if (j.contains("positional")) {
    const json& v = j["positional"];
    const PositionalInfo* row = v.is_string() ? choice_from_name(kPositionals, v.get<std::string>()) : nullptr;
    if (row) s.positional = row->value;
    else if (v.is_boolean()) return Status::error(msg::app_positional_bool, quoted_names(kPositionals));
    else return Status::error(msg::app_positional_rule, quoted_names(kPositionals));
  }
  double base = s.rope_base;
  if (Status st = read_number(j, "ropeBase", key_range("ropeBase"), base); !st.ok) return st;
  s.rope_base = static_cast<float>(base);
  if (j.contains("ropePairing")) {
    const json& v = j["ropePairing"];
    const RopePairingInfo* row = v.is_string() ? choice_from_name(kRopePairings, v.get<std::string>()) : nullptr;
    if (!row) return Status::error(msg::app_rope_pairing_rule, quoted_names(kRopePairings));
    s.rope_pairing = row->value;
  }
  if (s.source == SceneSource::Generated && positional_info(s.positional).even_dk && (s.d_model / s.heads) % 2 != 0)
    return Status::error(msg::app_rope_even, s.d_model / s.heads);
  return read_int_into(j, "seed", "seed", s.seed);
}

// What is shown and how: panel, cursor, head, layer, theme, language, presentation.
Status read_view(const json& j, Settings& s) {
  if (j.contains("panel")) {
    const json& v = j["panel"];
    const std::optional<Panel> panel = v.is_string() ? panel_from_id(v.get<std::string>()) : std::nullopt;
    if (!panel) return Status::error(msg::app_panel_rule, panel_id_list());
    s.panel = *panel;
  }
  for (auto [key, target] : {std::pair{"cursor", &s.cursor}, std::pair{"head", &s.head},
                             std::pair{"diffHead", &s.diff_head}, std::pair{"layer", &s.layer},
                             std::pair{"tour", &s.tour}})
    if (Status st = read_int_into(j, key, key, *target); !st.ok) return st;
  if (Status st = read_bool(j, "hideSpecial", s.hide_special); !st.ok) return st;
  if (Status st = read_bool(j, "renormalise", s.renormalise); !st.ok) return st;
  if (Status st = read_choice(j, "theme", kThemes, msg::app_theme_rule, s.theme); !st.ok) return st;
  if (Status st = read_choice(j, "weightRange", kWeightRanges, msg::app_weight_range_rule, s.weight_range); !st.ok)
    return st;
  if (Status st = read_bool(j, "presentation", s.presentation); !st.ok) return st;
  if (Status st = read_choice(j, "language", kUiLanguages, msg::app_language_rule, s.language); !st.ok) return st;
  double ui = s.ui_scale;
  if (Status st = read_number(j, "uiScale", key_range("uiScale"), ui); !st.ok) return st;
  s.ui_scale = static_cast<float>(ui);
  return Status::success();
}

// Side A's math at the top level, side B's under "compare".
Status read_both_sides(const json& j, Settings& s) {
  if (Status st = read_math(j, s.math, "", ""); !st.ok) return st;
  if (!j.contains("compare")) return Status::success();
  const json& c = j["compare"];
  if (!c.is_object()) return Status::error(msg::app_key_object, "compare");
  if (Status st = check_keys(c, {"enabled", "scale", "temperature", "score", "mask", "maskFill"}, "compare"); !st.ok)
    return st;
  if (Status st = read_bool(c, "enabled", s.compare); !st.ok) return st;
  return read_math(c, s.compare_math, "compare.", "compare");
}

// A fixed-length list of numbers within the schema's range for lab.<key> (q, k, kLong: 2;
// wq, wk, wv: 4, a 2 x 2 matrix row by row).
template <std::size_t N>
Status read_lab_numbers(const json& l, const char* key, std::array<float, N>& out) {
  if (!l.contains(key)) return Status::success();
  const KeyRange range = key_range(std::string("lab.") + key);
  // q, k, kLong are points [x, y]; wq, wk, wv are 2 x 2 matrices, row by row.
  auto shape_error = [&] {
    return N == 2 ? Status::error(msg::app_lab_point, key, bound_text(range.max)) : Status::error(msg::app_lab_matrix, key, N);
  };
  const json& v = l[key];
  if (!v.is_array() || v.size() != N) return shape_error();
  std::array<float, N> read{};
  for (std::size_t i = 0; i < N; ++i) {
    if (!v[i].is_number() || v[i].get<double>() < range.min || v[i].get<double>() > range.max)
      return N == 2 ? shape_error() : Status::error(msg::app_lab_numbers_in, key, bound_text(range.min), bound_text(range.max));
    read[i] = v[i].get<float>();
  }
  out = read;
  return Status::success();
}

// The scaling and softmax lab's settings, under "lab".
Status read_lab(const json& j, ScalingLabSettings& out) {
  if (!j.contains("lab")) return Status::success();
  const json& l = j["lab"];
  if (!l.is_object()) return Status::error(msg::app_key_object, "lab");
  if (Status st = check_keys(l, {"q", "k", "kLong", "dk", "scaled", "temperature", "row", "half", "wq", "wk", "wv"}, "lab");
      !st.ok)
    return st;
  ScalingLabSettings lab = out;
  for (auto [key, target] : {std::pair{"q", &lab.q}, std::pair{"k", &lab.k}, std::pair{"kLong", &lab.k_long}})
    if (Status st = read_lab_numbers(l, key, *target); !st.ok) return st;
  for (auto [key, target] : {std::pair{"wq", &lab.wq}, std::pair{"wk", &lab.wk}, std::pair{"wv", &lab.wv}})
    if (Status st = read_lab_numbers(l, key, *target); !st.ok) return st;
  if (Status st = read_int_into(l, "dk", "lab.dk", lab.dk); !st.ok) return st;
  if (Status st = read_bool(l, "scaled", lab.scaled); !st.ok) return st;
  if (Status st = read_bool(l, "half", lab.half); !st.ok) return st;
  double t = lab.temperature;
  if (Status st = read_number(l, "temperature", key_range("lab.temperature"), t); !st.ok) return st;
  lab.temperature = static_cast<float>(t);
  if (l.contains("row")) {
    const json& r = l["row"];
    const KeyRange range = key_range("lab.row");
    if (!r.is_array() || r.empty() || r.size() > static_cast<size_t>(kScalingLabMaxRow))
      return Status::error(msg::app_lab_row_count, kScalingLabMaxRow);
    std::vector<float> row;
    for (const json& x : r) {
      if (!x.is_number() || x.get<double>() < range.min || x.get<double>() > range.max)
        return Status::error(msg::app_lab_numbers_in, "row", bound_text(range.min), bound_text(range.max));
      row.push_back(x.get<float>());
    }
    lab.row = row;
  }
  out = lab;
  return Status::success();
}

// The text as a JSON object of a known schema version, migrated to the current one.
Status parse_state_object(const std::string& text, json& j) {
  if (text.size() > static_cast<size_t>(kMaxStateBytes))
    return Status::error(msg::app_state_too_long, text.size(), kMaxStateBytes);
  if (Status st = parse_json(text, kMaxStateDepth, msg::app_state_not_json, j); !st.ok) return st;
  if (!j.is_object()) return Status::error(msg::app_state_not_object);
  long long version = kStateVersion;
  if (Status st = read_int(j, "version", {1, kStateVersion}, version); !st.ok) return st;
  if (version == 1)
    if (Status st = migrate_v1(j); !st.ok) return st;
  if (version <= 2)
    if (Status st = migrate_v2(j); !st.ok) return st;
  return check_keys(j, {"version", "source", "sentence", "tokens", "panel", "lm", "dModel", "heads", "scale",
                        "temperature", "score", "mask", "maskFill", "positional", "ropeBase", "ropePairing", "seed", "cursor", "head",
                        "diffHead", "layer", "tour", "compare", "theme", "weightRange", "presentation", "uiScale", "figures",
                        "notice", "lab", "variants", "language", "training", "scalingRun", "hideSpecial",
                        "renormalise", "import", "modern"},
                    "");
}

}  // namespace

Status apply_state_json(AppState& state, const std::string& text) {
  json j;
  if (Status st = parse_state_object(text, j); !st.ok) return st;
  // Every step reads into copies; the state changes only once all of them have succeeded.
  Settings s = state.settings;
  if (Status st = read_scene(j, state, s); !st.ok) return st;
  if (Status st = read_view(j, s); !st.ok) return st;
  if (Status st = read_both_sides(j, s); !st.ok) return st;
  if (Status st = read_lab(j, s.scaling_lab); !st.ok) return st;
  if (j.contains("variants"))
    if (Status st = read_variants_json(j["variants"], s.variants); !st.ok) return st;
  if (j.contains("modern"))
    if (Status st = read_modern_json(j["modern"], s.modern); !st.ok) return st;
  if (j.contains("lm"))
    if (Status st = read_lm_json(j["lm"], s.lm); !st.ok) return st;
  TrainSettings training = state.train.settings;
  if (j.contains("training"))
    if (Status st = read_training_json(j["training"], training); !st.ok) return st;
  ScalingRunSettings scaling = state.train.scaling;
  if (j.contains("scalingRun"))
    if (Status st = read_scaling_json(j["scalingRun"], scaling); !st.ok) return st;

  // The language model reads at most its context: a longer text is refused here, the scene kept.
  if (s.source == SceneSource::Language && state.lm_scene) {
    lm::Encoded encoded;
    std::vector<int> tokens;
    if (Status st = lm::read_prompt(state.lm_scene->model, s.sentence, encoded, tokens); !st.ok) return st;
  }
  state.settings = s;
  state.train.settings = training;
  state.train.scaling = scaling;
  state.notice = Status::success();
  // A patch that names a tour step and more than the view (a link or session made at that
  // step, a host setting several keys) is taken as it is; one that names the step alone
  // leaves it for update_tour to open with the step's own panel and settings (app/tour.h).
  if (j.contains("tour")) {
    static const char* const kView[] = {"version", "tour", "language", "theme", "presentation", "uiScale", "weightRange"};
    bool only_view = true;
    for (const auto& [key, value] : j.items())
      if (std::find(std::begin(kView), std::end(kView), key) == std::end(kView)) only_view = false;
    if (!only_view) state.tour_opened = s.tour;
    else if (state.tour_opened == s.tour) state.tour_opened = -1;  // the same step asked again: opened again
  }
  return Status::success();
}

}  // namespace attn
