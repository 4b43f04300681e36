// A picture of attention too large to hold: for q and k of up to 32,768 tokens, the weights
// P = softmax(q k^T * scale, masked) pooled over b x b blocks, each key's total weight and
// each query row's statistics, by one streaming pass over query rows that never holds more
// than (a tile of rows) x n_k scores. With the row statistics, any region of up to
// 1,024 x 1,024 weights is then exact in O(region x d_k) (region_weights), without redoing
// whole rows. It deliberately computes no output (there is no v here: that is streaming.h)
// and keeps no weights beyond one tile.
//
// Legend: n_q queries, n_k keys, d_k their width, b the block size, R = ceil(n_q / b),
// C = ceil(n_k / b); q (n_q, d_k), k (n_k, d_k), row-major.
//
// The pass, per tile of query rows [r0, r1):
//   1 scores  S = q[r0:r1] k^T * scale         (the SIMD GEMM on K packed once per job)
//   2 mask    causal: query i sees keys j <= i (top-left aligned); masked cells are not
//             computed: their weight is exactly 0
//   3 softmax m_i = max_j S_ij, l_i = sum_j e^(S_ij - m_i), lse_i = m_i + ln l_i,
//             P_ij = e^(S_ij - m_i) * e^(m_i - lse_i)          (subtracting m_i is for
//             stability only; e^(m_i - lse_i) = 1 / l_i is the form region_weights uses too)
//   4 pool    pooled(i / b, j / b): mean or max of P over the block's cells;
//             key_totals_j += P_ij
// Mean: a block's sum over its actual cells divided by their count (edge blocks have fewer
// rows or columns). With causal, the masked cells of a block count in the mean as zeros (the
// weight there IS zero), and a block wholly above the diagonal is 0; max is over the cells too.
// Sums run in float over at most 32 rows, then in double: key_totals and the means keep about
// seven digits at n = 32,768.
#pragma once

#include "core/attention/streaming.h"
#include "core/base/types.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace attn {

// ---- caps ---------------------------------------------------------------------------------

inline constexpr int kOverviewMaxTokens = 32768;  // n_q and n_k each
inline constexpr int kOverviewMaxDk = 1024;
inline constexpr int kOverviewMaxRegion = 1024;   // rows and keys of region_weights each
// R x C of the pooled matrix (2048 x 2048: 16 MiB of floats).
inline constexpr std::int64_t kOverviewMaxPooledCells = std::int64_t{1} << 22;

// ---- options and results ------------------------------------------------------------------

enum class BlockPool { Mean, Max };

struct OverviewOptions {
  float scale = std::numeric_limits<float>::quiet_NaN();  // NaN = 1/sqrt(d_k)
  bool causal = false;  // query i sees keys j <= i (top-left aligned)
  int block = 32;       // b
  BlockPool pool = BlockPool::Mean;
};

// What region_weights needs of the pass: the scale and mask it used, and per query row i
// m_i = max_j S_ij and lse_i = ln sum_j e^(S_ij) (computed as m_i + ln l_i). lse is double on
// purpose: e^(m_i - lse_i) must give 1 / l_i to float rounding, which a float lse does not
// (near lse = 50 its ulp is 4e-6).
struct OverviewRowStats {
  float scale = 1.0f;
  bool causal = false;
  RowVec row_max;               // (n_q)
  std::vector<double> row_lse;  // (n_q)
};

struct OverviewResult {
  int n_q = 0, n_k = 0, block = 1;
  BlockPool pool = BlockPool::Mean;
  Mat pooled;         // (R, C)
  RowVec key_totals;  // (n_k) sum_i P_ij: how much weight key j receives over all queries
  OverviewRowStats stats;
  Status status;
};

// ---- the pass as a job --------------------------------------------------------------------

// The pass in pieces, so a Worker can report progress: begin() checks and keeps q and k,
// each step(rows) computes the next `rows` query rows, and once done() result() holds the
// whole overview (q() and k() stay for region_weights). The overview() function below is this
// job run to the end at once.
class OverviewJob {
 public:
  // On error the job holds nothing and the message says why.
  Status begin(Mat q, Mat k, const OverviewOptions& options = {});
  // The next min(rows, left) query rows (rows >= 1).
  Status step(int rows);
  bool active() const { return active_; }  // begun and not finished
  bool done() const { return done_; }
  int rows_done() const { return next_row_; }
  // Share of the score cells computed (with causal, of the triangle's): 0 to 1.
  double progress() const;
  // Once done(); before, pooled and key_totals are partial and status says so.
  const OverviewResult& result() const { return result_; }
  OverviewResult take();
  const Mat& q() const { return q_; }  // (n_q, d_k)
  const Mat& k() const { return k_; }  // (n_k, d_k)

 private:
  void process_tile(int r0, int r1);
  void fold_float_sums();
  void close_pooled_row();
  void release_scratch();
  void release();  // back to an empty job

  Mat q_, k_;
  OverviewOptions options_;
  std::vector<PackedPanels> packed_k_;  // K^T in chunks of kKeyChunk keys, packed once
  Mat scores_;                          // (tile rows, n_k): the one tile held
  std::vector<float> sum_f_;            // (n_k) sum of P over the rows since the last fold
  std::vector<double> sum_d_;           // (n_k) ... of the open pooled row
  std::vector<float> max_f_;            // (n_k) max of P over the open pooled row (Max only)
  std::vector<double> key_totals_;      // (n_k)
  int rows_in_float_ = 0, open_row_ = 0, next_row_ = 0;
  double cells_done_ = 0.0, cells_total_ = 0.0;
  bool active_ = false, done_ = false;
  OverviewResult result_;
};

// ---- entry points -------------------------------------------------------------------------

// The whole pass at once. q (n_q, d_k), k (n_k, d_k).
OverviewResult overview(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k, const OverviewOptions& options = {});

// The exact weights P[q0:q1, k0:k1] (half-open; at most kOverviewMaxRegion a side) of the
// q and k the pass ran on, from its row statistics: (q1 - q0, k1 - k0), masked cells 0.
// On error `out` is unchanged.
Status region_weights(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k, const OverviewRowStats& stats,
                      int q0, int q1, int k0, int k1, Mat& out);

}  // namespace attn
