#include "core/attention/reference.h"

#include <cmath>
#include <algorithm>
#include <limits>
#include <vector>

namespace attn::reference {

AttentionResult attention(const Mat& q, const Mat& k, const Mat& v,
                          const AttentionOptions& options) {
  AttentionResult r;
  r.status = validate_attention_inputs(q, k, v, options);
  if (!r.status.ok) return r;
  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows());
  const int d_k = static_cast<int>(q.cols()), d_v = static_cast<int>(v.cols());
  const double scale =
      std::isnan(options.scale) ? 1.0 / std::sqrt(static_cast<double>(d_k)) : options.scale;
  r.scale = static_cast<float>(scale);

  r.raw_scores.resize(n_q, n_k);
  r.scores.resize(n_q, n_k);
  r.weights.resize(n_q, n_k);
  r.output.resize(n_q, d_v);
  r.fully_masked_rows.assign(n_q, 0);

  for (int i = 0; i < n_q; ++i) {
    // scores for query i
    std::vector<double> s(n_k);
    std::vector<bool> masked(n_k, false);
    for (int j = 0; j < n_k; ++j) {
      double dot = 0.0;
      for (int c = 0; c < d_k; ++c) dot += static_cast<double>(q(i, c)) * k(j, c);
      r.raw_scores(i, j) = static_cast<float>(dot);
      s[j] = dot * scale;
      const bool allowed = (!options.causal || j <= i) &&
                           (options.allowed.size() == 0 || options.allowed(i, j));
      if (!allowed) {
        masked[j] = true;
        if (options.fill == MaskFill::Finite) s[j] += options.finite_fill;
      }
      r.scores(i, j) = masked[j] && options.fill == MaskFill::NegInfinity
                           ? -std::numeric_limits<float>::infinity()
                           : static_cast<float>(s[j]);
    }
    // softmax over the keys that take part
    double row_max = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < n_k; ++j)
      if (!(masked[j] && options.fill == MaskFill::NegInfinity)) row_max = std::max(row_max, s[j]);
    if (std::isinf(row_max)) {
      r.fully_masked_rows[i] = 1;
      for (int j = 0; j < n_k; ++j) r.weights(i, j) = 0.0f;
    } else {
      double sum = 0.0;
      std::vector<double> e(n_k, 0.0);
      for (int j = 0; j < n_k; ++j) {
        if (masked[j] && options.fill == MaskFill::NegInfinity) continue;
        e[j] = std::exp(s[j] - row_max);
        sum += e[j];
      }
      for (int j = 0; j < n_k; ++j) r.weights(i, j) = static_cast<float>(e[j] / sum);
    }
    // weighted sum of values
    for (int c = 0; c < d_v; ++c) {
      double acc = 0.0;
      for (int j = 0; j < n_k; ++j) acc += static_cast<double>(r.weights(i, j)) * v(j, c);
      r.output(i, c) = static_cast<float>(acc);
    }
  }
  return r;
}

}  // namespace attn::reference
