// Attention in plain loops, written to be read, not to be fast.
//
// It is the oracle the Eigen path (and the SIMD kernels) are tested against, so it
// shares no code with them: every sum is a visible loop and accumulates in double.
#pragma once

#include "core/attention/attention.h"

namespace attn::reference {

AttentionResult attention(const Mat& q, const Mat& k, const Mat& v,
                          const AttentionOptions& options = {});

}  // namespace attn::reference
