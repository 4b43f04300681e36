// Grouped-query attention (Ainslie et al., GQA): H query heads share G key/value heads, query
// head h reading key/value head floor(h * G / H). G = H is multi-head attention, G = 1
// multi-query attention (Shazeer). What it saves is the KV cache: 2 * G * d_k values per token
// and layer instead of 2 * H * d_k.
//
// Legend: H = heads, G = kv_heads (dividing H), n_q, n_k tokens, d_k, d_v per head.
#pragma once

#include "core/attention/attention.h"
#include "core/base/types.h"

#include <vector>

namespace attn {

struct GroupedQueryResult {
  std::vector<AttentionResult> heads;  // H of them: every stage of each query head
  std::vector<int> kv_head_of;         // H entries: the key/value head each query head read
  Status status;
};

// The key/value head that query head h of H reads when there are G of them.
inline int kv_head_for(int h, int heads, int kv_heads) { return h * kv_heads / heads; }

// q: H matrices (n_q, d_k); k: G matrices (n_k, d_k); v: G matrices (n_k, d_v). Each query head
// is attention() with the options (mask, scale, positions) on its group's k and v.
GroupedQueryResult grouped_query_attention(const std::vector<Mat>& q, const std::vector<Mat>& k,
                                           const std::vector<Mat>& v, const AttentionOptions& options);

// Bytes of the KV cache per token: 2 (K and V) * G * d_k * layers * bytes per value.
double kv_cache_bytes_per_token(int kv_heads, int d_k, int layers, int bytes_per_value);

}  // namespace attn
