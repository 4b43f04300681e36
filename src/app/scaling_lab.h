// The scaling and softmax lab: its settings and the figures its panels draw.
//
// Each figure is computed by the core (statistics.h, softmax.h) when a lab setting changes,
// never per frame, and only while a lab panel is shown (app_state.cpp); the sampled curves
// and histograms, the costly part (tens of millions of normal draws), only once one of the
// two panels that draw them is. They are kept here: the panels draw exactly these numbers and the page's
// handle reports them (getState().figures.lab), so tests check the data behind a picture.
//
// Panels: dot product as geometry; variance of q.k against d_k; softmax saturation and its
// vanishing Jacobian; softmax step by step; stability (naive vs stable, float32 vs float16,
// -inf vs -1e9); the tutorial's worked example as an editable walkthrough.
#pragma once

#include "core/attention/attention.h"
#include "core/attention/statistics.h"
#include "core/base/types.h"

#include <array>
#include <cstdint>
#include <vector>

namespace attn {

struct ScalingLabSettings {
  std::array<float, 2> q = {2.0f, 1.0f};       // the dot-product panel's vectors, draggable
  std::array<float, 2> k = {1.5f, 1.5f};
  std::array<float, 2> k_long = {4.0f, -0.5f};  // a long key at a worse angle
  int dk = 64;              // variance panel: the d_k of the histograms
  bool scaled = false;      // saturation panel: with or without 1/sqrt(d_k)
  float temperature = 1.0f; // saturation panel: divides the scores of the example row
  std::vector<float> row = {2.0f, 1.0f, 0.1f, -1.0f};  // softmax and stability panels
  bool half = false;        // stability panel: float16 simulation
  // walkthrough: the tutorial's worked example, editable (2 tokens, d_k = 2), row-major
  std::array<float, 4> wq = {1, 2, 2, 1}, wk = {2, 1, 1, 2}, wv = {3, 0, 0, 3};
  bool operator==(const ScalingLabSettings&) const = default;
};

struct VariancePoint {
  int dk = 0;
  double raw = 0, scaled = 0;  // sample variances of q.k and q.k / sqrt(d_k)
};

struct ScalingLabResults {
  // The Monte-Carlo figures below are drawn only when update_scaling_lab is asked for them: the
  // variance panel's (curve, histograms at hist_dk) and the saturation panel's (curves).
  // Empty until then.
  bool has_variance_for(const ScalingLabSettings& s) const { return !variance.empty() && hist_dk == s.dk; }
  bool has_saturation() const { return !saturation_raw.empty(); }
  int hist_dk = 0;  // the d_k the histograms were drawn for (0: not yet)
  // dot product
  float q_norm = 0, k_norm = 0, cos_qk = 0, dot_qk = 0;
  float k_long_norm = 0, cos_q_long = 0, dot_q_long = 0;
  // variance
  std::vector<VariancePoint> variance;  // d_k = 1, 2, 4, ..., 1024
  Histogram hist_raw, hist_scaled;      // at settings.dk
  double var_raw_at_dk = 0, var_scaled_at_dk = 0;
  // saturation
  std::vector<SaturationPoint> saturation_raw, saturation_scaled;  // d_k = 4 ... 1024
  std::array<std::vector<float>, 3> example_weights;  // a query row at d_k = 4, 64, 512
  std::array<float, 3> example_entropy{}, example_max{}, example_jacobian{};
  // softmax step by step (float32, stable)
  float row_max = 0;
  std::vector<float> shifted, exps, weights;
  float exp_sum = 0;
  // stability
  std::vector<float> naive32, stable32, naive16, stable16;
  bool naive32_overflow = false, stable32_overflow = false, naive16_overflow = false, stable16_overflow = false;
  // masks: the same row with its last key masked, and fully masked, under -inf and -1e9
  std::vector<float> masked_inf, masked_finite, fully_inf, fully_finite;
  bool fully_inf_flag = false;
  // walkthrough
  AttentionResult walk;
};

inline constexpr int kScalingLabMaxRow = 16;

// Recomputes what depends on changed settings. `previous` is what `results` was computed
// for (null = nothing yet). With `variance` / `saturation`, also draws that panel's
// Monte-Carlo figures where they are missing (or, for the histograms, d_k changed).
// Returns true if anything was recomputed.
bool update_scaling_lab(const ScalingLabSettings& settings, const ScalingLabSettings* previous, ScalingLabResults& results, bool variance = true,
                bool saturation = true);

}  // namespace attn
