// attnlab-cli commands on efficient attention (src/core/efficient_*.h):
//   variant     one variant beside exact attention on Q, K, V from .npy files: writes its
//               output (and with --display the n x n display matrices), prints the relative
//               error and the cost formulas' values as JSON
//   cost-chart  measured time per variant for n = 64 ... 8192 and the fitted log-log slopes
//
// Sections: 1 shared option parsing  2 variant  3 cost-chart
#include "cli/cli_common.h"
#include "core/efficient/attention.h"
#include "core/efficient/cost.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace attn::cli {
namespace {

using json = nlohmann::json;

// ---------------------------------------------------------------------------------------
// 1 shared option parsing
// ---------------------------------------------------------------------------------------

// The variants' parameters; each given option is checked even when the kind ignores it.
Outcome read_variant_parameters(const Options& o, EfficientConfig& config) {
  long long seed = static_cast<long long>(config.seed);
  for (Outcome r : {o.whole("--window", 1, kEfficientMaxParameter, config.window),
                    o.whole("--stride", 1, kEfficientMaxParameter, config.stride),
                    o.whole("--block", 1, kEfficientMaxParameter, config.block),
                    o.whole("--features", 1, kEfficientMaxParameter, config.features),
                    o.whole("--rank", 1, kEfficientMaxParameter, config.rank), o.whole("--seed", 0, (1ll << 53) - 1, seed)})
    if (!r.ok()) return r;
  config.seed = static_cast<std::uint64_t>(seed);
  config.causal = o.flag("--causal");
  return {};
}

// ---------------------------------------------------------------------------------------
// 2 variant: Q (n, d_k), K (n, d_k), V (n, d_v)
// ---------------------------------------------------------------------------------------

Status read_matrix_file(const std::string& path, const char* what, Mat& out) {
  NpyArray array;
  std::vector<float> values;
  if (Status st = read_float_array(path, array, values); !st.ok) return st;
  if (array.shape.size() != 2)
    return Status::error(path + ": " + what + " must have 2 dimensions (n, d), has shape " + npy_shape_string(array.shape));
  if (array.shape[0] < 1 || array.shape[1] < 1) return Status::error(path + ": " + what + " must not be empty");
  if (array.shape[0] > (1 << 20) || array.shape[0] * array.shape[1] > kEfficientMaxFloats)
    return Status::error(path + ": shape " + npy_shape_string(array.shape) + " is over the cap of 2^20 tokens or 2^26 values");
  out = matrix_at(values, 0, array.shape[0], array.shape[1]);
  return Status::success();
}

Outcome run_variant(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args,
                                 {"--kind", "--q", "--k", "--v", "--window", "--stride", "--block", "--features",
                                  "--rank", "--seed", "--projection", "--out"},
                                 {"--causal", "--display"}, o);
      !r.ok())
    return r;
  if (Outcome r = o.require("variant", {"--kind", "--q", "--k", "--v", "--out"}); !r.ok()) return r;

  EfficientConfig config;
  if (!parse_efficient_kind(o.get("--kind"), config.kind) || config.kind == EfficientKind::Exact)
    return Outcome::usage("--kind must be " + efficient_variant_names(", ", " or ") + ", got '" + o.get("--kind") + "'");
  if (Outcome r = read_variant_parameters(o, config); !r.ok()) return r;
  if (o.has("--projection")) {
    if (o.get("--projection") == "identity") config.projection = LinformerProjection::Identity;
    else if (o.get("--projection") != "random")
      return Outcome::usage("--projection must be random or identity, got '" + o.get("--projection") + "'");
  }

  const std::string qp = o.get("--q"), kp = o.get("--k"), vp = o.get("--v");
  Mat q, k, v;
  if (Status st = read_matrix_file(qp, "Q", q); !st.ok) return st;
  if (Status st = read_matrix_file(kp, "K", k); !st.ok) return st;
  if (Status st = read_matrix_file(vp, "V", v); !st.ok) return st;
  const int n = static_cast<int>(q.rows()), d_k = static_cast<int>(q.cols()), d_v = static_cast<int>(v.cols());
  if (k.rows() != n || k.cols() != d_k)
    return Status::error(kp + ": shape (" + std::to_string(k.rows()) + ", " + std::to_string(k.cols()) +
                         ") must equal Q's (n, d_k) = (" + std::to_string(n) + ", " + std::to_string(d_k) + ") in self-attention");
  if (v.rows() != n) return Status::error(vp + ": has " + std::to_string(v.rows()) + " rows, Q has n = " + std::to_string(n));
  // The linformer's rank defaults to min(32, n), or n with identity projections.
  if (!o.has("--rank")) config.rank = config.projection == LinformerProjection::Identity ? n : std::min(32, n);
  if (Status st = validate_efficient_config(config, n, d_k); !st.ok) return st;
  const bool display = o.flag("--display");
  if (display && n > kEfficientDisplayMaxTokens)
    return Status::error("--display needs n <= " + std::to_string(kEfficientDisplayMaxTokens) + ", got n = " + std::to_string(n));

  const EfficientReport rep = efficient_report(q, k, v, config, display);
  if (!rep.status.ok) return rep.status;
  std::vector<std::pair<std::string, NpyArray>> outputs = {
      {"output.npy", NpyArray::from_float({n, d_v}, rep.output.data())}};
  if (display) {
    std::vector<std::uint8_t> pattern(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) pattern[static_cast<size_t>(i) * n + j] = rep.pattern(i, j) ? 1 : 0;
    outputs.push_back({"pattern.npy", NpyArray::from_bool({n, n}, pattern.data())});
    outputs.push_back({"weights.npy", NpyArray::from_float({n, n}, rep.weights.data())});
    outputs.push_back({"exact_weights.npy", NpyArray::from_float({n, n}, rep.exact_weights.data())});
    outputs.push_back({"weight_error.npy", NpyArray::from_float({n, n}, rep.weight_error.data())});
  }
  if (Status st = write_outputs(o.get("--out"), outputs); !st.ok) return st;
  const EfficientCost cost = efficient_cost(config, n, d_k, d_v);
  json out = {{"kind", efficient_kind_name(config.kind)},
              {"n", n},
              {"relativeError", rep.relative_error},
              {"pairs", cost.pairs},
              {"pairsFormula", cost.pairs_formula},
              {"multiplyAdds", cost.multiply_adds},
              {"multiplyAddsFormula", cost.multiply_adds_formula},
              {"memoryFloats", cost.memory_floats},
              {"memoryFormula", cost.memory_formula}};
  std::printf("%s\n", json_text(out).c_str());
  return Status::success();
}

// ---------------------------------------------------------------------------------------
// 3 cost-chart
// ---------------------------------------------------------------------------------------

// "64,128,256" -> {64, 128, 256}
bool parse_int_list(const std::string& text, long long lo, long long hi, std::vector<int>& out) {
  std::stringstream in(text);
  std::string item;
  out.clear();
  while (std::getline(in, item, ',')) {
    long long value = 0;
    if (!parse_long(item, lo, hi, value)) return false;
    out.push_back(static_cast<int>(value));
  }
  return !out.empty() && text.back() != ',';
}

// --kinds: a comma-separated list of kind names, at least one.
Outcome read_kinds(const std::string& text, std::vector<EfficientKind>& kinds) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    EfficientKind kind;
    if (!parse_efficient_kind(item, kind))
      return Outcome::usage("--kinds: unknown kind '" + item + "' (" + efficient_kind_names() + ")");
    kinds.push_back(kind);
  }
  if (kinds.empty()) return Outcome::usage("--kinds needs at least one kind");
  return {};
}

// The chart's settings from the options, checked before anything is measured.
Outcome read_cost_chart_config(const Options& o, CostChartConfig& config) {
  if (Outcome r = read_variant_parameters(o, config.variant); !r.ok()) return r;
  // Causal by default charts every kind that has a causal form.
  if (config.variant.causal && !o.has("--kinds")) {
    config.kinds.clear();
    for (const EfficientKindInfo& row : kEfficientKinds)
      if (row.causal) config.kinds.push_back(row.value);
  }
  if (o.has("--ns") && !parse_int_list(o.get("--ns"), 1, 1 << 20, config.ns))
    return Outcome::usage("--ns needs a comma-separated list of whole numbers from 1 to 1048576, got '" + o.get("--ns") + "'");
  if (o.has("--kinds"))
    if (Outcome r = read_kinds(o.get("--kinds"), config.kinds); !r.ok()) return r;
  for (Outcome r : {o.whole("--dk", 1, 4096, config.d_k), o.whole("--dv", 1, 4096, config.d_v),
                    o.whole("--measurements", 1, 1000, config.timing.measurements),
                    o.whole("--fit-min-n", 1, 1 << 20, config.fit_min_n)})
    if (!r.ok()) return r;
  if (o.has("--min-ms")) {
    float ms = 0.0f;
    if (!parse_float(o.get("--min-ms"), ms) || ms < 0.0f || ms > 60000.0f)
      return Outcome::usage("--min-ms needs a number of milliseconds from 0 to 60000");
    config.timing.min_seconds = ms / 1000.0;
  }
  if (o.flag("--cpu-time")) config.timing.clock = TimingClock::Cpu;
  return validate_cost_chart_config(config);
}

void print_cost_chart_json(const CostChart& chart, const CostChartConfig& config) {
  json series = json::array();
  for (const CostSeries& s : chart.series) {
    json samples = json::array();
    for (const CostSample& p : s.samples)
      samples.push_back({{"n", p.n}, {"seconds", p.seconds}, {"runs", p.runs_per_measurement},
                         {"multiplyAdds", p.multiply_adds}, {"memoryFloats", p.memory_floats}});
    series.push_back({{"kind", efficient_kind_name(s.kind)},
                      {"samples", samples},
                      {"slope", std::isfinite(s.slope) ? json(s.slope) : json(nullptr)},
                      {"fitPoints", s.fit_points},
                      {"multiplyAddsFormula", s.formulas.multiply_adds_formula},
                      {"memoryFormula", s.formulas.memory_formula},
                      {"pairsFormula", s.formulas.pairs_formula}});
  }
  std::printf("%s\n", json_text(json{{"series", series}, {"fitMinN", chart.fit_min_n}, {"dk", config.d_k}, {"dv", config.d_v},
                            {"clock", config.timing.clock == TimingClock::Cpu ? "cpu" : "wall"}}).c_str());
}

// The settings, one row of ms per run for each n, the slopes, then each kind's formulas.
void print_cost_chart_table(const CostChart& chart, const CostChartConfig& config) {
  const EfficientConfig& p = config.variant;
  std::printf("cost chart: d_k = %d, d_v = %d, w = %d, s = %d, b = %d, m = %d, r = %d%s; median of %d measurements of >= %g ms (%s time)\n",
              config.d_k, config.d_v, p.window, p.stride, p.block, p.features, p.rank, p.causal ? ", causal" : "",
              config.timing.measurements, config.timing.min_seconds * 1000.0,
              config.timing.clock == TimingClock::Cpu ? "processor" : "wall-clock");
  std::printf("%8s", "n");
  for (const CostSeries& s : chart.series) std::printf(" %12s", efficient_kind_name(s.kind));
  std::printf("   (ms per run)\n");
  for (size_t row = 0; row < config.ns.size(); ++row) {
    std::printf("%8d", config.ns[row]);
    for (const CostSeries& s : chart.series) std::printf(" %12.4f", s.samples[row].seconds * 1000.0);
    std::printf("\n");
  }
  std::printf("%8s", "slope");
  for (const CostSeries& s : chart.series) std::printf(" %12.3f", s.slope);
  std::printf("   (log-log fit over n >= %d)\n", chart.fit_min_n);
  for (const CostSeries& s : chart.series)
    std::printf("  %-12s multiply-adds %s, memory %s, pairs %s\n", efficient_kind_name(s.kind),
                s.formulas.multiply_adds_formula.c_str(), s.formulas.memory_formula.c_str(), s.formulas.pairs_formula.c_str());
}

Outcome run_cost_chart(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args,
                                 {"--ns", "--kinds", "--dk", "--dv", "--window", "--stride", "--block", "--features",
                                  "--rank", "--seed", "--min-ms", "--measurements", "--fit-min-n"},
                                 {"--causal", "--json", "--cpu-time"}, o);
      !r.ok())
    return r;
  CostChartConfig config;
  if (Outcome r = read_cost_chart_config(o, config); !r.ok()) return r;
  const CostChart chart = measure_cost_chart(config);
  if (!chart.status.ok) return chart.status;
  if (o.flag("--json")) print_cost_chart_json(chart, config);
  else print_cost_chart_table(chart, config);
  return Status::success();
}

const std::string variant_usage =
    "  variant --kind " + efficient_variant_names("|") + " --q Q.npy --k K.npy --v V.npy\n"
    "      [--window W] [--stride S] [--block B] [--features M] [--rank R] [--projection random|identity]\n"
    "      [--causal] [--seed S] [--display] --out DIR\n"
    "                                            writes output.npy (with --display also pattern.npy,\n"
    "                                            weights.npy, exact_weights.npy, weight_error.npy);\n"
    "                                            prints {relativeError, multiplyAdds, memoryFloats, ...}\n";

}  // namespace

ATTNLAB_CLI_COMMAND(variant, "variant", variant_usage.c_str(),
                    "  One efficient-attention variant beside exact attention on Q, K, V (n, d): window (--window,\n"
                    "  default 8), strided (--stride 4), blocksparse (--block 16), linear, performer (--features 64,\n"
                    "  --seed 0), linformer (--rank: default min(32, n), n with --projection identity).\n"
                    "  --causal where the variant has a causal form; --display also writes the n x n matrices (n <= 1024).\n"
                    "  Prints the relative error and the cost formulas' values as one JSON line.\n", run_variant);
ATTNLAB_CLI_COMMAND(cost_chart, "cost-chart",
                    "  cost-chart [--ns 64,128,...,8192] [--kinds exact,window,...] [--dk 64] [--dv 64] [--window 32]\n"
                    "      [--stride 8] [--block 64] [--features 64] [--rank 64] [--causal] [--seed S]\n"
                    "      [--min-ms 5] [--measurements 5] [--fit-min-n 512] [--cpu-time] [--json]\n"
                    "                                            measured ms per run and fitted log-log slopes\n"
                    "                                            (--cpu-time: this process's processor time)\n",
                    "  Measures each variant's time per run over a range of n and fits log-log slopes (n >= --fit-min-n).\n"
                    "  --causal charts the kinds that have a causal form. Prints a table, or one JSON line with --json;\n"
                    "  wall-clock time unless --cpu-time.\n",
                    run_cost_chart);

}  // namespace attn::cli
