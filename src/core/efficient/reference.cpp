#include "core/efficient/reference.h"

#include <vector>

namespace attn::reference {

Mat kernel_attention_direct(const Mat& phi_q, const Mat& phi_k, const Mat& v, bool causal) {
  const int n = static_cast<int>(phi_q.rows()), m = static_cast<int>(phi_q.cols());
  const int d_v = static_cast<int>(v.cols());
  Mat out(n, d_v);
  std::vector<double> numerator(d_v);
  for (int i = 0; i < n; ++i) {
    double normaliser = 0.0;
    for (int c = 0; c < d_v; ++c) numerator[c] = 0.0;
    const int last = causal ? i : n - 1;
    for (int j = 0; j <= last; ++j) {
      // the kernel value of the pair: phi(q_i) . phi(k_j)
      double kernel = 0.0;
      for (int r = 0; r < m; ++r) kernel += static_cast<double>(phi_q(i, r)) * phi_k(j, r);
      normaliser += kernel;
      for (int c = 0; c < d_v; ++c) numerator[c] += kernel * v(j, c);
    }
    for (int c = 0; c < d_v; ++c) out(i, c) = normaliser > 0.0 ? static_cast<float>(numerator[c] / normaliser) : 0.0f;
  }
  return out;
}

}  // namespace attn::reference
