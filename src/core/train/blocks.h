// The blocks a tiny Transformer is trained with, each as a forward pass that keeps what its
// backward pass needs and a backward pass that walks the same numbered steps in reverse.
//
// This is the training path, not the explorer's: pipeline.h keeps every stage of every
// score function and mask for display; here there is only causal dot-product attention,
// layer norm, a GELU MLP, embeddings and cross-entropy, fast enough to train on. Every
// function is a template instantiated for float (training) and double (the gradient checks
// against finite differences, where float32 is too coarse).
//
// Arithmetic is plain loops in a fixed order: no Eigen reductions, no library vector math,
// no fused multiply-add (CMakeLists.txt compiles the core with
// -ffp-contract=off; baseline x86-64 and wasm32 have no FMA instruction anyway). Loops are
// vectorised only across independent outputs, never across a sum, so the native build and
// the WebAssembly build perform the same float operations in the same order and differ only
// where libm's exp/log/tanh differ in the last bit.
//
// Legend: n = rows (tokens of a batch, sequence after sequence: row b*T + t is position t of
// sequence b), T = positions per sequence, d = d_model, h = heads, d_k = d / h (head hh owns
// columns [hh d_k, (hh+1) d_k)), f = MLP width, V = vocabulary. All matrices row-major.
// Backward passes ACCUMULATE into their gradient outputs (+=): the residual stream and the
// weight gradients collect contributions from several places.
//
// Sections: 1 products  2 linear  3 layer norm  4 GELU  5 causal attention  6 embeddings
//           7 cross-entropy
#pragma once

#include <cstdint>
#include <vector>

namespace attn::train {

// ---- 1 products -------------------------------------------------------------------------

// c (m, n) = a (m, k) b (k, n), or c += a b when `accumulate`.
template <typename S>
void matmul(S* c, const S* a, const S* b, int m, int k, int n, bool accumulate);
// c (k, n) += a^T b for a (m, k), b (m, n): weight gradients x^T dy.
template <typename S>
void matmul_at_b_acc(S* c, const S* a, const S* b, int m, int k, int n);
// out (cols, rows) = in (rows, cols)^T
template <typename S>
void transpose(S* out, const S* in, int rows, int cols);

// ---- 2 linear: y = x w + b ----------------------------------------------------------------

// y (n, d_out) = x (n, d_in) w (d_in, d_out) + b (d_out); b may be null.
template <typename S>
void linear_forward(S* y, const S* x, const S* w, const S* b, int n, int d_in, int d_out);
// dx (n, d_in) += dy w^T,  dw (d_in, d_out) += x^T dy,  db (d_out) += column sums of dy.
// dx and db may be null (an input that needs no gradient, a layer without bias).
template <typename S>
void linear_backward(S* dx, S* dw, S* db, const S* dy, const S* x, const S* w, int n, int d_in,
                     int d_out);

// ---- 3 layer norm -------------------------------------------------------------------------

inline constexpr double kLayerNormEps = 1e-5;

// Per row: 1 mean, 2 variance (biased, as PyTorch's LayerNorm), 3 x_hat = (x - mean) rstd
// with rstd = 1/sqrt(var + eps), 4 y = gain x_hat + bias. Keeps mean and rstd (n each).
template <typename S>
void layer_norm_forward(S* y, S* mean, S* rstd, const S* x, const S* gain, const S* bias, int n,
                        int d);
template <typename S>
void layer_norm_backward(S* dx, S* dgain, S* dbias, const S* dy, const S* x, const S* mean,
                         const S* rstd, const S* gain, int n, int d);

// ---- 4 GELU (tanh form, as GPT-2) ----------------------------------------------------------

// y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), elementwise over `count` values,
// computed as x sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)) (the same function, one exp()).
// gate (count) keeps sigmoid(2u) for the backward pass.
template <typename S>
void gelu_forward(S* y, S* gate, const S* x, int count);
// dx += dy * gelu'(x)
template <typename S>
void gelu_backward(S* dx, const S* dy, const S* x, const S* gate, int count);

// ---- 5 causal multi-head attention (the core, without projections) ------------------------

// For each sequence b and head hh, with q, k, v the head's (T, d_k) slices:
//   1 raw scores  s_ij = q_i . k_j                     (only j <= i: the rest is masked)
//   2 scale       s_ij * scale                         (1/sqrt(d_k), or 1 for "no scaling")
//   3 mask        j > i gets weight exactly 0 (a -inf fill; no row is ever fully masked,
//                 since j = i is always allowed)
//   4 softmax     p_ij = exp(s_ij - max_i) / sum_j exp(s_ij - max_i)
//   5 output      o_i = sum_j p_ij v_j
// q, k, v, out: (n = batch T, d); weights: (batch, h, T, T), upper triangles exactly 0.
template <typename S>
void causal_attention_forward(S* out, S* weights, const S* q, const S* k, const S* v, int batch,
                              int T, int d, int heads, S scale);
// Walks 5..1 back: dq, dk, dv (n, d) += gradients given dout (n, d).
template <typename S>
void causal_attention_backward(S* dq, S* dk, S* dv, const S* dout, const S* weights, const S* q,
                               const S* k, const S* v, int batch, int T, int d, int heads, S scale);

// ---- 6 embeddings -------------------------------------------------------------------------

// x (batch T, d) = token_embedding[tokens] (V, d) + position_embedding[t] (T, d).
template <typename S>
void embedding_forward(S* x, const int* tokens, const S* token_embedding,
                       const S* position_embedding, int batch, int T, int d);
template <typename S>
void embedding_backward(S* dtoken_embedding, S* dposition_embedding, const S* dx,
                        const int* tokens, int batch, int T, int d);

// ---- 7 cross-entropy over the scored rows ------------------------------------------------

struct CrossEntropyResult {
  double loss = 0.0;  // mean of -log p(target) over the scored rows
  int scored = 0;     // rows that count
  int correct = 0;    // scored rows whose argmax (first maximum) is the target
};

// logits (n, V); a row counts where scored[r] != 0 and then targets[r] is in [0, V).
// dlogits (n, V), when not null, is SET to d loss / d logits = (p - onehot) / scored on the
// scored rows and 0 elsewhere. predictions (n), when not null, gets each row's argmax.
template <typename S>
CrossEntropyResult cross_entropy(S* dlogits, int* predictions, const S* logits, const int* targets,
                                 const std::uint8_t* scored, int n, int V);

}  // namespace attn::train
