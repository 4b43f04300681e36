#include "core/attention.h"

#include <cmath>
#include <string>

namespace attn {

float default_scale(int d_k) { return 1.0f / std::sqrt(static_cast<float>(d_k)); }

BoolMat attention_mask(int n_q, int n_k, const AttentionOptions& options) {
  BoolMat allowed = options.allowed.size() ? options.allowed : BoolMat::Constant(n_q, n_k, true);
  if (options.causal) {
    for (int i = 0; i < n_q; ++i)
      for (int j = i + 1; j < n_k; ++j) allowed(i, j) = false;
  }
  return allowed;
}

Status validate_attention_inputs(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                 const Eigen::Ref<const Mat>& v, const AttentionOptions& options) {
  auto shape = [](const Eigen::Ref<const Mat>& m) {
    return "(" + std::to_string(m.rows()) + ", " + std::to_string(m.cols()) + ")";
  };
  if (q.rows() == 0 || q.cols() == 0) return Status::error("q is empty " + shape(q));
  if (k.rows() == 0) return Status::error("k has no rows");
  if (k.cols() != q.cols())
    return Status::error("k " + shape(k) + " must have d_k = " + std::to_string(q.cols()) +
                         " columns like q " + shape(q));
  if (v.rows() != k.rows())
    return Status::error("v " + shape(v) + " must have n_k = " + std::to_string(k.rows()) +
                         " rows like k " + shape(k));
  if (v.cols() == 0) return Status::error("v has no columns");
  if (options.allowed.size() &&
      (options.allowed.rows() != q.rows() || options.allowed.cols() != k.rows()))
    return Status::error("mask must be (n_q, n_k) = (" + std::to_string(q.rows()) + ", " +
                         std::to_string(k.rows()) + ")");
  if (!std::isnan(options.scale) && !std::isfinite(options.scale))
    return Status::error("scale must be a finite number");
  if (!q.allFinite()) return Status::error("q contains NaN or Inf");
  if (!k.allFinite()) return Status::error("k contains NaN or Inf");
  if (!v.allFinite()) return Status::error("v contains NaN or Inf");
  return Status::success();
}

AttentionResult attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                          const Eigen::Ref<const Mat>& v, const AttentionOptions& options) {
  AttentionResult r;
  r.status = validate_attention_inputs(q, k, v, options);
  if (!r.status.ok) return r;
  const int n_q = static_cast<int>(q.rows());
  const int n_k = static_cast<int>(k.rows());
  const float neg_inf = -std::numeric_limits<float>::infinity();

  // 1 scores = q k^T: how strongly each query points along each key.
  r.raw_scores.noalias() = q * k.transpose();

  // 2 scale: keeps the variance of the scores near 1 whatever d_k is.
  r.scale = std::isnan(options.scale) ? default_scale(static_cast<int>(q.cols())) : options.scale;
  r.scores = r.raw_scores * r.scale;

  // 3 mask: a forbidden key gets the fill, so the softmax gives it (almost) nothing.
  const bool any_mask = options.causal || options.allowed.size();
  const BoolMat allowed = any_mask ? attention_mask(n_q, n_k, options) : BoolMat();
  const float fill = options.fill == MaskFill::NegInfinity ? neg_inf : options.finite_fill;
  if (any_mask) {
    for (int i = 0; i < n_q; ++i)
      for (int j = 0; j < n_k; ++j)
        if (!allowed(i, j)) r.scores(i, j) = options.fill == MaskFill::NegInfinity
                                                 ? fill
                                                 : r.scores(i, j) + fill;
  }

  // 4 softmax per row. Subtracting the row max changes nothing mathematically and keeps
  // exp() from overflowing. With the -inf fill, masked entries are written as exact zeros
  // (vectorised exp(-inf) can return a denormal), and a row with no allowed key gives
  // zeros and a flag instead of 0/0 = NaN.
  r.weights.resize(n_q, n_k);
  r.fully_masked_rows.assign(n_q, 0);
  for (int i = 0; i < n_q; ++i) {
    const float row_max = r.scores.row(i).maxCoeff();
    if (row_max == neg_inf) {
      r.weights.row(i).setZero();
      r.fully_masked_rows[i] = 1;
      continue;
    }
    float sum = 0.0f;
    for (int j = 0; j < n_k; ++j) {
      const float s = r.scores(i, j);
      const float e = s == neg_inf ? 0.0f : std::exp(s - row_max);
      r.weights(i, j) = e;
      sum += e;
    }
    r.weights.row(i) /= sum;
  }

  // 5 output = weights v: each query's mix of the values it attends to.
  r.output.noalias() = r.weights * v;
  return r;
}

WorkedExample worked_example() {
  WorkedExample ex;
  ex.q.resize(2, 2);
  ex.k.resize(2, 2);
  ex.v.resize(2, 2);
  ex.q << 1, 2, 2, 1;
  ex.k << 2, 1, 1, 2;
  ex.v << 3, 0, 0, 3;
  return ex;
}

}  // namespace attn
