// What a training run is: the task, the model's shape, the optimizer's settings and the
// seed. Everything a run does follows from this struct and the step count, so two runs with
// the same config see the same data and start from the same weights (the scaling
// experiment's runs differ only in scale_scores), and a saved run resumes exactly.
//
// The defaults are the lab's default model (docs/TRAINING.md gives their step budgets).
#pragma once

#include "core/train/model.h"
#include "core/train/tasks.h"
#include "core/base/types.h"

#include <cstdint>

namespace attn::train {

struct TrainConfig {
  TrainTask task = TrainTask::Copy;
  int layers = 2;
  int heads = 2;
  int d_model = 32;
  int d_mlp = 0;  // 0 = d_model
  bool scale_scores = true;
  InitScheme init = InitScheme::Unit;
  int batch = 16;               // sequences per step
  float learning_rate = 3e-3f;  // Adam, constant
  float beta1 = 0.9f;
  float beta2 = 0.98f;
  float epsilon = 1e-8f;
  std::uint64_t seed = 1;       // weights and data; up to 2^53 - 1 (exact in JavaScript)
};

inline constexpr int kMaxBatch = 256;
inline constexpr std::uint64_t kMaxSeed = (std::uint64_t{1} << 53) - 1;

// The step budget `attnlab-cli train` uses when --steps is not given (docs/TRAINING.md).
int default_steps(TrainTask task);

// Ranges of every field; the message names the field.
Status validate_train_config(const TrainConfig& config);
// The model the config describes, with the task's vocabulary and context.
ModelConfig model_config(const TrainConfig& config);

// The independent random streams of a run, each an attn::Rng seeded from (seed, stream, index):
// the initial weights, the training batch of step i, the held-out sequences.
enum class Stream : std::uint32_t { Init = 1, TrainBatch = 2, HeldOut = 3 };
std::uint64_t stream_seed(std::uint64_t seed, Stream stream, std::uint64_t index);

}  // namespace attn::train
