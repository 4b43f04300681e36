// Embind bindings of efficient attention (src/core/efficient/), behind
// web/attnlab-core-efficient.mjs, which checks the JavaScript types and fills in the
// defaults. The dimensions, the variants' parameters and the timing are checked here against
// the module's caps (core_limits.h); a refused one answers {error}, which the wrapper throws.
#include "core/efficient/attention.h"
#include "core/efficient/cost.h"
#include "bindings/core_limits.h"
#include "bindings/js_interop.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using emscripten::val;
using attn::bindings::ArgumentCheck;
using attn::bindings::error_result;
using attn::bindings::float32_copy;

namespace {

// The variants' parameters from an argument object whose fields the wrapper filled in.
attn::EfficientConfig read_variant_config(const val& args, ArgumentCheck& check) {
  attn::EfficientConfig c;
  c.window = check.whole_int("window", args["window"], 1, attn::kEfficientMaxParameter);
  c.stride = check.whole_int("stride", args["stride"], 1, attn::kEfficientMaxParameter);
  c.block = check.whole_int("block", args["block"], 1, attn::kEfficientMaxParameter);
  c.features = check.whole_int("features", args["features"], 1, attn::kEfficientMaxParameter);
  c.rank = check.whole_int("rank", args["rank"], 1, attn::kEfficientMaxParameter);
  c.causal = args["causal"].as<bool>();
  c.seed = static_cast<std::uint64_t>(args["seed"].as<double>());
  c.projection = args["projection"].as<std::string>() == "identity" ? attn::LinformerProjection::Identity
                                                                     : attn::LinformerProjection::Random;
  return c;
}

val cost_object(const attn::EfficientCost& cost) {
  val out = val::object();
  out.set("pairs", cost.pairs);
  out.set("pairsFormula", cost.pairs_formula);
  out.set("multiplyAdds", cost.multiply_adds);
  out.set("multiplyAddsFormula", cost.multiply_adds_formula);
  out.set("memoryFloats", cost.memory_floats);
  out.set("memoryFormula", cost.memory_formula);
  return out;
}

// efficientAttention({variant, q, k, v, n, dk, dv, window, stride, block, features, rank,
//   causal, seed, projection, display}) -> {output, relativeError, cost, [display]} | {error}
val efficient_attention_js(val args) {
  attn::EfficientKind kind;
  if (!attn::parse_efficient_kind(args["variant"].as<std::string>(), kind)) return error_result("unknown variant");
  ArgumentCheck check;
  const int n = check.dimension("n", args["n"]), dk = check.dimension("dk", args["dk"]);
  const int dv = check.dimension("dv", args["dv"]);
  attn::Mat q, k, v;
  check.matrix("q", args["q"], n, dk, q);
  check.matrix("k", args["k"], n, dk, k);
  check.matrix("v", args["v"], n, dv, v);
  attn::EfficientConfig config = read_variant_config(args, check);
  if (check.refused()) return check.error();
  config.kind = kind;
  const bool display = args["display"].as<bool>();
  const attn::EfficientReport rep = attn::efficient_report(q, k, v, config, display);
  if (!rep.status.ok) return error_result(rep.status.message);
  val out = val::object();
  out.set("output", float32_copy(rep.output.data(), rep.output.size()));
  out.set("relativeError", rep.relative_error);
  out.set("cost", cost_object(attn::efficient_cost(config, n, dk, dv)));
  if (rep.has_display) {
    std::vector<std::uint8_t> pattern(rep.pattern.size());
    for (Eigen::Index i = 0; i < rep.pattern.size(); ++i) pattern[i] = rep.pattern.data()[i] ? 1 : 0;
    val d = val::object();
    d.set("pattern", val::global("Uint8Array").new_(emscripten::typed_memory_view(pattern.size(), pattern.data())));
    d.set("weights", float32_copy(rep.weights.data(), rep.weights.size()));
    d.set("exactWeights", float32_copy(rep.exact_weights.data(), rep.exact_weights.size()));
    d.set("weightError", float32_copy(rep.weight_error.data(), rep.weight_error.size()));
    d.set("nonzeros", val::global("Int32Array").new_(emscripten::typed_memory_view(rep.nonzeros.size(), rep.nonzeros.data())));
    out.set("display", d);
  }
  return out;
}

// costChart({variants, ns, dk, dv, window, stride, block, features, rank, causal, seed,
//   minSeconds, measurements, fitMinN}) -> {series: [...], fitMinN} | {error}
val cost_chart_js(val args) {
  ArgumentCheck check;
  attn::CostChartConfig config;
  config.variant = read_variant_config(args, check);
  config.variant.projection = attn::LinformerProjection::Random;
  const val variants = args["variants"];
  for (int i = 0; i < variants["length"].as<int>(); ++i) {
    attn::EfficientKind kind;
    if (!attn::parse_efficient_kind(variants[i].as<std::string>(), kind)) check.refuse("unknown variant");
    config.kinds.push_back(kind);
  }
  const val ns = args["ns"];
  const int points = check.array_length(ns, 1, std::numeric_limits<int>::max(), "ns must be a non-empty array of whole numbers");
  for (int i = 0; i < points; ++i) config.ns.push_back(check.dimension("ns[" + std::to_string(i) + "]", ns[i]));
  config.d_k = check.dimension("dk", args["dk"]);
  config.d_v = check.dimension("dv", args["dv"]);
  config.fit_min_n = check.dimension("fitMinN", args["fitMinN"]);
  config.timing.min_seconds = check.number("minSeconds", args["minSeconds"], 0.0, attn::bindings::kMaxMinSeconds);  // wall-clock (see TimingClock)
  config.timing.measurements = check.whole_int("measurements", args["measurements"], 1, attn::bindings::kMaxMeasurements);
  if (check.refused()) return check.error();
  const attn::CostChart chart = attn::measure_cost_chart(config);
  if (!chart.status.ok) return error_result(chart.status.message);
  val series = val::array();
  for (size_t s = 0; s < chart.series.size(); ++s) {
    const attn::CostSeries& cs = chart.series[s];
    std::vector<double> ns, seconds, macs, memory, runs;
    for (const attn::CostSample& p : cs.samples) {
      ns.push_back(p.n);
      seconds.push_back(p.seconds);
      runs.push_back(p.runs_per_measurement);
      macs.push_back(p.multiply_adds);
      memory.push_back(p.memory_floats);
    }
    const auto f64 = [](const std::vector<double>& x) {
      return val::global("Float64Array").new_(emscripten::typed_memory_view(x.size(), x.data()));
    };
    val o = val::object();
    o.set("variant", std::string(attn::efficient_kind_name(cs.kind)));
    o.set("n", f64(ns));
    o.set("seconds", f64(seconds));
    o.set("runs", f64(runs));
    o.set("multiplyAdds", f64(macs));
    o.set("memoryFloats", f64(memory));
    o.set("slope", std::isfinite(cs.slope) ? val(cs.slope) : val::null());
    o.set("fitPoints", cs.fit_points);
    o.set("multiplyAddsFormula", cs.formulas.multiply_adds_formula);
    o.set("memoryFormula", cs.formulas.memory_formula);
    o.set("pairsFormula", cs.formulas.pairs_formula);
    series.set(s, o);
  }
  val out = val::object();
  out.set("series", series);
  out.set("fitMinN", chart.fit_min_n);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_core_efficient) {
  emscripten::function("efficientAttention", &efficient_attention_js);
  emscripten::function("costChart", &cost_chart_js);
}
