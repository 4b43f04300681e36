#include "core/attention/streaming.h"

#include "core/kernels/dispatch.h"

#include <cmath>
#include <string>

namespace attn {

namespace {

Status check_options(const StreamingOptions& options) {
  if (options.query_block < 1 || options.key_tile < 1 || options.window < 0)
    return Status::error("block sizes must be positive and the window >= 0");
  if (!std::isnan(options.scale) && !std::isfinite(options.scale))
    return Status::error("scale must be a finite number");
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

// y (rows, n) = x (rows, k) w (k, n) + b, on the GEMM kernel.
Mat project(const Eigen::Ref<const Mat>& x, const Mat& w, const RowVec& b) {
  Mat y(x.rows(), w.cols());
  kernels::GemmArgs g;
  g.m = static_cast<int>(x.rows());
  g.n = static_cast<int>(w.cols());
  g.k = static_cast<int>(x.cols());
  g.a = x.data();
  g.lda = static_cast<int>(x.outerStride());
  g.b = w.data();
  g.ldb = static_cast<int>(w.cols());
  g.c = y.data();
  g.ldc = static_cast<int>(y.cols());
  kernels::active_kernels().gemm(g);
  if (b.size()) y.rowwise() += b;
  return y;
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
  else if (w.wq.rows() != d || w.wq.cols() != d || w.wk.rows() != d || w.wk.cols() != d || w.wv.rows() != d ||
           w.wv.cols() != d || w.wo.rows() != d || w.wo.cols() != d)
    r.status = Status::error("projection weights must be (d_model, d_model)");
  else if ((w.bq.size() && w.bq.size() != d) || (w.bk.size() && w.bk.size() != d) ||
           (w.bv.size() && w.bv.size() != d) || (w.bo.size() && w.bo.size() != d))
    r.status = Status::error("biases must have d_model entries");
  else
    r.status = check_options(options);
  if (!r.status.ok) return r;

  // 1 projections; 2-5 every head streamed into its columns of concat; 6 W^O
  const Mat q = project(x_q, w.wq, w.bq), k = project(x_k, w.wk, w.bk), v = project(x_v, w.wv, w.bv);
  const int n_q = static_cast<int>(x_q.rows()), n_k = static_cast<int>(x_k.rows());
  const int dm = static_cast<int>(d), d_k = dm / heads;
  Mat concat(n_q, dm);
  for (int h = 0; h < heads; ++h)
    attend(q.data() + h * d_k, dm, k.data() + h * d_k, dm, v.data() + h * d_k, dm, concat.data() + h * d_k, dm, n_q,
           n_k, d_k, d_k, options);
  r.output = project(concat, w.wo, w.bo);
  return r;
}

}  // namespace attn
