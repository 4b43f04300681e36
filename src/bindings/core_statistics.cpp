// Embind bindings for the scaling and softmax lab's figures (web/attnlab-core-statistics.mjs
// validates the arguments): the Monte-Carlo variance and histogram of q.k, the saturation
// curve, and softmax in two precisions.
#include "bindings/js_interop.h"
#include "core/attention/softmax.h"
#include "core/attention/statistics.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>

using emscripten::val;

namespace {

double dot_product_variance_js(int dk, int samples, double seed, bool scaled) {
  return attn::sample_dot_products(dk, samples, static_cast<std::uint64_t>(seed), scaled).variance;
}

// Bins over +-4 standard deviations of the theory (sqrt(d_k) unscaled, 1 scaled).
val dot_product_histogram_js(int dk, int samples, double seed, bool scaled, int bins) {
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

val saturation_curve_js(val dks_js, bool scaled, int rows, int keys, double seed) {
  const std::vector<int> dks = emscripten::vecFromJSArray<int>(dks_js);
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

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_statistics) {
  emscripten::function("dotProductVariance", &dot_product_variance_js);
  emscripten::function("dotProductHistogram", &dot_product_histogram_js);
  emscripten::function("saturationCurve", &saturation_curve_js);
}
