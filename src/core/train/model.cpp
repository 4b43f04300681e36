#include "core/train/model.h"

#include "core/base/rng.h"
#include "core/train/train_messages.h"

#include <cmath>

namespace attn::train {

// =========================================================================================
// config and layout
// =========================================================================================

Status validate_model_config(const ModelConfig& c, const ModelLimits& limits) {
  // `out_of_range` names the field: "layers must be from {0} to {1}, got {2}".
  auto range = [](const MessageText& out_of_range, int v, int lo, int hi) {
    if (v < lo || v > hi) return Status::error(out_of_range, lo, hi, v);
    return Status::success();
  };
  if (Status st = range(msg::train_layers_range, c.layers, 1, limits.layers); !st.ok) return st;
  if (Status st = range(msg::train_heads_range, c.heads, 1, limits.heads); !st.ok) return st;
  if (Status st = range(msg::train_d_model_range, c.d_model, 1, limits.d_model); !st.ok) return st;
  if (Status st = range(msg::train_model_d_mlp_range, c.d_mlp, 1, limits.d_mlp); !st.ok) return st;
  if (Status st = range(msg::train_context_range, c.context, 2, limits.context); !st.ok) return st;
  if (Status st = range(msg::train_vocab_range, c.vocab, 2, limits.vocab); !st.ok) return st;
  if (c.d_model % c.heads != 0) return Status::error(msg::train_heads_divide, c.d_model, c.heads);
  if (c.init != InitScheme::Unit && c.init != InitScheme::Small) return Status::error(msg::train_unknown_init);
  return Status::success();
}

float score_scale(const ModelConfig& c) {
  return c.scale_scores ? 1.0f / std::sqrt(static_cast<float>(c.d_model / c.heads)) : 1.0f;
}

std::vector<TensorInfo> parameter_layout(const ModelConfig& c) {
  std::vector<TensorInfo> out;
  std::size_t offset = 0;
  auto add = [&](std::string name, int rows, int cols, TensorKind kind) {
    out.push_back({std::move(name), rows, cols, offset, kind});
    offset += static_cast<std::size_t>(rows) * cols;
  };
  using K = TensorKind;
  const int d = c.d_model, f = c.d_mlp;
  add("token_embedding", c.vocab, d, K::Embedding);
  add("position_embedding", c.context, d, K::Embedding);
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "layer" + std::to_string(l) + ".";
    add(p + "ln1.gain", 1, d, K::Gain);
    add(p + "ln1.bias", 1, d, K::Bias);
    add(p + "attn.wq", d, d, K::Matrix);
    add(p + "attn.wk", d, d, K::Matrix);
    add(p + "attn.wv", d, d, K::Matrix);
    add(p + "attn.wo", d, d, K::Matrix);
    add(p + "ln2.gain", 1, d, K::Gain);
    add(p + "ln2.bias", 1, d, K::Bias);
    add(p + "mlp.w1", d, f, K::Matrix);
    add(p + "mlp.b1", 1, f, K::Bias);
    add(p + "mlp.w2", f, d, K::Matrix);
    add(p + "mlp.b2", 1, d, K::Bias);
  }
  add("final_ln.gain", 1, d, K::Gain);
  add("final_ln.bias", 1, d, K::Bias);
  add("unembed.w", d, c.vocab, K::Matrix);
  add("unembed.b", 1, c.vocab, K::Bias);
  return out;
}

std::size_t parameter_count(const ModelConfig& c) {
  const std::vector<TensorInfo> layout = parameter_layout(c);
  return layout.back().offset + static_cast<std::size_t>(layout.back().rows) * layout.back().cols;
}

template <typename P>
ModelTensors<P> tensors_of(const ModelConfig& c, P flat) {
  // The same walk as parameter_layout, by role instead of by name.
  const std::vector<TensorInfo> layout = parameter_layout(c);
  std::size_t i = 0;
  auto next = [&]() { return flat + layout[i++].offset; };
  ModelTensors<P> t;
  t.token_embedding = next();
  t.position_embedding = next();
  for (int l = 0; l < c.layers; ++l) {
    LayerTensors<P> x;
    x.ln1_gain = next();
    x.ln1_bias = next();
    x.wq = next();
    x.wk = next();
    x.wv = next();
    x.wo = next();
    x.ln2_gain = next();
    x.ln2_bias = next();
    x.w1 = next();
    x.b1 = next();
    x.w2 = next();
    x.b2 = next();
    t.layers.push_back(x);
  }
  t.final_gain = next();
  t.final_bias = next();
  t.unembed = next();
  t.unembed_bias = next();
  return t;
}

std::vector<float> initial_parameters(const ModelConfig& c, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> params(parameter_count(c), 0.0f);
  const bool small = c.init == InitScheme::Small;
  for (const TensorInfo& t : parameter_layout(c)) {
    float* p = params.data() + t.offset;
    const std::size_t count = static_cast<std::size_t>(t.rows) * t.cols;
    if (t.kind == TensorKind::Gain) {
      for (std::size_t i = 0; i < count; ++i) p[i] = 1.0f;
      continue;
    }
    if (t.kind == TensorKind::Bias) continue;  // zeros
    // Embeddings N(0, 1); a projection (d_in, d_out) N(0, 1/d_in). Small: N(0, 0.02^2).
    const float sd = small ? kSmallInitStd
                           : t.kind == TensorKind::Embedding ? 1.0f : 1.0f / std::sqrt(static_cast<float>(t.rows));
    for (std::size_t i = 0; i < count; ++i) p[i] = sd * rng.normal();
  }
  return params;
}

Status check_batch(const ModelConfig& c, const Batch& b) {
  const std::size_t n = static_cast<std::size_t>(b.size) * b.context;
  if (b.size < 1) return Status::error(msg::train_batch_empty);
  if (b.context != c.context) return Status::error(msg::train_batch_context, b.context, c.context);
  if (b.tokens.size() != n || b.targets.size() != n || b.scored.size() != n)
    return Status::error(msg::train_batch_sizes);
  for (std::size_t i = 0; i < n; ++i) {
    if (b.tokens[i] < 0 || b.tokens[i] >= c.vocab)
      return Status::error(msg::train_token_outside_vocab, b.tokens[i], i);
    if (b.scored[i] && (b.targets[i] < 0 || b.targets[i] >= c.vocab))
      return Status::error(msg::train_target_outside_vocab, b.targets[i], i);
  }
  return Status::success();
}

// =========================================================================================
// forward
// =========================================================================================

namespace {

template <typename S>
void ensure(MatOf<S>& m, int rows, int cols) {
  if (m.rows() != rows || m.cols() != cols) m.resize(rows, cols);
}

template <typename S>
void ensure(std::vector<S>& v, std::size_t size) {
  if (v.size() != size) v.resize(size);
}

template <typename S>
void prepare(const ModelConfig& c, int batch, Activations<S>& a) {
  const int n = batch * c.context, d = c.d_model, f = c.d_mlp;
  a.batch = batch;
  a.context = c.context;
  a.residual.resize(c.layers + 1);
  a.layers.resize(c.layers);
  for (MatOf<S>& r : a.residual) ensure(r, n, d);
  for (LayerActivations<S>& l : a.layers) {
    for (MatOf<S>* m : {&l.ln1, &l.q, &l.k, &l.v, &l.heads, &l.mid, &l.ln2}) ensure(*m, n, d);
    ensure(l.mlp_pre, n, f);
    ensure(l.mlp_act, n, f);
    ensure(l.mlp_gate, n, f);
    for (std::vector<S>* s : {&l.ln1_mean, &l.ln1_rstd, &l.ln2_mean, &l.ln2_rstd}) ensure(*s, n);
    ensure(l.weights, static_cast<std::size_t>(batch) * c.heads * c.context * c.context);
  }
  ensure(a.final_ln, n, d);
  ensure(a.final_mean, n);
  ensure(a.final_rstd, n);
  ensure(a.logits, n, c.vocab);
  ensure(a.predictions, n);
  ensure(a.scratch_d, n, d);
}

}  // namespace

template <typename S>
CrossEntropyResult model_forward(const ModelConfig& c, const S* params, const Batch& batch,
                                 Activations<S>& a, bool for_backward) {
  prepare(c, batch.size, a);
  const ModelTensors<const S*> w = tensors_of(c, params);
  const int B = batch.size, T = c.context, n = B * T, d = c.d_model, f = c.d_mlp;
  const S scale = static_cast<S>(score_scale(c));

  // x_0 = E[token] + P[position]
  embedding_forward(a.residual[0].data(), batch.tokens.data(), w.token_embedding, w.position_embedding, B, T, d);
  for (int l = 0; l < c.layers; ++l) {
    const LayerTensors<const S*>& p = w.layers[l];
    LayerActivations<S>& la = a.layers[l];
    const S* x = a.residual[l].data();
    // a = LN1(x); q, k, v = a W_q, a W_k, a W_v
    layer_norm_forward(la.ln1.data(), la.ln1_mean.data(), la.ln1_rstd.data(), x, p.ln1_gain, p.ln1_bias, n, d);
    linear_forward(la.q.data(), la.ln1.data(), p.wq, static_cast<const S*>(nullptr), n, d, d);
    linear_forward(la.k.data(), la.ln1.data(), p.wk, static_cast<const S*>(nullptr), n, d, d);
    linear_forward(la.v.data(), la.ln1.data(), p.wv, static_cast<const S*>(nullptr), n, d, d);
    // o = causal attention per head; mid = x + o W_o
    causal_attention_forward(la.heads.data(), la.weights.data(), la.q.data(), la.k.data(), la.v.data(), B, T, d,
                             c.heads, scale);
    linear_forward(a.scratch_d.data(), la.heads.data(), p.wo, static_cast<const S*>(nullptr), n, d, d);
    la.mid = a.residual[l] + a.scratch_d;
    // m = LN2(mid); x_next = mid + GELU(m W_1 + b_1) W_2 + b_2
    layer_norm_forward(la.ln2.data(), la.ln2_mean.data(), la.ln2_rstd.data(), la.mid.data(), p.ln2_gain,
                       p.ln2_bias, n, d);
    linear_forward(la.mlp_pre.data(), la.ln2.data(), p.w1, p.b1, n, d, f);
    gelu_forward(la.mlp_act.data(), la.mlp_gate.data(), la.mlp_pre.data(), n * f);
    linear_forward(a.scratch_d.data(), la.mlp_act.data(), p.w2, p.b2, n, f, d);
    a.residual[l + 1] = la.mid + a.scratch_d;
  }
  // logits = LN_f(x) W_u + b_u
  layer_norm_forward(a.final_ln.data(), a.final_mean.data(), a.final_rstd.data(), a.residual[c.layers].data(),
                     w.final_gain, w.final_bias, n, d);
  linear_forward(a.logits.data(), a.final_ln.data(), w.unembed, w.unembed_bias, n, d, c.vocab);
  if (for_backward) ensure(a.dlogits, n, c.vocab);
  return cross_entropy(for_backward ? a.dlogits.data() : static_cast<S*>(nullptr), a.predictions.data(),
                       a.logits.data(), batch.targets.data(), batch.scored.data(), n, c.vocab);
}

// =========================================================================================
// backward: the forward lines in reverse
// =========================================================================================

template <typename S>
void model_backward(const ModelConfig& c, const S* params, const Batch& batch, Activations<S>& a, S* grads) {
  const ModelTensors<const S*> w = tensors_of(c, params);
  const ModelTensors<S*> g = tensors_of(c, grads);
  const std::size_t count = parameter_count(c);
  for (std::size_t i = 0; i < count; ++i) grads[i] = S(0);
  const int B = batch.size, T = c.context, n = B * T, d = c.d_model, f = c.d_mlp;
  const S scale = static_cast<S>(score_scale(c));
  for (MatOf<S>* m : {&a.grad_x, &a.grad_a, &a.grad_q, &a.grad_k, &a.grad_v, &a.grad_heads}) ensure(*m, n, d);
  ensure(a.grad_mlp_act, n, f);
  ensure(a.grad_mlp_pre, n, f);

  // from logits = LN_f(x) W_u + b_u
  a.grad_a.setZero();
  linear_backward(a.grad_a.data(), g.unembed, g.unembed_bias, a.dlogits.data(), a.final_ln.data(), w.unembed, n, d,
                  c.vocab);
  a.grad_x.setZero();  // d loss / d x, the residual stream, from here down
  layer_norm_backward(a.grad_x.data(), g.final_gain, g.final_bias, a.grad_a.data(), a.residual[c.layers].data(),
                      a.final_mean.data(), a.final_rstd.data(), w.final_gain, n, d);

  for (int l = c.layers - 1; l >= 0; --l) {
    const LayerTensors<const S*>& p = w.layers[l];
    const LayerTensors<S*>& gp = g.layers[l];
    LayerActivations<S>& la = a.layers[l];
    // from x_next = mid + GELU(m W_1 + b_1) W_2 + b_2: grad_x flows to mid unchanged, plus
    a.grad_mlp_act.setZero();
    linear_backward(a.grad_mlp_act.data(), gp.w2, gp.b2, a.grad_x.data(), la.mlp_act.data(), p.w2, n, f, d);
    a.grad_mlp_pre.setZero();
    gelu_backward(a.grad_mlp_pre.data(), a.grad_mlp_act.data(), la.mlp_pre.data(), la.mlp_gate.data(), n * f);
    a.grad_a.setZero();
    linear_backward(a.grad_a.data(), gp.w1, gp.b1, a.grad_mlp_pre.data(), la.ln2.data(), p.w1, n, d, f);
    // from m = LN2(mid): added to the residual gradient, which is now d loss / d mid
    layer_norm_backward(a.grad_x.data(), gp.ln2_gain, gp.ln2_bias, a.grad_a.data(), la.mid.data(),
                        la.ln2_mean.data(), la.ln2_rstd.data(), p.ln2_gain, n, d);
    // from mid = x + o W_o
    a.grad_heads.setZero();
    linear_backward(a.grad_heads.data(), gp.wo, static_cast<S*>(nullptr), a.grad_x.data(), la.heads.data(), p.wo,
                    n, d, d);
    // from o = causal attention(q, k, v)
    a.grad_q.setZero();
    a.grad_k.setZero();
    a.grad_v.setZero();
    causal_attention_backward(a.grad_q.data(), a.grad_k.data(), a.grad_v.data(), a.grad_heads.data(),
                              la.weights.data(), la.q.data(), la.k.data(), la.v.data(), B, T, d, c.heads, scale);
    // from q, k, v = a W_q, a W_k, a W_v
    a.grad_a.setZero();
    linear_backward(a.grad_a.data(), gp.wq, static_cast<S*>(nullptr), a.grad_q.data(), la.ln1.data(), p.wq, n, d, d);
    linear_backward(a.grad_a.data(), gp.wk, static_cast<S*>(nullptr), a.grad_k.data(), la.ln1.data(), p.wk, n, d, d);
    linear_backward(a.grad_a.data(), gp.wv, static_cast<S*>(nullptr), a.grad_v.data(), la.ln1.data(), p.wv, n, d, d);
    // from a = LN1(x): the residual gradient becomes d loss / d x entering layer l
    layer_norm_backward(a.grad_x.data(), gp.ln1_gain, gp.ln1_bias, a.grad_a.data(), a.residual[l].data(),
                        la.ln1_mean.data(), la.ln1_rstd.data(), p.ln1_gain, n, d);
  }
  // from x_0 = E[token] + P[position]
  embedding_backward(g.token_embedding, g.position_embedding, a.grad_x.data(), batch.tokens.data(), B, T, d);
}

template ModelTensors<float*> tensors_of<float*>(const ModelConfig&, float*);
template ModelTensors<const float*> tensors_of<const float*>(const ModelConfig&, const float*);
template ModelTensors<double*> tensors_of<double*>(const ModelConfig&, double*);
template ModelTensors<const double*> tensors_of<const double*>(const ModelConfig&, const double*);
template CrossEntropyResult model_forward<float>(const ModelConfig&, const float*, const Batch&, Activations<float>&, bool);
template CrossEntropyResult model_forward<double>(const ModelConfig&, const double*, const Batch&, Activations<double>&, bool);
template void model_backward<float>(const ModelConfig&, const float*, const Batch&, Activations<float>&, float*);
template void model_backward<double>(const ModelConfig&, const double*, const Batch&, Activations<double>&, double*);

}  // namespace attn::train
