// The training lab's state: a live training run the app advances a time-budgeted slice per
// frame, the scaling experiment's two runs side by side, and the trained model the
// explorer offers as a scene. No GL: the panels (ui/train_panels.cpp) only draw what is
// here, and the page's handle and the tests read the same results.
//
// A slice (train_tick) runs whole steps until its budget of milliseconds is spent (at least
// one step per running run, so a slow machine still moves), then refreshes what the panels
// show: the downsampled curves after every slice, the probe sequence's attention and the
// head scores every kProbeEvery steps, held-out accuracy every kHeldOutEvery steps.
//
// Sections: 1 settings  2 results  3 operations  4 the trained scene  5 JSON
#pragma once

#include "core/attention/pipeline.h"
#include "core/train/config.h"
#include "core/train/experiment.h"
#include "core/train/trainer.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attn {

// ---- 1 settings -------------------------------------------------------------------------

inline constexpr int kProbeEvery = 20;         // steps between probe/head-score refreshes
inline constexpr int kHeldOutEvery = 100;      // steps between held-out evaluations
inline constexpr int kHeldOutSequences = 128;  // fresh sequences per held-out evaluation
inline constexpr int kCurvePoints = 400;       // a plotted curve holds at most this many points
inline constexpr double kDefaultSliceMs = 6.0; // training time per frame
inline constexpr int kScalingTaskSteps = 1000; // the scaling experiment's budget per run
inline constexpr float kScalingTargetLoss = 0.1f;
inline constexpr int kScalingWindow = 20;

// The live run: what the next reset builds. A change to any of these resets the run.
struct TrainSettings {
  train::TrainTask task = train::TrainTask::Induction;
  int layers = 2;
  int heads = 2;
  int d_model = 32;
  std::uint64_t seed = 1;
  bool running = false;
  bool same_run(const TrainSettings& o) const {
    return task == o.task && layers == o.layers && heads == o.heads && d_model == o.d_model && seed == o.seed;
  }
};

// The scaling experiment: copy task, 2 layers, one head of width d_k (d_model = d_k),
// trained twice from the same seed on the same batches, with and without 1/sqrt(d_k).
struct ScalingRunSettings {
  int d_k = 64;
  train::InitScheme init = train::InitScheme::Unit;
  std::uint64_t seed = 1;
  bool running = false;
  bool same_run(const ScalingRunSettings& o) const { return d_k == o.d_k && init == o.init && seed == o.seed; }
};

// ---- 2 results --------------------------------------------------------------------------

struct HeldOutPoint {
  std::int64_t step = 0;
  float accuracy = 0.0f;  // token accuracy on kHeldOutSequences fresh sequences
  float loss = 0.0f;
};

// A curve reduced to at most kCurvePoints points (mean of each bucket of steps).
struct CurvePlot {
  std::vector<float> step, value;
};

struct TrainRun {
  train::Trainer trainer;
  TrainSettings computed_for;
  std::vector<HeldOutPoint> held_out;
  CurvePlot loss_plot, accuracy_plot;
  train::ProbeView probe;
  std::vector<std::string> probe_labels;  // one per probe position ("|" = separator/padding)
  std::vector<train::HeadScore> scores;
  std::int64_t probe_step = -1;  // the step the probe and scores were computed at
  std::uint64_t revision = 0;    // bumped whenever anything above changes
  double steps_per_second = 0;   // training steps per second of wall time, while running
  double compute_steps_per_second = 0;  // steps per second of time spent inside step()
  Status error;                  // the last refused file or a stopped run, shown in the panel
};

struct ScalingRunState {
  train::Trainer scaled, unscaled;
  ScalingRunSettings computed_for;
  CurvePlot scaled_plot, unscaled_plot;
  int scaled_steps_to_target = -1, unscaled_steps_to_target = -1;
  double scaled_late_peak = 0, unscaled_late_peak = 0;
  std::uint64_t revision = 0;
  double steps_per_second = 0;  // paired steps (one of each run) per second of wall time
  Status error;
};

// The shipped trained model, shown by the explorer as the "trained" scene.
struct TrainedScene {
  train::Trainer model;
  std::vector<int> tokens;  // the task's probe sequence, trailing padding cut
  std::string name;         // where it came from (file name)
};

// Rate meter: steps counted over at least half a second of wall time.
struct RateMeter {
  double window_seconds = 0, window_steps = 0, compute_seconds = 0;
  double last_time = -1;
};

struct TrainState {
  TrainSettings settings;
  ScalingRunSettings scaling;
  TrainRun run;
  ScalingRunState experiment;
  std::shared_ptr<const TrainedScene> trained;  // null until a model is loaded
  double slice_ms = kDefaultSliceMs;
  RateMeter run_meter, experiment_meter;
};

// ---- 3 operations -----------------------------------------------------------------------

// Starts a run (live or experiment) whose settings changed or that has never started.
// Returns true if it reset anything. update_results calls it while a training panel shows or
// a run is asked to go; before that nothing is built (figures.training: step 0, probeStep -1).
bool update_training(TrainState& state);

// One frame's slice: runs steps for the running runs within `budget_ms` (split evenly
// between the live run and the experiment when both run), then refreshes their results.
// `now_seconds` is the caller's clock (steps per second use it). Runs never built are left so.
void train_tick(TrainState& state, double budget_ms, double now_seconds);

// Back to step 0 with the current settings (paused).
void train_reset(TrainState& state);
void scaling_reset(TrainState& state);

// The live run as a weight file (with the optimizer state, so it continues exactly).
std::vector<std::uint8_t> train_save(const TrainState& state);
// Loads a weight file into the live run (paused); the settings follow the file. On error the
// run is unchanged, run.error says why and the status is returned. `held_out` (may be null)
// restores a saved session's held-out curve; otherwise it starts with one evaluation.
Status train_load(TrainState& state, const std::uint8_t* bytes, std::size_t size,
                  const std::vector<HeldOutPoint>* held_out = nullptr);
Status train_load_file(TrainState& state, const std::string& path);
Status train_save_file(const TrainState& state, const std::string& path);

// ---- 4 the trained scene ----------------------------------------------------------------

// Loads a weight file as the explorer's trained scene. On error nothing changes.
Status load_trained_scene(TrainState& state, const std::uint8_t* bytes, std::size_t size, const std::string& name);

// The attention of one layer of the trained model on its probe sequence, as the explorer's
// trace: per head Q, K, V (the model's projections of that layer's layer-normed input), then
// the lab's stages under `config` (the model's own math is: dot, 1/sqrt(d_k) or none, causal).
// `tokens` gets one label per position.
PipelineTrace trained_scene_trace(const TrainedScene& scene, int layer, const PipelineConfig& config,
                                  std::vector<std::string>& tokens);

// Every head's weights as the model ran them on its probe sequence (layer * heads + head,
// each (n, n) over the sequence's n positions): the model view's grid and its rollout.
std::vector<Mat> trained_scene_weights(const TrainedScene& scene);

// ---- 5 JSON -----------------------------------------------------------------------------

// {"task", "layers", "heads", "dModel", "seed", "running"} and {"dk", "init", "seed", "running"}.
nlohmann::json training_settings_json(const TrainState& state);
nlohmann::json scaling_settings_json(const TrainState& state);
// The figures tests and the page read: steps, losses, held-out points, head scores, rates.
nlohmann::json training_figures_json(const TrainState& state);
// Reads a patch of "training" / "scalingRun" settings into the given copies (validated;
// nothing is written on error).
Status read_training_json(const nlohmann::json& j, TrainSettings& out);
Status read_scaling_json(const nlohmann::json& j, ScalingRunSettings& out);

}  // namespace attn
