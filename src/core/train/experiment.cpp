#include "core/train/experiment.h"

#include "core/train/train_messages.h"
#include "core/train/trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

namespace attn::train {

double window_mean(const std::vector<float>& loss, std::size_t end, int window) {
  const std::size_t begin = end >= static_cast<std::size_t>(window) ? end - window : 0;
  if (end <= begin) return 0.0;
  double sum = 0.0;
  for (std::size_t i = begin; i < end; ++i) sum += loss[i];
  return sum / static_cast<double>(end - begin);
}

int steps_to_reach(const std::vector<float>& loss, float target, int window) {
  for (std::size_t end = static_cast<std::size_t>(window); end <= loss.size(); ++end)
    if (window_mean(loss, end, window) <= target) return static_cast<int>(end);
  return -1;
}

double late_peak(const std::vector<float>& loss) {
  double peak = 0.0;
  for (std::size_t t = loss.size() / 2; t < loss.size(); ++t) peak = std::max(peak, static_cast<double>(loss[t]));
  return peak;
}

double median_steps(std::vector<int> steps) {
  if (steps.empty()) return -1.0;
  std::vector<double> v;
  for (int s : steps) v.push_back(s < 0 ? std::numeric_limits<double>::infinity() : s);
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double m = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return std::isinf(m) ? -1.0 : m;
}

Status validate_scaling_settings(const ScalingSettings& s) {
  if (s.seeds.empty()) return Status::error(msg::train_no_seeds);
  if (s.steps < 1 || s.steps > kMaxStepsPerCall) return Status::error(msg::train_steps_range, kMaxStepsPerCall);
  if (s.window < 1 || s.window > s.steps) return Status::error(msg::train_window_range);
  if (!(s.target_loss > 0.0f) || !std::isfinite(s.target_loss)) return Status::error(msg::train_target_loss_range);
  if (s.eval_sequences < 1 || s.eval_sequences > kMaxEvalSequences) return Status::error(msg::train_eval_sequences_range);
  for (int heads : {s.heads, s.control_heads}) {
    TrainConfig c;
    c.task = s.task;
    c.layers = s.layers;
    c.d_model = s.d_model;
    c.heads = heads;
    c.init = s.init;
    c.batch = s.batch;
    c.learning_rate = s.learning_rate;
    if (Status st = validate_train_config(c); !st.ok) return st;
  }
  return Status::success();
}

Status run_scaling_experiment(const ScalingSettings& s, std::vector<ScalingRun>& runs,
                              const std::function<void(const ScalingRun&)>& progress) {
  if (Status st = validate_scaling_settings(s); !st.ok) return st;
  runs.clear();
  for (int heads : {s.heads, s.control_heads})
    for (std::uint64_t seed : s.seeds)
      for (bool scaled : {true, false}) {
        TrainConfig c;
        c.task = s.task;
        c.layers = s.layers;
        c.d_model = s.d_model;
        c.heads = heads;
        c.scale_scores = scaled;
        c.init = s.init;
        c.batch = s.batch;
        c.learning_rate = s.learning_rate;
        c.seed = seed;
        Trainer t;
        if (Status st = t.reset(c); !st.ok) return st;
        const auto t0 = std::chrono::steady_clock::now();
        const Status st = t.step(s.steps);
        ScalingRun r;
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!st.ok)
          return st.within(scaled ? msg::train_seed_scaled : msg::train_seed_unscaled, seed);
        r.seed = seed;
        r.d_k = s.d_model / heads;
        r.scaled = scaled;
        r.loss = t.loss_history();
        r.steps_to_target = steps_to_reach(r.loss, s.target_loss, s.window);
        r.final_loss = window_mean(r.loss, r.loss.size(), s.window);
        r.late_peak = late_peak(r.loss);
        r.held_out_accuracy = t.evaluate(s.eval_sequences).token_accuracy;
        if (progress) progress(r);
        runs.push_back(std::move(r));
      }
  return Status::success();
}

}  // namespace attn::train
