// A training run the app can drive a slice at a time: reset(config), then step(n) as often
// as the frame budget allows, reading the history, held-out accuracy, head scores and the
// probe sequence's attention in between; save() and load() carry the whole run.
//
// One step: 1 draw the batch of this step (from the seed and the step number alone),
// 2 forward, 3 backward, 4 Adam (bias-corrected, constant learning rate), 5 record the
// batch's loss and accuracy. Because each batch depends only on (seed, step), a run saved
// after k steps and loaded again continues exactly as if it had never stopped.
//
// Not here: timing (the caller measures steps per second), threads, learning-rate schedules.
#pragma once

#include "core/train/config.h"
#include "core/train/heads.h"
#include "core/train/model.h"
#include "core/train/tasks.h"
#include "core/base/types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn::train {

inline constexpr int kMaxStepsPerCall = 1000000;
inline constexpr int kMaxEvalSequences = 100000;

// Held-out results on fresh sequences (a stream no training batch is drawn from).
struct Evaluation {
  int sequences = 0;
  double loss = 0.0;               // mean cross-entropy over the scored positions
  double token_accuracy = 0.0;     // scored positions whose argmax is the target
  double sequence_accuracy = 0.0;  // sequences with every scored position right
};

// The fixed probe sequence of the task (the same for every run of the task) and what each
// head does on it: what the app draws while training runs.
struct ProbeView {
  int context = 0;
  std::vector<int> tokens, targets, predictions;  // (context) each; targets -1 where not scored
  std::vector<std::uint8_t> scored;
  int layers = 0, heads = 0;
  std::vector<Mat> weights;  // layers * heads entries, [layer * heads + head], each (context, context)
};

class Trainer {
 public:
  // A new run: weights from the seed, step 0, empty history.
  Status reset(const TrainConfig& config);
  // A saved run (train_file.h); the trainer is unchanged on error.
  Status load(const std::uint8_t* bytes, std::size_t size);
  // The run as bytes; without the optimizer state the file is a third of the size, and a
  // run loaded from it continues with fresh Adam moments.
  std::vector<std::uint8_t> save(bool with_optimizer = true) const;

  // n steps (0..kMaxStepsPerCall). Stops with an error if the loss stops being finite.
  Status step(int n);

  bool ready() const { return ready_; }
  const TrainConfig& config() const { return config_; }
  const ModelConfig& model() const { return model_; }
  const TaskSpec& task() const { return task_spec(config_.task); }
  std::int64_t steps() const { return steps_; }
  const std::vector<float>& loss_history() const { return loss_history_; }      // per step
  const std::vector<float>& accuracy_history() const { return accuracy_history_; }  // per step, batch
  const std::vector<float>& parameters() const { return params_; }

  // Held-out loss and accuracy on `sequences` fresh sequences (the same ones at every call).
  Evaluation evaluate(int sequences) const;
  std::vector<HeadScore> head_scores() const;
  ProbeView probe() const;

 private:
  TrainConfig config_;
  ModelConfig model_;
  bool ready_ = false;
  std::int64_t steps_ = 0;
  double beta1_power_ = 1.0, beta2_power_ = 1.0;  // beta^steps, for Adam's bias correction
  std::vector<float> params_, grads_, adam_m_, adam_v_;
  std::vector<float> loss_history_, accuracy_history_;
  Activations<float> acts_;  // reused between steps
  Batch batch_;
};

}  // namespace attn::train
