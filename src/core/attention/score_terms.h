// Why a cell scores what it scores: the raw score q . k as its d_k terms q_c * k_c, the
// largest in magnitude one by one and the rest summed, so a reader sees which dimensions
// carry the score. The terms are summed in double, in dimension order; the kernels that made
// the score may have fused or reordered its multiply-adds, so the sum agrees with the score to
// within 1e-5 * (1 + sum |terms|), not bit for bit.
#pragma once

#include <vector>

namespace attn {

struct ScoreTerm {
  int dim = 0;
  float q = 0, k = 0;
  double product = 0;  // q * k
};

struct ScoreTerms {
  std::vector<ScoreTerm> top;  // the `top` largest |q_c k_c|, largest first
  double rest = 0;             // the other terms' sum
  int rest_count = 0;
  double sum = 0;              // every term, in dimension order
  double abs_sum = 0;          // sum of |terms|: the scale of the rounding bound above
};

ScoreTerms score_terms(const float* q, const float* k, int d, int top);

}  // namespace attn
