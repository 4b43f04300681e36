#include "core/attention/pipeline.h"

#include "core/attention/attention_messages.h"
#include "core/kernels/dispatch.h"
#include "core/base/rng.h"
#include "core/base/finite.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace attn {

Mat sinusoidal_positional_encoding(int n, int d_model) {
  Mat pe(n, d_model);
  for (int p = 0; p < n; ++p)
    for (int c = 0; c < d_model; ++c) {
      const int pair = c / 2;
      const double angle = p / std::pow(10000.0, 2.0 * pair / d_model);
      pe(p, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  return pe;
}

ProjectionWeights random_projection_weights(int d_model, int heads, std::uint64_t seed) {
  Rng rng(seed);
  const float sd = 1.0f / std::sqrt(static_cast<float>(d_model));
  ProjectionWeights w;
  w.wq = rng.normal_matrix(d_model, d_model, sd);
  w.wk = rng.normal_matrix(d_model, d_model, sd);
  w.wv = rng.normal_matrix(d_model, d_model, sd);
  w.wo = rng.normal_matrix(d_model, d_model, sd);
  const int d_k = heads > 0 ? d_model / heads : d_model;
  const float sd_a = 1.0f / std::sqrt(static_cast<float>(std::max(d_k, 1)));
  for (int h = 0; h < heads; ++h) {
    w.additive_wq.push_back(rng.normal_matrix(d_k, d_k, sd_a));
    w.additive_wk.push_back(rng.normal_matrix(d_k, d_k, sd_a));
    w.additive_v.push_back(rng.normal_matrix(1, d_k, sd_a));
  }
  return w;
}

Status validate_config(const PipelineConfig& c) {
  if (c.d_model < 1) return Status::error(msg::att_dmodel_min);
  if (c.heads < 1) return Status::error(msg::att_heads_min);
  if (c.d_model % c.heads != 0)
    return Status::error(msg::att_dmodel_heads, c.d_model, c.heads);
  if (!(c.temperature > 0.0f) || !std::isfinite(c.temperature))
    return Status::error(msg::att_temperature);
  if (c.scale_kind == ScaleKind::Custom && !std::isfinite(c.custom_scale))
    return Status::error(msg::att_scale_finite);
  if (c.fill == MaskFill::Finite && !std::isfinite(c.finite_fill))
    return Status::error(msg::att_fill_finite);
  return Status::success();
}

namespace {

// c = a op(b) on the SIMD GEMM kernel, op(b) = b or (b_transposed) b^T, both read in place;
// c is resized to (rows of a, columns of op(b)) and written whole.
void multiply_into(Mat& c, const Eigen::Ref<const Mat>& a, const Eigen::Ref<const Mat>& b, bool b_transposed) {
  kernels::GemmArgs g;
  g.m = static_cast<int>(a.rows());
  g.n = static_cast<int>(b_transposed ? b.rows() : b.cols());
  g.k = static_cast<int>(a.cols());
  c.resize(g.m, g.n);
  g.a = a.data();
  g.lda = static_cast<int>(a.outerStride());
  g.b = b.data();
  g.ldb = static_cast<int>(b.outerStride());
  g.b_transposed = b_transposed;
  g.c = c.data();
  g.ldc = g.n;
  kernels::active_kernels().gemm(g);
}

Mat cosine_scores(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k) {
  // Normalise rows first; a zero vector stays zero (its cosine with anything is 0).
  auto normalised = [](const Eigen::Ref<const Mat>& m) {
    Mat out = m;
    for (Eigen::Index i = 0; i < out.rows(); ++i) {
      const float norm = out.row(i).norm();
      if (norm > 0.0f) out.row(i) /= norm;
    }
    return out;
  };
  const Mat qn = normalised(q), kn = normalised(k);
  Mat s;
  multiply_into(s, qn, kn, true);  // qn kn^T on the SIMD kernel
  return s.cwiseMax(-1.0f).cwiseMin(1.0f);  // rounding can step just past +-1
}

Mat additive_scores(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                    const Mat& w_aq, const Mat& w_ak, const RowVec& v_a) {
  // score_ij = v_a . tanh(q_i W_aq + k_j W_ak): project once (the GEMM kernel), combine per
  // pair (the additive-score kernel, W keys at a time, with its own vectorised tanh).
  Mat qp, kp;  // (n_q, d_a), (n_k, d_a)
  multiply_into(qp, q, w_aq, false);
  multiply_into(kp, k, w_ak, false);
  Mat s(q.rows(), k.rows());
  kernels::AdditiveArgs a;
  a.n_q = static_cast<int>(q.rows());
  a.n_k = static_cast<int>(k.rows());
  a.d_a = static_cast<int>(qp.cols());
  a.qp = qp.data();
  a.ldqp = a.d_a;
  a.kp = kp.data();
  a.ldkp = a.d_a;
  a.v = v_a.data();
  a.scores = s.data();
  a.ld_scores = a.n_k;
  kernels::active_kernels().additive_scores(a);
  return s;
}

// One row of step 3's addition m: a float mask's value, plus the fill where the key is not
// allowed. With a fill of -inf, a + fill is -inf for every value a float mask may hold
// (never NaN or +inf), so one formula serves both fills. Each combination of inputs gets
// its own branch-free loop, which the compiler vectorises.
template <bool Add, bool Ok>
void mask_row(const float* __restrict add, const bool* __restrict ok, float fill, float* __restrict out, int n) {
  for (int j = 0; j < n; ++j) {
    const float a = Add ? add[j] : 0.0f;
    out[j] = !Ok || ok[j] ? a : a + fill;
  }
}

void mask_row(const float* add, const bool* ok, float fill, float* out, int n) {
  if (add && ok) mask_row<true, true>(add, ok, fill, out, n);
  else if (add) mask_row<true, false>(add, ok, fill, out, n);
  else if (ok) mask_row<false, true>(add, ok, fill, out, n);
  else mask_row<false, false>(add, ok, fill, out, n);
}

// Steps 2 and 3 of a block as scaled_softmax_rows does them (the same float operations), for
// the softmax forms the kernel does not take.
void scale_and_mask_rows(const kernels::SoftmaxArgs& a) {
  for (int r = 0; r < a.rows; ++r) {
    const float* raw = a.raw + static_cast<long>(r) * a.ld_raw;
    const float* mask = a.mask ? a.mask + static_cast<long>(r) * a.ld_mask : nullptr;
    float* scaled = a.scaled ? a.scaled + static_cast<long>(r) * a.ld_scaled : nullptr;
    float* masked = a.masked + static_cast<long>(r) * a.ld_masked;
    for (int j = 0; j < a.cols; ++j) {
      float x = raw[j] * a.scale;
      if (scaled) scaled[j] = x;
      if (mask) x += mask[j];
      masked[j] = x;
    }
  }
}

// Additive scoring's parameters for every head: W_aq and W_ak (d_k, d_a), v (1, d_a), d_a >= 1.
bool additive_parameters_fit(const ProjectionWeights& w, const PipelineConfig& config) {
  const int heads = config.heads, d_k = config.d_model / std::max(config.heads, 1);
  if (static_cast<int>(w.additive_wq.size()) < heads || static_cast<int>(w.additive_wk.size()) < heads ||
      static_cast<int>(w.additive_v.size()) < heads)
    return false;
  for (int h = 0; h < heads; ++h) {
    const Eigen::Index d_a = w.additive_wq[h].cols();
    if (d_a < 1 || w.additive_wq[h].rows() != d_k || w.additive_wk[h].rows() != d_k || w.additive_wk[h].cols() != d_a ||
        w.additive_v[h].rows() != 1 || w.additive_v[h].cols() != d_a)
      return false;
  }
  return true;
}

// Step 2's multiplier: the scale (1/sqrt(d_k), a custom one or none) over the temperature.
float step_scale(const PipelineConfig& config, int d_k) {
  float scale = 1.0f;
  if (config.scale_kind == ScaleKind::Default) scale = default_scale(d_k);
  if (config.scale_kind == ScaleKind::Custom) scale = config.custom_scale;
  return scale / config.temperature;
}

constexpr int kRowBlock = 8;  // query rows of the n x n stages worked on together

// The inputs of steps 2 and 3 for a block of query rows: `prepare(i0, rows, args)` sets
// args' raw scores, mask and (when every stage is kept) scaled scores for rows
// [i0, i0 + rows), writing the mask rows first where it builds them.
//
// Steps 2-4 of a head and its row statistics, a block of query rows at a time, then step 5
// (weights v on the SIMD kernel). The stable float32 softmax takes all of it in one kernel,
// three passes over each row while it is in the cache (scaled_softmax_rows); the other forms,
// and rows holding +inf or NaN, are redone by the scalar softmax_row, with weight_stats for
// their statistics.
template <typename Prepare>
void finish_head(HeadTrace& t, const Eigen::Ref<const Mat>& v, const PipelineConfig& config, Prepare prepare) {
  const int n_q = static_cast<int>(t.masked_scores.rows()), n_k = static_cast<int>(t.masked_scores.cols());
  t.weights.resize(n_q, n_k);
  t.fully_masked_rows.assign(n_q, 0);
  t.softmax_flags = SoftmaxFlags{};
  const bool stats = config.row_statistics && n_k > 0;
  t.row_stats.entropy.resize(stats ? n_q : 0);
  t.row_stats.max_weight.resize(stats ? n_q : 0);
  t.row_stats.distance.resize(stats ? n_q : 0);
  const bool fused = config.softmax_form == SoftmaxForm::Stable && config.precision == Precision::Float32 && n_k > 0;
  const kernels::KernelTable& kt = kernels::active_kernels();
  std::uint8_t status[kRowBlock];
  for (int i0 = 0; i0 < n_q; i0 += kRowBlock) {
    const int rows = std::min(kRowBlock, n_q - i0);
    kernels::SoftmaxArgs a;
    a.rows = rows;
    a.cols = n_k;
    a.scale = t.scale;
    a.masked = t.masked_scores.row(i0).data();
    a.ld_masked = static_cast<int>(t.masked_scores.outerStride());
    a.weights = t.weights.row(i0).data();
    a.ld_weights = static_cast<int>(t.weights.outerStride());
    a.status = status;
    a.row0 = i0;
    if (stats) {
      a.entropy = &t.row_stats.entropy[i0];
      a.max_weight = &t.row_stats.max_weight[i0];
      a.distance = &t.row_stats.distance[i0];
    }
    prepare(i0, rows, a);
    if (fused) {
      kt.scaled_softmax_rows(a);
    } else {
      scale_and_mask_rows(a);
      std::fill(status, status + rows, kernels::kRowNeedsScalar);
    }
    for (int r = 0; r < rows; ++r) {
      const int i = i0 + r;
      if (status[r] == kernels::kRowFullyMasked) {
        t.softmax_flags.fully_masked = true;
        t.fully_masked_rows[i] = 1;
      }
      if (status[r] != kernels::kRowNeedsScalar) continue;
      const SoftmaxFlags f = softmax_row(t.masked_scores.row(i).data(), t.weights.row(i).data(), n_k,
                                         config.softmax_form, config.precision);
      t.softmax_flags.overflow |= f.overflow;
      t.softmax_flags.nan |= f.nan;
      t.softmax_flags.fully_masked |= f.fully_masked;
      t.fully_masked_rows[i] = f.fully_masked ? 1 : 0;
      if (stats)
        kt.weight_stats(t.weights.row(i).data(), n_k, 1, n_k, i, &t.row_stats.entropy[i], &t.row_stats.max_weight[i],
                        &t.row_stats.distance[i]);
    }
  }
  multiply_into(t.output, t.weights, v, false);
}

}  // namespace

HeadTrace run_head(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                   const Eigen::Ref<const Mat>& v, const BoolMat& allowed, const Mat& additive,
                   const PipelineConfig& config, const ProjectionWeights* weights, int head) {
  HeadTrace t;
  t.q = q;
  t.k = k;
  t.v = v;
  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows());
  const float neg_inf = -std::numeric_limits<float>::infinity();

  // 1 raw scores
  switch (config.score) {
    case ScoreFunction::Dot: {
      // q k^T on the SIMD kernel (q: (n_q, d_k), k: (n_k, d_k), read in place)
      multiply_into(t.raw_scores, q, k, true);
      break;
    }
    case ScoreFunction::Cosine: t.raw_scores = cosine_scores(q, k); break;
    case ScoreFunction::Additive:
      t.raw_scores = additive_scores(q, k, weights->additive_wq[head], weights->additive_wk[head],
                                     weights->additive_v[head]);
      break;
  }

  // 2 one scaling step: scale / temperature
  t.scale = step_scale(config, static_cast<int>(q.cols()));

  // 3 mask, as an additive matrix: the fill where a key is not allowed, plus float masks.
  // Its rows are built a block at a time (into the trace when every stage is kept, else
  // into a block of scratch, or not at all when nothing is masked); steps 2-4 then run in
  // one kernel per block, and 5 after them (finish_head).
  const bool keep = config.keep_every_stage;
  const bool masks = additive.size() || allowed.size();
  t.masked = masks;
  if (keep) {
    t.scaled_scores.resize(n_q, n_k);
    t.mask_add.resize(n_q, n_k);
  }
  t.masked_scores.resize(n_q, n_k);
  Mat block_mask(keep || !masks ? 0 : kRowBlock, n_k);
  const float fill = config.fill == MaskFill::NegInfinity ? neg_inf : config.finite_fill;
  finish_head(t, v, config, [&](int i0, int rows, kernels::SoftmaxArgs& a) {
    a.raw = t.raw_scores.row(i0).data();
    a.ld_raw = static_cast<int>(t.raw_scores.outerStride());
    if (keep) {
      a.scaled = t.scaled_scores.row(i0).data();
      a.ld_scaled = static_cast<int>(t.scaled_scores.outerStride());
    }
    if (!masks) {  // nothing to add: masked = scaled
      if (keep) t.mask_add.middleRows(i0, rows).setZero();
      return;
    }
    Mat& mask = keep ? t.mask_add : block_mask;
    const int first = keep ? i0 : 0;
    for (int r = 0; r < rows; ++r)
      mask_row(additive.size() ? additive.row(i0 + r).data() : nullptr,
               allowed.size() ? allowed.row(i0 + r).data() : nullptr, fill, mask.row(first + r).data(), n_k);
    a.mask = mask.row(first).data();
    a.ld_mask = static_cast<int>(mask.outerStride());
  });
  return t;
}

namespace {

// A float mask may hold -inf (a forbidden pair) but never NaN or +inf.
Status check_float_mask(const Mat& m) {
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const float x = m.data()[i];
    if (std::isnan(x) || x == std::numeric_limits<float>::infinity())
      return Status::error(msg::att_float_mask_values);
  }
  return Status::success();
}

Status check_shapes(const Eigen::Ref<const Mat>& x_q, const Eigen::Ref<const Mat>& x_k,
                    const Eigen::Ref<const Mat>& x_v, const PipelineConfig& config) {
  if (x_q.rows() < 1 || x_k.rows() < 1) return Status::error(msg::att_no_tokens);
  if (x_v.rows() != x_k.rows())
    return Status::error(msg::att_values_keys, x_v.rows(), x_k.rows());
  if (x_q.cols() != config.d_model || x_k.cols() != config.d_model || x_v.cols() != config.d_model)
    return Status::error(msg::att_embedding_width, config.d_model);
  if (!all_finite(x_q) || !all_finite(x_k) || !all_finite(x_v)) return Status::error(msg::att_embedding_values);
  const int n_q = static_cast<int>(x_q.rows()), n_k = static_cast<int>(x_k.rows());
  if (config.additive_mask.size() &&
      (config.additive_mask.rows() != n_q || config.additive_mask.cols() != n_k))
    return Status::error(msg::att_float_mask_shape);
  if (Status st = check_float_mask(config.additive_mask); !st.ok) return st;
  for (const Mat& m : config.head_additive_masks)
    if (Status st = check_float_mask(m); !st.ok) return st;
  for (const Mat& m : config.head_additive_masks)
    if (m.rows() != n_q || m.cols() != n_k) return Status::error(msg::att_head_mask_shape);
  if (!config.head_additive_masks.empty() && static_cast<int>(config.head_additive_masks.size()) != config.heads)
    return Status::error(msg::att_head_mask_count);
  return validate_mask(config.mask, n_q, n_k);
}

}  // namespace

PipelineTrace run_pipeline(const Eigen::Ref<const Mat>& x_q, const Eigen::Ref<const Mat>& x_k,
                           const Eigen::Ref<const Mat>& x_v, const ProjectionWeights& w,
                           const PipelineConfig& config) {
  PipelineTrace trace;
  trace.status = validate_config(config);
  if (trace.status.ok) trace.status = check_shapes(x_q, x_k, x_v, config);
  const int d = config.d_model;
  if (trace.status.ok && (w.wq.rows() != d || w.wq.cols() != d || w.wk.rows() != d || w.wk.cols() != d ||
                          w.wv.rows() != d || w.wv.cols() != d || w.wo.rows() != d || w.wo.cols() != d))
    trace.status = Status::error(msg::att_projection_shape);
  if (trace.status.ok && config.score == ScoreFunction::Additive && !additive_parameters_fit(w, config))
    trace.status = Status::error(msg::att_additive_parameters);
  if (trace.status.ok && config.attention_positions.kind != PositionalKind::None && config.score == ScoreFunction::Additive)
    trace.status = Status::error(msg::att_positions_need_dot);
  if (trace.status.ok && config.attention_positions.kind == PositionalKind::Rope)
    trace.status = validate_positional(config.attention_positions, d / config.heads);
  if (!trace.status.ok) return trace;

  const int n_q = static_cast<int>(x_q.rows()), n_k = static_cast<int>(x_k.rows());
  trace.x_q = x_q;
  trace.x_k = x_k;
  trace.x_v = x_v;
  if (config.positional) {
    trace.positional = sinusoidal_positional_encoding(std::max(n_q, n_k), d);
    trace.x_q += trace.positional.topRows(n_q);
    trace.x_k += trace.positional.topRows(n_k);
    trace.x_v += trace.positional.topRows(n_k);
  }
  trace.allowed = build_mask(config.mask, n_q, n_k);

  // Projections for all heads at once; head h owns columns [h d_k, (h+1) d_k).
  Mat q = trace.x_q * w.wq, k = trace.x_k * w.wk, v = trace.x_v * w.wv;
  if (w.bq.size()) q.rowwise() += w.bq;
  if (w.bk.size()) k.rowwise() += w.bk;
  if (w.bv.size()) v.rowwise() += w.bv;
  const int d_k = d / config.heads;
  trace.concat.resize(n_q, d);
  // A mask that allows every pair is no mask to the heads (their masked scores are then the
  // scaled ones, with nothing to add).
  const BoolMat no_mask;
  const BoolMat& allowed = trace.allowed.all() ? no_mask : trace.allowed;
  // ALiBi: head h gets the paper's slope m_h for this many heads.
  const std::vector<float> slopes =
      config.attention_positions.kind == PositionalKind::Alibi ? alibi_slopes(config.heads) : std::vector<float>();
  for (int h = 0; h < config.heads; ++h) {
    Mat additive = config.additive_mask;
    if (!config.head_additive_masks.empty())
      additive = additive.size() ? Mat(additive + config.head_additive_masks[h]) : config.head_additive_masks[h];
    const auto qh = q.middleCols(h * d_k, d_k), kh = k.middleCols(h * d_k, d_k), vh = v.middleCols(h * d_k, d_k);
    if (config.attention_positions.kind == PositionalKind::None) {
      trace.heads.push_back(run_head(qh, kh, vh, allowed, additive, config, &w, h));
    } else {
      PositionalOptions positions = config.attention_positions;
      if (!slopes.empty()) positions.alibi_slope = slopes[h];
      trace.heads.push_back(run_head_positioned(qh, kh, vh, allowed, additive, config, positions, config.mask.causal));
    }
    trace.concat.middleCols(h * d_k, d_k) = trace.heads.back().output;
  }
  trace.output = trace.concat * w.wo;
  if (w.bo.size()) trace.output.rowwise() += w.bo;
  return trace;
}

bool rescale_pipeline(PipelineTrace& trace, const ProjectionWeights& w, const PipelineConfig& config) {
  if (!trace.status.ok || !validate_config(config).ok || trace.heads.empty() || w.wo.cols() != trace.concat.cols())
    return false;
  for (const HeadTrace& t : trace.heads)
    if (t.mask_add.size() != t.raw_scores.size() || t.scaled_scores.size() != t.raw_scores.size()) return false;
  const int d_k = static_cast<int>(trace.concat.cols()) / static_cast<int>(trace.heads.size());
  for (size_t h = 0; h < trace.heads.size(); ++h) {
    HeadTrace& t = trace.heads[h];
    // Steps 2 and 3 from the kept raw scores and mask: the same float operations as run_head.
    t.scale = step_scale(config, static_cast<int>(t.q.cols()));
    finish_head(t, t.v, config, [&t](int i0, int, kernels::SoftmaxArgs& a) {
      a.raw = t.raw_scores.row(i0).data();
      a.ld_raw = static_cast<int>(t.raw_scores.outerStride());
      if (t.masked) {  // else mask_add is 0, and masked = scaled as run_head has it
        a.mask = t.mask_add.row(i0).data();
        a.ld_mask = static_cast<int>(t.mask_add.outerStride());
      }
      a.scaled = t.scaled_scores.row(i0).data();
      a.ld_scaled = static_cast<int>(t.scaled_scores.outerStride());
    });
    trace.concat.middleCols(static_cast<Eigen::Index>(h) * d_k, d_k) = t.output;
  }
  trace.output = trace.concat * w.wo;
  if (w.bo.size()) trace.output.rowwise() += w.bo;
  return true;
}

HeadTrace run_head_positioned(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                              const Eigen::Ref<const Mat>& v, const BoolMat& allowed, const Mat& additive,
                              const PipelineConfig& config, const PositionalOptions& positions, bool causal) {
  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows());
  switch (positions.kind) {
    case PositionalKind::Rope:
      return run_head(apply_rope(q, 0, positions.rope_base, positions.rope_pairing),
                      apply_rope(k, 0, positions.rope_base, positions.rope_pairing), v, allowed, additive, config, nullptr, 0);
    case PositionalKind::Alibi: {
      Mat bias = alibi_bias(n_q, n_k, positions.alibi_slope, causal);
      if (additive.size()) bias += additive;
      return run_head(q, k, v, allowed, bias, config, nullptr, 0);
    }
    case PositionalKind::None: break;
  }
  return run_head(q, k, v, allowed, additive, config, nullptr, 0);
}

PipelineTrace run_pipeline_qkv(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                               const Eigen::Ref<const Mat>& v, const PipelineConfig& config) {
  PipelineTrace trace;
  PipelineConfig one_head = config;
  one_head.heads = 1;
  one_head.d_model = static_cast<int>(q.cols());
  AttentionOptions shape_check;
  trace.status = validate_attention_inputs(q, k, v, shape_check);
  if (trace.status.ok) trace.status = validate_config(one_head);
  if (trace.status.ok && config.score == ScoreFunction::Additive)
    trace.status = Status::error(msg::att_additive_needs_projections);
  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows());
  if (trace.status.ok) trace.status = validate_mask(config.mask, n_q, n_k);
  if (trace.status.ok && config.additive_mask.size() &&
      (config.additive_mask.rows() != n_q || config.additive_mask.cols() != n_k))
    trace.status = Status::error(msg::att_float_mask_shape);
  if (trace.status.ok) trace.status = check_float_mask(config.additive_mask);
  if (trace.status.ok) trace.status = validate_positional(config.attention_positions, static_cast<int>(q.cols()));
  if (!trace.status.ok) return trace;
  trace.allowed = build_mask(config.mask, n_q, n_k);
  trace.heads.push_back(run_head_positioned(q, k, v, trace.allowed.all() ? BoolMat() : trace.allowed, config.additive_mask, one_head,
                                            config.attention_positions, config.mask.causal));
  trace.concat = trace.heads[0].output;
  trace.output = trace.concat;
  return trace;
}

const Mat* trace_matrix(const PipelineTrace& t, const std::string& name, int head) {
  if (!t.status.ok || head < 0 || head >= static_cast<int>(t.heads.size())) return nullptr;
  if (name == "concat") return &t.concat;
  if (name == "final") return &t.output;
  const HeadTrace& h = t.heads[head];
  if (name == "q") return &h.q;
  if (name == "k") return &h.k;
  if (name == "v") return &h.v;
  if (name == "rawScores") return &h.raw_scores;
  if (name == "scaledScores") return &h.scaled_scores;
  if (name == "mask") return &h.mask_add;
  if (name == "maskedScores") return &h.masked_scores;
  if (name == "weights") return &h.weights;
  if (name == "output") return &h.output;
  return nullptr;
}

}  // namespace attn
