#include "app/train_state.h"

#include "app/app_messages.h"

#include "core/attention/masks.h"
#include "core/train/heads.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

namespace attn {

using json = nlohmann::json;

namespace {

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// ---- curves and refreshes ----------------------------------------------------------------

// Buckets of equal step counts, each plotted at its mean step with its mean value.
CurvePlot downsample(const std::vector<float>& values) {
  CurvePlot p;
  const std::size_t n = values.size();
  if (n == 0) return p;
  const std::size_t buckets = std::min<std::size_t>(n, kCurvePoints);
  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t lo = b * n / buckets, hi = (b + 1) * n / buckets;
    double sum = 0;
    for (std::size_t i = lo; i < hi; ++i) sum += values[i];
    p.step.push_back(static_cast<float>(lo + hi + 1) * 0.5f);  // steps are 1-based
    p.value.push_back(static_cast<float>(sum / static_cast<double>(hi - lo)));
  }
  return p;
}

void refresh_probe(TrainRun& r) {
  r.probe = r.trainer.probe();
  const int special = r.trainer.task().special();
  r.probe_labels.clear();
  for (int t : r.probe.tokens) r.probe_labels.push_back(t == special ? "|" : std::to_string(t));
  r.scores = r.trainer.head_scores();
  r.probe_step = r.trainer.steps();
}

void add_held_out(TrainRun& r) {
  const train::Evaluation e = r.trainer.evaluate(kHeldOutSequences);
  if (!r.held_out.empty() && r.held_out.back().step == r.trainer.steps()) r.held_out.pop_back();
  r.held_out.push_back({r.trainer.steps(), static_cast<float>(e.token_accuracy), static_cast<float>(e.loss)});
}

void refresh_run(TrainRun& r, bool force) {
  const std::int64_t s = r.trainer.steps();
  r.loss_plot = downsample(r.trainer.loss_history());
  r.accuracy_plot = downsample(r.trainer.accuracy_history());
  if (force || r.probe_step < 0 || s - r.probe_step >= kProbeEvery) refresh_probe(r);
  if (force || r.held_out.empty() || s - r.held_out.back().step >= kHeldOutEvery) add_held_out(r);
  ++r.revision;
}

void refresh_experiment(ScalingRunState& e) {
  e.scaled_plot = downsample(e.scaled.loss_history());
  e.unscaled_plot = downsample(e.unscaled.loss_history());
  e.scaled_steps_to_target = train::steps_to_reach(e.scaled.loss_history(), kScalingTargetLoss, kScalingWindow);
  e.unscaled_steps_to_target = train::steps_to_reach(e.unscaled.loss_history(), kScalingTargetLoss, kScalingWindow);
  e.scaled_late_peak = train::late_peak(e.scaled.loss_history());
  e.unscaled_late_peak = train::late_peak(e.unscaled.loss_history());
  ++e.revision;
}

train::TrainConfig run_config(const TrainSettings& s) {
  train::TrainConfig c;
  c.task = s.task;
  c.layers = s.layers;
  c.heads = s.heads;
  c.d_model = s.d_model;
  c.seed = s.seed;
  return c;
}

train::TrainConfig experiment_config(const ScalingRunSettings& s, bool scaled) {
  train::TrainConfig c;
  c.task = train::TrainTask::Copy;
  c.layers = 2;
  c.heads = 1;
  c.d_model = s.d_k;
  c.init = s.init;
  c.seed = s.seed;
  c.scale_scores = scaled;
  return c;
}

// Adds a slice's steps to the meter; the rate is published once half a second has passed.
void meter_add(RateMeter& m, double now, int steps, double compute_seconds, double& wall_rate, double* compute_rate) {
  if (m.last_time < 0) m.last_time = now;
  m.window_steps += steps;
  m.compute_seconds += compute_seconds;
  m.window_seconds = now - m.last_time;
  if (m.window_seconds >= 0.5) {
    wall_rate = m.window_steps / m.window_seconds;
    if (compute_rate && m.compute_seconds > 0) *compute_rate = m.window_steps / m.compute_seconds;
    m = RateMeter{};
    m.last_time = now;
  }
}

}  // namespace

// ---- 3 operations ---------------------------------------------------------------------------

void train_reset(TrainState& state) {
  TrainRun& r = state.run;
  state.settings.running = false;
  r.computed_for = state.settings;
  r.held_out.clear();
  r.error = Status::success();
  if (Status st = r.trainer.reset(run_config(state.settings)); !st.ok) r.error = st;
  r.steps_per_second = 0;
  state.run_meter = RateMeter{};
  refresh_run(r, true);
}

void scaling_reset(TrainState& state) {
  ScalingRunState& e = state.experiment;
  state.scaling.running = false;
  e.computed_for = state.scaling;
  e.error = Status::success();
  if (Status st = e.scaled.reset(experiment_config(state.scaling, true)); !st.ok) e.error = st;
  if (Status st = e.unscaled.reset(experiment_config(state.scaling, false)); !st.ok) e.error = st;
  e.steps_per_second = 0;
  state.experiment_meter = RateMeter{};
  refresh_experiment(e);
}

bool update_training(TrainState& state) {
  bool changed = false;
  if (!state.run.trainer.ready() || !state.settings.same_run(state.run.computed_for)) {
    const bool running = state.settings.running;
    train_reset(state);
    state.settings.running = running;
    changed = true;
  }
  if (!state.experiment.scaled.ready() || !state.scaling.same_run(state.experiment.computed_for)) {
    const bool running = state.scaling.running;
    scaling_reset(state);
    state.scaling.running = running;
    changed = true;
  }
  return changed;
}

void train_tick(TrainState& state, double budget_ms, double now) {
  // Runs that were never built have nothing to advance (update_results builds them for their
  // panels, and when a run is started).
  if (!state.run.trainer.ready() && !state.experiment.scaled.ready()) return;
  update_training(state);
  TrainRun& r = state.run;
  ScalingRunState& e = state.experiment;
  // The experiment stops at its budget; a finished run has nothing left to do.
  if (state.scaling.running && e.scaled.steps() >= kScalingTaskSteps) state.scaling.running = false;
  // A paused run shows its last step: probe, scores and held-out accuracy at that step.
  if (!state.settings.running && r.probe_step != r.trainer.steps()) refresh_run(r, true);
  const bool live = state.settings.running;
  const bool experiment = state.scaling.running;
  if (!live && !experiment) {
    state.run_meter = RateMeter{};
    state.experiment_meter = RateMeter{};
    return;
  }
  const double share = budget_ms / 1000.0 / ((live ? 1 : 0) + (experiment ? 1 : 0));

  if (live) {
    const double start = seconds_now();
    int steps = 0;
    do {
      if (Status st = r.trainer.step(1); !st.ok) {
        r.error = st;
        state.settings.running = false;
        break;
      }
      ++steps;
    } while (seconds_now() - start < share);
    meter_add(state.run_meter, now, steps, seconds_now() - start, r.steps_per_second, &r.compute_steps_per_second);
    refresh_run(r, false);
  }
  if (experiment) {
    // Pairs of steps keep the two runs at the same step count.
    const double start = seconds_now();
    int pairs = 0;
    do {
      Status a = e.scaled.step(1);
      Status b = e.unscaled.step(1);
      if (!a.ok || !b.ok) {
        e.error = !a.ok ? a : b;
        state.scaling.running = false;
        break;
      }
      ++pairs;
    } while (e.scaled.steps() < kScalingTaskSteps && seconds_now() - start < share);
    meter_add(state.experiment_meter, now, pairs, seconds_now() - start, e.steps_per_second, nullptr);
    refresh_experiment(e);
  }
}

std::vector<std::uint8_t> train_save(const TrainState& state) { return state.run.trainer.save(true); }

Status train_load(TrainState& state, const std::uint8_t* bytes, std::size_t size, const std::vector<HeldOutPoint>* held_out) {
  train::Trainer loaded;
  if (Status st = loaded.load(bytes, size); !st.ok) {
    state.run.error = st.within(msg::app_model_file);
    return state.run.error;
  }
  TrainRun& r = state.run;
  r.trainer = std::move(loaded);
  const train::TrainConfig& c = r.trainer.config();
  state.settings = TrainSettings{c.task, c.layers, c.heads, c.d_model, c.seed, false};
  r.computed_for = state.settings;
  r.error = Status::success();
  r.held_out.clear();
  if (held_out)
    for (const HeldOutPoint& p : *held_out)
      if (p.step >= 0 && p.step <= r.trainer.steps() && std::isfinite(p.accuracy) && std::isfinite(p.loss))
        r.held_out.push_back(p);
  r.steps_per_second = 0;
  state.run_meter = RateMeter{};
  r.probe_step = -1;
  refresh_run(r, r.held_out.empty());
  if (r.probe_step != r.trainer.steps()) refresh_probe(r);
  return Status::success();
}

Status train_load_file(TrainState& state, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    state.run.error = Status::error(msg::app_cannot_read, path);
    return state.run.error;
  }
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return train_load(state, bytes.data(), bytes.size());
}

Status train_save_file(const TrainState& state, const std::string& path) {
  const std::vector<std::uint8_t> bytes = train_save(state);
  // Written beside the target, then renamed: a failed write leaves no half file.
  const std::string tmp = path + ".part";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out || !out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
      return Status::error(msg::app_cannot_write, path);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Status::error(msg::app_cannot_write, path);
  }
  return Status::success();
}

// ---- 4 the trained scene ----------------------------------------------------------------------

Status load_trained_scene(TrainState& state, const std::uint8_t* bytes, std::size_t size, const std::string& name) {
  auto scene = std::make_shared<TrainedScene>();
  if (Status st = scene->model.load(bytes, size); !st.ok) return st.within(name);
  const train::ProbeView probe = scene->model.probe();
  scene->tokens = probe.tokens;
  const int special = scene->model.task().special();
  while (scene->tokens.size() > 2 && scene->tokens.back() == special) scene->tokens.pop_back();
  scene->name = name;
  state.trained = std::move(scene);
  return Status::success();
}

namespace {

// The model's forward pass on the probe sequence (padded to its context, which the causal
// mask makes irrelevant to the positions shown).
void probe_forward(const TrainedScene& scene, train::Activations<float>& acts) {
  const train::ModelConfig& m = scene.model.model();
  const int special = scene.model.task().special();
  train::Batch b;
  b.size = 1;
  b.context = m.context;
  b.special = special;
  b.tokens.assign(m.context, special);
  std::copy(scene.tokens.begin(), scene.tokens.end(), b.tokens.begin());
  b.targets.assign(m.context, -1);
  b.scored.assign(m.context, 0);
  train::model_forward(m, scene.model.parameters().data(), b, acts, false);
}

}  // namespace

std::vector<Mat> trained_scene_weights(const TrainedScene& scene) {
  const train::ModelConfig& m = scene.model.model();
  const int n = static_cast<int>(scene.tokens.size()), t = m.context;
  train::Activations<float> acts;
  probe_forward(scene, acts);
  std::vector<Mat> out;
  for (int l = 0; l < m.layers; ++l)
    for (int h = 0; h < m.heads; ++h) {
      // (B = 1, heads, T, T): head h's T x T block, row-major.
      const float* w = acts.layers[static_cast<std::size_t>(l)].weights.data() + static_cast<std::size_t>(h) * t * t;
      const Eigen::Map<const Mat> full(w, t, t);
      out.push_back(full.topLeftCorner(n, n));
    }
  return out;
}

PipelineTrace trained_scene_trace(const TrainedScene& scene, int layer, const PipelineConfig& config,
                                  std::vector<std::string>& tokens) {
  const train::ModelConfig& m = scene.model.model();
  const int n = static_cast<int>(scene.tokens.size());
  const int special = scene.model.task().special();
  tokens.clear();
  for (int t : scene.tokens) tokens.push_back(t == special ? "|" : std::to_string(t));

  train::Activations<float> acts;
  probe_forward(scene, acts);

  // Per head: its columns of Q, K, V in this layer, then the lab's stages
  PipelineTrace trace;
  layer = std::clamp(layer, 0, m.layers - 1);
  const train::LayerActivations<float>& la = acts.layers[layer];
  const int dk = m.d_model / m.heads;
  for (int h = 0; h < m.heads; ++h) {
    const Mat q = la.q.block(0, h * dk, n, dk), k = la.k.block(0, h * dk, n, dk), v = la.v.block(0, h * dk, n, dk);
    PipelineConfig one = config;
    one.d_model = dk;
    one.heads = 1;
    one.positional = false;  // the model's learned positions are already in x
    PipelineTrace t = run_pipeline_qkv(q, k, v, one);
    if (!t.status.ok) return t;
    if (h == 0) trace.allowed = t.allowed;
    trace.heads.push_back(std::move(t.heads[0]));
  }
  trace.concat = Mat(n, m.d_model);
  for (int h = 0; h < m.heads; ++h) trace.concat.block(0, h * dk, n, dk) = trace.heads[h].output;
  // The output projection W_o: (d, d) rows of the flat parameters.
  const train::ModelTensors<const float*> p = train::tensors_of(m, scene.model.parameters().data());
  const Eigen::Map<const Mat> wo(p.layers[layer].wo, m.d_model, m.d_model);
  trace.output = trace.concat * wo;
  return trace;
}

// ---- 5 JSON ---------------------------------------------------------------------------------

json training_settings_json(const TrainState& state) {
  const TrainSettings& s = state.settings;
  return {{"task", train::task_spec(s.task).name}, {"layers", s.layers}, {"heads", s.heads},
          {"dModel", s.d_model}, {"seed", s.seed}, {"running", s.running}};
}

json scaling_settings_json(const TrainState& state) {
  const ScalingRunSettings& s = state.scaling;
  return {{"dk", s.d_k}, {"init", s.init == train::InitScheme::Unit ? "unit" : "small"}, {"seed", s.seed},
          {"running", s.running}};
}

namespace {

json finite_or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

// The mean of the last `k` entries (or fewer), the quantity a falling curve is judged by.
double tail_mean(const std::vector<float>& v, std::size_t k) {
  if (v.empty()) return std::nan("");
  k = std::min(k, v.size());
  double s = 0;
  for (std::size_t i = v.size() - k; i < v.size(); ++i) s += v[i];
  return s / static_cast<double>(k);
}

double head_mean(const std::vector<float>& v, std::size_t k) {
  if (v.empty()) return std::nan("");
  k = std::min(k, v.size());
  double s = 0;
  for (std::size_t i = 0; i < k; ++i) s += v[i];
  return s / static_cast<double>(k);
}

}  // namespace

json training_figures_json(const TrainState& state) {
  const TrainRun& r = state.run;
  json f;
  f["steps"] = r.trainer.steps();
  f["running"] = state.settings.running;
  const std::vector<float>& loss = r.trainer.loss_history();
  f["lastLoss"] = finite_or_null(loss.empty() ? std::nan("") : loss.back());
  f["firstLoss10"] = finite_or_null(head_mean(loss, 10));  // mean of the first 10 steps
  f["lastLoss10"] = finite_or_null(tail_mean(loss, 10));   // mean of the last 10 steps
  json held = json::array();
  for (const HeldOutPoint& p : r.held_out) held.push_back({{"step", p.step}, {"accuracy", p.accuracy}, {"loss", p.loss}});
  f["heldOut"] = held;
  f["probeStep"] = r.probe_step;
  json heads = json::array();
  for (const train::HeadScore& h : r.scores)
    heads.push_back({{"layer", h.layer}, {"head", h.head}, {"previousToken", h.previous_token},
                     {"induction", h.induction}, {"diagonal", h.diagonal}, {"label", h.label}});
  f["heads"] = heads;
  f["thresholds"] = {{"previousToken", train::kPreviousTokenThreshold}, {"induction", train::kInductionThreshold}};
  f["stepsPerSecond"] = r.steps_per_second;
  f["computeStepsPerSecond"] = r.compute_steps_per_second;
  f["revision"] = r.revision;
  f["curvePoints"] = r.loss_plot.step.size();
  if (!r.error.ok) f["error"] = r.error.message;

  const ScalingRunState& e = state.experiment;
  json x;
  x["steps"] = e.scaled.steps();
  x["unscaledSteps"] = e.unscaled.steps();
  x["budget"] = kScalingTaskSteps;
  x["running"] = state.scaling.running;
  x["targetLoss"] = kScalingTargetLoss;
  x["scaledStepsToTarget"] = e.scaled_steps_to_target;
  x["unscaledStepsToTarget"] = e.unscaled_steps_to_target;
  x["scaledLastLoss10"] = finite_or_null(tail_mean(e.scaled.loss_history(), 10));
  x["unscaledLastLoss10"] = finite_or_null(tail_mean(e.unscaled.loss_history(), 10));
  x["scaledFirstLoss"] = finite_or_null(head_mean(e.scaled.loss_history(), 1));
  x["unscaledFirstLoss"] = finite_or_null(head_mean(e.unscaled.loss_history(), 1));
  x["stepsPerSecond"] = e.steps_per_second;
  if (!e.error.ok) x["error"] = e.error.message;
  f["scaling"] = x;

  if (state.trained) {
    const train::TrainConfig& c = state.trained->model.config();
    f["trainedModel"] = {{"name", state.trained->name}, {"task", train::task_spec(c.task).name}, {"layers", c.layers},
                         {"heads", c.heads}, {"dModel", c.d_model}, {"steps", state.trained->model.steps()},
                         {"tokens", state.trained->tokens.size()}};
  }
  return f;
}

namespace {

Status read_uint(const json& j, const char* key, long long lo, long long hi, const char* where, long long& out) {
  if (!j.contains(key)) return Status::success();
  const json& v = j[key];
  if (!v.is_number() || std::floor(v.get<double>()) != v.get<double>() || v.get<double>() < static_cast<double>(lo) ||
      v.get<double>() > static_cast<double>(hi))
    return Status::error(msg::app_key_whole_range_in, key, where, lo, hi);
  out = static_cast<long long>(v.get<double>());
  return Status::success();
}

Status read_flag(const json& j, const char* key, const char* where, bool& out) {
  if (!j.contains(key)) return Status::success();
  if (!j[key].is_boolean()) return Status::error(msg::app_key_bool_in, key, where);
  out = j[key].get<bool>();
  return Status::success();
}

Status check_known(const json& j, std::initializer_list<const char*> keys, const char* where) {
  if (!j.is_object()) return Status::error(msg::app_key_object, where);
  for (const auto& item : j.items())
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return item.key() == k; }))
      return Status::error(msg::app_unknown_key_in, item.key(), where);
  return Status::success();
}

}  // namespace

Status read_training_json(const json& j, TrainSettings& out) {
  if (Status st = check_known(j, {"task", "layers", "heads", "dModel", "seed", "running"}, "training"); !st.ok) return st;
  TrainSettings s = out;
  if (j.contains("task")) {
    if (!j["task"].is_string() || !train::parse_task(j["task"].get<std::string>(), s.task))
      return Status::error(msg::app_task_rule);
  }
  long long layers = s.layers, heads = s.heads, d_model = s.d_model, seed = static_cast<long long>(s.seed);
  if (Status st = read_uint(j, "layers", 1, train::kMaxLayers, "training", layers); !st.ok) return st;
  if (Status st = read_uint(j, "heads", 1, train::kMaxHeads, "training", heads); !st.ok) return st;
  if (Status st = read_uint(j, "dModel", 4, train::kMaxDModel, "training", d_model); !st.ok) return st;
  if (Status st = read_uint(j, "seed", 0, static_cast<long long>(train::kMaxSeed), "training", seed); !st.ok) return st;
  if (d_model % heads != 0)
    return Status::error(msg::app_training_dmodel_heads, d_model, heads);
  if (Status st = read_flag(j, "running", "training", s.running); !st.ok) return st;
  s.layers = static_cast<int>(layers);
  s.heads = static_cast<int>(heads);
  s.d_model = static_cast<int>(d_model);
  s.seed = static_cast<std::uint64_t>(seed);
  out = s;
  return Status::success();
}

Status read_scaling_json(const json& j, ScalingRunSettings& out) {
  if (Status st = check_known(j, {"dk", "init", "seed", "running"}, "scalingRun"); !st.ok) return st;
  ScalingRunSettings s = out;
  long long dk = s.d_k, seed = static_cast<long long>(s.seed);
  if (Status st = read_uint(j, "dk", 4, train::kMaxDModel, "scalingRun", dk); !st.ok) return st;
  if (Status st = read_uint(j, "seed", 0, static_cast<long long>(train::kMaxSeed), "scalingRun", seed); !st.ok) return st;
  if (j.contains("init")) {
    if (j["init"] == "unit") s.init = train::InitScheme::Unit;
    else if (j["init"] == "small") s.init = train::InitScheme::Small;
    else return Status::error(msg::app_init_rule);
  }
  if (Status st = read_flag(j, "running", "scalingRun", s.running); !st.ok) return st;
  s.d_k = static_cast<int>(dk);
  s.seed = static_cast<std::uint64_t>(seed);
  out = s;
  return Status::success();
}

}  // namespace attn
