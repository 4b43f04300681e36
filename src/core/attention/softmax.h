// Softmax of one row of scores, in the forms the lab contrasts:
//   stable   subtract the row max first (the result is unchanged, exp() cannot overflow)
//   naive    exp() of the raw scores, kept on purpose to show overflow
// in float32 or in a simulation of float16, where every operation's result (subtract,
// exp, each step of the sum, divide) is rounded to the nearest half-precision value
// (round-to-nearest-even, subnormals kept, overflow to inf), as a half-precision kernel
// would compute it. Also the row statistics the panels show: entropy, max weight and the
// softmax Jacobian diag(p) - p p^T.
//
// -inf scores are masked keys: they get weight exactly 0, and a row whose every score is
// -inf gets all-zero weights and the fully_masked flag (never 0/0 = NaN).
#pragma once

#include "core/base/types.h"

#include <cstdint>
#include <vector>

namespace attn {

enum class SoftmaxForm { Stable, Naive };
enum class Precision { Float32, Float16 };

struct SoftmaxFlags {
  bool overflow = false;      // some exp() or the sum became +inf
  bool nan = false;           // some weight is NaN (inf / inf)
  bool fully_masked = false;  // every score was -inf
};

// Rounds a float to the nearest IEEE half-precision value and returns it as a float.
float round_to_half(float x);
// The largest finite half: 65504. exp(x) overflows in half precision for x > ln(65504).
inline constexpr float kHalfMax = 65504.0f;

// weights[j] = softmax(scores)[j] for one row of n scores.
SoftmaxFlags softmax_row(const float* scores, float* weights, int n,
                         SoftmaxForm form = SoftmaxForm::Stable,
                         Precision precision = Precision::Float32);

// Softmax with an extra logit fixed at 0 ("off by one", the quiet attention sink):
//   w_j = exp(s_j) / (1 + sum_k exp(s_k)),  computed as exp(s_j - m) / (exp(-m) + sum_k exp(s_k - m))
// with m = max(0, max_k s_k), so nothing overflows. The weights sum to less than 1: a row
// with nothing to attend to (every score far below 0) puts almost all of its weight on the
// missing zero logit instead of spreading 1/n over keys it does not want, as softmax must.
// Returns the weight left on that logit, 1 - sum_j w_j. -inf keys get exactly 0.
float softmax_off_by_one_row(const float* scores, float* weights, int n);

// Row-wise softmax of a matrix; flags are OR-ed over rows, per-row fully-masked flags
// go to `fully_masked_rows` when it is not null.
SoftmaxFlags softmax_rows(const Eigen::Ref<const Mat>& scores, Eigen::Ref<Mat> weights,
                          SoftmaxForm form, Precision precision,
                          std::vector<std::uint8_t>* fully_masked_rows = nullptr);

// Shannon entropy -sum p log p in nats (0 log 0 = 0). Uniform over n keys gives log n.
float entropy(const Eigen::Ref<const RowVec>& p);

// Every row i of attention weights summarised on the SIMD kernels (what the heads panel
// shows): its entropy (as entropy(), weights below FLT_MIN counting 0), its largest weight,
// and sum_j w_ij |i - j|, how far the row looks. Float sums, within about 1e-6 (relative)
// of the double-precision loops.
struct WeightRowStats {
  std::vector<float> entropy, max_weight, distance;
};
WeightRowStats weight_row_stats(const Eigen::Ref<const Mat>& w);

// The softmax Jacobian d p / d s = diag(p) - p p^T, (n, n).
Mat softmax_jacobian(const Eigen::Ref<const RowVec>& p);

// Its Frobenius norm, without forming the matrix:
// ||J||_F^2 = sum_i p_i^2 (1 - p_i)^2 + sum_{i != j} p_i^2 p_j^2.
float softmax_jacobian_norm(const Eigen::Ref<const RowVec>& p);

}  // namespace attn
