#include "core/attention/score_terms.h"

#include <algorithm>
#include <cmath>

namespace attn {

ScoreTerms score_terms(const float* q, const float* k, int d, int top) {
  ScoreTerms out;
  std::vector<ScoreTerm> all(static_cast<std::size_t>(std::max(d, 0)));
  for (int c = 0; c < d; ++c) {
    ScoreTerm& t = all[static_cast<std::size_t>(c)];
    t = {c, q[c], k[c], static_cast<double>(q[c]) * static_cast<double>(k[c])};
    out.sum += t.product;
    out.abs_sum += std::abs(t.product);
  }
  // Largest magnitude first; ties by dimension, so the order is the same everywhere.
  std::stable_sort(all.begin(), all.end(),
                   [](const ScoreTerm& a, const ScoreTerm& b) { return std::abs(a.product) > std::abs(b.product); });
  const std::size_t shown = static_cast<std::size_t>(std::clamp(top, 0, d));
  out.top.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(shown));
  for (std::size_t i = shown; i < all.size(); ++i) out.rest += all[i].product;
  out.rest_count = d - static_cast<int>(shown);
  return out;
}

}  // namespace attn
