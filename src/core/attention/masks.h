// Attention masks: which keys each query may attend to.
//
// A mask is an (n_q, n_k) boolean matrix, true = may attend. It is built from a MaskSpec
// in two groups:
//   patterns      (sliding window, strided, block-sparse, global tokens) say where
//                 attention is *possible*; several combine by union, as in Longformer
//                 (window + global) or BigBird. No pattern = every key.
//   restrictions  (causal, key padding, a custom matrix) each remove keys; they combine
//                 by intersection with the pattern.
//
// Non-zeros per row, for query i of n (self-attention, no restriction):
//   window w       keys j with |i - j| <= w                   min(n, 2w + 1) away from the edges
//   strided s      keys j with (i - j) mod s == 0             about n / s
//   block b        keys in i's block, floor(j / b) == floor(i / b)   b (the last block may be shorter)
//   global G       a global token attends to every key, and every query attends to it: +|G| per row
//   causal         keys j <= i                               i + 1
//   padding        keys not marked as padding                n - (number of pad tokens)
// With causal, the window keeps j in [i - w, i] (w + 1 keys), strided keeps i, i - s, i - 2s, ...
//
// This file builds masks; it does not apply them (the pipeline does, with its fill value).
#pragma once

#include "core/base/types.h"

#include <cstdint>
#include <vector>

namespace attn {

struct MaskSpec {
  // restrictions
  bool causal = false;                    // query i sees keys j <= i (top-left aligned)
  std::vector<std::uint8_t> key_padding;  // n_k flags, 1 = padding: nobody attends to it
  BoolMat custom;                         // (n_q, n_k), true = may attend; empty = no restriction
  // patterns (0 / empty = off)
  int window = 0;                  // |i - j| <= window
  int stride = 0;                  // (i - j) mod stride == 0
  int block = 0;                   // same block of this size
  std::vector<int> global_tokens;  // indices of global tokens

  bool has_pattern() const { return window > 0 || stride > 0 || block > 0 || !global_tokens.empty(); }
  bool empty() const { return !causal && key_padding.empty() && custom.size() == 0 && !has_pattern(); }
};

// Checks sizes and ranges against (n_q, n_k); the message names the offending field.
Status validate_mask(const MaskSpec& spec, int n_q, int n_k);

// The (n_q, n_k) matrix of allowed pairs. Call validate_mask first.
BoolMat build_mask(const MaskSpec& spec, int n_q, int n_k);

// Allowed keys per query row.
std::vector<int> nonzeros_per_row(const BoolMat& allowed);

// StreamingLLM's mask (Xiao et al., "Efficient Streaming Language Models with Attention
// Sinks"): causal, each query sees its last `window` keys before it (j in [i - window, i])
// and the first `sinks` tokens, the attention sinks a trained model dumps weight on. It is
// causal + window + those tokens as global tokens: under the causal mask a global token's
// own row sees only keys before it, so the spec gives exactly this pattern.
MaskSpec streaming_llm_mask(int window, int sinks);

}  // namespace attn
