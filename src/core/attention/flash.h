// FlashAttention's forward pass (Dao et al.), exact and visible: attention computed tile by
// tile with an online softmax, never holding the n_q x n_k matrix, every step recorded so the
// lab can show it.
//
// Legend: B_q, B_k the tile sizes (any >= 1; the last tile of a side may be shorter), a query
// tile's rows i, a key tile's keys j, s_ij = q_i . k_j * scale.
//
// For each query tile, with m_i = -inf, l_i = 0, O_i = 0, for each key tile in order:
//   1 s_ij      the tile's scores (entries past the causal diagonal are -inf)
//   2 m_new     max(m_i, max_j s_ij)                       the running maximum
//   3 p_ij      exp(s_ij - m_new)
//   4 c_i       exp(m_i - m_new)                           the rescaling of what came before
//   5 l_i       c_i l_i + sum_j p_ij                       the running sum
//   6 O_i       c_i O_i + sum_j p_ij v_j                   the unnormalised output
// then O_i / l_i. A (query tile, key tile) pair wholly above the causal diagonal is skipped:
// it is not a step. After a row's last step, m_i is its maximum score and l_i the sum of
// exp(s_ij - m_i) over its keys, so O_i / l_i is exactly softmax(s_i) V.
#pragma once

#include "core/base/types.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace attn {

// The steps a call may record (each holds B_q floats of m and of l): larger tiles for more.
inline constexpr std::int64_t kMaxFlashSteps = 1 << 16;

struct FlashOptions {
  int block_q = 16;
  int block_k = 16;
  bool causal = false;
  float scale = std::numeric_limits<float>::quiet_NaN();  // NaN: 1/sqrt(d_k)
};

struct FlashStep {
  int q_tile = 0, k_tile = 0;      // tile indices
  int q_begin = 0, q_end = 0;      // query rows [q_begin, q_end)
  int k_begin = 0, k_end = 0;      // keys [k_begin, k_end)
  std::vector<float> m, l;         // per row of the query tile, after this step
  std::vector<float> rescale;      // c_i of this step (exp(m_old - m_new); 0 on a row's first step)
};

struct FlashResult {
  Mat output;                      // (n_q, d_v)
  std::vector<FlashStep> steps;    // in the order computed
  float scale = 1.0f;
  // Floats held at once beside the inputs and output: a tile of scores and the running m, l.
  std::int64_t working_floats = 0;
  Status status;
};

FlashResult flash_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                            const Eigen::Ref<const Mat>& v, const FlashOptions& options);

}  // namespace attn
