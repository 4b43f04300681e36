// Monte-Carlo figures for the scaling lesson: why 1/sqrt(d_k).
//
// For q, k with independent N(0, 1) entries, q . k is a sum of d_k products of variance
// 1, so Var(q . k) = d_k, and Var(q . k / sqrt(d_k)) = 1. Softmax of scores that spread
// with sqrt(d_k) saturates (one weight near 1), and its Jacobian, the gradient path,
// shrinks towards 0. These functions measure all of that from samples drawn with the
// project's generator, so the browser and desktop draw the same samples.
#pragma once

#include "core/base/types.h"

#include <cstdint>
#include <vector>

namespace attn {

struct DotProductSample {
  double mean = 0.0;
  double variance = 0.0;  // unbiased sample variance
  std::vector<float> values;  // kept only when asked (histograms)
};

// `samples` dot products of independent N(0,1) vectors of width d_k, divided by
// sqrt(d_k) when `scaled`.
DotProductSample sample_dot_products(int d_k, int samples, std::uint64_t seed, bool scaled,
                                     bool keep_values = false);

// The same draws seen both ways in one pass: `raw` is sample_dot_products(..., false, ...)
// and `scaled` is sample_dot_products(..., true, ...) for the same seed, value for value,
// at the cost of one.
struct DotProductPair {
  DotProductSample raw, scaled;
};
DotProductPair sample_dot_product_pair(int d_k, int samples, std::uint64_t seed, bool keep_values = false);

struct Histogram {
  float lo = 0.0f, hi = 0.0f;  // range of the bins
  std::vector<int> counts;     // bins of equal width over [lo, hi]
};

// Histogram over [lo, hi] (values outside are clamped into the end bins).
Histogram histogram(const std::vector<float>& values, int bins, float lo, float hi);

struct SaturationPoint {
  int d_k = 0;
  double mean_max_weight = 0.0;     // averaged over rows
  double mean_entropy = 0.0;        // nats
  double mean_jacobian_norm = 0.0;  // Frobenius norm of diag(p) - p p^T
};

// For each d_k: `rows` random query rows against n_keys random keys (all N(0,1)),
// softmax with or without 1/sqrt(d_k), and the row statistics averaged.
std::vector<SaturationPoint> saturation_curve(const std::vector<int>& d_ks, bool scaled, int rows,
                                              int n_keys, std::uint64_t seed);

}  // namespace attn
