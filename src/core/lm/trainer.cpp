#include "core/lm/trainer.h"

#include "core/base/rng.h"
#include "core/lm/lm_messages.h"
#include "core/train/config.h"
#include "core/train/train_messages.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace attn::lm {

namespace tr = attn::train;

namespace {
// A WebAssembly build without pthreads cannot start a thread (std::thread's constructor
// fails): there every slice runs on the calling thread, which gives the same bits.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
constexpr bool kThreadsAvailable = false;
#else
constexpr bool kThreadsAvailable = true;
#endif
}  // namespace

Status validate_lm_train_config(const LmTrainConfig& c) {
  auto range = [](const char* name, long long v, long long lo, long long hi) {
    if (v < lo || v > hi)
      return Status::error(std::string(name) + " must be from " + std::to_string(lo) + " to " + std::to_string(hi) +
                           ", got " + std::to_string(v));
    return Status::success();
  };
  if (Status st = range("min_count", c.min_count, 1, 1000000); !st.ok) return st;
  if (Status st = range("batch", c.batch, 1, tr::kMaxBatch); !st.ok) return st;
  if (Status st = range("steps", c.steps, 1, 10000000); !st.ok) return st;
  if (Status st = range("warmup", c.warmup, 0, c.steps); !st.ok) return st;
  if (Status st = range("threads", c.threads, 1, 16); !st.ok) return st;
  if (Status st = range("slices", c.slices, 1, 16); !st.ok) return st;
  if (c.batch % c.slices != 0) return Status::error("slices must divide the batch");
  if (Status st = range("eval_every", c.eval_every, 1, 10000000); !st.ok) return st;
  if (Status st = range("eval_characters", c.eval_characters, 2, 100000000); !st.ok) return st;
  if (!(c.learning_rate > 0.0f && c.learning_rate <= 1.0f)) return Status::error(msg::train_learning_rate_range);
  if (!(c.final_lr_fraction >= 0.0f && c.final_lr_fraction <= 1.0f))
    return Status::error("final_lr_fraction must be in [0, 1]");
  if (c.seed > tr::kMaxSeed) return Status::error(msg::train_seed_range);
  return Status::success();
}

Status LmTrainer::reset(const LmTrainConfig& config, const std::vector<CorpusFile>& corpus) {
  if (Status st = validate_lm_train_config(config); !st.ok) return st;
  std::vector<const std::string*> texts;
  for (const CorpusFile& f : corpus)
    for (const std::string& e : f.train) texts.push_back(&e);
  if (texts.empty()) return Status::error(msg::lm_corpus_empty);
  LanguageModel m;
  if (Status st = Vocabulary::build(texts, config.min_count, m.vocabulary); !st.ok) return st;
  m.config.vocab = m.vocabulary.size();
  m.config.context = config.context;
  m.config.layers = config.layers;
  m.config.heads = config.heads;
  m.config.d_model = config.d_model;
  m.config.d_mlp = config.d_mlp;
  m.config.scale_scores = true;
  m.config.init = config.init;
  if (Status st = tr::validate_model_config(m.config, kLanguageModelLimits); !st.ok) return st;
  m.seed = config.seed;
  m.parameters = tr::initial_parameters(m.config, tr::stream_seed(config.seed, tr::Stream::Init, 0));

  train_stream_.clear();
  held_en_.clear();
  held_zh_.clear();
  for (const CorpusFile& f : corpus) {
    const std::vector<int> s = entry_stream(m.vocabulary, f.train);
    for (int r = 0; r < f.repeat; ++r) train_stream_.insert(train_stream_.end(), s.begin(), s.end());
    const std::vector<int> h = entry_stream(m.vocabulary, f.held_out);
    std::vector<int>& held = f.language == TextLanguage::English ? held_en_ : held_zh_;
    held.insert(held.end(), h.begin(), h.end());
  }
  if (train_stream_.size() < static_cast<std::size_t>(config.context) + 2) return Status::error(msg::lm_corpus_empty);

  config_ = config;
  model_ = std::move(m);
  const std::size_t n = model_.parameters.size();
  grads_.assign(n, 0.0f);
  adam_m_.assign(n, 0.0f);
  adam_v_.assign(n, 0.0f);
  slice_grads_.assign(static_cast<std::size_t>(config.slices), std::vector<float>(n));
  slice_acts_.assign(static_cast<std::size_t>(config.slices), tr::Activations<float>{});
  beta1_power_ = beta2_power_ = 1.0;
  bits_since_point_ = train_bits_sum_ = 0;
  steps_since_point_ = 0;
  steps_ = 0;
  return Status::success();
}

float LmTrainer::learning_rate_at(int step) const {
  const float peak = config_.learning_rate;
  if (step < config_.warmup) return peak * static_cast<float>(step + 1) / static_cast<float>(config_.warmup);
  const int span = std::max(1, config_.steps - 1 - config_.warmup);
  const float t = std::min(1.0f, static_cast<float>(step - config_.warmup) / static_cast<float>(span));
  return peak * (1.0f - t * (1.0f - config_.final_lr_fraction));
}

CurvePoint LmTrainer::evaluate_point() {
  CurvePoint p;
  p.step = static_cast<std::uint32_t>(steps_);
  p.train_bits = steps_since_point_ > 0 ? static_cast<float>(bits_since_point_ / steps_since_point_) : 0.0f;
  auto sample = [&](const std::vector<int>& s) {
    const std::size_t n = std::min(s.size(), static_cast<std::size_t>(config_.eval_characters));
    const std::vector<int> part(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(n));
    return static_cast<float>(score_tokens(model_, part, RunOptions{}).per_character());
  };
  p.held_out_english = sample(held_en_);
  p.held_out_chinese = sample(held_zh_);
  bits_since_point_ = 0;
  steps_since_point_ = 0;
  return p;
}

Status LmTrainer::run_until(int until) {
  if (model_.empty()) return Status::error(msg::lm_no_model);
  until = std::min(until, config_.steps);
  const tr::ModelConfig& mc = model_.config;
  const int T = mc.context, slices = config_.slices, per_slice = config_.batch / slices;
  const std::size_t n = model_.parameters.size();
  std::vector<tr::Batch> batches(static_cast<std::size_t>(slices));
  std::vector<tr::CrossEntropyResult> results(static_cast<std::size_t>(slices));
  while (steps_ < until) {
    // 1 the windows of this step
    Rng rng(tr::stream_seed(config_.seed, tr::Stream::TrainBatch, static_cast<std::uint64_t>(steps_)));
    const std::uint32_t starts = static_cast<std::uint32_t>(train_stream_.size() - static_cast<std::size_t>(T) - 1);
    for (int s = 0; s < slices; ++s) {
      tr::Batch& b = batches[static_cast<std::size_t>(s)];
      b = tr::Batch{};
      b.size = per_slice;
      b.context = T;
      b.special = kStartToken;
      for (int w = 0; w < per_slice; ++w) {
        const std::size_t at = rng.next_u32() % starts;
        for (int t = 0; t < T; ++t) {
          b.tokens.push_back(train_stream_[at + t]);
          b.targets.push_back(train_stream_[at + t + 1]);
          b.scored.push_back(1);
        }
      }
    }
    // 2 forward and backward, one slice per thread
    auto work = [&](int s) {
      const std::size_t i = static_cast<std::size_t>(s);
      results[i] = tr::model_forward(mc, model_.parameters.data(), batches[i], slice_acts_[i], true);
      tr::model_backward(mc, model_.parameters.data(), batches[i], slice_acts_[i], slice_grads_[i].data());
    };
    // Thread t runs slices t, t + threads, ...; each slice writes only its own buffers.
    const int threads = kThreadsAvailable ? std::min(config_.threads, slices) : 1;
    auto run_share = [&](int t) {
      for (int s = t; s < slices; s += threads) work(s);
    };
    if (threads == 1) {
      run_share(0);
    } else {
      std::vector<std::thread> pool;
      for (int t = 1; t < threads; ++t) pool.emplace_back(run_share, t);
      run_share(0);
      for (std::thread& t : pool) t.join();
    }
    double loss = 0;
    for (const tr::CrossEntropyResult& r : results) loss += r.loss / slices;
    if (!std::isfinite(loss)) return Status::error(msg::train_loss_not_finite, steps_ + 1);
    // 3 the mean gradient, 4 clipped to norm 1
    double norm2 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      float g = 0;
      for (int s = 0; s < slices; ++s) g += slice_grads_[static_cast<std::size_t>(s)][i];
      grads_[i] = g / static_cast<float>(slices);
      norm2 += static_cast<double>(grads_[i]) * grads_[i];
    }
    const float clip = norm2 > 1.0 ? static_cast<float>(1.0 / std::sqrt(norm2)) : 1.0f;
    // 5 Adam (beta1 0.9, beta2 0.99, eps 1e-8), bias-corrected
    const float b1 = 0.9f, b2 = 0.99f, eps = 1e-8f, lr = learning_rate_at(steps_);
    beta1_power_ *= b1;
    beta2_power_ *= b2;
    const float c1 = static_cast<float>(1.0 - beta1_power_), c2 = static_cast<float>(1.0 - beta2_power_);
    for (std::size_t i = 0; i < n; ++i) {
      const float g = grads_[i] * clip;
      adam_m_[i] = b1 * adam_m_[i] + (1.0f - b1) * g;
      adam_v_[i] = b2 * adam_v_[i] + (1.0f - b2) * g * g;
      model_.parameters[i] -= lr * (adam_m_[i] / c1) / (std::sqrt(adam_v_[i] / c2) + eps);
    }
    ++steps_;
    model_.steps = static_cast<std::uint64_t>(steps_);
    bits_since_point_ += loss / std::log(2.0);
    train_bits_sum_ += loss / std::log(2.0);
    ++steps_since_point_;
    if (steps_ % config_.eval_every == 0 || steps_ == config_.steps) model_.curve.push_back(evaluate_point());
  }
  return Status::success();
}

}  // namespace attn::lm
