// Exact attention without the n x n matrix: online softmax over tiles of keys.
//
// For each block of queries, keys and values are visited tile by tile; a running row max
// m, running sum l and running output o are rescaled whenever a new tile raises the max
// (o <- o e^{m_old - m_new} + e^{s - m_new} v), so the result equals softmax(q k^T s) v
// while memory stays O(n d). This is the path for long inputs whenever the weights are not
// displayed; it returns the output only (no scores, no weights). The tiles run on the SIMD
// kernels (core/kernels/dispatch.h); the plain-loop oracle is reference.cpp.
//
// Shapes: q (n_q, d_k), k (n_k, d_k), v (n_k, d_v) -> output (n_q, d_v).
#pragma once

#include "core/attention/pipeline.h"
#include "core/base/types.h"

#include <cstdlib>
#include <limits>
#include <memory>

namespace attn {

struct StreamingOptions {
  float scale = std::numeric_limits<float>::quiet_NaN();  // NaN = 1/sqrt(d_k)
  bool causal = false;  // query i sees keys j <= i (top-left aligned)
  int window = 0;       // > 0: query i sees keys with |i - j| <= window (with causal: i - window <= j <= i)
  int query_block = 64;  // rows of q per block (rounded up to the kernel's register tile)
  int key_tile = 256;    // keys per tile (rounded up likewise)
};

struct StreamingResult {
  Mat output;  // (n_q, d_v); a query with no allowed key gets a zero row
  Status status;
};

StreamingResult streaming_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                    const Eigen::Ref<const Mat>& v, const StreamingOptions& options = {});

// Multi-head attention, output only: the pipeline's math (x W + b projections, head h on
// columns [h d_k, (h+1) d_k), concat W^O + b^O) with every head streamed, so nothing of
// size (n_q, n_k) is formed. x_q (n_q, d_model), x_k and x_v (n_k, d_model); `weights`
// as in the pipeline (additive-scoring parameters unused). options.scale NaN = 1/sqrt(d_k).
StreamingResult streaming_multi_head_attention(const Eigen::Ref<const Mat>& x_q, const Eigen::Ref<const Mat>& x_k,
                                               const Eigen::Ref<const Mat>& x_v, const ProjectionWeights& weights,
                                               int heads, const StreamingOptions& options = {});

// A self-attention layer's projections packed once for the active kernels' GEMM, as an
// inference session holds a model's constant weights: each call then skips the weights'
// copy and their packing. (Packing [W^Q | W^K | W^V] as one product was measured too: no
// faster in Chromium or natively, slower at n = 512, so the three stay apart.)
struct PackedPanels {
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  std::unique_ptr<float[], Free> data;  // 64-byte aligned, as the GEMM's own scratch
};

// op(B) of a product with k rows of depth and n columns, B (k, n) row-major with leading
// dimension ldb (or, transposed, B^T (n, k)), packed for the active kernels' GEMM
// (GemmArgs::b_packed); empty when out of memory.
PackedPanels pack_gemm_b(const float* b, int ldb, int k, int n, bool transposed);

struct PackedMultiHead {
  int d_model = 0, heads = 0;
  PackedPanels wq, wk, wv, wo;  // panels of kernels::KernelTable::pack_b
  RowVec bq, bk, bv, bo;        // empty = no bias
};

// Checks `weights` as streaming_multi_head_attention does and packs them into `out`.
Status pack_multi_head(const ProjectionWeights& weights, int d_model, int heads, PackedMultiHead& out);

// streaming_multi_head_attention(x, x, x, weights, heads, options) on a packed layer: the
// same floats, x (n, d_model) -> output (n, d_model).
StreamingResult streaming_self_attention(const Eigen::Ref<const Mat>& x, const PackedMultiHead& layer,
                                         const StreamingOptions& options = {});

}  // namespace attn
