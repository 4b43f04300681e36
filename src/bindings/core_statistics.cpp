// Embind bindings for the scaling and softmax lab's figures, behind
// web/attnlab-core-statistics.mjs: the Monte-Carlo variance and histogram of q.k, the
// saturation curve, and softmax in two precisions; and attention rollout across layers
// (core/attention/rollout.h). Sizes are checked against the module's
// caps (core_limits.h); a refused one answers {error}, which the wrapper throws.
#include "bindings/core_limits.h"
#include "bindings/js_interop.h"
#include "core/attention/rollout.h"
#include "core/attention/softmax.h"
#include "core/attention/statistics.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <vector>

using emscripten::val;
using attn::bindings::ArgumentCheck;
namespace limits = attn::bindings;

namespace {

// dotProductVariance(dk, samples, seed, scaled) -> number | {error}
val dot_product_variance_js(val dk_js, val samples_js, double seed, bool scaled) {
  ArgumentCheck check;
  const int dk = check.whole_int("dk", dk_js, 1, limits::kMaxStatisticsDk);
  const int samples = check.whole_int("samples", samples_js, 2, limits::kMaxSamples);
  if (check.refused()) return check.error();
  return val(attn::sample_dot_products(dk, samples, static_cast<std::uint64_t>(seed), scaled).variance);
}

// dotProductHistogram(dk, samples, seed, scaled, bins) -> {lo, hi, counts, variance, mean} | {error},
// bins over +-4 standard deviations of the theory (sqrt(d_k) unscaled, 1 scaled).
val dot_product_histogram_js(val dk_js, val samples_js, double seed, bool scaled, val bins_js) {
  ArgumentCheck check;
  const int dk = check.whole_int("dk", dk_js, 1, limits::kMaxStatisticsDk);
  const int samples = check.whole_int("samples", samples_js, 2, limits::kMaxSamples);
  const int bins = check.whole_int("bins", bins_js, 1, limits::kMaxBins);
  if (check.refused()) return check.error();
  const attn::DotProductSample s = attn::sample_dot_products(dk, samples, static_cast<std::uint64_t>(seed), scaled, true);
  const float spread = 4.0f * (scaled ? 1.0f : std::sqrt(static_cast<float>(dk)));
  const attn::Histogram h = attn::histogram(s.values, bins, -spread, spread);
  val out = val::object();
  out.set("lo", h.lo);
  out.set("hi", h.hi);
  val counts = val::array();
  for (size_t i = 0; i < h.counts.size(); ++i) counts.set(i, h.counts[i]);
  out.set("counts", counts);
  out.set("variance", s.variance);
  out.set("mean", s.mean);
  return out;
}

// saturationCurve(dks, scaled, rows, keys, seed) -> [{dk, maxWeight, entropy, jacobianNorm}] | {error}
val saturation_curve_js(val dks_js, bool scaled, val rows_js, val keys_js, double seed) {
  ArgumentCheck check;
  const int widths = check.array_length(dks_js, 1, limits::kMaxCurveWidths,
                                        "dks must be an array of 1 to " + std::to_string(limits::kMaxCurveWidths) + " widths");
  std::vector<int> dks;
  for (int i = 0; i < widths; ++i) dks.push_back(check.whole_int("each dk", dks_js[i], 1, limits::kMaxStatisticsDk));
  const int rows = check.whole_int("rows", rows_js, 1, limits::kMaxCurveRows);
  const int keys = check.whole_int("keys", keys_js, 1, limits::kMaxCurveKeys);
  if (check.refused()) return check.error();
  const auto curve = attn::saturation_curve(dks, scaled, rows, keys, static_cast<std::uint64_t>(seed));
  val out = val::array();
  for (size_t i = 0; i < curve.size(); ++i) {
    val p = val::object();
    p.set("dk", curve[i].d_k);
    p.set("maxWeight", curve[i].mean_max_weight);
    p.set("entropy", curve[i].mean_entropy);
    p.set("jacobianNorm", curve[i].mean_jacobian_norm);
    out.set(i, p);
  }
  return out;
}

// rollout(weights, layers, heads, n, max, residual) -> {rollout: Float32Array (layers*n*n)} |
// {error}. weights: (layers, heads, n, n) row-major, every row a query's weights.
val rollout_js(val weights_js, val layers_js, val heads_js, val n_js, bool max, val residual_js) {
  ArgumentCheck check;
  const int layers = check.whole_int("layers", layers_js, 1, limits::kMaxRolloutLayers);
  const int heads = check.whole_int("heads", heads_js, 1, limits::kMaxRolloutLayers);
  const int n = check.whole_int("n", n_js, 1, limits::kMaxRolloutTokens);
  const double residual = check.number("residual", residual_js, 0.0, 1.0);
  if (check.refused()) return check.error();
  const double count = static_cast<double>(layers) * heads * n * n;
  if (count > static_cast<double>(1 << limits::kMaxWeightsLog2))
    return attn::bindings::error_result("layers * heads * n * n must be at most 2^" + std::to_string(limits::kMaxWeightsLog2));
  if (weights_js["length"].as<double>() != count)
    return attn::bindings::error_result("weights has " + std::to_string(static_cast<long long>(weights_js["length"].as<double>())) +
                                        " floats; layers * heads * n * n is " + std::to_string(static_cast<long long>(count)));
  std::vector<std::vector<attn::Mat>> per_layer(static_cast<std::size_t>(layers));
  for (int l = 0; l < layers; ++l)
    for (int h = 0; h < heads; ++h) {
      const double at = (static_cast<double>(l) * heads + h) * n * n;
      attn::Mat m;
      attn::bindings::read_matrix(weights_js.call<val>("subarray", at, at + static_cast<double>(n) * n), n, n, m);
      per_layer[static_cast<std::size_t>(l)].push_back(std::move(m));
    }
  std::vector<attn::Mat> rolled;
  const attn::Status st = attn::attention_rollout(per_layer, max ? attn::HeadPool::Max : attn::HeadPool::Mean, residual, rolled);
  if (!st.ok) return attn::bindings::error_result(st.message);
  std::vector<float> flat;
  flat.reserve(static_cast<std::size_t>(layers) * n * n);
  for (const attn::Mat& r : rolled) flat.insert(flat.end(), r.data(), r.data() + r.size());
  val out = val::object();
  out.set("rollout", attn::bindings::float32_copy(flat.data(), flat.size()));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_statistics) {
  emscripten::function("dotProductVariance", &dot_product_variance_js);
  emscripten::function("dotProductHistogram", &dot_product_histogram_js);
  emscripten::function("saturationCurve", &saturation_curve_js);
  emscripten::function("rollout", &rollout_js);
}
