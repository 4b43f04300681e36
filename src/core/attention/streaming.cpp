#include "core/attention/streaming.h"

#include "core/kernels/dispatch.h"

#include <cmath>
#include <string>
#include <utility>

namespace attn {

namespace {

Status check_options(const StreamingOptions& options) {
  if (options.query_block < 1 || options.key_tile < 1 || options.window < 0)
    return Status::error("block sizes must be positive and the window >= 0");
  if (!std::isnan(options.scale) && !std::isfinite(options.scale))
    return Status::error("scale must be a finite number");
  return Status::success();
}

Status check_weights(const ProjectionWeights& w, Eigen::Index d) {
  if (w.wq.rows() != d || w.wq.cols() != d || w.wk.rows() != d || w.wk.cols() != d || w.wv.rows() != d ||
      w.wv.cols() != d || w.wo.rows() != d || w.wo.cols() != d)
    return Status::error("projection weights must be (d_model, d_model)");
  if ((w.bq.size() && w.bq.size() != d) || (w.bk.size() && w.bk.size() != d) || (w.bv.size() && w.bv.size() != d) ||
      (w.bo.size() && w.bo.size() != d))
    return Status::error("biases must have d_model entries");
  return Status::success();
}

// One head: q (n_q, d_k), k (n_k, d_k), v (n_k, d_v) in place -> out (n_q, d_v) in place.
void attend(const float* q, int ldq, const float* k, int ldk, const float* v, int ldv, float* out, int ldo, int n_q,
            int n_k, int d_k, int d_v, const StreamingOptions& options) {
  kernels::AttentionArgs a;
  a.n_q = n_q;
  a.n_k = n_k;
  a.d_k = d_k;
  a.d_v = d_v;
  a.q = q;
  a.ldq = ldq;
  a.k = k;
  a.ldk = ldk;
  a.v = v;
  a.ldv = ldv;
  a.o = out;
  a.ldo = ldo;
  a.scale = std::isnan(options.scale) ? 1.0f / std::sqrt(static_cast<float>(d_k)) : options.scale;
  a.causal = options.causal;
  a.window = options.window;
  a.query_block = options.query_block;
  a.key_tile = options.key_tile;
  kernels::active_kernels().attention(a);
}

// y (rows, n) = x (rows, k) w (k, n) + b, on the GEMM kernel; w given as a matrix, or as
// `packed` panels of a (k, n) matrix.
Mat project(const Eigen::Ref<const Mat>& x, const Mat* w, const float* packed, int n, const RowVec& b) {
  Mat y(x.rows(), n);
  kernels::GemmArgs g;
  g.m = static_cast<int>(x.rows());
  g.n = n;
  g.k = static_cast<int>(x.cols());
  g.a = x.data();
  g.lda = static_cast<int>(x.outerStride());
  if (w) {
    g.b = w->data();
    g.ldb = static_cast<int>(w->cols());
  }
  g.b_packed = packed;
  g.c = y.data();
  g.ldc = static_cast<int>(y.cols());
  kernels::active_kernels().gemm(g);
  if (b.size()) y.rowwise() += b;
  return y;
}
Mat project(const Eigen::Ref<const Mat>& x, const Mat& w, const RowVec& b) {
  return project(x, &w, nullptr, static_cast<int>(w.cols()), b);
}

// Every head of projected q (n_q, d_model), k and v (n_k, d_model) streamed into its
// columns [h d_k, (h+1) d_k) of the heads' concatenation (n_q, d_model).
Mat attend_heads(const Mat& q, const Mat& k, const Mat& v, int heads, const StreamingOptions& options) {
  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows());
  const int dm = static_cast<int>(q.cols()), d_k = dm / heads;
  Mat concat(n_q, dm);
  for (int h = 0; h < heads; ++h)
    attend(q.data() + h * d_k, dm, k.data() + h * d_k, dm, v.data() + h * d_k, dm, concat.data() + h * d_k, dm, n_q,
           n_k, d_k, d_k, options);
  return concat;
}

}  // namespace

StreamingResult streaming_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                    const Eigen::Ref<const Mat>& v, const StreamingOptions& options) {
  StreamingResult r;
  if (q.rows() < 1 || k.rows() < 1 || q.cols() < 1 || v.cols() < 1)
    r.status = Status::error("q, k and v must not be empty");
  else if (k.cols() != q.cols())
    r.status = Status::error("k must have d_k = " + std::to_string(q.cols()) + " columns");
  else if (v.rows() != k.rows())
    r.status = Status::error("v must have n_k = " + std::to_string(k.rows()) + " rows");
  else
    r.status = check_options(options);
  if (!r.status.ok) return r;

  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows());
  const int d_k = static_cast<int>(q.cols()), d_v = static_cast<int>(v.cols());
  r.output.resize(n_q, d_v);
  attend(q.data(), static_cast<int>(q.outerStride()), k.data(), static_cast<int>(k.outerStride()), v.data(),
         static_cast<int>(v.outerStride()), r.output.data(), d_v, n_q, n_k, d_k, d_v, options);
  return r;
}

StreamingResult streaming_multi_head_attention(const Eigen::Ref<const Mat>& x_q, const Eigen::Ref<const Mat>& x_k,
                                               const Eigen::Ref<const Mat>& x_v, const ProjectionWeights& w,
                                               int heads, const StreamingOptions& options) {
  StreamingResult r;
  const Eigen::Index d = x_q.cols();
  if (x_q.rows() < 1 || x_k.rows() < 1 || d < 1)
    r.status = Status::error("there must be at least one token and one column");
  else if (x_k.cols() != d || x_v.cols() != d)
    r.status = Status::error("embeddings must have d_model = " + std::to_string(d) + " columns");
  else if (x_v.rows() != x_k.rows())
    r.status = Status::error("values have " + std::to_string(x_v.rows()) + " tokens, keys have " +
                             std::to_string(x_k.rows()));
  else if (heads < 1 || d % heads != 0)
    r.status = Status::error("d_model " + std::to_string(d) + " is not divisible by " + std::to_string(heads) + " heads");
  else
    r.status = check_weights(w, d);
  if (r.status.ok) r.status = check_options(options);
  if (!r.status.ok) return r;

  // 1 projections; 2-5 every head streamed into its columns of concat; 6 W^O
  const Mat q = project(x_q, w.wq, w.bq), k = project(x_k, w.wk, w.bk), v = project(x_v, w.wv, w.bv);
  r.output = project(attend_heads(q, k, v, heads, options), w.wo, w.bo);
  return r;
}

PackedPanels pack_gemm_b(const float* b, int ldb, int k, int n, bool transposed) {
  const kernels::KernelTable& t = kernels::active_kernels();
  kernels::GemmArgs g;
  g.k = k;
  g.n = n;
  g.b = b;
  g.ldb = ldb;
  g.b_transposed = transposed;
  PackedPanels p;
  const std::size_t bytes = (static_cast<std::size_t>(t.packed_b_floats(g.k, g.n)) * sizeof(float) + 63) / 64 * 64;
  p.data.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
  if (!p.data) return {};
  t.pack_b(g, p.data.get());
  return p;
}

Status pack_multi_head(const ProjectionWeights& w, int d_model, int heads, PackedMultiHead& out) {
  if (d_model < 1 || heads < 1 || d_model % heads != 0)
    return Status::error("d_model " + std::to_string(d_model) + " is not divisible by " + std::to_string(heads) +
                         " heads");
  const Status checked = check_weights(w, d_model);
  if (!checked.ok) return checked;
  PackedMultiHead p;
  p.d_model = d_model;
  p.heads = heads;
  // Each (d, n) row-major W into the active kernels' panels.
  const auto pack = [](const Mat& m) {
    return pack_gemm_b(m.data(), static_cast<int>(m.cols()), static_cast<int>(m.rows()), static_cast<int>(m.cols()), false);
  };
  p.wq = pack(w.wq);
  p.wk = pack(w.wk);
  p.wv = pack(w.wv);
  p.wo = pack(w.wo);
  if (!p.wq.data || !p.wk.data || !p.wv.data || !p.wo.data) return Status::error("out of memory packing the weights");
  p.bq = w.bq;
  p.bk = w.bk;
  p.bv = w.bv;
  p.bo = w.bo;
  out = std::move(p);
  return Status::success();
}

StreamingResult streaming_self_attention(const Eigen::Ref<const Mat>& x, const PackedMultiHead& layer,
                                         const StreamingOptions& options) {
  StreamingResult r;
  const int dm = layer.d_model;
  if (dm < 1 || !layer.wq.data || !layer.wk.data || !layer.wv.data || !layer.wo.data)
    r.status = Status::error("the layer holds no weights");
  else if (x.rows() < 1)
    r.status = Status::error("there must be at least one token");
  else if (x.cols() != dm)
    r.status = Status::error("embeddings must have d_model = " + std::to_string(dm) + " columns");
  else
    r.status = check_options(options);
  if (!r.status.ok) return r;

  // 1 projections on the packed weights; 2-5 every head streamed into its columns of
  // concat; 6 W^O
  const Mat q = project(x, nullptr, layer.wq.data.get(), dm, layer.bq),
            k = project(x, nullptr, layer.wk.data.get(), dm, layer.bk),
            v = project(x, nullptr, layer.wv.data.get(), dm, layer.bv);
  r.output = project(attend_heads(q, k, v, layer.heads, options), nullptr, layer.wo.data.get(), dm, layer.bo);
  return r;
}

}  // namespace attn
