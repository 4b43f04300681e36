// Training the language model on a corpus (corpus.h): windows of the training stream, the
// core/train engine's forward and backward passes, Adam with warm-up and a linear decay.
//
// One step: 1 draw `batch` windows of context + 1 tokens at uniform positions of the training
// stream (from the seed and the step number alone), 2 forward and backward on `slices`
// equal slices of the batch (`threads` of them at once), each with its own activations and gradients, 3 sum the
// slices' gradients in slice order and divide by the slice count (each slice's loss is its
// mean, so this is the whole batch's mean), 4 clip the gradient to global norm 1, 5 Adam with
// the step's learning rate: linear warm-up over `warmup` steps, then linear decay to
// `final_lr_fraction` of the peak at the last step. Every target is scored, the start token
// included (the model learns where an entry ends).
//
// The run depends on the config only (not on `threads`): the same config gives the same bits
// on any machine of the same kind.
#pragma once

#include "core/base/types.h"
#include "core/lm/corpus.h"
#include "core/lm/evaluate.h"
#include "core/lm/language_model.h"

#include <cstdint>
#include <vector>

namespace attn::lm {

struct LmTrainConfig {
  int context = 128;
  int layers = 2;
  int heads = 4;
  int d_model = 96;
  int d_mlp = 384;
  int min_count = 5;            // vocabulary: characters seen at least this often in training
  int batch = 16;               // windows per step
  int steps = 3000;
  float learning_rate = 2e-3f;  // peak
  int warmup = 100;
  float final_lr_fraction = 0.1f;
  std::uint64_t seed = 1;
  int slices = 2;               // the batch's slices (must divide batch); part of the run
  int threads = 2;              // how many slices run at once (1 in a wasm build); the bits do not depend on it
  train::InitScheme init = train::InitScheme::Unit;  // sharper heads than Small here (docs/LANGUAGE-MODEL.md)
  int eval_every = 250;         // steps between curve points (and at the last step)
  int eval_characters = 10000;  // per language, from the start of its held-out stream
};

Status validate_lm_train_config(const LmTrainConfig& config);

class LmTrainer {
 public:
  // Builds the vocabulary and the streams; the files are read, not kept.
  Status reset(const LmTrainConfig& config, const std::vector<CorpusFile>& corpus);
  // Steps until `until` (at most config.steps). Stops with an error if the loss is not finite.
  Status run_until(int until);

  int steps() const { return steps_; }
  const LmTrainConfig& config() const { return config_; }
  const LanguageModel& model() const { return model_; }
  LanguageModel& model() { return model_; }
  // The held-out streams, per language (every held-out entry of those files).
  const std::vector<int>& held_out(TextLanguage language) const {
    return language == TextLanguage::English ? held_en_ : held_zh_;
  }
  long long training_tokens() const { return static_cast<long long>(train_stream_.size()); }
  // The training loss of every step so far, in bits per token, summed (a caller that runs
  // k steps takes the difference over k for their mean).
  double train_bits_sum() const { return train_bits_sum_; }

 private:
  float learning_rate_at(int step) const;
  CurvePoint evaluate_point();

  LmTrainConfig config_;
  LanguageModel model_;
  std::vector<int> train_stream_, held_en_, held_zh_;
  std::vector<float> grads_, adam_m_, adam_v_;
  std::vector<std::vector<float>> slice_grads_;
  std::vector<train::Activations<float>> slice_acts_;
  double beta1_power_ = 1.0, beta2_power_ = 1.0;
  double bits_since_point_ = 0, train_bits_sum_ = 0;
  int steps_since_point_ = 0;
  int steps_ = 0;
};

}  // namespace attn::lm
