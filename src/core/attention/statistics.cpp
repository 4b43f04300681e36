#include "core/attention/statistics.h"

#include "core/base/rng.h"
#include "core/attention/softmax.h"

#include <algorithm>
#include <cmath>

namespace attn {

namespace {

// Welford's update: one pass, stable for large sample counts.
struct Moments {
  double mean = 0.0, m2 = 0.0;
  void add(double x, int count_before) {
    const double delta = x - mean;
    mean += delta / (count_before + 1);
    m2 += delta * (x - mean);
  }
};

// Draws `samples` dot products once; `raw` and `scaled` (either may be null) receive their
// moments, and their values when `keep_values`.
void draw_dot_products(int d_k, int samples, std::uint64_t seed, bool keep_values, DotProductSample* raw,
                       DotProductSample* scaled) {
  if (d_k < 1 || samples < 2) return;
  Rng rng(seed);
  const double factor = 1.0 / std::sqrt(static_cast<double>(d_k));
  for (DotProductSample* out : {raw, scaled})
    if (out && keep_values) out->values.reserve(samples);
  Moments m_raw, m_scaled;
  for (int s = 0; s < samples; ++s) {
    double dot = 0.0;
    for (int c = 0; c < d_k; ++c) dot += static_cast<double>(rng.normal()) * rng.normal();
    if (raw) {
      m_raw.add(dot, s);
      if (keep_values) raw->values.push_back(static_cast<float>(dot));
    }
    if (scaled) {
      const double x = dot * factor;
      m_scaled.add(x, s);
      if (keep_values) scaled->values.push_back(static_cast<float>(x));
    }
  }
  if (raw) {
    raw->mean = m_raw.mean;
    raw->variance = m_raw.m2 / (samples - 1);
  }
  if (scaled) {
    scaled->mean = m_scaled.mean;
    scaled->variance = m_scaled.m2 / (samples - 1);
  }
}

}  // namespace

DotProductSample sample_dot_products(int d_k, int samples, std::uint64_t seed, bool scaled,
                                     bool keep_values) {
  DotProductSample out;
  draw_dot_products(d_k, samples, seed, keep_values, scaled ? nullptr : &out, scaled ? &out : nullptr);
  return out;
}

DotProductPair sample_dot_product_pair(int d_k, int samples, std::uint64_t seed, bool keep_values) {
  DotProductPair out;
  draw_dot_products(d_k, samples, seed, keep_values, &out.raw, &out.scaled);
  return out;
}

Histogram histogram(const std::vector<float>& values, int bins, float lo, float hi) {
  Histogram h;
  h.lo = lo;
  h.hi = hi;
  if (bins < 1 || !(hi > lo)) return h;
  h.counts.assign(bins, 0);
  const float width = (hi - lo) / bins;
  for (float v : values) {
    if (std::isnan(v)) continue;
    const int b = std::clamp(static_cast<int>(std::floor((v - lo) / width)), 0, bins - 1);
    ++h.counts[b];
  }
  return h;
}

std::vector<SaturationPoint> saturation_curve(const std::vector<int>& d_ks, bool scaled, int rows,
                                              int n_keys, std::uint64_t seed) {
  std::vector<SaturationPoint> curve;
  for (int d_k : d_ks) {
    SaturationPoint p;
    p.d_k = d_k;
    if (d_k < 1 || rows < 1 || n_keys < 1) {
      curve.push_back(p);
      continue;
    }
    // The same seed for every d_k and both settings, so the curves differ only by the math.
    Rng rng(seed);
    const Mat keys = rng.normal_matrix(n_keys, d_k);
    const float scale = scaled ? 1.0f / std::sqrt(static_cast<float>(d_k)) : 1.0f;
    RowVec weights(n_keys);
    for (int r = 0; r < rows; ++r) {
      const RowVec query = rng.normal_matrix(1, d_k);
      const RowVec scores = (query * keys.transpose()) * scale;
      softmax_row(scores.data(), weights.data(), n_keys);
      p.mean_max_weight += weights.maxCoeff();
      p.mean_entropy += entropy(weights);
      p.mean_jacobian_norm += softmax_jacobian_norm(weights);
    }
    p.mean_max_weight /= rows;
    p.mean_entropy /= rows;
    p.mean_jacobian_norm /= rows;
    curve.push_back(p);
  }
  return curve;
}

}  // namespace attn
