#include "core/attention/attention.h"

#include "core/attention/pipeline.h"
#include "core/base/finite.h"

#include <cmath>
#include <string>

namespace attn {

float default_scale(int d_k) { return 1.0f / std::sqrt(static_cast<float>(d_k)); }

BoolMat attention_mask(int n_q, int n_k, const AttentionOptions& options) {
  BoolMat allowed = options.allowed.size() ? options.allowed : BoolMat::Constant(n_q, n_k, true);
  if (options.causal) {
    for (int i = 0; i < n_q; ++i)
      for (int j = i + 1; j < n_k; ++j) allowed(i, j) = false;
  }
  return allowed;
}

Status validate_attention_inputs(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                 const Eigen::Ref<const Mat>& v, const AttentionOptions& options) {
  auto shape = [](const Eigen::Ref<const Mat>& m) {
    return "(" + std::to_string(m.rows()) + ", " + std::to_string(m.cols()) + ")";
  };
  if (q.rows() == 0 || q.cols() == 0) return Status::error("q is empty " + shape(q));
  if (k.rows() == 0) return Status::error("k has no rows");
  if (k.cols() != q.cols())
    return Status::error("k " + shape(k) + " must have d_k = " + std::to_string(q.cols()) +
                         " columns like q " + shape(q));
  if (v.rows() != k.rows())
    return Status::error("v " + shape(v) + " must have n_k = " + std::to_string(k.rows()) +
                         " rows like k " + shape(k));
  if (v.cols() == 0) return Status::error("v has no columns");
  if (options.allowed.size() &&
      (options.allowed.rows() != q.rows() || options.allowed.cols() != k.rows()))
    return Status::error("mask must be (n_q, n_k) = (" + std::to_string(q.rows()) + ", " +
                         std::to_string(k.rows()) + ")");
  if (!std::isnan(options.scale) && !std::isfinite(options.scale))
    return Status::error("scale must be a finite number");
  if (Status s = validate_positional(options.positional, static_cast<int>(q.cols())); !s.ok) return s;
  if (!all_finite(q)) return Status::error("q contains NaN or Inf");
  if (!all_finite(k)) return Status::error("k contains NaN or Inf");
  if (!all_finite(v)) return Status::error("v contains NaN or Inf");
  return Status::success();
}

AttentionResult attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                          const Eigen::Ref<const Mat>& v, const AttentionOptions& options) {
  AttentionResult r;
  r.status = validate_attention_inputs(q, k, v, options);
  if (!r.status.ok) return r;
  // The single-head case of the pipeline: one implementation of the five steps.
  PipelineConfig config;
  config.scale_kind = std::isnan(options.scale) ? ScaleKind::Default : ScaleKind::Custom;
  config.custom_scale = options.scale;
  config.fill = options.fill;
  config.finite_fill = options.finite_fill;
  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows());
  config.keep_every_stage = false;  // the result has no scaled scores or mask of their own
  config.row_statistics = false;    // nor row statistics
  // No mask and not causal: every pair is allowed, said by an empty mask.
  const BoolMat allowed = options.allowed.size() || options.causal ? attention_mask(n_q, n_k, options) : BoolMat();
  HeadTrace t = run_head_positioned(q, k, v, allowed, Mat(), config, options.positional, options.causal);
  r.raw_scores = std::move(t.raw_scores);
  r.scale = t.scale;
  r.scores = std::move(t.masked_scores);
  r.weights = std::move(t.weights);
  r.output = std::move(t.output);
  r.fully_masked_rows = std::move(t.fully_masked_rows);
  return r;
}

WorkedExample worked_example() {
  WorkedExample ex;
  ex.q.resize(2, 2);
  ex.k.resize(2, 2);
  ex.v.resize(2, 2);
  ex.q << 1, 2, 2, 1;
  ex.k << 2, 1, 1, 2;
  ex.v << 3, 0, 0, 3;
  return ex;
}

}  // namespace attn
