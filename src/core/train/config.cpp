#include "core/train/config.h"

#include "core/train/train_messages.h"

#include <cmath>
#include <string>

namespace attn::train {

Status validate_train_config(const TrainConfig& c) {
  const int task = static_cast<int>(c.task);
  if (task < 0 || task > static_cast<int>(TrainTask::Induction)) return Status::error(msg::train_unknown_task);
  if (c.d_mlp != 0 && (c.d_mlp < 1 || c.d_mlp > kMaxDMlp))
    return Status::error(msg::train_d_mlp_range, kMaxDMlp, c.d_mlp);
  if (c.batch < 1 || c.batch > kMaxBatch)
    return Status::error(msg::train_batch_range, kMaxBatch, c.batch);
  if (!(c.learning_rate > 0.0f && c.learning_rate <= 1.0f))
    return Status::error(msg::train_learning_rate_range);
  if (!(c.beta1 >= 0.0f && c.beta1 < 1.0f)) return Status::error(msg::train_beta1_range);
  if (!(c.beta2 >= 0.0f && c.beta2 < 1.0f)) return Status::error(msg::train_beta2_range);
  if (!(c.epsilon > 0.0f && c.epsilon <= 1.0f)) return Status::error(msg::train_epsilon_range);
  if (c.seed > kMaxSeed) return Status::error(msg::train_seed_range);
  return validate_model_config(model_config(c));
}

int default_steps(TrainTask task) {
  // Measured with the default model over seeds 1-5 (docs/TRAINING.md): each budget is at
  // least 1.7 times the step at which the slowest seed first passed 99% held-out accuracy
  // (copy, reverse 200 -> 1000; previous 200 -> 500; induction 1800 -> 3000; sort 3100 -> 6000).
  switch (task) {
    case TrainTask::Copy: return 1000;
    case TrainTask::Reverse: return 1000;
    case TrainTask::Sort: return 6000;
    case TrainTask::PreviousToken: return 500;
    case TrainTask::Induction: return 3000;
  }
  return 1000;
}

ModelConfig model_config(const TrainConfig& c) {
  const TaskSpec& spec = task_spec(c.task);
  ModelConfig m;
  m.vocab = spec.vocab;
  m.context = spec.context;
  m.layers = c.layers;
  m.heads = c.heads;
  m.d_model = c.d_model;
  m.d_mlp = c.d_mlp == 0 ? c.d_model : c.d_mlp;
  m.scale_scores = c.scale_scores;
  m.init = c.init;
  return m;
}

std::uint64_t stream_seed(std::uint64_t seed, Stream stream, std::uint64_t index) {
  // splitmix64's finaliser over a combination of the three: nearby inputs give unrelated seeds.
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + (static_cast<std::uint64_t>(stream) << 56) + index;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace attn::train
