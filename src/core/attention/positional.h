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

#include "core/base/choices.h"
#include "core/base/types.h"

#include <vector>

namespace attn {

// RoPE's pairs (the state's `ropePairing`, the CLI's --rope-pairing, attention()'s
// positional.pairing): "rotate half" (x_i, x_{i + d/2}) or the paper's interleaved ones.
#define ATTNLAB_ROPE_PAIRINGS(X) \
  X(Half, "half")                \
  X(Interleaved, "interleaved")

enum class RopePairing {
#define ATTNLAB_ROPE_PAIRING_ENUMERATOR(value, name) value,
  ATTNLAB_ROPE_PAIRINGS(ATTNLAB_ROPE_PAIRING_ENUMERATOR)
#undef ATTNLAB_ROPE_PAIRING_ENUMERATOR
};

struct RopePairingInfo {
  RopePairing value;
  const char* name;
};

inline constexpr RopePairingInfo kRopePairings[] = {
#define ATTNLAB_ROPE_PAIRING_ROW(value, name) {RopePairing::value, name},
    ATTNLAB_ROPE_PAIRINGS(ATTNLAB_ROPE_PAIRING_ROW)
#undef ATTNLAB_ROPE_PAIRING_ROW
};
static_assert(choices_in_order(kRopePairings), "ATTNLAB_ROPE_PAIRINGS lists the pairings in enum order");

enum class PositionalKind { None, Rope, Alibi };

// Where a scene's positions come from (the state's `positional`), one X(...) line each: the
// only place their names are written. The state's schema, reader, writer and messages, the
// scene's configuration (app/app_state.cpp) and the UI's choice read this table.
// Adding one: its X(...) line (with what it does as columns), its label and note in the UI
// (ui/strings.h, the lists in ui/explorer_panels.cpp) and docs.
//
// Columns of ATTNLAB_POSITIONALS(X):
//   value     the Positional enumerator
//   name      its public name (state, URLs: never renamed)
//   encoding  adds the sinusoidal encoding to x before the projections
//   inside    the PositionalKind applied inside attention (None, Rope, Alibi)
//   even_dk   needs d_k = dModel / heads even
#define ATTNLAB_POSITIONALS(X)                          \
  X(None, "none", false, None, false)                   \
  X(Sinusoidal, "sinusoidal", true, None, false)        \
  X(Rope, "rope", false, Rope, true)                    \
  X(Alibi, "alibi", false, Alibi, false)

enum class Positional {
#define ATTNLAB_POSITIONAL_ENUMERATOR(value, name, encoding, inside, even_dk) value,
  ATTNLAB_POSITIONALS(ATTNLAB_POSITIONAL_ENUMERATOR)
#undef ATTNLAB_POSITIONAL_ENUMERATOR
};

// One row of ATTNLAB_POSITIONALS.
struct PositionalInfo {
  Positional value;
  const char* name;
  bool encoding;
  PositionalKind inside;
  bool even_dk;
};

inline constexpr PositionalInfo kPositionals[] = {
#define ATTNLAB_POSITIONAL_ROW(value, name, encoding, inside, even_dk) \
  {Positional::value, name, encoding, PositionalKind::inside, even_dk},
    ATTNLAB_POSITIONALS(ATTNLAB_POSITIONAL_ROW)
#undef ATTNLAB_POSITIONAL_ROW
};
static_assert(choices_in_order(kPositionals), "ATTNLAB_POSITIONALS lists the choices in enum order");

inline const PositionalInfo& positional_info(Positional p) { return choice_row(kPositionals, p); }

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
