// Gradient checks: every backward pass of src/core/train/blocks.h and the whole model
// against central finite differences, in double (float32 is too coarse for differences).
//
// Each block's output is reduced to a scalar L = sum(out * R) with a fixed random R (so the
// upstream gradient is R, and every output entry matters); cross-entropy is its own scalar.
// The relative error of one entry is |analytic - numeric| / max(|analytic|, |numeric|, 1e-6)
// (the floor keeps entries that are zero on both sides from dividing 0 by 0); every check
// requires the largest one over all entries of all inputs to be below 1e-3, and prints it.
#include "core/attention/attention.h"
#include "core/base/rng.h"
#include "core/train/blocks.h"
#include "core/train/model.h"
#include "core/train/tasks.h"
#include "support/matrix_compare.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace tr = attn::train;

namespace {

using Vector = std::vector<double>;

Vector random_vector(attn::Rng& rng, std::size_t n, double sd = 1.0) {
  Vector v(n);
  for (double& x : v) x = sd * rng.normal();
  return v;
}

double dot(const Vector& a, const Vector& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Largest relative error between the analytic gradient of `loss` w.r.t. `x` and central
// differences with step h; `x` is restored afterwards.
double max_relative_error(Vector& x, const Vector& analytic, const std::function<double()>& loss, double h = 1e-5) {
  REQUIRE(analytic.size() == x.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double saved = x[i];
    x[i] = saved + h;
    const double up = loss();
    x[i] = saved - h;
    const double down = loss();
    x[i] = saved;
    const double numeric = (up - down) / (2.0 * h);
    const double denom = std::max({std::fabs(analytic[i]), std::fabs(numeric), 1e-6});
    worst = std::max(worst, std::fabs(analytic[i] - numeric) / denom);
  }
  return worst;
}

// Also guards against a check that cannot fail: the analytic gradient must not be all zero.
void require_nonzero(const Vector& g, const char* what) {
  double norm = 0.0;
  for (double x : g) norm += x * x;
  INFO(what);
  REQUIRE(norm > 1e-12);
}

void report(const char* block, const char* input, double err) {
  INFO(block << ": d/d " << input << " max relative error " << err);
  CHECK(err < 1e-3);
}

}  // namespace

TEST_CASE("train grad: linear y = x w + b", "[train][grad]") {
  attn::Rng rng(1);
  const int n = 5, d_in = 7, d_out = 6;
  Vector x = random_vector(rng, n * d_in), w = random_vector(rng, d_in * d_out), b = random_vector(rng, d_out);
  const Vector r = random_vector(rng, n * d_out);
  auto loss = [&]() {
    Vector y(n * d_out);
    tr::linear_forward(y.data(), x.data(), w.data(), b.data(), n, d_in, d_out);
    return dot(y, r);
  };
  Vector dx(x.size(), 0.0), dw(w.size(), 0.0), db(b.size(), 0.0);
  tr::linear_backward(dx.data(), dw.data(), db.data(), r.data(), x.data(), w.data(), n, d_in, d_out);
  require_nonzero(dx, "dx");
  report("linear", "x", max_relative_error(x, dx, loss));
  report("linear", "w", max_relative_error(w, dw, loss));
  report("linear", "b", max_relative_error(b, db, loss));
}

TEST_CASE("train grad: layer norm", "[train][grad]") {
  attn::Rng rng(2);
  const int n = 4, d = 9;
  Vector x = random_vector(rng, n * d, 2.0), gain = random_vector(rng, d), bias = random_vector(rng, d);
  const Vector r = random_vector(rng, n * d);
  auto loss = [&]() {
    Vector y(n * d), mean(n), rstd(n);
    tr::layer_norm_forward(y.data(), mean.data(), rstd.data(), x.data(), gain.data(), bias.data(), n, d);
    return dot(y, r);
  };
  Vector y(n * d), mean(n), rstd(n);
  tr::layer_norm_forward(y.data(), mean.data(), rstd.data(), x.data(), gain.data(), bias.data(), n, d);
  Vector dx(x.size(), 0.0), dgain(d, 0.0), dbias(d, 0.0);
  tr::layer_norm_backward(dx.data(), dgain.data(), dbias.data(), r.data(), x.data(), mean.data(), rstd.data(),
                          gain.data(), n, d);
  require_nonzero(dx, "dx");
  report("layer norm", "x", max_relative_error(x, dx, loss));
  report("layer norm", "gain", max_relative_error(gain, dgain, loss));
  report("layer norm", "bias", max_relative_error(bias, dbias, loss));
}

TEST_CASE("train grad: GELU", "[train][grad]") {
  attn::Rng rng(3);
  Vector x = random_vector(rng, 40, 2.0);
  const Vector r = random_vector(rng, 40);
  auto loss = [&]() {
    Vector y(x.size()), gate(x.size());
    tr::gelu_forward(y.data(), gate.data(), x.data(), static_cast<int>(x.size()));
    return dot(y, r);
  };
  Vector y(x.size()), gate(x.size()), dx(x.size(), 0.0);
  tr::gelu_forward(y.data(), gate.data(), x.data(), static_cast<int>(x.size()));
  tr::gelu_backward(dx.data(), r.data(), x.data(), gate.data(), static_cast<int>(x.size()));
  report("GELU", "x", max_relative_error(x, dx, loss));
  // And it is GELU: the tanh form at a few points.
  for (double v : {-3.0, -0.5, 0.0, 0.7, 2.5}) {
    Vector one{v}, out(1), g(1);
    tr::gelu_forward(out.data(), g.data(), one.data(), 1);
    const double expected = 0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    REQUIRE(std::fabs(out[0] - expected) < 1e-12);
  }
}

TEST_CASE("train grad: causal attention (scores, scale, mask, softmax, A V)", "[train][grad]") {
  const int batch = 2, T = 6, d = 8, heads = 2;
  for (double scale : {1.0 / std::sqrt(4.0), 1.0}) {
    attn::Rng rng(4);
    Vector q = random_vector(rng, batch * T * d), k = random_vector(rng, batch * T * d),
           v = random_vector(rng, batch * T * d);
    const Vector r = random_vector(rng, batch * T * d);
    auto loss = [&]() {
      Vector out(batch * T * d), w(batch * heads * T * T);
      tr::causal_attention_forward(out.data(), w.data(), q.data(), k.data(), v.data(), batch, T, d, heads, scale);
      return dot(out, r);
    };
    Vector out(batch * T * d), w(batch * heads * T * T);
    tr::causal_attention_forward(out.data(), w.data(), q.data(), k.data(), v.data(), batch, T, d, heads, scale);
    Vector dq(q.size(), 0.0), dk(k.size(), 0.0), dv(v.size(), 0.0);
    tr::causal_attention_backward(dq.data(), dk.data(), dv.data(), r.data(), w.data(), q.data(), k.data(), v.data(),
                                  batch, T, d, heads, scale);
    require_nonzero(dq, "dq");
    require_nonzero(dk, "dk");
    const char* name = scale == 1.0 ? "attention, no scaling" : "attention, 1/sqrt(d_k)";
    report(name, "q", max_relative_error(q, dq, loss));
    report(name, "k", max_relative_error(k, dk, loss));
    report(name, "v", max_relative_error(v, dv, loss));
    // 3 mask: the last key's k and v reach only the last query; perturbing them leaves
    // every earlier output unchanged, so their gradient comes from row T-1 alone.
    Vector only_last_row = r;
    for (int b = 0; b < batch; ++b)
      for (int t = 0; t < T - 1; ++t)
        for (int c = 0; c < d; ++c) only_last_row[(b * T + t) * d + c] = 0.0;
    Vector dq2(q.size(), 0.0), dk2(k.size(), 0.0), dv2(v.size(), 0.0);
    tr::causal_attention_backward(dq2.data(), dk2.data(), dv2.data(), only_last_row.data(), w.data(), q.data(),
                                  k.data(), v.data(), batch, T, d, heads, scale);
    for (int b = 0; b < batch; ++b)
      for (int c = 0; c < d; ++c) {
        const int last = (b * T + T - 1) * d + c;
        REQUIRE(std::fabs(dk2[last] - dk[last]) < 1e-12);
        REQUIRE(std::fabs(dv2[last] - dv[last]) < 1e-12);
      }
  }
}

TEST_CASE("train grad: attention block with its four projections", "[train][grad]") {
  // a -> q, k, v = a W_q, a W_k, a W_v -> causal attention -> heads W_o
  attn::Rng rng(5);
  const int batch = 2, T = 5, d = 8, heads = 2, n = batch * T;
  const double scale = 1.0 / std::sqrt(4.0);
  Vector a = random_vector(rng, n * d), wq = random_vector(rng, d * d, 0.5), wk = random_vector(rng, d * d, 0.5),
         wv = random_vector(rng, d * d, 0.5), wo = random_vector(rng, d * d, 0.5);
  const Vector r = random_vector(rng, n * d);
  struct Forward {
    Vector q, k, v, w, heads_out, out;
  };
  auto forward = [&]() {
    Forward f{Vector(n * d), Vector(n * d), Vector(n * d), Vector(batch * heads * T * T), Vector(n * d), Vector(n * d)};
    tr::linear_forward(f.q.data(), a.data(), wq.data(), static_cast<const double*>(nullptr), n, d, d);
    tr::linear_forward(f.k.data(), a.data(), wk.data(), static_cast<const double*>(nullptr), n, d, d);
    tr::linear_forward(f.v.data(), a.data(), wv.data(), static_cast<const double*>(nullptr), n, d, d);
    tr::causal_attention_forward(f.heads_out.data(), f.w.data(), f.q.data(), f.k.data(), f.v.data(), batch, T, d,
                                 heads, scale);
    tr::linear_forward(f.out.data(), f.heads_out.data(), wo.data(), static_cast<const double*>(nullptr), n, d, d);
    return f;
  };
  auto loss = [&]() { return dot(forward().out, r); };
  const Forward f = forward();
  Vector dheads(n * d, 0.0), dwo(d * d, 0.0), dq(n * d, 0.0), dk(n * d, 0.0), dv(n * d, 0.0);
  Vector da(n * d, 0.0), dwq(d * d, 0.0), dwk(d * d, 0.0), dwv(d * d, 0.0);
  tr::linear_backward(dheads.data(), dwo.data(), static_cast<double*>(nullptr), r.data(), f.heads_out.data(),
                      wo.data(), n, d, d);
  tr::causal_attention_backward(dq.data(), dk.data(), dv.data(), dheads.data(), f.w.data(), f.q.data(), f.k.data(),
                                f.v.data(), batch, T, d, heads, scale);
  tr::linear_backward(da.data(), dwq.data(), static_cast<double*>(nullptr), dq.data(), a.data(), wq.data(), n, d, d);
  tr::linear_backward(da.data(), dwk.data(), static_cast<double*>(nullptr), dk.data(), a.data(), wk.data(), n, d, d);
  tr::linear_backward(da.data(), dwv.data(), static_cast<double*>(nullptr), dv.data(), a.data(), wv.data(), n, d, d);
  report("attention block", "input", max_relative_error(a, da, loss));
  report("attention block", "W_q", max_relative_error(wq, dwq, loss));
  report("attention block", "W_k", max_relative_error(wk, dwk, loss));
  report("attention block", "W_v", max_relative_error(wv, dwv, loss));
  report("attention block", "W_o", max_relative_error(wo, dwo, loss));
}

TEST_CASE("train grad: MLP block GELU(m W_1 + b_1) W_2 + b_2", "[train][grad]") {
  attn::Rng rng(6);
  const int n = 6, d = 5, f = 7;
  Vector m = random_vector(rng, n * d), w1 = random_vector(rng, d * f, 0.5), b1 = random_vector(rng, f, 0.5),
         w2 = random_vector(rng, f * d, 0.5), b2 = random_vector(rng, d, 0.5);
  const Vector r = random_vector(rng, n * d);
  auto loss = [&]() {
    Vector pre(n * f), act(n * f), gate(n * f), out(n * d);
    tr::linear_forward(pre.data(), m.data(), w1.data(), b1.data(), n, d, f);
    tr::gelu_forward(act.data(), gate.data(), pre.data(), n * f);
    tr::linear_forward(out.data(), act.data(), w2.data(), b2.data(), n, f, d);
    return dot(out, r);
  };
  Vector pre(n * f), act(n * f), gate(n * f);
  tr::linear_forward(pre.data(), m.data(), w1.data(), b1.data(), n, d, f);
  tr::gelu_forward(act.data(), gate.data(), pre.data(), n * f);
  Vector dact(n * f, 0.0), dpre(n * f, 0.0), dm(n * d, 0.0), dw1(d * f, 0.0), db1(f, 0.0), dw2(f * d, 0.0), db2(d, 0.0);
  tr::linear_backward(dact.data(), dw2.data(), db2.data(), r.data(), act.data(), w2.data(), n, f, d);
  tr::gelu_backward(dpre.data(), dact.data(), pre.data(), gate.data(), n * f);
  tr::linear_backward(dm.data(), dw1.data(), db1.data(), dpre.data(), m.data(), w1.data(), n, d, f);
  report("MLP", "input", max_relative_error(m, dm, loss));
  report("MLP", "W_1", max_relative_error(w1, dw1, loss));
  report("MLP", "b_1", max_relative_error(b1, db1, loss));
  report("MLP", "W_2", max_relative_error(w2, dw2, loss));
  report("MLP", "b_2", max_relative_error(b2, db2, loss));
}

TEST_CASE("train grad: embeddings and cross-entropy over scored rows", "[train][grad]") {
  attn::Rng rng(7);
  const int batch = 2, T = 4, d = 3, V = 6, n = batch * T;
  const std::vector<int> tokens = {1, 5, 5, 0, 2, 3, 1, 4};
  Vector emb = random_vector(rng, V * d), pos = random_vector(rng, T * d);
  const Vector r = random_vector(rng, n * d);
  auto loss = [&]() {
    Vector x(n * d);
    tr::embedding_forward(x.data(), tokens.data(), emb.data(), pos.data(), batch, T, d);
    return dot(x, r);
  };
  Vector demb(emb.size(), 0.0), dpos(pos.size(), 0.0);
  tr::embedding_backward(demb.data(), dpos.data(), r.data(), tokens.data(), batch, T, d);
  report("embedding", "token table", max_relative_error(emb, demb, loss));
  report("embedding", "position table", max_relative_error(pos, dpos, loss));
  // token 5 appears twice and its gradient is the sum of both rows
  for (int c = 0; c < d; ++c) REQUIRE(std::fabs(demb[5 * d + c] - (r[1 * d + c] + r[2 * d + c])) < 1e-12);

  Vector logits = random_vector(rng, n * V, 2.0);
  const std::vector<int> targets = {3, -1, 0, 5, 2, -1, 1, 4};
  const std::vector<std::uint8_t> scored = {1, 0, 1, 1, 1, 0, 1, 1};
  auto ce = [&]() {
    return tr::cross_entropy<double>(nullptr, nullptr, logits.data(), targets.data(), scored.data(), n, V).loss;
  };
  Vector dlogits(n * V);
  const tr::CrossEntropyResult res =
      tr::cross_entropy(dlogits.data(), static_cast<int*>(nullptr), logits.data(), targets.data(), scored.data(), n, V);
  REQUIRE(res.scored == 6);
  report("cross-entropy", "logits", max_relative_error(logits, dlogits, ce));
  for (int c = 0; c < V; ++c) REQUIRE(dlogits[1 * V + c] == 0.0);  // unscored rows get no gradient
}

TEST_CASE("train grad: the whole model, every parameter, with and without scaling", "[train][grad]") {
  for (bool scaled : {true, false}) {
    tr::ModelConfig c;
    c.vocab = 7;
    c.context = 5;
    c.layers = 2;
    c.heads = 2;
    c.d_model = 8;
    c.d_mlp = 6;
    c.scale_scores = scaled;
    REQUIRE(tr::validate_model_config(c).ok);
    const std::vector<float> init = tr::initial_parameters(c, 11);
    Vector params(init.begin(), init.end());
    tr::Batch batch;
    batch.size = 2;
    batch.context = 5;
    batch.tokens = {0, 3, 6, 2, 2, 5, 1, 1, 4, 0};
    batch.targets = {3, 6, 2, 2, -1, 1, 1, 4, 0, -1};
    batch.scored = {1, 1, 1, 1, 0, 1, 1, 1, 1, 0};
    REQUIRE(tr::check_batch(c, batch).ok);
    tr::Activations<double> acts;
    auto loss = [&]() { return tr::model_forward(c, params.data(), batch, acts, false).loss; };
    tr::model_forward(c, params.data(), batch, acts, true);
    Vector grads(params.size());
    tr::model_backward(c, params.data(), batch, acts, grads.data());
    require_nonzero(grads, "model gradient");
    // Per tensor, so a failure names the block.
    for (const tr::TensorInfo& t : tr::parameter_layout(c)) {
      const std::size_t count = static_cast<std::size_t>(t.rows) * t.cols;
      Vector slice(params.begin() + t.offset, params.begin() + t.offset + count);
      Vector analytic(grads.begin() + t.offset, grads.begin() + t.offset + count);
      auto slice_loss = [&]() {
        std::copy(slice.begin(), slice.end(), params.begin() + t.offset);
        return loss();
      };
      const double err = max_relative_error(slice, analytic, slice_loss);
      std::copy(slice.begin(), slice.end(), params.begin() + t.offset);
      INFO((scaled ? "scaled " : "unscaled ") << t.name << " max relative error " << err);
      CHECK(err < 1e-3);
    }

    // The float path is the same code: its gradient agrees with the double one.
    tr::Activations<float> facts;
    tr::model_forward(c, init.data(), batch, facts, true);
    std::vector<float> fgrads(init.size());
    tr::model_backward(c, init.data(), batch, facts, fgrads.data());
    double diff = 0.0, norm = 0.0;
    for (std::size_t i = 0; i < grads.size(); ++i) {
      diff += (fgrads[i] - grads[i]) * (fgrads[i] - grads[i]);
      norm += grads[i] * grads[i];
    }
    INFO("float vs double gradient, relative norm error " << std::sqrt(diff / norm));
    REQUIRE(std::sqrt(diff / norm) < 1e-4);
  }
}

TEST_CASE("train attention forward equals the explorer's attention core", "[train]") {
  // The training kernel (tiled, causal) against attn::attention (the pipeline's reference).
  attn::Rng rng(8);
  const int batch = 2, T = 9, d = 12, heads = 3, d_k = 4;
  for (float scale : {0.5f, 1.0f}) {
    const attn::Mat q = rng.normal_matrix(batch * T, d), k = rng.normal_matrix(batch * T, d),
                    v = rng.normal_matrix(batch * T, d);
    attn::Mat out(batch * T, d);
    std::vector<float> w(batch * heads * T * T);
    tr::causal_attention_forward(out.data(), w.data(), q.data(), k.data(), v.data(), batch, T, d, heads, scale);
    for (int b = 0; b < batch; ++b)
      for (int h = 0; h < heads; ++h) {
        attn::AttentionOptions o;
        o.causal = true;
        o.scale = scale;
        const attn::AttentionResult ref = attn::attention(q.block(b * T, h * d_k, T, d_k), k.block(b * T, h * d_k, T, d_k),
                                                          v.block(b * T, h * d_k, T, d_k), o);
        REQUIRE(ref.status.ok);
        const attn::Mat weights = Eigen::Map<const attn::Mat>(w.data() + (b * heads + h) * T * T, T, T);
        REQUIRE_MATRIX_NEAR(weights, ref.weights, 1e-6f);
        REQUIRE_MATRIX_NEAR(attn::Mat(out.block(b * T, h * d_k, T, d_k)), ref.output, 1e-5f);
      }
  }
}

TEST_CASE("train products: the tiled kernel equals plain loops bit for bit", "[train]") {
  // Same sums in the same order, so not merely close: equal. Sizes cover full tiles and edges.
  attn::Rng rng(9);
  for (int trial = 0; trial < 6; ++trial) {
    const int m = 3 + 5 * trial, k = 2 + 3 * trial, n = 1 + 7 * trial;
    const attn::Mat a = rng.normal_matrix(m, k), b = rng.normal_matrix(k, n), c0 = rng.normal_matrix(m, n);
    attn::Mat c = c0;
    tr::matmul(c.data(), a.data(), b.data(), m, k, n, true);
    attn::Mat plain = c0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j)
        for (int p = 0; p < k; ++p) plain(i, j) += a(i, p) * b(p, j);
    REQUIRE_MATRIX_NEAR(c, plain, 0.0f);

    const attn::Mat g = rng.normal_matrix(m, n);
    attn::Mat at = rng.normal_matrix(k, n), at_plain = at;
    tr::matmul_at_b_acc(at.data(), a.data(), g.data(), m, k, n);
    for (int p = 0; p < k; ++p)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) at_plain(p, j) += a(i, p) * g(i, j);
    REQUIRE_MATRIX_NEAR(at, at_plain, 0.0f);
  }
}
