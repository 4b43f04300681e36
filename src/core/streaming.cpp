#include "core/streaming.h"

#include <algorithm>
#include <cmath>

namespace attn {

StreamingResult streaming_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                    const Eigen::Ref<const Mat>& v, const StreamingOptions& options) {
  StreamingResult r;
  if (q.rows() < 1 || k.rows() < 1 || q.cols() < 1 || v.cols() < 1)
    r.status = Status::error("q, k and v must not be empty");
  else if (k.cols() != q.cols())
    r.status = Status::error("k must have d_k = " + std::to_string(q.cols()) + " columns");
  else if (v.rows() != k.rows())
    r.status = Status::error("v must have n_k = " + std::to_string(k.rows()) + " rows");
  else if (options.query_block < 1 || options.key_tile < 1 || options.window < 0)
    r.status = Status::error("block sizes must be positive and the window >= 0");
  else if (!std::isnan(options.scale) && !std::isfinite(options.scale))
    r.status = Status::error("scale must be a finite number");
  if (!r.status.ok) return r;

  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows());
  const int d_v = static_cast<int>(v.cols());
  const float scale = std::isnan(options.scale) ? 1.0f / std::sqrt(static_cast<float>(q.cols())) : options.scale;
  const float neg_inf = -std::numeric_limits<float>::infinity();
  r.output.setZero(n_q, d_v);

  Mat s;                 // (query block, key tile) scores of the current tile
  Vec row_max, row_sum;  // running m and l per query of the block
  for (int i0 = 0; i0 < n_q; i0 += options.query_block) {
    const int bq = std::min(options.query_block, n_q - i0);
    row_max.setConstant(bq, neg_inf);
    row_sum.setZero(bq);
    Eigen::Ref<Mat> acc = r.output.middleRows(i0, bq);
    // Only tiles that some query of the block may see.
    int j_begin = 0, j_end = n_k;
    if (options.causal) j_end = std::min(n_k, i0 + bq);
    if (options.window > 0) {
      j_begin = std::max(0, i0 - options.window);
      j_end = std::min(j_end, i0 + bq + options.window);
    }
    for (int j0 = j_begin; j0 < j_end; j0 += options.key_tile) {
      const int bk = std::min(options.key_tile, j_end - j0);
      // 1 scores of the tile, scaled
      s.noalias() = (q.middleRows(i0, bq) * k.middleRows(j0, bk).transpose()) * scale;
      // 2 mask
      for (int a = 0; a < bq; ++a)
        for (int b = 0; b < bk; ++b) {
          const int i = i0 + a, j = j0 + b;
          const bool allowed = (!options.causal || j <= i) && (options.window == 0 || std::abs(i - j) <= options.window);
          if (!allowed) s(a, b) = neg_inf;
        }
      // 3 online softmax: rescale what was accumulated when the max grows
      for (int a = 0; a < bq; ++a) {
        const float tile_max = s.row(a).maxCoeff();
        if (tile_max == neg_inf) {
          s.row(a).setZero();
          continue;
        }
        const float new_max = std::max(row_max[a], tile_max);
        const float correction = row_max[a] == neg_inf ? 0.0f : std::exp(row_max[a] - new_max);
        float tile_sum = 0.0f;
        for (int b = 0; b < bk; ++b) {
          const float e = s(a, b) == neg_inf ? 0.0f : std::exp(s(a, b) - new_max);
          s(a, b) = e;
          tile_sum += e;
        }
        row_sum[a] = row_sum[a] * correction + tile_sum;
        acc.row(a) *= correction;
        row_max[a] = new_max;
      }
      // 4 accumulate e^{s - m} v
      acc.noalias() += s.leftCols(bk) * v.middleRows(j0, bk);
    }
    // 5 normalise; a row that saw no key stays zero
    for (int a = 0; a < bq; ++a)
      if (row_sum[a] > 0.0f) acc.row(a) /= row_sum[a];
  }
  return r;
}

}  // namespace attn
