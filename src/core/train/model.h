// The tiny Transformer: a causal, decoder-only, pre-norm model small enough to train in a
// browser tab while the explorer draws its heads.
//
//   x_0 = E[token] + P[position]                         learned token and position embeddings
//   per layer l:
//     a   = LN1(x)                                        (n, d)
//     q, k, v = a W_q, a W_k, a W_v                       (n, d) each, no biases; h heads of d_k
//     o   = causal attention per head (train_blocks.h 5: scores, scale, mask, softmax, A V)
//     x  += o W_o
//     m   = LN2(x)
//     x  += GELU(m W_1 + b_1) W_2 + b_2                   MLP of width f
//   logits = LN_f(x) W_u + b_u                            (n, V)
//   loss   = mean cross-entropy over the scored positions
//
// All parameters live in one flat array (the order of parameter_layout), so the optimizer,
// the weight file and the gradient checks walk one buffer. Everything is templated on the
// scalar: float for training, double for the gradient checks.
//
// Not here: the optimizer, the tasks' data, the history (train_trainer.h).
//
// Legend: B = batch (sequences), T = context (positions), n = B T rows, d = d_model,
// h = heads, d_k = d / h, f = d_mlp, V = vocabulary, L = layers.
#pragma once

#include "core/train/blocks.h"
#include "core/train/tasks.h"
#include "core/base/types.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

template <typename S>
using MatOf = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// How the weights are drawn.
enum class InitScheme {
  // Every projection W (d_in, d_out) ~ N(0, 1/d_in), embeddings ~ N(0, 1): unit-variance
  // inputs give unit-variance outputs, so after layer norm the entries of q and k have unit
  // variance and q.k has variance d_k (the situation behind 1/sqrt(d_k)).
  Unit,
  // Every matrix and embedding ~ N(0, 0.02^2) (GPT-2's): q and k start near zero and the
  // scores are small with or without scaling.
  Small,
};
inline constexpr float kSmallInitStd = 0.02f;

// Limits of the lab's models (1-2 layers, 1-4 heads, d_model <= 128).
inline constexpr int kMaxLayers = 2;
inline constexpr int kMaxHeads = 4;
inline constexpr int kMaxDModel = 128;
inline constexpr int kMaxDMlp = 512;
inline constexpr int kMaxContext = 64;
inline constexpr int kMaxVocab = 64;

struct ModelConfig {
  int vocab = kSymbols + 1;
  int context = 33;
  int layers = 2;
  int heads = 2;
  int d_model = 32;
  int d_mlp = 32;
  bool scale_scores = true;  // multiply q k^T by 1/sqrt(d_k); false = the "forgot to scale" run
  InitScheme init = InitScheme::Unit;
};

// The largest model a caller accepts. The lab's training panel and `attnlab-cli train` use
// kLabModelLimits (the constants above); the language model (core/lm) trains larger ones.
struct ModelLimits {
  int layers = kMaxLayers, heads = kMaxHeads, d_model = kMaxDModel, d_mlp = kMaxDMlp;
  int context = kMaxContext, vocab = kMaxVocab;
};
inline constexpr ModelLimits kLabModelLimits{};

// Ranges and divisibility; the message names the field.
Status validate_model_config(const ModelConfig& config, const ModelLimits& limits = kLabModelLimits);
// The multiplier of q k^T: 1/sqrt(d_k), or 1 without scaling.
float score_scale(const ModelConfig& config);

// One named tensor of the flat parameter array: rows x cols floats from `offset`.
enum class TensorKind { Embedding, Matrix, Gain, Bias };
struct TensorInfo {
  std::string name;  // e.g. "layer0.attn.wq"
  int rows = 0, cols = 0;
  std::size_t offset = 0;
  TensorKind kind = TensorKind::Matrix;  // how it is initialised
};
std::vector<TensorInfo> parameter_layout(const ModelConfig& config);
std::size_t parameter_count(const ModelConfig& config);

// Pointers into a flat array (parameters or their gradients), by role.
template <typename P>
struct LayerTensors {
  P ln1_gain, ln1_bias;  // (d)
  P wq, wk, wv, wo;      // (d, d)
  P ln2_gain, ln2_bias;  // (d)
  P w1, b1;              // (d, f), (f)
  P w2, b2;              // (f, d), (d)
};
template <typename P>
struct ModelTensors {
  P token_embedding;     // (V, d)
  P position_embedding;  // (T, d)
  std::vector<LayerTensors<P>> layers;
  P final_gain, final_bias;  // (d)
  P unembed, unembed_bias;   // (d, V), (V)
};
template <typename P>
ModelTensors<P> tensors_of(const ModelConfig& config, P flat);

// Weights drawn from attn::Rng(seed) in layout order, row by row; gains 1, biases 0.
std::vector<float> initial_parameters(const ModelConfig& config, std::uint64_t seed);

// Tokens in [0, vocab), targets in range where scored, context equal to the model's.
Status check_batch(const ModelConfig& config, const Batch& batch);

// What the forward pass keeps for the backward pass (and for the probe views).
template <typename S>
struct LayerActivations {
  MatOf<S> ln1;                        // (n, d) LN1(x)
  std::vector<S> ln1_mean, ln1_rstd;   // (n)
  MatOf<S> q, k, v;                    // (n, d)
  std::vector<S> weights;              // (B, h, T, T) attention weights, upper triangles 0
  MatOf<S> heads;                      // (n, d) per-head outputs side by side
  MatOf<S> mid;                        // (n, d) x after the attention residual
  MatOf<S> ln2;                        // (n, d) LN2(mid)
  std::vector<S> ln2_mean, ln2_rstd;   // (n)
  MatOf<S> mlp_pre, mlp_act;           // (n, f) before and after GELU
  MatOf<S> mlp_gate;                   // (n, f) GELU's sigmoid factor
};
template <typename S>
struct Activations {
  int batch = 0, context = 0;
  std::vector<MatOf<S>> residual;      // L + 1 entries (n, d): x entering layer l; [L] the last
  std::vector<LayerActivations<S>> layers;
  MatOf<S> final_ln;                   // (n, d)
  std::vector<S> final_mean, final_rstd;
  MatOf<S> logits;                     // (n, V)
  MatOf<S> dlogits;                    // (n, V) when the forward was asked for gradients
  std::vector<int> predictions;        // (n) argmax per row
  // scratch for the passes (n, d) and (n, f)
  MatOf<S> scratch_d, grad_x, grad_a, grad_q, grad_k, grad_v, grad_heads;
  MatOf<S> grad_mlp_act, grad_mlp_pre;
};

// Runs the model on the batch. Returns the loss and accuracy over the scored positions;
// with `for_backward`, also the gradient of the loss w.r.t. the logits for model_backward.
// The batch must pass check_batch (not re-checked here).
template <typename S>
CrossEntropyResult model_forward(const ModelConfig& config, const S* params, const Batch& batch,
                                 Activations<S>& acts, bool for_backward);

// Overwrites grads (parameter_count) with d loss / d params for the last forward pass,
// which must have been run with for_backward.
template <typename S>
void model_backward(const ModelConfig& config, const S* params, const Batch& batch,
                    Activations<S>& acts, S* grads);

}  // namespace attn::train
