// Efficient attention variants (see efficient_attention.h for the definitions).
//
// Sections: 1 configuration  2 parameters  3 sparse algorithms  4 kernel methods
//           5 linformer  6 dispatch  7 report
#include "core/efficient/attention.h"

#include "core/attention/attention_messages.h"
#include "core/attention/attention.h"
#include "core/attention/masks.h"
#include "core/base/rng.h"
#include "core/attention/streaming.h"
#include "core/base/finite.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {
namespace {

float scale_of(int d_k) { return 1.0f / std::sqrt(static_cast<float>(d_k)); }

Status check_parameter(const char* name, int value) {
  if (value < 1 || value > kEfficientMaxParameter)
    return Status::error(std::string(name) + " must be a whole number from 1 to " +
                         std::to_string(kEfficientMaxParameter) + ", got " + std::to_string(value));
  return Status::success();
}

Status check_floats(const char* what, std::int64_t rows, std::int64_t cols) {
  if (rows * cols > kEfficientMaxFloats)
    return Status::error(std::string(what) + " = " + std::to_string(rows) + " x " + std::to_string(cols) +
                         " floats is over the cap of 2^26");
  return Status::success();
}

}  // namespace

// ---------------------------------------------------------------------------------------
// 1 configuration
// ---------------------------------------------------------------------------------------

const EfficientKindInfo& efficient_kind_info(EfficientKind kind) { return choice_row(kEfficientKinds, kind); }

const char* efficient_kind_name(EfficientKind kind) { return efficient_kind_info(kind).name; }

bool parse_efficient_kind(const std::string& name, EfficientKind& kind) {
  const EfficientKindInfo* row = choice_from_name(kEfficientKinds, name);
  if (row) kind = row->value;
  return row != nullptr;
}

std::vector<EfficientKind> efficient_variants() {
  std::vector<EfficientKind> kinds;
  for (const EfficientKindInfo& row : kEfficientKinds)
    if (row.variant) kinds.push_back(row.value);
  return kinds;
}

std::vector<std::string> efficient_variant_name_list() {
  return choice_names(kEfficientKinds, [](const EfficientKindInfo& row) { return row.variant; });
}

std::string efficient_variant_names(const char* separator, const char* last_separator) {
  return join_names(efficient_variant_name_list(), separator, last_separator);
}

std::string efficient_kind_names(const char* separator, const char* last_separator) {
  return join_names(choice_names(kEfficientKinds), separator, last_separator);
}

Status validate_efficient_config(const EfficientConfig& config, int n, int d_k) {
  if (n < 1 || d_k < 1) return Status::error("n and d_k must be at least 1");
  const EfficientKindInfo& info = efficient_kind_info(config.kind);
  if (config.causal && !info.causal) return Status::error(msg::att_no_causal_form, info.name);
  if (info.field)
    if (Status st = check_parameter(info.parameter, config.*info.field); !st.ok) return st;
  switch (config.kind) {
    case EfficientKind::Performer:
      if (Status st = check_floats("n x features", n, config.features); !st.ok) return st;
      return check_floats("features x d_k", config.features, d_k);
    case EfficientKind::Linformer:
      if (config.projection == LinformerProjection::Identity && config.rank != n)
        return Status::error(msg::att_linformer_identity_rank, n, config.rank);
      return check_floats("rank x n", config.rank, n);
    default:
      return Status::success();
  }
}

Status validate_efficient_inputs(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                 const Eigen::Ref<const Mat>& v) {
  if (q.rows() < 1 || q.cols() < 1) return Status::error("q must not be empty");
  if (v.cols() < 1) return Status::error("v must not be empty");
  if (k.rows() != q.rows() || k.cols() != q.cols())
    return Status::error("k must have the shape of q (" + std::to_string(q.rows()) + ", " +
                         std::to_string(q.cols()) + ") in self-attention, got (" + std::to_string(k.rows()) +
                         ", " + std::to_string(k.cols()) + ")");
  if (v.rows() != q.rows())
    return Status::error("v must have n = " + std::to_string(q.rows()) + " rows, got " + std::to_string(v.rows()));
  if (!all_finite(q)) return Status::error("q contains NaN or Inf");
  if (!all_finite(k)) return Status::error("k contains NaN or Inf");
  if (!all_finite(v)) return Status::error("v contains NaN or Inf");
  return Status::success();
}

// ---------------------------------------------------------------------------------------
// 2 parameters
// ---------------------------------------------------------------------------------------

EfficientParams draw_efficient_params(const EfficientConfig& config, int n, int d_k) {
  EfficientParams p;
  Rng rng(config.seed);
  if (config.kind == EfficientKind::Performer) {
    p.omega = rng.normal_matrix(config.features, d_k);
  } else if (config.kind == EfficientKind::Linformer) {
    if (config.projection == LinformerProjection::Identity) {
      p.e = Mat::Identity(n, n);
      p.f = Mat::Identity(n, n);
    } else {
      // N(0, 1/r): K' = E k then keeps the scale of the rows of k on average.
      const float stddev = 1.0f / std::sqrt(static_cast<float>(config.rank));
      p.e = rng.normal_matrix(config.rank, n, stddev);
      p.f = rng.normal_matrix(config.rank, n, stddev);
    }
  }
  return p;
}

// ---------------------------------------------------------------------------------------
// 3 sparse algorithms: touch only allowed keys
// ---------------------------------------------------------------------------------------
namespace {

// Window: for query i the allowed keys are the contiguous band [lo, hi], so each row is
// 1 scores = k[lo..hi] q_i, 2 softmax of c * scores (max-subtracted), 3 weights v[lo..hi].
void window_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                      const Eigen::Ref<const Mat>& v, int w, bool causal, Vec& scores, Eigen::Ref<Mat> out) {
  const int n = static_cast<int>(q.rows());
  const float c = scale_of(static_cast<int>(q.cols()));
  scores.resize(std::min<std::int64_t>(n, 2 * std::int64_t{w} + 1));
  for (int i = 0; i < n; ++i) {
    const int lo = std::max(0, i - w);
    const int hi = causal ? i : static_cast<int>(std::min<std::int64_t>(n - 1, std::int64_t{i} + w));
    const int len = hi - lo + 1;
    Eigen::Ref<Vec> s = scores.head(len);
    // 1 scores of the band only
    s.noalias() = k.middleRows(lo, len) * q.row(i).transpose();
    // 2 softmax; subtracting the max only keeps exp() in range, the weights are unchanged
    const float top = s.maxCoeff();
    s = ((s.array() - top) * c).exp();
    const float total = s.sum();
    // 3 weighted sum of the band's values
    out.row(i).noalias() = (s.transpose() / total) * v.middleRows(lo, len);
  }
}

// Strided: queries and keys of residue class r = i mod s attend only to each other
// ((i - j) mod s == 0 means i and j share the class), so class r is a dense attention
// problem over rows r, r + s, r + 2s, ... (causal stays causal inside the class: key
// r + t's <= query r + ts exactly when t' <= t). Rows are read in place through strides.
void strided_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                       const Eigen::Ref<const Mat>& v, int s, bool causal, Eigen::Ref<Mat> out) {
  using Strided = Eigen::Map<const Mat, 0, Eigen::OuterStride<>>;
  const int n = static_cast<int>(q.rows());
  StreamingOptions options;
  options.causal = causal;
  for (int r = 0; r < std::min(s, n); ++r) {
    const int count = (n - r + s - 1) / s;  // ceil((n - r) / s) members of the class
    const Strided qc(q.data() + r * q.outerStride(), count, q.cols(), Eigen::OuterStride<>(s * q.outerStride()));
    const Strided kc(k.data() + r * k.outerStride(), count, k.cols(), Eigen::OuterStride<>(s * k.outerStride()));
    const Strided vc(v.data() + r * v.outerStride(), count, v.cols(), Eigen::OuterStride<>(s * v.outerStride()));
    const StreamingResult part = streaming_attention(qc, kc, vc, options);
    for (int t = 0; t < count; ++t) out.row(r + t * s) = part.output.row(t);
  }
}

// Block-sparse: block [i0, i0 + b) attends only to itself: one dense problem per block,
// read in place.
void block_sparse_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                            const Eigen::Ref<const Mat>& v, int b, bool causal, Eigen::Ref<Mat> out) {
  const int n = static_cast<int>(q.rows());
  StreamingOptions options;
  options.causal = causal;
  options.query_block = std::min(b, 64);
  options.key_tile = std::min(b, 256);
  for (int i0 = 0; i0 < n; i0 += b) {
    const int len = std::min(b, n - i0);
    const StreamingResult part =
        streaming_attention(q.middleRows(i0, len), k.middleRows(i0, len), v.middleRows(i0, len), options);
    out.middleRows(i0, len) = part.output;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------
// 4 kernel methods
// ---------------------------------------------------------------------------------------
namespace {

// Rows of tokens whose features are formed at a time by the real algorithm: the chunk's
// features (kChunk x m) stay in cache while they are used.
constexpr int kChunk = 128;

// elu(x) + 1 = x + 1 for x > 0, e^x for x <= 0: positive, so every normaliser is > 0.
// (Eigen's vectorised exp runs on every entry; select keeps x + 1 where x > 0, so an exp
// that overflowed there is never read.) x, phi: (rows, d_k).
void linear_feature_rows(const Eigen::Ref<const Mat>& x, Eigen::Ref<Mat> phi) {
  phi = (x.array() > 0.0f).select(x.array() + 1.0f, x.array().exp()).matrix();
}

// The performer's constants: x = q d_k^(-1/4) (likewise k), and 1/sqrt(m).
struct PerformerScale {
  float quarter;
  float inv_sqrt_m;
  PerformerScale(int d_k, int m)
      : quarter(1.0f / std::sqrt(std::sqrt(static_cast<float>(d_k)))), inv_sqrt_m(1.0f / std::sqrt(static_cast<float>(m))) {}
};

// Query features exp(w_r . x - max_r' w_r' . x) / sqrt(m): the query's own e^{-|x|^2/2} and
// its row max are per-query factors, which cancel in its normalisation. q: (rows, d_k),
// omega: (m, d_k), phi: (rows, m).
void performer_query_rows(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& omega, const PerformerScale& c,
                          Eigen::Ref<Mat> phi) {
  phi.noalias() = q * omega.transpose();
  for (Eigen::Index i = 0; i < phi.rows(); ++i) {
    const float top = phi.row(i).maxCoeff() * c.quarter;
    phi.row(i) = ((phi.row(i).array() * c.quarter - top).exp() * c.inv_sqrt_m).matrix();
  }
}

// Key exponents w_r . y - |y|^2/2 (y = k d_k^(-1/4)) into expo (rows, m); returns their max.
float performer_key_exponents(const Eigen::Ref<const Mat>& k, const Eigen::Ref<const Mat>& omega, const PerformerScale& c,
                              Eigen::Ref<Mat> expo) {
  expo.noalias() = k * omega.transpose();
  for (Eigen::Index j = 0; j < expo.rows(); ++j) {
    const float half_norm = 0.5f * c.quarter * c.quarter * k.row(j).squaredNorm();
    expo.row(j) = (expo.row(j).array() * c.quarter - half_norm).matrix();
  }
  return expo.maxCoeff();
}

// The real algorithm of linear attention and the performer, chunk by chunk, never holding
// more than kChunk rows of features:
//   non-causal  pass 1 over key chunks: S += phi(K_c)^T V_c, z += phi(K_c)^T 1;
//               pass 2 over query chunks: out_c = phi(Q_c) S / phi(Q_c) z
//   causal      one pass: within a chunk, key by key, S += phi(k_j) v_j^T, z += phi(k_j),
//               then out_i = phi(q_i) S / phi(q_i) z (prefix sums over j <= i)
// Performer keys are exponentiated relative to the largest key exponent M seen so far; when
// a chunk raises M, S and z are multiplied by e^{M_old - M_new}, which is the same as
// having used the new M from the start (one factor shared by all keys cancels).
void kernel_method(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k, const Eigen::Ref<const Mat>& v,
                   bool causal, const Mat* omega, EfficientWorkspace& ws, Eigen::Ref<Mat> out) {
  const int n = static_cast<int>(q.rows());
  const int m = omega ? static_cast<int>(omega->rows()) : static_cast<int>(q.cols());
  const PerformerScale c(static_cast<int>(q.cols()), m);
  ws.phi_q.resize(std::min(n, kChunk), m);
  ws.phi_k.resize(std::min(n, kChunk), m);
  ws.summary.setZero(m, v.cols());
  ws.z.setZero(m);
  float key_max = -std::numeric_limits<float>::infinity();

  // Features of keys [j0, j0 + len) into phi_k, relative to the running key_max.
  const auto key_features = [&](int j0, int len, Eigen::Ref<Mat> phi) {
    if (!omega) {
      linear_feature_rows(k.middleRows(j0, len), phi);
      return;
    }
    const float chunk_max = performer_key_exponents(k.middleRows(j0, len), *omega, c, phi);
    if (chunk_max > key_max) {
      const float rescale = key_max == -std::numeric_limits<float>::infinity() ? 0.0f : std::exp(key_max - chunk_max);
      ws.summary *= rescale;
      ws.z *= rescale;
      key_max = chunk_max;
    }
    phi = ((phi.array() - key_max).exp() * c.inv_sqrt_m).matrix();
  };
  const auto query_features = [&](int i0, int len, Eigen::Ref<Mat> phi) {
    if (omega) performer_query_rows(q.middleRows(i0, len), *omega, c, phi);
    else linear_feature_rows(q.middleRows(i0, len), phi);
  };

  if (!causal) {
    // 1 summaries over all keys
    for (int j0 = 0; j0 < n; j0 += kChunk) {
      const int len = std::min(kChunk, n - j0);
      Eigen::Ref<Mat> phi = ws.phi_k.topRows(len);
      key_features(j0, len, phi);
      ws.summary.noalias() += phi.transpose() * v.middleRows(j0, len);
      ws.z += phi.colwise().sum();
    }
    // 2 numerators phi(q) S over normalisers phi(q) z
    for (int i0 = 0; i0 < n; i0 += kChunk) {
      const int len = std::min(kChunk, n - i0);
      Eigen::Ref<Mat> phi = ws.phi_q.topRows(len);
      query_features(i0, len, phi);
      out.middleRows(i0, len).noalias() = phi * ws.summary;
      for (int a = 0; a < len; ++a) {
        const float norm = phi.row(a).dot(ws.z);
        if (norm > 0.0f) out.row(i0 + a) /= norm;
        else out.row(i0 + a).setZero();
      }
    }
    return;
  }
  // Causal: prefix sums, carried forward one key at a time.
  for (int c0 = 0; c0 < n; c0 += kChunk) {
    const int len = std::min(kChunk, n - c0);
    Eigen::Ref<Mat> phi_k = ws.phi_k.topRows(len);
    Eigen::Ref<Mat> phi_q = ws.phi_q.topRows(len);
    key_features(c0, len, phi_k);
    query_features(c0, len, phi_q);
    for (int a = 0; a < len; ++a) {
      ws.summary.noalias() += phi_k.row(a).transpose() * v.row(c0 + a);  // S_i = S_{i-1} + phi(k_i) v_i^T
      ws.z += phi_k.row(a);                                               // z_i = z_{i-1} + phi(k_i)
      const float norm = phi_q.row(a).dot(ws.z);
      if (norm > 0.0f) out.row(c0 + a).noalias() = (phi_q.row(a) / norm) * ws.summary;
      else out.row(c0 + a).setZero();
    }
  }
}

}  // namespace

FeaturePair linear_features(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k) {
  FeaturePair f;
  f.phi_q.resize(q.rows(), q.cols());
  f.phi_k.resize(k.rows(), k.cols());
  linear_feature_rows(q, f.phi_q);
  linear_feature_rows(k, f.phi_k);
  return f;
}

FeaturePair performer_features(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                               const Eigen::Ref<const Mat>& omega) {
  const PerformerScale c(static_cast<int>(q.cols()), static_cast<int>(omega.rows()));
  FeaturePair f;
  f.phi_q.resize(q.rows(), omega.rows());
  f.phi_k.resize(k.rows(), omega.rows());
  performer_query_rows(q, omega, c, f.phi_q);
  // Keys relative to the largest exponent over all keys (one factor shared by every key).
  const float key_max = performer_key_exponents(k, omega, c, f.phi_k);
  f.phi_k = ((f.phi_k.array() - key_max).exp() * c.inv_sqrt_m).matrix();
  return f;
}

Mat kernel_attention(const Eigen::Ref<const Mat>& phi_q, const Eigen::Ref<const Mat>& phi_k,
                     const Eigen::Ref<const Mat>& v, bool causal) {
  const int n = static_cast<int>(phi_q.rows());
  Mat out(n, v.cols());
  if (!causal) {
    // 1 summaries over all keys: S = phi_k^T v (m, d_v), z = phi_k^T 1 (m)
    const Mat summary = phi_k.transpose() * v;
    const RowVec z = phi_k.colwise().sum();
    // 2 numerators phi_q S and normalisers phi_q z
    out.noalias() = phi_q * summary;
    for (int i = 0; i < n; ++i) {
      const float norm = phi_q.row(i).dot(z);
      if (norm > 0.0f) out.row(i) /= norm;
      else out.row(i).setZero();
    }
    return out;
  }
  // Causal: the same sums over j <= i, carried forward one key at a time.
  Mat summary = Mat::Zero(phi_k.cols(), v.cols());
  RowVec z = RowVec::Zero(phi_k.cols());
  for (int i = 0; i < n; ++i) {
    summary.noalias() += phi_k.row(i).transpose() * v.row(i);
    z += phi_k.row(i);
    const float norm = phi_q.row(i).dot(z);
    if (norm > 0.0f) out.row(i).noalias() = (phi_q.row(i) / norm) * summary;
    else out.row(i).setZero();
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// 5 linformer
// ---------------------------------------------------------------------------------------
namespace {

// Scores against the r projected keys, softmax per row: weights (n, r). Kept for the
// display too.
void linformer_weights(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k_projected, Mat& weights) {
  weights.resize(q.rows(), k_projected.rows());
  weights.noalias() = q * k_projected.transpose();
  const float c = scale_of(static_cast<int>(q.cols()));
  for (Eigen::Index i = 0; i < weights.rows(); ++i) {
    const float top = weights.row(i).maxCoeff();  // stability only
    weights.row(i) = ((weights.row(i).array() - top) * c).exp().matrix();
    weights.row(i) /= weights.row(i).sum();
  }
}

void linformer_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                         const Eigen::Ref<const Mat>& v, const EfficientParams& p, EfficientWorkspace& ws,
                         Eigen::Ref<Mat> out) {
  // 1 project keys and values down to r rows
  ws.k_projected.resize(p.e.rows(), k.cols());
  ws.v_projected.resize(p.f.rows(), v.cols());
  ws.k_projected.noalias() = p.e * k;  // (r, d_k)
  ws.v_projected.noalias() = p.f * v;  // (r, d_v)
  // 2 attention over the r projected keys
  linformer_weights(q, ws.k_projected, ws.weights);  // (n, r)
  out.noalias() = ws.weights * ws.v_projected;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// 6 dispatch
// ---------------------------------------------------------------------------------------

Status run_efficient_into(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                          const Eigen::Ref<const Mat>& v, const EfficientConfig& config,
                          const EfficientParams& params, EfficientWorkspace& ws, Eigen::Ref<Mat> out) {
  const int n = static_cast<int>(q.rows()), d_k = static_cast<int>(q.cols());
  if (n < 1 || d_k < 1 || v.cols() < 1 || k.rows() != n || k.cols() != d_k || v.rows() != n)
    return Status::error("q, k (n, d_k) and v (n, d_v) must be non-empty with matching n and d_k");
  if (out.rows() != n || out.cols() != v.cols())
    return Status::error("out must be (n, d_v) = (" + std::to_string(n) + ", " + std::to_string(v.cols()) + ")");
  if (Status st = validate_efficient_config(config, n, d_k); !st.ok) return st;
  switch (config.kind) {
    case EfficientKind::Exact: {
      StreamingOptions options;
      options.causal = config.causal;
      const StreamingResult s = streaming_attention(q, k, v, options);
      if (!s.status.ok) return s.status;
      out = s.output;
      break;
    }
    case EfficientKind::Window:
      window_attention(q, k, v, config.window, config.causal, ws.scores, out);
      break;
    case EfficientKind::Strided:
      strided_attention(q, k, v, config.stride, config.causal, out);
      break;
    case EfficientKind::BlockSparse:
      block_sparse_attention(q, k, v, config.block, config.causal, out);
      break;
    case EfficientKind::Linear:
      kernel_method(q, k, v, config.causal, nullptr, ws, out);
      break;
    case EfficientKind::Performer:
      if (params.omega.rows() != config.features || params.omega.cols() != d_k)
        return Status::error("performer parameters do not match features x d_k (draw them for this config)");
      kernel_method(q, k, v, config.causal, &params.omega, ws, out);
      break;
    case EfficientKind::Linformer:
      if (params.e.rows() != config.rank || params.e.cols() != n || params.f.rows() != config.rank ||
          params.f.cols() != n)
        return Status::error("linformer projections do not match rank x n (draw them for this config)");
      linformer_attention(q, k, v, params, ws, out);
      break;
  }
  return Status::success();
}

EfficientOutput run_efficient(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                              const Eigen::Ref<const Mat>& v, const EfficientConfig& config,
                              const EfficientParams& params) {
  EfficientOutput r;
  if (r.status = validate_efficient_inputs(q, k, v); !r.status.ok) return r;
  r.output.resize(q.rows(), v.cols());
  EfficientWorkspace ws;
  if (r.status = run_efficient_into(q, k, v, config, params, ws, r.output); !r.status.ok) r.output.resize(0, 0);
  return r;
}

EfficientOutput efficient_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                    const Eigen::Ref<const Mat>& v, const EfficientConfig& config) {
  EfficientOutput r;
  if (r.status = validate_efficient_inputs(q, k, v); !r.status.ok) return r;
  if (r.status = validate_efficient_config(config, static_cast<int>(q.rows()), static_cast<int>(q.cols())); !r.status.ok)
    return r;
  return run_efficient(q, k, v, config, draw_efficient_params(config, static_cast<int>(q.rows()), static_cast<int>(q.cols())));
}

// ---------------------------------------------------------------------------------------
// 7 report
// ---------------------------------------------------------------------------------------

double relative_frobenius_error(const Eigen::Ref<const Mat>& a, const Eigen::Ref<const Mat>& b) {
  double diff = 0.0, ref = 0.0;
  for (Eigen::Index i = 0; i < b.rows(); ++i)
    for (Eigen::Index j = 0; j < b.cols(); ++j) {
      const double d = static_cast<double>(a(i, j)) - static_cast<double>(b(i, j));
      diff += d * d;
      ref += static_cast<double>(b(i, j)) * static_cast<double>(b(i, j));
    }
  if (ref == 0.0) return diff == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(diff / ref);
}

namespace {

// Rows of the implied matrix phi_q phi_k^T (causal: j <= i), normalised to sum to 1.
Mat implied_kernel_weights(const Mat& phi_q, const Mat& phi_k, bool causal) {
  Mat w = phi_q * phi_k.transpose();
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    if (causal) w.row(i).tail(w.cols() - i - 1).setZero();
    const float total = w.row(i).sum();
    if (total > 0.0f) w.row(i) /= total;
    else w.row(i).setZero();
  }
  return w;
}

}  // namespace

EfficientReport efficient_report(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                 const Eigen::Ref<const Mat>& v, const EfficientConfig& config,
                                 bool with_display) {
  EfficientReport rep;
  if (rep.status = validate_efficient_inputs(q, k, v); !rep.status.ok) return rep;
  const int n = static_cast<int>(q.rows()), d_k = static_cast<int>(q.cols());
  if (rep.status = validate_efficient_config(config, n, d_k); !rep.status.ok) return rep;

  // 1 the variant and exact attention, both without an n x n matrix
  const EfficientParams params = draw_efficient_params(config, n, d_k);
  EfficientOutput variant = run_efficient(q, k, v, config, params);
  if (!variant.status.ok) {
    rep.status = variant.status;
    return rep;
  }
  rep.output = std::move(variant.output);
  StreamingOptions exact_options;
  exact_options.causal = config.causal;
  StreamingResult exact = streaming_attention(q, k, v, exact_options);
  if (!exact.status.ok) {
    rep.status = exact.status;
    return rep;
  }
  rep.exact_output = std::move(exact.output);
  // 2 the error of the output
  rep.relative_error = relative_frobenius_error(rep.output, rep.exact_output);
  if (!with_display || n > kEfficientDisplayMaxTokens) return rep;

  // 3 display only: the pattern, the (implied) weights, the exact weights, their difference
  AttentionOptions exact_display;
  exact_display.causal = config.causal;
  rep.exact_weights = attention(q, k, v, exact_display).weights;
  MaskSpec spec;
  spec.causal = config.causal;
  switch (config.kind) {
    case EfficientKind::Exact:
      rep.weights = rep.exact_weights;
      break;
    case EfficientKind::Window:
    case EfficientKind::Strided:
    case EfficientKind::BlockSparse: {
      // masks.h treats 0 as "off"; every value here is >= 1, and a window or block wider
      // than n is the same pattern as n (clamped so build_mask's arithmetic stays small).
      if (config.kind == EfficientKind::Window) spec.window = std::min(config.window, n);
      if (config.kind == EfficientKind::Strided) spec.stride = std::min(config.stride, n);
      if (config.kind == EfficientKind::BlockSparse) spec.block = std::min(config.block, n);
      AttentionOptions sparse_display;
      sparse_display.allowed = build_mask(spec, n, n);
      rep.weights = attention(q, k, v, sparse_display).weights;
      break;
    }
    case EfficientKind::Linear: {
      const FeaturePair f = linear_features(q, k);
      rep.weights = implied_kernel_weights(f.phi_q, f.phi_k, config.causal);
      break;
    }
    case EfficientKind::Performer: {
      const FeaturePair f = performer_features(q, k, params.omega);
      rep.weights = implied_kernel_weights(f.phi_q, f.phi_k, config.causal);
      break;
    }
    case EfficientKind::Linformer: {
      const Mat k_projected = params.e * k;
      Mat projected_weights;
      linformer_weights(q, k_projected, projected_weights);
      rep.weights = projected_weights * params.f;
      break;
    }
  }
  rep.pattern = build_mask(spec, n, n);
  rep.weight_error = rep.weights - rep.exact_weights;
  rep.nonzeros = nonzeros_per_row(rep.pattern);
  rep.has_display = true;
  return rep;
}

}  // namespace attn
