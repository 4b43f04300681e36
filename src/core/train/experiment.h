// The tutorial's scaling experiment, reproducible: the same model trained with and without the
// 1/sqrt(d_k) factor, from the same seed (so the same initial weights and the same batches),
// at d_k = 64 and at a smaller d_k as a control, over several seeds.
//
// The seed tells it as an experience: "without 1/sqrt(d_k), at d_k = 64, a small Transformer
// trained slowly and unstably; adding it smoothed the loss curve at once". With the Unit
// initialisation q and k have unit-variance entries, so unscaled scores have a standard
// deviation of sqrt(d_k) = 8 at d_k = 64 and the softmax starts saturated; the Small
// initialisation starts every score near 0 instead. What happens is measured, not assumed:
// the CLI command `scaling-experiment` prints the table docs/TRAINING.md reports.
//
// Measures of one run (on the per-step training loss of its batches):
//   steps to target   the first step at which the mean loss of the last `window` steps is at
//                     or below the target loss (-1 = never within the budget)
//   final loss        the mean loss of the last `window` steps
//   late peak         the largest single-step loss in the second half of the budget: how far
//                     the curve still jumps back up once it has had time to settle
#pragma once

#include "core/train/config.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace attn::train {

struct ScalingSettings {
  TrainTask task = TrainTask::Copy;
  int layers = 2;
  int d_model = 64;
  int heads = 1;           // d_k = d_model / heads = 64
  int control_heads = 4;   // the control: d_k = 16, the same parameters
  InitScheme init = InitScheme::Unit;
  int batch = 16;
  float learning_rate = 3e-3f;
  int steps = 1000;        // budget per run
  float target_loss = 0.1f;
  int window = 20;
  std::vector<std::uint64_t> seeds = {1, 2, 3, 4, 5};
  int eval_sequences = 500;
};

struct ScalingRun {
  std::uint64_t seed = 0;
  int d_k = 0;
  bool scaled = true;
  std::vector<float> loss;       // per step
  int steps_to_target = -1;
  double final_loss = 0.0;
  double late_peak = 0.0;
  double held_out_accuracy = 0.0;
  double seconds = 0.0;          // training time
};

int steps_to_reach(const std::vector<float>& loss, float target, int window);
double window_mean(const std::vector<float>& loss, std::size_t end, int window);
double late_peak(const std::vector<float>& loss);
// The median with unreached runs (-1) counted as infinitely slow: returns -1 when at least
// half of them never reached the target.
double median_steps(std::vector<int> steps);

Status validate_scaling_settings(const ScalingSettings& s);

// Every (d_k, scaled, seed) run, d_k = 64 first; `progress` (may be empty) sees each run
// as it finishes. Returns an error if a setting or a run fails.
Status run_scaling_experiment(const ScalingSettings& s, std::vector<ScalingRun>& runs,
                              const std::function<void(const ScalingRun&)>& progress);

}  // namespace attn::train
