// Cost formulas, timing and the cost chart of the efficient attention variants
// (see efficient_cost.h for the counting conventions).
//
// Sections: 1 formulas  2 timing  3 the cost chart
#include "core/efficient/cost.h"

#include "core/attention/grouped.h"
#include "core/base/rng.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <cmath>
#include <ctime>
#include <limits>

namespace attn {

// ---------------------------------------------------------------------------------------
// 1 formulas
// ---------------------------------------------------------------------------------------
namespace {

// Pairs of a dense problem of t tokens: t^2, causal t(t+1)/2.
double dense_pairs(double t, bool causal) { return causal ? t * (t + 1.0) / 2.0 : t * t; }

}  // namespace

EfficientCost efficient_cost(const EfficientConfig& config, int n_int, int d_k_int, int d_v_int) {
  const double n = n_int, d_k = d_k_int, d_v = d_v_int;
  const bool causal = config.causal;
  EfficientCost c;
  // The pattern's pairs; every exact or sparse pair costs d_k (score) + d_v (weighted value).
  switch (config.kind) {
    case EfficientKind::Exact:
    case EfficientKind::Linear:
    case EfficientKind::Performer:
    case EfficientKind::Linformer:
      c.pairs = dense_pairs(n, causal);
      c.pairs_formula = causal ? "n(n+1)/2" : "n^2";
      break;
    case EfficientKind::Window: {
      const double w = config.window;
      if (w >= n - 1) {
        c.pairs = dense_pairs(n, causal);
        c.pairs_formula = causal ? "n(n+1)/2 (w >= n-1: every key)" : "n^2 (w >= n-1: every key)";
      } else {
        // Row i has min(i, w) keys before it and (non-causal) min(n-1-i, w) after it.
        c.pairs = causal ? n * (w + 1.0) - w * (w + 1.0) / 2.0 : n * (2.0 * w + 1.0) - w * (w + 1.0);
        c.pairs_formula = causal ? "n(w+1) - w(w+1)/2" : "n(2w+1) - w(w+1)";
      }
      break;
    }
    case EfficientKind::Strided: {
      // t = n mod s classes of q + 1 tokens and s - t classes of q = floor(n/s) tokens.
      const double s = config.stride;
      const double q = std::floor(n / s), t = n - q * s;
      c.pairs = t * dense_pairs(q + 1.0, causal) + (s - t) * dense_pairs(q, causal);
      c.pairs_formula = causal ? "t(q+1)(q+2)/2 + (s-t)q(q+1)/2, q = floor(n/s), t = n mod s (about n^2/(2s))"
                               : "t(q+1)^2 + (s-t)q^2, q = floor(n/s), t = n mod s (about n^2/s)";
      break;
    }
    case EfficientKind::BlockSparse: {
      // q = floor(n/b) full blocks and one of t = n mod b tokens.
      const double b = config.block;
      const double q = std::floor(n / b), t = n - q * b;
      c.pairs = q * dense_pairs(b, causal) + dense_pairs(t, causal);
      c.pairs_formula = causal ? "q b(b+1)/2 + t(t+1)/2, q = floor(n/b), t = n mod b"
                               : "q b^2 + t^2, q = floor(n/b), t = n mod b";
      break;
    }
  }
  switch (config.kind) {
    case EfficientKind::Exact:
    case EfficientKind::Window:
    case EfficientKind::Strided:
    case EfficientKind::BlockSparse:
      c.multiply_adds = c.pairs * (d_k + d_v);
      c.multiply_adds_formula = "P (d_k + d_v)";
      c.memory_floats = c.pairs;
      c.memory_formula = "P";
      break;
    case EfficientKind::Linear:
      // S += phi(k_j) v_j^T and z += phi(k_j): n d_k (d_v + 1); phi(q_i) S and phi(q_i) z: the same.
      c.multiply_adds = 2.0 * n * d_k * (d_v + 1.0);
      c.multiply_adds_formula = "2n d_k (d_v + 1)";
      c.memory_floats = 2.0 * n * d_k + d_k * (d_v + 1.0);
      c.memory_formula = "2n d_k + d_k (d_v + 1)";
      break;
    case EfficientKind::Performer: {
      const double m = config.features;
      // w_r . x for q and k: 2 n m d_k; then the linear form with m features: 2 n m (d_v + 1).
      c.multiply_adds = 2.0 * n * m * (d_k + d_v + 1.0);
      c.multiply_adds_formula = "2n m (d_k + d_v + 1)";
      c.memory_floats = 2.0 * n * m + m * (d_v + 1.0);
      c.memory_formula = "2n m + m (d_v + 1)";
      break;
    }
    case EfficientKind::Linformer: {
      const double r = config.rank;
      // E k and F v: r n (d_k + d_v); q K'^T and weights V': n r (d_k + d_v).
      c.multiply_adds = 2.0 * n * r * (d_k + d_v);
      c.multiply_adds_formula = "2n r (d_k + d_v)";
      c.memory_floats = r * (d_k + d_v) + n * r;
      c.memory_formula = "r (d_k + d_v) + n r";
      break;
    }
  }
  return c;
}

// ---------------------------------------------------------------------------------------
// 2 timing: the only clock in the core
// ---------------------------------------------------------------------------------------

Timing time_runs(const std::function<Status()>& run, const TimingOptions& options) {
  Timing t;
  if (!(options.min_seconds >= 0.0 && options.min_seconds <= 60.0) || options.measurements < 1 ||
      options.measurements > 1000) {
    t.status = Status::error("timing needs min_seconds from 0 to 60 and 1 to 1000 measurements");
    return t;
  }
  // Seconds on the chosen clock since an arbitrary origin.
  const auto now = [&options]() {
    if (options.clock == TimingClock::Cpu) return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  // 1 warm up, then count how many warm runs fill min_seconds
  if (t.status = run(); !t.status.ok) return t;
  int runs = 0;
  const double calibrate = now();
  do {
    run();
    ++runs;
  } while (now() - calibrate < options.min_seconds);
  t.runs_per_measurement = runs;
  // 2 measurements of at least that many runs; the median resists a slow outlier (another
  // process). A measurement also lasts at least half of min_seconds: when one slow calibration
  // run (a page fault, another process) left `runs` at 1, a single fast run could end within
  // one tick of a coarse clock (browsers round their timers to 0.1 ms) and measure 0.
  for (int m = 0; m < options.measurements; ++m) {
    const double start = now();
    int done = 0;
    double elapsed = 0.0;
    do {
      run();
      ++done;
      elapsed = now() - start;
    } while (done < runs || elapsed < 0.5 * options.min_seconds);
    t.seconds.push_back(elapsed / done);
  }
  std::vector<double> sorted = t.seconds;
  std::sort(sorted.begin(), sorted.end());
  const size_t mid = sorted.size() / 2;
  t.median_seconds = sorted.size() % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
  return t;
}

Timing time_efficient(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                      const Eigen::Ref<const Mat>& v, const EfficientConfig& config,
                      const EfficientParams& params, const TimingOptions& options) {
  if (Status st = validate_efficient_inputs(q, k, v); !st.ok) {
    Timing t;
    t.status = st;
    return t;
  }
  // The output and the scratch space are allocated once (the warm-up run sizes the
  // workspace): each run then does the algorithm's arithmetic, not the operating system's
  // page faults.
  Mat out(q.rows(), v.cols());
  EfficientWorkspace workspace;
  return time_runs([&] { return run_efficient_into(q, k, v, config, params, workspace, out); }, options);
}

Status validate_decoding_cost_config(const DecodingCostConfig& c) {
  if (c.heads < 1 || c.heads > 256 || c.kv_heads < 1 || c.kv_heads > c.heads || c.heads % c.kv_heads != 0)
    return Status::error("kvHeads " + std::to_string(c.kv_heads) + " must divide heads " + std::to_string(c.heads) +
                         " (heads from 1 to 256)");
  if (c.d_k < 1 || c.d_k > 1024) return Status::error("d_k must be a whole number from 1 to 1024");
  if (c.ns.empty()) return Status::error("decoding costs need at least one token count");
  for (int n : c.ns)
    if (n < 1 || std::int64_t{n} * c.d_k * c.heads > kEfficientMaxFloats)
      return Status::error("every n must be at least 1 with n x d_k x heads at most 2^26 floats, got n = " + std::to_string(n));
  return Status::success();
}

Timing time_decoding_step(const DecodingCostConfig& config, int n, bool with_cache) {
  Rng rng(config.seed + static_cast<std::uint64_t>(n));
  std::vector<Mat> q, k, v;
  for (int h = 0; h < config.heads; ++h) q.push_back(rng.normal_matrix(with_cache ? 1 : n, config.d_k));
  for (int g = 0; g < config.kv_heads; ++g) {
    k.push_back(rng.normal_matrix(n, config.d_k));
    v.push_back(rng.normal_matrix(n, config.d_k));
  }
  // With the cache the new token's query meets the n cached keys; without it every query of
  // the prefix is recomputed (causal), as a decoder without a cache must.
  AttentionOptions options;
  options.causal = !with_cache;
  return time_runs([&] { return grouped_query_attention(q, k, v, options).status; }, config.timing);
}

void fit_decoding_slopes(const DecodingCostConfig& config, DecodingCost& cost) {
  std::vector<double> ns, with, without;
  for (const DecodingStep& s : cost.steps) {
    ns.push_back(s.n);
    with.push_back(s.seconds_with_cache);
    without.push_back(s.seconds_without_cache);  // NaN where not timed: skipped by the fit
  }
  cost.slope_with_cache = fit_loglog_slope(ns, with, config.fit_min_n);
  cost.slope_without_cache = fit_loglog_slope(ns, without, config.fit_min_n);
}

DecodingCost measure_decoding_cost(const DecodingCostConfig& config) {
  DecodingCost out;
  if (out.status = validate_decoding_cost_config(config); !out.status.ok) return out;
  for (const int n : config.ns) {
    DecodingStep step{n, 0.0, std::numeric_limits<double>::quiet_NaN()};
    const Timing cached = time_decoding_step(config, n, true);
    if (out.status = cached.status; !out.status.ok) return out;
    step.seconds_with_cache = cached.median_seconds;
    if (n <= config.max_n_without_cache) {
      const Timing recomputed = time_decoding_step(config, n, false);
      if (out.status = recomputed.status; !out.status.ok) return out;
      step.seconds_without_cache = recomputed.median_seconds;
    }
    out.steps.push_back(step);
  }
  fit_decoding_slopes(config, out);
  return out;
}

// ---------------------------------------------------------------------------------------
// 3 the cost chart
// ---------------------------------------------------------------------------------------

Status validate_cost_chart_config(CostChartConfig& config) {
  if (config.kinds.empty()) {
    for (const EfficientKindInfo& row : kEfficientKinds) config.kinds.push_back(row.value);
  }
  if (config.ns.empty())
    for (int n = 64; n <= 8192; n *= 2) config.ns.push_back(n);
  if (config.d_k < 1 || config.d_k > 4096 || config.d_v < 1 || config.d_v > 4096)
    return Status::error("d_k and d_v must be whole numbers from 1 to 4096");
  for (int n : config.ns) {
    if (n < 1 || n > (1 << 20)) return Status::error("every n must be a whole number from 1 to 1048576, got " + std::to_string(n));
    if (std::int64_t{n} * std::max(config.d_k, config.d_v) > kEfficientMaxFloats)
      return Status::error("n x d = " + std::to_string(std::int64_t{n} * std::max(config.d_k, config.d_v)) +
                           " floats is over the cap of 2^26");
  }
  if (config.timing.measurements < 1 || config.timing.measurements > 1000 || !(config.timing.min_seconds >= 0.0) ||
      config.timing.min_seconds > 60.0)
    return Status::error("timing needs min_seconds from 0 to 60 and 1 to 1000 measurements");
  for (EfficientKind kind : config.kinds) {
    EfficientConfig c = config.variant;
    c.kind = kind;
    c.projection = LinformerProjection::Random;
    for (int n : config.ns)
      if (Status st = validate_efficient_config(c, n, config.d_k); !st.ok)
        return Status::error(std::string(efficient_kind_name(kind)) + " at n = " + std::to_string(n) + ": " + st.message);
  }
  return Status::success();
}

Status measure_cost_sample(EfficientKind kind, int n, const CostChartConfig& config, CostSample& out) {
  EfficientConfig c = config.variant;
  c.kind = kind;
  c.projection = LinformerProjection::Random;
  if (Status st = validate_efficient_config(c, n, config.d_k); !st.ok) return st;
  Rng rng(config.variant.seed + static_cast<std::uint64_t>(n));
  const Mat q = rng.normal_matrix(n, config.d_k);
  const Mat k = rng.normal_matrix(n, config.d_k);
  const Mat v = rng.normal_matrix(n, config.d_v);
  const EfficientParams params = draw_efficient_params(c, n, config.d_k);
  const Timing t = time_efficient(q, k, v, c, params, config.timing);
  if (!t.status.ok) return t.status;
  const EfficientCost cost = efficient_cost(c, n, config.d_k, config.d_v);
  out.n = n;
  out.seconds = t.median_seconds;
  out.runs_per_measurement = t.runs_per_measurement;
  out.multiply_adds = cost.multiply_adds;
  out.memory_floats = cost.memory_floats;
  return Status::success();
}

CostChart measure_cost_chart(CostChartConfig config) {
  CostChart chart;
  if (chart.status = validate_cost_chart_config(config); !chart.status.ok) return chart;
  chart.fit_min_n = config.fit_min_n;
  for (EfficientKind kind : config.kinds) {
    CostSeries s;
    s.kind = kind;
    chart.series.push_back(s);
  }
  // One unrecorded pass at the smallest n first: a wasm engine starts in its baseline tier
  // and optimises hot functions a little later, which would slow the first points only.
  const int smallest = *std::min_element(config.ns.begin(), config.ns.end());
  for (const CostSeries& s : chart.series) {
    CostSample discarded;
    if (chart.status = measure_cost_sample(s.kind, smallest, config, discarded); !chart.status.ok) return chart;
  }
  // n outer, kinds inner: a slow spell of the machine then hits every kind alike.
  for (int n : config.ns)
    for (CostSeries& s : chart.series) {
      CostSample sample;
      if (chart.status = measure_cost_sample(s.kind, n, config, sample); !chart.status.ok) return chart;
      s.samples.push_back(sample);
    }
  const int largest = *std::max_element(config.ns.begin(), config.ns.end());
  for (CostSeries& s : chart.series) {
    std::vector<double> x, y;
    for (const CostSample& p : s.samples) {
      x.push_back(p.n);
      y.push_back(p.seconds);
    }
    s.slope = fit_loglog_slope(x, y, config.fit_min_n, &s.fit_points);
    EfficientConfig c = config.variant;
    c.kind = s.kind;
    s.formulas = efficient_cost(c, largest, config.d_k, config.d_v);
  }
  return chart;
}

double fit_loglog_slope(const std::vector<double>& x, const std::vector<double>& y, double min_x, int* used) {
  // Ordinary least squares of log y = a + slope log x, summed in double.
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  int count = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (!(x[i] >= min_x) || !(x[i] > 0.0) || !(y[i] > 0.0) || !std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
    ++count;
  }
  if (used) *used = count;
  const double spread = count * sxx - sx * sx;
  if (count < 2 || !(spread > 1e-12)) return std::numeric_limits<double>::quiet_NaN();
  return (count * sxy - sx * sy) / spread;
}

}  // namespace attn
