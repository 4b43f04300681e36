// The state's JSON, by the table of its keys (app/state_schema.h): the writer walks the table
// (settings_json; state_to_json adds the read-only facts), the schema is the table with each
// default (state_schema_json), and the reader (apply_state_json, every door into the state)
// walks it too: each object the keys sit in must be an object holding only the table's names,
// then each key present is read by its field, then the relations between keys are checked.
// Older schema versions are migrated first.
#include "app/app_state.h"

#include "app/app_messages.h"
#include "app/state_schema.h"
#include "files/import_view.h"
#include "files/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

using json = nlohmann::json;

namespace {

// Keys state_to_json writes besides the settings: read-only ones, passed over when a state is
// read back (the version is read first), and the training lab's, read by app/train_state.h.
constexpr const char* kNotSettingsKeys[] = {"version", "tokens", "figures", "notice", "import", "training", "scalingRun"};

std::string parent_of(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

std::string last_segment(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// An object the table's keys sit in ("" at the top, "compare", "compare.mask", "lab", ...) and
// the names it holds.
struct StateObject {
  std::string path;
  std::vector<std::string> names;
};

void add_name(std::vector<StateObject>& objects, const std::string& object, const std::string& name) {
  auto it = std::find_if(objects.begin(), objects.end(), [&](const StateObject& o) { return o.path == object; });
  if (it == objects.end()) it = objects.insert(objects.end(), StateObject{object, {}});
  if (std::find(it->names.begin(), it->names.end(), name) == it->names.end()) it->names.push_back(name);
}

// The objects, parents before their children, each with every name the table puts in it.
const std::vector<StateObject>& state_objects() {
  static const std::vector<StateObject> objects = [] {
    std::vector<StateObject> out;
    for (const char* key : kNotSettingsKeys) add_name(out, "", key);
    for (const StateKey& k : state_keys())
      for (std::string path = k.path; !path.empty(); path = parent_of(path)) add_name(out, parent_of(path), last_segment(path));
    std::stable_sort(out.begin(), out.end(), [](const StateObject& a, const StateObject& b) {
      return std::count(a.path.begin(), a.path.end(), '.') + !a.path.empty() <
             std::count(b.path.begin(), b.path.end(), '.') + !b.path.empty();
    });
    return out;
  }();
  return objects;
}

// The value at a dotted path of j, or nullptr when a step is missing or not an object.
const json* value_at(const json& j, const std::string& path) {
  if (path.empty()) return &j;
  const json* node = &j;
  size_t from = 0;
  for (;;) {
    const size_t dot = path.find('.', from);
    const std::string key = path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
    if (dot == std::string::npos) return node;
    from = dot + 1;
  }
}

// Each object of the patch that the keys sit in is an object and holds only the table's names
// ("unknown key 'x' in 'mask'": an object is named by its last segment).
Status check_objects(const json& j) {
  for (const StateObject& o : state_objects()) {
    const json* v = value_at(j, o.path);
    if (!v) continue;
    const std::string name = last_segment(o.path), parent = parent_of(o.path);
    if (!v->is_object())
      return parent.empty() ? Status::error(msg::app_key_object, name) : Status::error(msg::app_key_object_in, name, parent);
    for (const auto& item : v->items()) {
      if (std::find(o.names.begin(), o.names.end(), item.key()) != o.names.end()) continue;
      return o.path.empty() ? Status::error(msg::app_unknown_key, item.key()) : Status::error(msg::app_unknown_key_in, item.key(), name);
    }
  }
  return Status::success();
}

// The relations between keys that no field checks alone (the schema's divides and
// needsEvenDk, the language scene's shown tokens), on the settings read.
Status check_relations(const json& j, const AppState& state, Settings& s) {
  // Leaving an imported file (whose head count came from the file) restores a valid head count.
  if (state.settings.source == SceneSource::Imported && s.source != SceneSource::Imported && !j.contains("heads") &&
      (s.heads > kMaxHeads || s.d_model % s.heads != 0))
    s.heads = 1;
  if (s.source == SceneSource::Generated && s.d_model % s.heads != 0)
    return Status::error(msg::app_dmodel_heads, s.d_model, s.heads);
  if (s.source == SceneSource::Generated && positional_info(s.positional).even_dk && (s.d_model / s.heads) % 2 != 0)
    return Status::error(msg::app_rope_even, s.d_model / s.heads);
  // The language scene shows at most the tokens it generates.
  if (j.contains("lm")) s.lm.shown = std::min(s.lm.shown, s.lm.tokens);
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

// Schema version 3: the language model's generation was greedy by default (temperature 0, every
// token); a link or session of its scene keeps what it showed.
Status migrate_v3(json& j) {
  const bool language = (j.contains("source") && j["source"] == "language") || j.contains("lm");
  if (!language) return Status::success();
  if (!j.contains("lm")) j["lm"] = json::object();
  if (!j["lm"].is_object()) return Status::success();  // check_objects says why
  if (!j["lm"].contains("temperature")) j["lm"]["temperature"] = 0;
  if (!j["lm"].contains("topK")) j["lm"]["topK"] = 0;
  return Status::success();
}

// The text as a JSON object of a known schema version, migrated to the current one.
Status parse_state_object(const std::string& text, json& j) {
  if (text.size() > static_cast<size_t>(kMaxStateBytes))
    return Status::error(msg::app_state_too_long, text.size(), kMaxStateBytes);
  if (Status st = parse_json(text, kMaxStateDepth, msg::app_state_not_json, j); !st.ok) return st;
  if (!j.is_object()) return Status::error(msg::app_state_not_object);
  long long version = kStateVersion;
  if (j.contains("version"))
    if (Status st = read_whole(j["version"], "version", 1, kStateVersion, version); !st.ok) return st;
  if (version == 1)
    if (Status st = migrate_v1(j); !st.ok) return st;
  if (version <= 2)
    if (Status st = migrate_v2(j); !st.ok) return st;
  if (version <= 3)
    if (Status st = migrate_v3(j); !st.ok) return st;
  return check_objects(j);
}

// Every key of the table that the patch holds, read into s by its field.
Status read_settings(const json& j, const AppState& state, Settings& s) {
  for (const StateKey& k : state_keys()) {
    const json* v = value_at(j, k.path);
    if (!v) continue;
    KeyRead r{s, state, k, last_segment(k.path), parent_of(k.path)};
    if (Status st = k.field.read(*v, r); !st.ok) return st;
  }
  return check_relations(j, state, s);
}

}  // namespace

json settings_json(const Settings& s) {
  json j;
  j["version"] = kStateVersion;
  for (const StateKey& k : state_keys()) {
    json* slot = &j;
    size_t from = 0;
    for (size_t dot; (dot = k.path.find('.', from)) != std::string::npos; from = dot + 1)
      slot = &(*slot)[k.path.substr(from, dot - from)];
    k.field.write(s, (*slot)[k.path.substr(from)]);
  }
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
  figures["lmText"] = lm_text_run_json(state.lm_text);
  figures["cell"] = cell_why_json(state.cell);
  figures["lmPatch"] = lm_patch_json(state.lm_patch, state.settings.patch);
  figures["overview"] = overview_json(state.overview);
  figures["acrossLayers"] = across_layers_json(state.across, state.settings.across, state.settings.rollout_residual,
                                               state.settings.layer, state.settings.cursor);
  j["training"] = training_settings_json(state.train);
  j["scalingRun"] = scaling_settings_json(state.train);
  figures["training"] = training_figures_json(state.train);
  j["figures"] = figures;
  if (!state.notice.ok) j["notice"] = state.notice.message;
  return json_text(j);
}

std::string state_schema_json() {
  const json defaults = settings_json(Settings{});
  json out = json::array();
  for (const StateKey& k : state_keys()) {
    json e = {{"path", k.path}, {"kind", k.kind}};
    const std::string kind = k.kind;
    if (kind != "bool" && kind != "enum" && kind != "string" && kind != "tokens" && kind != "cells") {
      e["min"] = k.min;
      e["max"] = k.max;
    }
    if (!k.choices.empty()) e["choices"] = k.choices;
    if (k.length) e["length"] = k.length;
    if (k.below) e["below"] = k.below;
    if (k.divides) e["divides"] = k.divides;
    if (k.fixed) e["fixed"] = true;
    if (!k.needs_even_dk.empty()) e["needsEvenDk"] = k.needs_even_dk;
    if (!k.loaded_choices.empty()) e["loadedChoices"] = k.loaded_choices;
    const json* d = value_at(defaults, k.path);
    e["default"] = d ? *d : json(nullptr);
    out.push_back(e);
  }
  return json_text(out);
}

Status apply_state_json(AppState& state, const std::string& text) {
  json j;
  if (Status st = parse_state_object(text, j); !st.ok) return st;
  // Every step reads into copies; the state changes only once all of them have succeeded.
  Settings s = state.settings;
  if (Status st = read_settings(j, state, s); !st.ok) return st;
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
  // An exercise (app/exercises.h) follows the same rule.
  if (j.contains("tour") || j.contains("exercise")) {
    static const char* const kView[] = {"version", "tour", "exercise", "language", "theme", "presentation", "uiScale",
                                        "weightRange"};
    bool only_view = true;
    for (const auto& [key, value] : j.items())
      if (std::find(std::begin(kView), std::end(kView), key) == std::end(kView)) only_view = false;
    if (j.contains("tour")) {
      if (!only_view) state.tour_opened = s.tour;
      else if (state.tour_opened == s.tour) state.tour_opened = -1;  // the same step asked again: opened again
    }
    if (j.contains("exercise")) {
      if (!only_view) state.exercise.set_opened(s.exercise);
      else if (state.exercise.opened == s.exercise) state.exercise.set_opened(-1);
    }
  }
  return Status::success();
}

}  // namespace attn
