#include "core/attention/masks.h"

#include "core/attention/attention_messages.h"

#include <cstdlib>
#include <string>

namespace attn {

Status validate_mask(const MaskSpec& spec, int n_q, int n_k) {
  if (!spec.key_padding.empty() && static_cast<int>(spec.key_padding.size()) != n_k)
    return Status::error(msg::att_padding_count, spec.key_padding.size(), n_k);
  if (spec.custom.size() && (spec.custom.rows() != n_q || spec.custom.cols() != n_k))
    return Status::error(msg::att_custom_mask_shape, n_q, n_k);
  if (spec.window < 0) return Status::error(msg::att_window_negative);
  if (spec.stride < 0) return Status::error(msg::att_stride_negative);
  if (spec.block < 0) return Status::error(msg::att_block_negative);
  for (int g : spec.global_tokens)
    if (g < 0 || g >= std::max(n_q, n_k))
      return Status::error(msg::att_global_range, g);
  return Status::success();
}

BoolMat build_mask(const MaskSpec& spec, int n_q, int n_k) {
  BoolMat allowed(n_q, n_k);
  // Patterns: union of the ones that are on; all keys when none is.
  if (!spec.has_pattern()) {
    allowed.setConstant(true);
  } else {
    allowed.setConstant(false);
    for (int i = 0; i < n_q; ++i)
      for (int j = 0; j < n_k; ++j) {
        const int d = i - j;
        bool ok = false;
        if (spec.window > 0 && std::abs(d) <= spec.window) ok = true;
        if (spec.stride > 0 && d % spec.stride == 0) ok = true;
        if (spec.block > 0 && i / spec.block == j / spec.block) ok = true;
        allowed(i, j) = ok;
      }
    for (int g : spec.global_tokens) {
      if (g < n_q) allowed.row(g).setConstant(true);
      if (g < n_k) allowed.col(g).setConstant(true);
    }
  }
  // Restrictions: intersection.
  if (spec.causal)
    for (int i = 0; i < n_q; ++i)
      for (int j = i + 1; j < n_k; ++j) allowed(i, j) = false;
  for (int j = 0; j < static_cast<int>(spec.key_padding.size()); ++j)
    if (spec.key_padding[j]) allowed.col(j).setConstant(false);
  if (spec.custom.size()) allowed = allowed.array() && spec.custom.array();
  return allowed;
}

std::vector<int> nonzeros_per_row(const BoolMat& allowed) {
  std::vector<int> counts(allowed.rows());
  for (Eigen::Index i = 0; i < allowed.rows(); ++i) counts[i] = static_cast<int>(allowed.row(i).count());
  return counts;
}

MaskSpec streaming_llm_mask(int window, int sinks) {
  MaskSpec spec;
  spec.causal = true;
  spec.window = window;
  for (int t = 0; t < sinks; ++t) spec.global_tokens.push_back(t);
  return spec;
}

}  // namespace attn
