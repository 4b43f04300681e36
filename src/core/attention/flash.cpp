#include "core/attention/flash.h"

#include "core/attention/attention.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attn {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

Status validate_flash(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k, const Eigen::Ref<const Mat>& v,
                      const FlashOptions& options) {
  AttentionOptions plain;
  plain.scale = options.scale;
  if (Status s = validate_attention_inputs(q, k, v, plain); !s.ok) return s;
  if (options.block_q < 1 || options.block_k < 1)
    return Status::error("tile sizes must be >= 1, got blockQ = " + std::to_string(options.block_q) +
                         ", blockK = " + std::to_string(options.block_k));
  const std::int64_t q_tiles = (q.rows() + options.block_q - 1) / options.block_q;
  const std::int64_t k_tiles = (k.rows() + options.block_k - 1) / options.block_k;
  if (q_tiles * k_tiles > kMaxFlashSteps)
    return Status::error(std::to_string(q_tiles * k_tiles) + " tile pairs is more than the " + std::to_string(kMaxFlashSteps) +
                         " steps one call records: use larger tiles");
  return Status::success();
}

}  // namespace

FlashResult flash_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                            const Eigen::Ref<const Mat>& v, const FlashOptions& options) {
  FlashResult r;
  r.status = validate_flash(q, k, v, options);
  if (!r.status.ok) return r;
  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows()), d_v = static_cast<int>(v.cols());
  r.scale = std::isnan(options.scale) ? default_scale(static_cast<int>(q.cols())) : options.scale;
  r.output = Mat::Zero(n_q, d_v);
  r.working_floats = static_cast<std::int64_t>(options.block_q) * options.block_k + 2 * options.block_q;
  for (int q0 = 0, qt = 0; q0 < n_q; q0 += options.block_q, ++qt) {
    const int q1 = std::min(n_q, q0 + options.block_q), rows = q1 - q0;
    std::vector<float> m(static_cast<std::size_t>(rows), kNegInf), l(static_cast<std::size_t>(rows), 0.0f);
    for (int k0 = 0, kt = 0; k0 < n_k; k0 += options.block_k, ++kt) {
      const int k1 = std::min(n_k, k0 + options.block_k);
      if (options.causal && k0 > q1 - 1) break;  // this tile and all after it lie above the diagonal
      // 1 the tile's scores
      const Mat s = (q.middleRows(q0, rows) * k.middleRows(k0, k1 - k0).transpose()) * r.scale;
      FlashStep step{qt, kt, q0, q1, k0, k1, {}, {}, {}};
      step.rescale.resize(static_cast<std::size_t>(rows));
      for (int i = 0; i < rows; ++i) {
        const int last_key = options.causal ? std::min(k1, q0 + i + 1) : k1;  // keys j < last_key are seen
        // 2 the running maximum over the keys this row sees in the tile
        float tile_max = kNegInf;
        for (int j = k0; j < last_key; ++j) tile_max = std::max(tile_max, s(i, j - k0));
        const float m_old = m[static_cast<std::size_t>(i)];
        const float m_new = std::max(m_old, tile_max);
        if (m_new == kNegInf) continue;  // no key seen yet by this row (causal): nothing changes
        // 4 the rescaling of the sum and output so far (0 on the row's first keys: exp(-inf))
        const float c = std::exp(m_old - m_new);
        step.rescale[static_cast<std::size_t>(i)] = c;
        // 3, 5, 6 this tile's weights, the running sum, the unnormalised output
        float sum = 0.0f;
        RowVec acc = RowVec::Zero(d_v);
        for (int j = k0; j < last_key; ++j) {
          const float p = std::exp(s(i, j - k0) - m_new);
          sum += p;
          acc += p * v.row(j);
        }
        l[static_cast<std::size_t>(i)] = c * l[static_cast<std::size_t>(i)] + sum;
        r.output.row(q0 + i) = c * r.output.row(q0 + i) + acc;
        m[static_cast<std::size_t>(i)] = m_new;
      }
      step.m = m;
      step.l = l;
      r.steps.push_back(std::move(step));
    }
    // the final division
    for (int i = 0; i < rows; ++i)
      if (l[static_cast<std::size_t>(i)] > 0.0f) r.output.row(q0 + i) /= l[static_cast<std::size_t>(i)];
  }
  return r;
}

}  // namespace attn
