#include "core/train/heads.h"

#include "core/base/rng.h"

namespace attn::train {

std::string head_label(float previous_token, float induction) {
  if (induction >= kInductionThreshold) return "induction";
  if (previous_token >= kPreviousTokenThreshold) return "previous-token";
  return "";
}

HeadScore score_head(const float* weights, std::size_t sequence_stride, const Batch& batch) {
  const int T = batch.context;
  // Means of statistics, summed in double on purpose (they are reported, not trained on).
  double prev_sum = 0.0, induction_sum = 0.0, diagonal_sum = 0.0;
  long prev_count = 0, induction_count = 0, diagonal_count = 0;
  std::vector<int> last_seen(kMaxVocab);
  const int special = batch.special;
  for (int b = 0; b < batch.size; ++b) {
    const int* tok = batch.tokens.data() + static_cast<std::size_t>(b) * T;
    const float* w = weights + static_cast<std::size_t>(b) * sequence_stride;  // (T, T)
    for (int& s : last_seen) s = -1;
    for (int i = 0; i < T; ++i) {
      const int t = tok[i];
      if (t == special || t < 0 || t >= kMaxVocab) continue;
      const float* wi = w + static_cast<std::size_t>(i) * T;
      diagonal_sum += wi[i];
      ++diagonal_count;
      if (i >= 1) {
        prev_sum += wi[i - 1];
        ++prev_count;
      }
      const int j = last_seen[t];  // most recent earlier occurrence of this token
      if (j >= 0) {
        induction_sum += wi[j + 1];  // j + 1 <= i: a causal weight
        ++induction_count;
      }
      last_seen[t] = i;
    }
  }
  HeadScore s;
  s.previous_token = prev_count ? static_cast<float>(prev_sum / prev_count) : 0.0f;
  s.induction = induction_count ? static_cast<float>(induction_sum / induction_count) : 0.0f;
  s.diagonal = diagonal_count ? static_cast<float>(diagonal_sum / diagonal_count) : 0.0f;
  s.label = head_label(s.previous_token, s.induction);
  return s;
}

std::vector<HeadScore> head_scores(const ModelConfig& config, const float* params) {
  Rng rng(kProbeSeed);
  Batch probe;
  generate_repeat_probe(config.context, config.vocab - 1, rng, kProbeSequences, probe);
  Activations<float> acts;
  model_forward(config, params, probe, acts, false);
  std::vector<HeadScore> out;
  const std::size_t T = static_cast<std::size_t>(config.context);
  for (int l = 0; l < config.layers; ++l)
    for (int h = 0; h < config.heads; ++h) {
      // weights are (B, h, T, T): this head's block of sequence b starts at (b h + head) T T.
      HeadScore s = score_head(acts.layers[l].weights.data() + h * T * T, config.heads * T * T, probe);
      s.layer = l;
      s.head = h;
      out.push_back(s);
    }
  return out;
}

}  // namespace attn::train
