// Positions inside attention, as current models put them there: RoPE rotates q and k, ALiBi
// adds a bias to the scores. (The sinusoidal encoding added to x before the projections is
// the pipeline's; this file is what acts on q, k and the scores themselves.)
//
// Legend: n tokens, d = d_k (even for RoPE), i = 0 .. d/2 - 1 a rotation pair, p a position.
//
// RoPE (Su et al., RoFormer): each pair of a row at position p is turned by the angle
//   p * theta_i, theta_i = base^(-2i / d)   (base 10000 in the paper and in LLaMA)
//   (a, b) -> (a cos - b sin, a sin + b cos)
// The pairs are the "rotate half" ones of LLaMA-style code, (x_i, x_{i + d/2}), or the
// paper's interleaved ones, (x_{2i}, x_{2i+1}). Because a rotation by p then by -p' leaves
// q_p . k_p' depending on p - p' alone, a score depends only on the offset for fixed contents.
//
// ALiBi (Press et al., "Train Short, Test Long"): the score of query i for key j gets
//   - m_h * |i - j|      (- m_h * (i - j) with the causal mask, where j <= i)
// added after the scaling, m_h a fixed slope per head: for H a power of two the geometric
// sequence m_h = 2^(-8 (h + 1) / H); for other H the paper's rule (the slopes of the power of
// two below H, then every other slope of the next power of two).
#pragma once

#include "core/base/types.h"

#include <vector>

namespace attn {

enum class RopePairing { Half, Interleaved };

enum class PositionalKind { None, Rope, Alibi };

// Positions applied inside attention (AttentionOptions::positional).
struct PositionalOptions {
  PositionalKind kind = PositionalKind::None;
  float rope_base = 10000.0f;
  RopePairing rope_pairing = RopePairing::Half;
  float alibi_slope = 0.0f;  // m of the head
};

// Checks the options for rows of width d (RoPE needs d even and a finite base > 0; ALiBi a
// finite slope); the message names the problem.
Status validate_positional(const PositionalOptions& options, int d);

// theta_i for i = 0 .. d/2 - 1.
std::vector<double> rope_frequencies(int d, float base);

// x (n, d) with row r rotated as the token at position first_position + r.
Mat apply_rope(const Eigen::Ref<const Mat>& x, int first_position, float base, RopePairing pairing);

// The slopes m_0 .. m_{H-1} of the ALiBi paper for H heads.
std::vector<float> alibi_slopes(int heads);

// (n_q, n_k): - slope * |i - j|, or - slope * (i - j) when causal (query i, key j).
Mat alibi_bias(int n_q, int n_k, float slope, bool causal);

}  // namespace attn
