#include "app/scaling_lab.h"

#include "core/base/rng.h"
#include "core/attention/softmax.h"

#include <cmath>
#include <limits>

namespace attn {
namespace {

constexpr std::uint64_t kLabSeed = 2026;

float norm2(const std::array<float, 2>& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1]); }
float dot2(const std::array<float, 2>& a, const std::array<float, 2>& b) { return a[0] * b[0] + a[1] * b[1]; }

std::vector<float> softmax_of(const std::vector<float>& row, SoftmaxForm form, Precision p, SoftmaxFlags* flags = nullptr) {
  std::vector<float> w(row.size());
  const SoftmaxFlags f = softmax_row(row.data(), w.data(), static_cast<int>(row.size()), form, p);
  if (flags) *flags = f;
  return w;
}

// Lengths, dot products and cosines of q against k and against the longer k.
void compute_dot_products(const ScalingLabSettings& s, ScalingLabResults& r) {
  r.q_norm = norm2(s.q);
  r.k_norm = norm2(s.k);
  r.k_long_norm = norm2(s.k_long);
  r.dot_qk = dot2(s.q, s.k);
  r.dot_q_long = dot2(s.q, s.k_long);
  r.cos_qk = r.q_norm > 0 && r.k_norm > 0 ? r.dot_qk / (r.q_norm * r.k_norm) : 0.0f;
  r.cos_q_long = r.q_norm > 0 && r.k_long_norm > 0 ? r.dot_q_long / (r.q_norm * r.k_long_norm) : 0.0f;
}

// Variance against d_k: fixed, drawn once (raw and scaled from the same draws).
void compute_variance_curve(ScalingLabResults& r) {
  for (int dk = 1; dk <= 1024; dk *= 2) {
    const DotProductPair pair = sample_dot_product_pair(dk, 4000, kLabSeed + dk);
    r.variance.push_back({dk, pair.raw.variance, pair.scaled.variance});
  }
}

void compute_saturation_curves(ScalingLabResults& r) {
  const std::vector<int> dks = {4, 8, 16, 32, 64, 128, 256, 512, 1024};
  r.saturation_raw = saturation_curve(dks, false, 128, 16, kLabSeed);
  r.saturation_scaled = saturation_curve(dks, true, 128, 16, kLabSeed);
}

// Histograms of raw and scaled dot products at the chosen d_k.
void compute_histograms(const ScalingLabSettings& s, ScalingLabResults& r) {
  const DotProductPair pair = sample_dot_product_pair(s.dk, 20000, kLabSeed, true);
  const float spread = 4.0f * std::sqrt(static_cast<float>(s.dk));
  r.hist_raw = histogram(pair.raw.values, 40, -spread, spread);
  r.hist_scaled = histogram(pair.scaled.values, 40, -4.0f, 4.0f);
  r.var_raw_at_dk = pair.raw.variance;
  r.var_scaled_at_dk = pair.scaled.variance;
  r.hist_dk = s.dk;
}

// One random query against 16 random keys at each d_k: how sharp does softmax get?
void compute_sharpness_examples(const ScalingLabSettings& s, ScalingLabResults& r) {
  const int dks[3] = {4, 64, 512};
  for (int i = 0; i < 3; ++i) {
    Rng rng(kLabSeed + 17);
    const Mat keys = rng.normal_matrix(16, dks[i]);
    const RowVec query = rng.normal_matrix(1, dks[i]);
    const float scale = (s.scaled ? 1.0f / std::sqrt(static_cast<float>(dks[i])) : 1.0f) / s.temperature;
    const RowVec scores = (query * keys.transpose()) * scale;
    RowVec w(16);
    softmax_row(scores.data(), w.data(), 16);
    r.example_weights[i].assign(w.data(), w.data() + 16);
    r.example_entropy[i] = entropy(w);
    r.example_max[i] = w.maxCoeff();
    r.example_jacobian[i] = softmax_jacobian_norm(w);
  }
}

// The softmax of the editable row step by step: its max, the shifted row, exps, their sum.
void compute_softmax_steps(const std::vector<float>& row, ScalingLabResults& r) {
  r.row_max = -std::numeric_limits<float>::infinity();
  for (float x : row) r.row_max = std::max(r.row_max, x);
  r.shifted.clear();
  r.exps.clear();
  r.exp_sum = 0.0f;
  for (float x : row) {
    r.shifted.push_back(x - r.row_max);
    r.exps.push_back(std::exp(x - r.row_max));
    r.exp_sum += r.exps.back();
  }
  r.weights.clear();
  for (float e : r.exps) r.weights.push_back(e / r.exp_sum);
}

// The same row through naive and stable softmax, in float32 and simulated float16.
void compute_precision_forms(const std::vector<float>& row, ScalingLabResults& r) {
  SoftmaxFlags f;
  r.naive32 = softmax_of(row, SoftmaxForm::Naive, Precision::Float32, &f);
  r.naive32_overflow = f.overflow || f.nan;
  r.stable32 = softmax_of(row, SoftmaxForm::Stable, Precision::Float32, &f);
  r.stable32_overflow = f.overflow || f.nan;
  r.naive16 = softmax_of(row, SoftmaxForm::Naive, Precision::Float16, &f);
  r.naive16_overflow = f.overflow || f.nan;
  r.stable16 = softmax_of(row, SoftmaxForm::Stable, Precision::Float16, &f);
  r.stable16_overflow = f.overflow || f.nan;
}

// The last key masked, then every key masked: -inf against the tutorial's -1e9.
void compute_masked_rows(const std::vector<float>& row, ScalingLabResults& r) {
  SoftmaxFlags f;
  std::vector<float> masked = row, fully(row.size());
  masked.back() = -std::numeric_limits<float>::infinity();
  r.masked_inf = softmax_of(masked, SoftmaxForm::Stable, Precision::Float32);
  masked.back() = row.back() - 1e9f;
  r.masked_finite = softmax_of(masked, SoftmaxForm::Stable, Precision::Float32);
  for (size_t j = 0; j < row.size(); ++j) fully[j] = -std::numeric_limits<float>::infinity();
  r.fully_inf = softmax_of(fully, SoftmaxForm::Stable, Precision::Float32, &f);
  r.fully_inf_flag = f.fully_masked;
  for (size_t j = 0; j < row.size(); ++j) fully[j] = row[j] - 1e9f;
  r.fully_finite = softmax_of(fully, SoftmaxForm::Stable, Precision::Float32);
}

// Attention over the walkthrough's 2 x 2 q, k, v.
void compute_walkthrough(const ScalingLabSettings& s, ScalingLabResults& r) {
  const Mat q = Eigen::Map<const Mat>(s.wq.data(), 2, 2), k = Eigen::Map<const Mat>(s.wk.data(), 2, 2),
            v = Eigen::Map<const Mat>(s.wv.data(), 2, 2);
  r.walk = attention(q, k, v);
}

}  // namespace

// Each figure is recomputed only when what it depends on changed (or was never computed).
bool update_scaling_lab(const ScalingLabSettings& s, const ScalingLabSettings* prev, ScalingLabResults& r, bool variance, bool saturation) {
  bool changed = false;
  if (!prev || s.q != prev->q || s.k != prev->k || s.k_long != prev->k_long) {
    compute_dot_products(s, r);
    changed = true;
  }
  if (variance && r.variance.empty()) {
    compute_variance_curve(r);
    changed = true;
  }
  if (saturation && !r.has_saturation()) {
    compute_saturation_curves(r);
    changed = true;
  }
  if (variance && r.hist_dk != s.dk) {
    compute_histograms(s, r);
    changed = true;
  }
  if (!prev || s.scaled != prev->scaled || s.temperature != prev->temperature) {
    compute_sharpness_examples(s, r);
    changed = true;
  }
  if (!prev || s.row != prev->row) {
    compute_softmax_steps(s.row, r);
    compute_precision_forms(s.row, r);
    compute_masked_rows(s.row, r);
    changed = true;
  }
  if (!prev || s.wq != prev->wq || s.wk != prev->wk || s.wv != prev->wv) {
    compute_walkthrough(s, r);
    changed = true;
  }
  return changed;
}

}  // namespace attn
