#include "core/attention/softmax.h"

#include "core/kernels/dispatch.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace attn {

float round_to_half(float x) {
  // Work on the float's bits: sign, 8-bit exponent, 23-bit mantissa.
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  const std::uint32_t sign = bits & 0x80000000u;
  const std::uint32_t abs_bits = bits & 0x7FFFFFFFu;
  if (abs_bits >= 0x7F800000u) return x;  // inf and NaN stay as they are
  float a;
  std::memcpy(&a, &abs_bits, 4);
  float r;
  if (a >= 65520.0f) {
    // Halfway between 65504 and the next step (65536) rounds up, i.e. overflows.
    r = std::numeric_limits<float>::infinity();
  } else if (a < 6.103515625e-05f) {
    // Subnormal halves are multiples of 2^-24: round a / 2^-24 to the nearest integer,
    // ties to even (nearbyint uses the default round-to-nearest-even mode).
    r = std::nearbyint(a * 16777216.0f) / 16777216.0f;
  } else {
    // Normal halves keep 10 of the float's 23 mantissa bits: drop 13 with RNE.
    std::uint32_t m = abs_bits;
    const std::uint32_t lsb = (m >> 13) & 1u;
    m += 0x0FFFu + lsb;
    m &= ~0x1FFFu;
    std::memcpy(&r, &m, 4);
    if (r > kHalfMax) r = std::numeric_limits<float>::infinity();
  }
  return sign ? -r : r;
}

SoftmaxFlags softmax_row(const float* scores, float* weights, int n, SoftmaxForm form,
                         Precision precision) {
  SoftmaxFlags flags;
  const bool half = precision == Precision::Float16;
  auto rnd = [half](float v) { return half ? round_to_half(v) : v; };
  const float neg_inf = -std::numeric_limits<float>::infinity();

  // 0 inputs in the working precision; find the max over the keys that take part.
  float row_max = neg_inf;
  for (int j = 0; j < n; ++j) row_max = std::max(row_max, rnd(scores[j]));
  if (row_max == neg_inf) {
    flags.fully_masked = true;
    for (int j = 0; j < n; ++j) weights[j] = 0.0f;
    return flags;
  }
  // 1 exponentials (masked keys are exactly 0, whatever exp(-inf) gives in a SIMD path)
  // 2 their sum, rounded after every addition as a half accumulator would be
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float s = rnd(scores[j]);
    float e = 0.0f;
    if (s != neg_inf) {
      const float shifted = form == SoftmaxForm::Stable ? rnd(s - row_max) : s;
      e = rnd(std::exp(shifted));
    }
    weights[j] = e;
    sum = rnd(sum + e);
  }
  if (std::isinf(sum)) flags.overflow = true;
  // 3 divide
  for (int j = 0; j < n; ++j) {
    if (std::isinf(weights[j])) flags.overflow = true;
    weights[j] = rnd(weights[j] / sum);
    if (std::isnan(weights[j])) flags.nan = true;
  }
  return flags;
}

float softmax_off_by_one_row(const float* scores, float* weights, int n) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  // The zero logit takes part in the maximum, so exp(-m) <= 1 and no exp() overflows.
  float m = 0.0f;
  for (int j = 0; j < n; ++j) m = std::max(m, scores[j]);
  double sum = std::exp(-static_cast<double>(m));  // the zero logit's term
  for (int j = 0; j < n; ++j) {
    weights[j] = scores[j] == neg_inf ? 0.0f : std::exp(scores[j] - m);
    sum += weights[j];
  }
  double total = 0.0;
  for (int j = 0; j < n; ++j) {
    weights[j] = static_cast<float>(weights[j] / sum);
    total += weights[j];
  }
  return static_cast<float>(1.0 - total);
}

SoftmaxFlags softmax_rows(const Eigen::Ref<const Mat>& scores, Eigen::Ref<Mat> weights,
                          SoftmaxForm form, Precision precision,
                          std::vector<std::uint8_t>* fully_masked_rows) {
  SoftmaxFlags all;
  if (fully_masked_rows) fully_masked_rows->assign(scores.rows(), 0);
  // The float32 stable form, the one every panel shows by default, runs on the SIMD
  // kernel: same passes, vectorised exp. A row holding +inf or NaN is left to the scalar
  // softmax_row, which owns the overflow/NaN semantics; the naive form and the float16
  // simulation stay scalar on purpose (they show what one scalar operation does).
  std::vector<std::uint8_t> status;
  if (form == SoftmaxForm::Stable && precision == Precision::Float32 && scores.rows() > 0 && scores.cols() > 0) {
    status.assign(scores.rows(), kernels::kRowNeedsScalar);
    kernels::active_kernels().softmax_rows(scores.data(), static_cast<int>(scores.outerStride()), weights.data(),
                                           static_cast<int>(weights.outerStride()), static_cast<int>(scores.rows()),
                                           static_cast<int>(scores.cols()), status.data());
  }
  for (Eigen::Index i = 0; i < scores.rows(); ++i) {
    if (!status.empty() && status[i] != kernels::kRowNeedsScalar) {
      const bool masked = status[i] == kernels::kRowFullyMasked;
      all.fully_masked |= masked;
      if (fully_masked_rows) (*fully_masked_rows)[i] = masked ? 1 : 0;
      continue;
    }
    const SoftmaxFlags f = softmax_row(scores.row(i).data(), weights.row(i).data(),
                                       static_cast<int>(scores.cols()), form, precision);
    all.overflow |= f.overflow;
    all.nan |= f.nan;
    all.fully_masked |= f.fully_masked;
    if (fully_masked_rows) (*fully_masked_rows)[i] = f.fully_masked ? 1 : 0;
  }
  return all;
}

float entropy(const Eigen::Ref<const RowVec>& p) {
  double h = 0.0;
  for (Eigen::Index j = 0; j < p.size(); ++j)
    if (p[j] > 0.0f) h -= static_cast<double>(p[j]) * std::log(static_cast<double>(p[j]));
  return static_cast<float>(h);
}

WeightRowStats weight_row_stats(const Eigen::Ref<const Mat>& w) {
  WeightRowStats s;
  const int rows = static_cast<int>(w.rows());
  s.entropy.resize(rows);
  s.max_weight.resize(rows);
  s.distance.resize(rows);
  if (rows > 0)
    kernels::active_kernels().weight_stats(w.data(), static_cast<int>(w.outerStride()), rows,
                                           static_cast<int>(w.cols()), 0, s.entropy.data(), s.max_weight.data(),
                                           s.distance.data());
  return s;
}

Mat softmax_jacobian(const Eigen::Ref<const RowVec>& p) {
  Mat jac = -(p.transpose() * p);
  jac.diagonal() += p.transpose();
  return jac;
}

float softmax_jacobian_norm(const Eigen::Ref<const RowVec>& p) {
  double sum_sq = 0.0, sum_p2 = 0.0, sum_p4 = 0.0;
  for (Eigen::Index j = 0; j < p.size(); ++j) {
    const double pj = p[j], p2 = pj * pj;
    sum_sq += p2 * (1.0 - pj) * (1.0 - pj);
    sum_p2 += p2;
    sum_p4 += p2 * p2;
  }
  // Off-diagonal part: sum_{i != j} p_i^2 p_j^2 = (sum p^2)^2 - sum p^4.
  return static_cast<float>(std::sqrt(sum_sq + sum_p2 * sum_p2 - sum_p4));
}

}  // namespace attn
