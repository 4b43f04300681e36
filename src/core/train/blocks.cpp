#include "core/train/blocks.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

namespace attn::train {

namespace {
// Row r of a row-major matrix with `cols` columns.
template <typename S>
S* row(S* m, int r, int cols) {
  return m + static_cast<std::ptrdiff_t>(r) * cols;
}
}  // namespace

// =========================================================================================
// 1 products
// =========================================================================================
// One kernel serves both products: c (M, N) += A B with A(r, t) = a[r ars + t ats] and
// B(t, w) = b[t ldb + w], t = 0 .. depth-1. Every output entry is summed over t in ascending
// order starting from its current value, whatever the tiling: tiles only decide which
// entries are in registers at once, so native SSE, WebAssembly SIMD128 and the scalar tail
// all produce the same bits.

namespace {

constexpr int kTileRows = 4, kTileCols = 8;

// A full kTileRows x kTileCols tile held in local accumulators.
template <typename S>
void gemm_tile(S* c, int ldc, const S* a, std::ptrdiff_t ars, std::ptrdiff_t ats, const S* b, int ldb, int depth) {
  S acc[kTileRows][kTileCols];
  for (int r = 0; r < kTileRows; ++r)
    for (int w = 0; w < kTileCols; ++w) acc[r][w] = c[static_cast<std::ptrdiff_t>(r) * ldc + w];
  for (int t = 0; t < depth; ++t) {
    const S* bt = b + static_cast<std::ptrdiff_t>(t) * ldb;
    for (int r = 0; r < kTileRows; ++r) {
      const S x = a[r * ars + t * ats];
      for (int w = 0; w < kTileCols; ++w) acc[r][w] += x * bt[w];
    }
  }
  for (int r = 0; r < kTileRows; ++r)
    for (int w = 0; w < kTileCols; ++w) c[static_cast<std::ptrdiff_t>(r) * ldc + w] = acc[r][w];
}

// The float tile in 4-lane vectors (GCC/clang vector extensions: SSE natively, SIMD128 under
// emcc), 8 accumulators that stay in registers. Lane for lane the same multiply, then add,
// as the scalar tile above: the same bits, several times faster.
typedef float F32x4 __attribute__((vector_size(16)));

inline F32x4 load4(const float* p) {
  F32x4 v;
  std::memcpy(&v, p, sizeof v);  // unaligned load
  return v;
}
inline void store4(float* p, F32x4 v) { std::memcpy(p, &v, sizeof v); }

template <>
void gemm_tile<float>(float* c, int ldc, const float* a, std::ptrdiff_t ars, std::ptrdiff_t ats, const float* b,
                      int ldb, int depth) {
  static_assert(kTileRows == 4 && kTileCols == 8, "the vector tile is 4 x 8");
  float* c0 = c;
  float* c1 = c + ldc;
  float* c2 = c + 2 * static_cast<std::ptrdiff_t>(ldc);
  float* c3 = c + 3 * static_cast<std::ptrdiff_t>(ldc);
  F32x4 a00 = load4(c0), a01 = load4(c0 + 4), a10 = load4(c1), a11 = load4(c1 + 4);
  F32x4 a20 = load4(c2), a21 = load4(c2 + 4), a30 = load4(c3), a31 = load4(c3 + 4);
  for (int t = 0; t < depth; ++t) {
    const float* bt = b + static_cast<std::ptrdiff_t>(t) * ldb;
    const F32x4 b0 = load4(bt), b1 = load4(bt + 4);
    const float* at = a + t * ats;
    const float s0 = at[0], s1 = at[ars], s2 = at[2 * ars], s3 = at[3 * ars];
    const F32x4 x0 = {s0, s0, s0, s0}, x1 = {s1, s1, s1, s1}, x2 = {s2, s2, s2, s2}, x3 = {s3, s3, s3, s3};
    a00 += x0 * b0;
    a01 += x0 * b1;
    a10 += x1 * b0;
    a11 += x1 * b1;
    a20 += x2 * b0;
    a21 += x2 * b1;
    a30 += x3 * b0;
    a31 += x3 * b1;
  }
  store4(c0, a00);
  store4(c0 + 4, a01);
  store4(c1, a10);
  store4(c1 + 4, a11);
  store4(c2, a20);
  store4(c2 + 4, a21);
  store4(c3, a30);
  store4(c3 + 4, a31);
}

// A partial tile at the edges: the same sums, one entry at a time.
template <typename S>
void gemm_edge(S* c, int ldc, const S* a, std::ptrdiff_t ars, std::ptrdiff_t ats, const S* b, int ldb, int depth,
               int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int w = 0; w < cols; ++w) {
      S sum = c[static_cast<std::ptrdiff_t>(r) * ldc + w];
      for (int t = 0; t < depth; ++t) sum += a[r * ars + t * ats] * b[static_cast<std::ptrdiff_t>(t) * ldb + w];
      c[static_cast<std::ptrdiff_t>(r) * ldc + w] = sum;
    }
}

template <typename S>
void gemm_acc(S* c, int ldc, const S* a, std::ptrdiff_t ars, std::ptrdiff_t ats, const S* b, int ldb, int M, int N,
              int depth) {
  for (int i = 0; i < M; i += kTileRows) {
    const int rows = std::min(kTileRows, M - i);
    for (int j = 0; j < N; j += kTileCols) {
      const int cols = std::min(kTileCols, N - j);
      S* ct = c + static_cast<std::ptrdiff_t>(i) * ldc + j;
      const S* at = a + i * ars;
      if (rows == kTileRows && cols == kTileCols) gemm_tile(ct, ldc, at, ars, ats, b + j, ldb, depth);
      else gemm_edge(ct, ldc, at, ars, ats, b + j, ldb, depth, rows, cols);
    }
  }
}

}  // namespace

template <typename S>
void matmul(S* c, const S* a, const S* b, int m, int k, int n, bool accumulate) {
  if (!accumulate)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(m) * n; ++i) c[i] = S(0);
  // A(r, t) = a[r k + t], B(t, w) = b[t n + w]
  gemm_acc(c, n, a, k, 1, b, n, m, n, k);
}

template <typename S>
void matmul_at_b_acc(S* c, const S* a, const S* b, int m, int k, int n) {
  // c (k, n) += a^T b: A(r, t) = a[t k + r] (column r of a), B(t, w) = b[t n + w], t over m rows
  gemm_acc(c, n, a, 1, k, b, n, k, n, m);
}

template <typename S>
void transpose(S* out, const S* in, int rows, int cols) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) out[static_cast<std::ptrdiff_t>(j) * rows + i] = in[static_cast<std::ptrdiff_t>(i) * cols + j];
}

// =========================================================================================
// 2 linear
// =========================================================================================

template <typename S>
void linear_forward(S* y, const S* x, const S* w, const S* b, int n, int d_in, int d_out) {
  // y = b (broadcast over rows), then y += x w
  for (int i = 0; i < n; ++i) {
    S* yi = row(y, i, d_out);
    for (int j = 0; j < d_out; ++j) yi[j] = b ? b[j] : S(0);
  }
  matmul(y, x, w, n, d_in, d_out, true);
}

template <typename S>
void linear_backward(S* dx, S* dw, S* db, const S* dy, const S* x, const S* w, int n, int d_in,
                     int d_out) {
  // from y = x w + b:
  //   dx += dy w^T   (w^T copied once so the product runs along contiguous rows)
  if (dx) {
    std::vector<S> wt(static_cast<std::size_t>(d_in) * d_out);
    transpose(wt.data(), w, d_in, d_out);  // (d_out, d_in)
    matmul(dx, dy, wt.data(), n, d_out, d_in, true);
  }
  //   dw += x^T dy
  matmul_at_b_acc(dw, x, dy, n, d_in, d_out);
  //   db += sum over rows of dy
  if (db)
    for (int i = 0; i < n; ++i) {
      const S* dyi = row(dy, i, d_out);
      for (int j = 0; j < d_out; ++j) db[j] += dyi[j];
    }
}

// =========================================================================================
// 3 layer norm
// =========================================================================================

template <typename S>
void layer_norm_forward(S* y, S* mean, S* rstd, const S* x, const S* gain, const S* bias, int n,
                        int d) {
  const S eps = static_cast<S>(kLayerNormEps);
  for (int i = 0; i < n; ++i) {
    const S* xi = row(x, i, d);
    S* yi = row(y, i, d);
    // 1 mean
    S sum = 0;
    for (int j = 0; j < d; ++j) sum += xi[j];
    const S mu = sum / static_cast<S>(d);
    // 2 variance (biased)
    S sq = 0;
    for (int j = 0; j < d; ++j) sq += (xi[j] - mu) * (xi[j] - mu);
    const S var = sq / static_cast<S>(d);
    // 3 normalise, 4 gain and bias
    const S r = S(1) / std::sqrt(var + eps);
    for (int j = 0; j < d; ++j) yi[j] = (xi[j] - mu) * r * gain[j] + bias[j];
    mean[i] = mu;
    rstd[i] = r;
  }
}

template <typename S>
void layer_norm_backward(S* dx, S* dgain, S* dbias, const S* dy, const S* x, const S* mean,
                         const S* rstd, const S* gain, int n, int d) {
  for (int i = 0; i < n; ++i) {
    const S* xi = row(x, i, d);
    const S* dyi = row(dy, i, d);
    S* dxi = row(dx, i, d);
    const S mu = mean[i], r = rstd[i];
    // 4 y = gain x_hat + bias:  dgain += dy x_hat,  dbias += dy,  dx_hat = dy gain
    // 3 x_hat = (x - mean) rstd, with mean and rstd functions of the whole row:
    //   dx = rstd (dx_hat - mean(dx_hat) - x_hat mean(dx_hat x_hat))
    S sum_dxhat = 0, sum_dxhat_xhat = 0;
    for (int j = 0; j < d; ++j) {
      const S xhat = (xi[j] - mu) * r;
      const S dxhat = dyi[j] * gain[j];
      sum_dxhat += dxhat;
      sum_dxhat_xhat += dxhat * xhat;
      dgain[j] += dyi[j] * xhat;
      dbias[j] += dyi[j];
    }
    const S mean_dxhat = sum_dxhat / static_cast<S>(d);
    const S mean_dxhat_xhat = sum_dxhat_xhat / static_cast<S>(d);
    for (int j = 0; j < d; ++j) {
      const S xhat = (xi[j] - mu) * r;
      const S dxhat = dyi[j] * gain[j];
      dxi[j] += r * (dxhat - mean_dxhat - xhat * mean_dxhat_xhat);
    }
  }
}

// =========================================================================================
// 4 GELU
// =========================================================================================

namespace {
constexpr double kSqrt2OverPi = 0.7978845608028654;
constexpr double kGeluCubic = 0.044715;

// 0.5 (1 + tanh(u)) = sigmoid(2u): the same function with one exp() instead of tanh()
// (libm's tanhf took a third of a training step).
template <typename S>
S gelu_gate(S x) {
  const S u = static_cast<S>(kSqrt2OverPi) * (x + static_cast<S>(kGeluCubic) * x * x * x);
  return S(1) / (S(1) + std::exp(S(-2) * u));
}
}  // namespace

template <typename S>
void gelu_forward(S* y, S* gate, const S* x, int count) {
  for (int i = 0; i < count; ++i) {
    gate[i] = gelu_gate(x[i]);
    y[i] = x[i] * gate[i];
  }
}

template <typename S>
void gelu_backward(S* dx, const S* dy, const S* x, const S* gate, int count) {
  const S c = static_cast<S>(kSqrt2OverPi), a = static_cast<S>(kGeluCubic);
  for (int i = 0; i < count; ++i) {
    // from y = x g, g = sigmoid(2u), u = c (x + a x^3):
    //   dy/dx = g + x g (1 - g) 2 c (1 + 3 a x^2)
    const S xi = x[i], g = gate[i];
    const S slope = g + xi * g * (S(1) - g) * S(2) * c * (S(1) + S(3) * a * xi * xi);
    dx[i] += dy[i] * slope;
  }
}

// =========================================================================================
// 5 causal attention
// =========================================================================================

// Each product runs through the tiled kernel of section 1 over the whole (T, T) block; the
// entries above the diagonal are computed and then discarded (step 3), which is cheaper
// than a scalar loop over the lower triangle.

template <typename S>
void causal_attention_forward(S* out, S* weights, const S* q, const S* k, const S* v, int batch,
                              int T, int d, int heads, S scale) {
  const int d_k = d / heads;
  std::vector<S> kt(static_cast<std::size_t>(d_k) * T);  // k^T of one head: (d_k, T)
  for (int b = 0; b < batch; ++b)
    for (int hh = 0; hh < heads; ++hh) {
      // This head's slices: rows b T .. b T + T - 1, columns hh d_k .. (hh+1) d_k - 1, row stride d.
      const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(b) * T * d + hh * d_k;
      const S* qh = q + base;  // (T, d_k)
      const S* kh = k + base;
      const S* vh = v + base;
      S* oh = out + base;
      S* p = weights + (static_cast<std::ptrdiff_t>(b) * heads + hh) * T * T;  // (T, T)
      // 1 raw scores = q k^T
      for (int c = 0; c < d_k; ++c)
        for (int j = 0; j < T; ++j) kt[static_cast<std::size_t>(c) * T + j] = kh[static_cast<std::ptrdiff_t>(j) * d + c];
      for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(T) * T; ++i) p[i] = S(0);
      gemm_acc(p, T, qh, d, 1, kt.data(), T, T, T, d_k);
      for (int i = 0; i < T; ++i) {
        S* pi = p + static_cast<std::ptrdiff_t>(i) * T;
        // 2 scale, over the allowed keys j <= i
        S row_max = pi[0] * scale;
        for (int j = 0; j <= i; ++j) {
          pi[j] *= scale;
          if (pi[j] > row_max) row_max = pi[j];
        }
        // 3 mask: keys after i get weight exactly 0
        for (int j = i + 1; j < T; ++j) pi[j] = S(0);
        // 4 softmax; subtract the row max only for numerical stability (the result is unchanged)
        S sum = 0;
        for (int j = 0; j <= i; ++j) {
          pi[j] = std::exp(pi[j] - row_max);
          sum += pi[j];
        }
        const S inv = S(1) / sum;  // sum >= 1: the max term is exp(0)
        for (int j = 0; j <= i; ++j) pi[j] *= inv;
      }
      // 5 out = p v  (the zeros above the diagonal add nothing)
      for (int i = 0; i < T; ++i)
        for (int c = 0; c < d_k; ++c) oh[static_cast<std::ptrdiff_t>(i) * d + c] = S(0);
      gemm_acc(oh, d, p, T, 1, vh, d, T, d_k, T);
    }
}

template <typename S>
void causal_attention_backward(S* dq, S* dk, S* dv, const S* dout, const S* weights, const S* q,
                               const S* k, const S* v, int batch, int T, int d, int heads, S scale) {
  const int d_k = d / heads;
  std::vector<S> vt(static_cast<std::size_t>(d_k) * T);  // v^T of one head: (d_k, T)
  std::vector<S> dp(static_cast<std::size_t>(T) * T);    // d loss / d p: (T, T)
  for (int b = 0; b < batch; ++b)
    for (int hh = 0; hh < heads; ++hh) {
      const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(b) * T * d + hh * d_k;
      const S* qh = q + base;
      const S* kh = k + base;
      const S* vh = v + base;
      const S* doh = dout + base;
      S* dqh = dq + base;
      S* dkh = dk + base;
      S* dvh = dv + base;
      const S* p = weights + (static_cast<std::ptrdiff_t>(b) * heads + hh) * T * T;
      // 5 from out = p v:  dp = dout v^T,  dv += p^T dout
      for (int c = 0; c < d_k; ++c)
        for (int j = 0; j < T; ++j) vt[static_cast<std::size_t>(c) * T + j] = vh[static_cast<std::ptrdiff_t>(j) * d + c];
      for (S& x : dp) x = S(0);
      gemm_acc(dp.data(), T, doh, d, 1, vt.data(), T, T, T, d_k);
      gemm_acc(dvh, d, p, 1, T, doh, d, T, d_k, T);
      for (int i = 0; i < T; ++i) {
        const S* pi = p + static_cast<std::ptrdiff_t>(i) * T;
        S* dsi = dp.data() + static_cast<std::ptrdiff_t>(i) * T;  // becomes d loss / d raw scores in place
        // 4 from p_i = softmax(s_i):  ds_ij = p_ij (dp_ij - sum_l p_il dp_il)
        S row_dot = 0;
        for (int j = 0; j <= i; ++j) row_dot += pi[j] * dsi[j];
        // 2 from scaled = raw * scale:  draw_ij = ds_ij * scale
        for (int j = 0; j <= i; ++j) dsi[j] = pi[j] * (dsi[j] - row_dot) * scale;
        // 3 mask: keys j > i have p_ij = 0, so no gradient reaches their scores
        for (int j = i + 1; j < T; ++j) dsi[j] = S(0);
      }
      // 1 from raw = q k^T:  dq += draw k,  dk += draw^T q
      gemm_acc(dqh, d, dp.data(), T, 1, kh, d, T, d_k, T);
      gemm_acc(dkh, d, dp.data(), 1, T, qh, d, T, d_k, T);
    }
}

// =========================================================================================
// 6 embeddings
// =========================================================================================

template <typename S>
void embedding_forward(S* x, const int* tokens, const S* token_embedding,
                       const S* position_embedding, int batch, int T, int d) {
  for (int b = 0; b < batch; ++b)
    for (int t = 0; t < T; ++t) {
      const int r = b * T + t;
      const S* e = row(token_embedding, tokens[r], d);
      const S* pe = row(position_embedding, t, d);
      S* xr = row(x, r, d);
      for (int c = 0; c < d; ++c) xr[c] = e[c] + pe[c];
    }
}

template <typename S>
void embedding_backward(S* dtoken_embedding, S* dposition_embedding, const S* dx,
                        const int* tokens, int batch, int T, int d) {
  for (int b = 0; b < batch; ++b)
    for (int t = 0; t < T; ++t) {
      const int r = b * T + t;
      const S* dxr = row(dx, r, d);
      S* de = row(dtoken_embedding, tokens[r], d);
      S* dpe = row(dposition_embedding, t, d);
      for (int c = 0; c < d; ++c) {
        de[c] += dxr[c];
        dpe[c] += dxr[c];
      }
    }
}

// =========================================================================================
// 7 cross-entropy
// =========================================================================================

template <typename S>
CrossEntropyResult cross_entropy(S* dlogits, int* predictions, const S* logits, const int* targets,
                                 const std::uint8_t* scored, int n, int V) {
  CrossEntropyResult r;
  for (int i = 0; i < n; ++i) r.scored += scored[i] ? 1 : 0;
  const S inv_scored = r.scored > 0 ? S(1) / static_cast<S>(r.scored) : S(0);
  double loss_sum = 0.0;  // a reported statistic, summed in double on purpose
  for (int i = 0; i < n; ++i) {
    const S* li = row(logits, i, V);
    int arg = 0;
    for (int j = 1; j < V; ++j)
      if (li[j] > li[arg]) arg = j;
    if (predictions) predictions[i] = arg;
    S* gi = dlogits ? row(dlogits, i, V) : nullptr;
    if (!scored[i]) {
      if (gi)
        for (int j = 0; j < V; ++j) gi[j] = S(0);
      continue;
    }
    // loss_i = log sum_j exp(l_j) - l_target, the sum shifted by the max for stability
    const S row_max = li[arg];
    S sum = 0;
    for (int j = 0; j < V; ++j) sum += std::exp(li[j] - row_max);
    const int target = targets[i];
    loss_sum += static_cast<double>(std::log(sum) + row_max - li[target]);
    if (arg == target) ++r.correct;
    // d loss / d l_j = (softmax_j - [j == target]) / scored
    if (gi) {
      const S inv_sum = S(1) / sum;
      for (int j = 0; j < V; ++j) gi[j] = std::exp(li[j] - row_max) * inv_sum * inv_scored;
      gi[target] -= inv_scored;
    }
  }
  r.loss = r.scored > 0 ? loss_sum / r.scored : 0.0;
  return r;
}

// =========================================================================================
// instantiations: float for training, double for the gradient checks
// =========================================================================================

#define ATTN_TRAIN_BLOCKS(S)                                                                   \
  template void matmul<S>(S*, const S*, const S*, int, int, int, bool);                        \
  template void matmul_at_b_acc<S>(S*, const S*, const S*, int, int, int);                     \
  template void transpose<S>(S*, const S*, int, int);                                          \
  template void linear_forward<S>(S*, const S*, const S*, const S*, int, int, int);            \
  template void linear_backward<S>(S*, S*, S*, const S*, const S*, const S*, int, int, int);   \
  template void layer_norm_forward<S>(S*, S*, S*, const S*, const S*, const S*, int, int);     \
  template void layer_norm_backward<S>(S*, S*, S*, const S*, const S*, const S*, const S*,     \
                                       const S*, int, int);                                    \
  template void gelu_forward<S>(S*, S*, const S*, int);                                        \
  template void gelu_backward<S>(S*, const S*, const S*, const S*, int);                       \
  template void causal_attention_forward<S>(S*, S*, const S*, const S*, const S*, int, int,    \
                                            int, int, S);                                      \
  template void causal_attention_backward<S>(S*, S*, S*, const S*, const S*, const S*,         \
                                             const S*, const S*, int, int, int, int, S);       \
  template void embedding_forward<S>(S*, const int*, const S*, const S*, int, int, int);       \
  template void embedding_backward<S>(S*, S*, const S*, const int*, int, int, int);            \
  template CrossEntropyResult cross_entropy<S>(S*, int*, const S*, const int*,                 \
                                               const std::uint8_t*, int, int);

ATTN_TRAIN_BLOCKS(float)
ATTN_TRAIN_BLOCKS(double)
#undef ATTN_TRAIN_BLOCKS

}  // namespace attn::train
