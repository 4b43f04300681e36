// Plain-loop references for the efficient attention variants, written to be read, not to
// be fast: the oracles the tests hold the fast forms of efficient_attention.h against.
//
// The sparse variants need no reference of their own: reference::attention (reference.h)
// with the pattern of masks.h as its allowed matrix is the dense masked product they must
// equal. What is here is the kernelised formula evaluated directly, pair by pair, in
// O(n^2), sharing no code with the summaries and prefix sums of kernel_attention.
#pragma once

#include "core/base/types.h"

namespace attn::reference {

// out_i = sum_{j allowed} (phi_q_i . phi_k_j) v_j / sum_{j allowed} (phi_q_i . phi_k_j),
// allowed = every j, or j <= i when causal; sums in double; a row whose normaliser is not
// positive is zero. phi_q, phi_k: (n, m); v: (n, d_v).
Mat kernel_attention_direct(const Mat& phi_q, const Mat& phi_k, const Mat& v, bool causal);

}  // namespace attn::reference
