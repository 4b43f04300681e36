#include "core/train/trainer.h"

#include "core/base/rng.h"
#include "core/train/model_file.h"
#include "core/train/train_messages.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attn::train {

namespace {

// The task's fixed probe sequence: the first sequence of a fixed stream.
constexpr std::uint64_t kProbeSequenceSeed = 7;
constexpr int kEvalChunk = 64;  // sequences per forward pass when evaluating

}  // namespace

Status Trainer::reset(const TrainConfig& config) {
  if (Status st = validate_train_config(config); !st.ok) return st;
  config_ = config;
  model_ = model_config(config);
  params_ = initial_parameters(model_, stream_seed(config.seed, Stream::Init, 0));
  grads_.assign(params_.size(), 0.0f);
  adam_m_.assign(params_.size(), 0.0f);
  adam_v_.assign(params_.size(), 0.0f);
  steps_ = 0;
  beta1_power_ = beta2_power_ = 1.0;
  loss_history_.clear();
  accuracy_history_.clear();
  ready_ = true;
  return Status::success();
}

Status Trainer::load(const std::uint8_t* bytes, std::size_t size) {
  ModelFile f;
  if (Status st = parse_model_file(bytes, size, f); !st.ok) return st;
  config_ = f.config;
  model_ = model_config(f.config);
  params_ = std::move(f.parameters);
  grads_.assign(params_.size(), 0.0f);
  if (f.has_optimizer) {
    adam_m_ = std::move(f.adam_m);
    adam_v_ = std::move(f.adam_v);
  } else {
    adam_m_.assign(params_.size(), 0.0f);
    adam_v_.assign(params_.size(), 0.0f);
  }
  steps_ = static_cast<std::int64_t>(f.steps);
  // The same products step() would have formed, so a resumed run matches bit for bit.
  beta1_power_ = beta2_power_ = 1.0;
  for (std::int64_t i = 0; i < steps_; ++i) {
    beta1_power_ *= static_cast<double>(config_.beta1);
    beta2_power_ *= static_cast<double>(config_.beta2);
  }
  loss_history_ = std::move(f.loss_history);
  accuracy_history_ = std::move(f.accuracy_history);
  ready_ = true;
  return Status::success();
}

std::vector<std::uint8_t> Trainer::save(bool with_optimizer) const {
  if (!ready_) return {};
  ModelFile f;
  f.config = config_;
  f.config.d_mlp = model_.d_mlp;
  f.steps = static_cast<std::uint64_t>(steps_);
  f.parameters = params_;
  f.has_optimizer = with_optimizer;
  if (with_optimizer) {
    f.adam_m = adam_m_;
    f.adam_v = adam_v_;
  }
  f.loss_history = loss_history_;
  f.accuracy_history = accuracy_history_;
  return serialize_model_file(f);
}

Status Trainer::step(int n) {
  if (!ready_) return Status::error(msg::train_no_model);
  if (n < 0 || n > kMaxStepsPerCall) return Status::error(msg::train_steps_per_call_range, kMaxStepsPerCall);
  const TaskSpec& spec = task();
  const float b1 = config_.beta1, b2 = config_.beta2, eps = config_.epsilon, lr = config_.learning_rate;
  for (int s = 0; s < n; ++s) {
    // 1 this step's batch, a function of (seed, step) only
    Rng rng(stream_seed(config_.seed, Stream::TrainBatch, static_cast<std::uint64_t>(steps_)));
    batch_ = Batch{};
    generate_batch(spec, rng, config_.batch, batch_);
    // 2 forward, 3 backward
    const CrossEntropyResult r = model_forward(model_, params_.data(), batch_, acts_, true);
    if (!std::isfinite(r.loss))
      return Status::error(msg::train_loss_not_finite, steps_ + 1);
    model_backward(model_, params_.data(), batch_, acts_, grads_.data());
    // 4 Adam: m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2,
    //   p -= lr m_hat / (sqrt(v_hat) + eps)  with m_hat = m / (1 - b1^t), v_hat = v / (1 - b2^t)
    beta1_power_ *= static_cast<double>(b1);
    beta2_power_ *= static_cast<double>(b2);
    const float correction1 = static_cast<float>(1.0 - beta1_power_);
    const float correction2 = static_cast<float>(1.0 - beta2_power_);
    const std::size_t count = params_.size();
    for (std::size_t i = 0; i < count; ++i) {
      const float g = grads_[i];
      adam_m_[i] = b1 * adam_m_[i] + (1.0f - b1) * g;
      adam_v_[i] = b2 * adam_v_[i] + (1.0f - b2) * g * g;
      const float m_hat = adam_m_[i] / correction1;
      const float v_hat = adam_v_[i] / correction2;
      params_[i] -= lr * m_hat / (std::sqrt(v_hat) + eps);
    }
    // 5 history
    ++steps_;
    loss_history_.push_back(static_cast<float>(r.loss));
    accuracy_history_.push_back(r.scored > 0 ? static_cast<float>(r.correct) / static_cast<float>(r.scored) : 0.0f);
  }
  return Status::success();
}

Evaluation Trainer::evaluate(int sequences) const {
  Evaluation e;
  if (!ready_ || sequences < 1) return e;
  if (sequences > kMaxEvalSequences) sequences = kMaxEvalSequences;
  Rng rng(stream_seed(config_.seed, Stream::HeldOut, 0));
  Activations<float> acts;
  double loss_sum = 0.0;
  long scored = 0, correct = 0, sequences_right = 0;
  for (int done = 0; done < sequences; done += kEvalChunk) {
    const int chunk = std::min(kEvalChunk, sequences - done);
    Batch b;
    generate_batch(task(), rng, chunk, b);
    const CrossEntropyResult r = model_forward(model_, params_.data(), b, acts, false);
    loss_sum += r.loss * r.scored;
    scored += r.scored;
    correct += r.correct;
    for (int s = 0; s < chunk; ++s) {
      bool all = true;
      for (int t = 0; t < b.context; ++t) {
        const std::size_t i = static_cast<std::size_t>(s) * b.context + t;
        if (b.scored[i] && acts.predictions[i] != b.targets[i]) all = false;
      }
      sequences_right += all ? 1 : 0;
    }
  }
  e.sequences = sequences;
  e.loss = scored ? loss_sum / scored : 0.0;
  e.token_accuracy = scored ? static_cast<double>(correct) / scored : 0.0;
  e.sequence_accuracy = static_cast<double>(sequences_right) / sequences;
  return e;
}

std::vector<HeadScore> Trainer::head_scores() const {
  if (!ready_) return {};
  return train::head_scores(model_, params_.data());
}

ProbeView Trainer::probe() const {
  ProbeView v;
  if (!ready_) return v;
  Rng rng(kProbeSequenceSeed);
  Batch b;
  generate_batch(task(), rng, 1, b);
  Activations<float> acts;
  model_forward(model_, params_.data(), b, acts, false);
  const int T = model_.context;
  v.context = T;
  v.tokens = b.tokens;
  v.targets = b.targets;
  v.scored = b.scored;
  v.predictions = acts.predictions;
  v.layers = model_.layers;
  v.heads = model_.heads;
  for (int l = 0; l < model_.layers; ++l)
    for (int h = 0; h < model_.heads; ++h)
      v.weights.push_back(Eigen::Map<const Mat>(acts.layers[l].weights.data() + static_cast<std::size_t>(h) * T * T, T, T));
  return v;
}

}  // namespace attn::train
