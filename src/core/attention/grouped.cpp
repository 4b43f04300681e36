#include "core/attention/grouped.h"

#include <string>

namespace attn {

GroupedQueryResult grouped_query_attention(const std::vector<Mat>& q, const std::vector<Mat>& k,
                                           const std::vector<Mat>& v, const AttentionOptions& options) {
  GroupedQueryResult r;
  const int heads = static_cast<int>(q.size()), kv_heads = static_cast<int>(k.size());
  if (heads == 0) {
    r.status = Status::error("q has no heads");
    return r;
  }
  if (kv_heads == 0 || static_cast<int>(v.size()) != kv_heads) {
    r.status = Status::error("k and v must have the same number of key/value heads (>= 1), got " +
                             std::to_string(kv_heads) + " and " + std::to_string(v.size()));
    return r;
  }
  if (heads % kv_heads != 0) {
    r.status = Status::error("kvHeads = " + std::to_string(kv_heads) + " must divide heads = " + std::to_string(heads));
    return r;
  }
  for (int h = 0; h < heads; ++h) {
    const int g = kv_head_for(h, heads, kv_heads);
    AttentionResult head = attention(q[static_cast<std::size_t>(h)], k[static_cast<std::size_t>(g)], v[static_cast<std::size_t>(g)], options);
    if (!head.status.ok) {
      r.status = Status::error("head " + std::to_string(h) + " (key/value head " + std::to_string(g) + "): " + head.status.message);
      r.heads.clear();
      return r;
    }
    r.heads.push_back(std::move(head));
    r.kv_head_of.push_back(g);
  }
  r.status = Status::success();
  return r;
}

double kv_cache_bytes_per_token(int kv_heads, int d_k, int layers, int bytes_per_value) {
  return 2.0 * kv_heads * d_k * layers * bytes_per_value;
}

}  // namespace attn
