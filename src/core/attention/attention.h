// Scaled dot-product attention, softmax(Q K^T * scale + mask) V, with every stage kept.
//
// This is the single-head kernel the lab is built on; it returns its intermediates
// (raw scores, scaled-and-masked scores, weights, output) because the panels draw them
// and the tests check them. It is not the fast path for long sequences and does not
// know about heads or projections: those build on it.
//
// Shapes: q (n_q, d_k), k (n_k, d_k), v (n_k, d_v).
#pragma once

#include "core/attention/positional.h"
#include "core/base/types.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace attn {

// What a masked score becomes before the softmax.
enum class MaskFill {
  NegInfinity,  // masked weights are exactly 0; a fully masked row gives zeros and a flag
  Finite,       // add a large negative number (the tutorial's -1e9): honest float arithmetic
};

struct AttentionOptions {
  // Multiplier applied to Q K^T. NaN means the default 1/sqrt(d_k).
  float scale = std::numeric_limits<float>::quiet_NaN();
  // Query i may see key j only when j <= i (aligned top-left, as PyTorch's is_causal).
  bool causal = false;
  // Optional (n_q, n_k) matrix, true = may attend. Empty = everything allowed.
  BoolMat allowed;
  MaskFill fill = MaskFill::NegInfinity;
  float finite_fill = -1e9f;  // used with MaskFill::Finite
  // RoPE turns q (positions 0 .. n_q-1) and k (0 .. n_k-1) before the scores; ALiBi adds its
  // bias after the scaling (core/attention/positional.h). raw_scores are then q' k'^T.
  PositionalOptions positional;
};

struct AttentionResult {
  Mat raw_scores;  // (n_q, n_k) q_i . k_j
  float scale = 1.0f;  // the multiplier actually applied
  Mat scores;      // (n_q, n_k) raw * scale, masked entries replaced by the fill
  Mat weights;     // (n_q, n_k) softmax over each row; rows sum to 1 (or are 0, see below)
  Mat output;      // (n_q, d_v) weights v
  // 1 where every key of the row was masked with the -inf fill: its weights are all 0.
  std::vector<std::uint8_t> fully_masked_rows;
  Status status;
};

// The default scale 1/sqrt(d_k).
float default_scale(int d_k);

// True where query i may attend key j under the options' causal flag and allowed matrix.
BoolMat attention_mask(int n_q, int n_k, const AttentionOptions& options);

// Checks shapes and options; the message names the offending operand.
Status validate_attention_inputs(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                 const Eigen::Ref<const Mat>& v, const AttentionOptions& options);

AttentionResult attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                          const Eigen::Ref<const Mat>& v, const AttentionOptions& options = {});

// The tutorial's two-token worked example (section 5.3), d_k = 2.
struct WorkedExample {
  Mat q, k, v;
};
WorkedExample worked_example();

}  // namespace attn
