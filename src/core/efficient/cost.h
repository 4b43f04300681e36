// What the efficient attention variants cost: formulas for the current n (multiply-adds and
// memory), the measured time of the real algorithm, and the cost chart over n with its
// fitted log-log slope.
//
// It is not the algorithms (efficient_attention.h). What is timed is run_efficient_into alone:
// the random parameters are drawn before, and neither the error nor any display matrix is
// computed inside the timing.
//
// Legend as in efficient_attention.h: n tokens, d_k, d_v, w window, s stride, b block,
// m features, r rank.
//
// Counting conventions:
//   pairs          (query, key) pairs of the pattern: its non-zeros (n^2 for exact, every
//                  implied pair for the kernel methods and the linformer)
//   multiply-adds  products of the algorithm (a * b + c counts 1); exp(), maxima and one
//                  division per row or entry are not counted (they never exceed the order of
//                  the products)
//   memory         floats of the attention matrix, or of what replaces it, as a training pass
//                  keeps it for the backward pass: the pattern's weights for exact and sparse
//                  forms; phi(q), phi(k) and the (m, d_v + 1) summary for the kernel methods;
//                  K', V' and the (n, r) weights for the linformer. Inputs, output and
//                  parameters (w_r, E, F) are not counted.
//
// Sections: 1 formulas  2 timing  3 the cost chart
#pragma once

#include "core/efficient/attention.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attn {

// ---------------------------------------------------------------------------------------
// 1 formulas
// ---------------------------------------------------------------------------------------

struct EfficientCost {
  double pairs = 0.0;           // P: the (query, key) pairs scored
  std::string pairs_formula;  // in n, w, s, b, r, e.g. "n(2w+1) - w(w+1)"
  double multiply_adds = 0.0;
  std::string multiply_adds_formula;  // in P, n, d_k, d_v, m, r, e.g. "P (d_k + d_v)"
  double memory_floats = 0.0;
  std::string memory_formula;
};

// Exact counts for this n (edges included), in double so n = 2^20 does not overflow.
// Call validate_efficient_config first.
EfficientCost efficient_cost(const EfficientConfig& config, int n, int d_k, int d_v);

// ---------------------------------------------------------------------------------------
// 2 timing
// ---------------------------------------------------------------------------------------

enum class TimingClock {
  Wall,  // std::chrono::steady_clock: what a user waits
  Cpu,   // std::clock(): this process's processor time, which leaves out the time other
         // processes held the processor. Native only: Emscripten's clock() is wall time
         // counted in whole milliseconds, too coarse for 5 ms measurements.
};

struct TimingOptions {
  double min_seconds = 0.005;  // each measurement repeats the run until it lasts this long
  int measurements = 5;        // the median of this many is reported
  TimingClock clock = TimingClock::Wall;
};

struct Timing {
  double median_seconds = 0.0;         // per run
  int runs_per_measurement = 0;        // at least; a measurement also lasts min_seconds / 2
  std::vector<double> seconds;         // per run, one entry per measurement
  Status status;
};

// Times run() on the options' clock: one warm-up run, then as many runs per measurement as
// fill min_seconds, the median over the measurements. Stops at the first failed run.
Timing time_runs(const std::function<Status()>& run, const TimingOptions& options = {});

// Times run_efficient_into(q, k, v, config, params, ...) on the options' clock, its output and workspace allocated once before. One run warms up (caches, the
// workspace); the warm runs that fill min_seconds set the number of runs per measurement.
Timing time_efficient(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                      const Eigen::Ref<const Mat>& v, const EfficientConfig& config,
                      const EfficientParams& params, const TimingOptions& options = {});

// ---------------------------------------------------------------------------------------
// 3 the cost chart
// ---------------------------------------------------------------------------------------

struct CostChartConfig {
  std::vector<EfficientKind> kinds;  // empty = every kind (kEfficientKinds)
  std::vector<int> ns;               // empty = 64, 128, ..., 8192
  int d_k = 64;
  int d_v = 64;
  // The variants' parameters (kind is ignored): w = 32, s = 8, b = 64, m = 64, r = 64.
  EfficientConfig variant = {EfficientKind::Exact, 32, 8, 64, 64, 64};
  TimingOptions timing;
  int fit_min_n = 512;  // the slope is fitted over n >= this
};

// Fills in the defaults of empty kinds / ns and checks sizes and parameters.
Status validate_cost_chart_config(CostChartConfig& config);

struct CostSample {
  int n = 0;
  double seconds = 0.0;  // median per run
  int runs_per_measurement = 0;
  double multiply_adds = 0.0;
  double memory_floats = 0.0;
};

struct CostSeries {
  EfficientKind kind = EfficientKind::Exact;
  std::vector<CostSample> samples;  // in the order of the config's ns
  double slope = 0.0;               // fit_loglog_slope over samples with n >= fit_min_n (NaN if < 2)
  int fit_points = 0;
  EfficientCost formulas;           // the formulas (values for the largest n)
};

struct CostChart {
  std::vector<CostSeries> series;  // in the order of the config's kinds
  int fit_min_n = 0;
  Status status;
};

// One point of the chart: inputs q, k, v ~ N(0, 1) of n tokens from Rng(seed + n), the
// kind's parameters drawn once, then time_efficient. Lets an app spread a chart over frames.
Status measure_cost_sample(EfficientKind kind, int n, const CostChartConfig& config, CostSample& out);

// Every kind at every n (for each n, all kinds in turn on the same inputs), and the slopes.
// A first, unrecorded pass at the smallest n warms every kind up.
CostChart measure_cost_chart(CostChartConfig config);

// One step of token-by-token decoding with H query heads and G key/value heads
// (core/attention/grouped.h), with and without the KV cache: with it, the new token's query
// meets the n cached keys and values (O(n) per step); without it, the whole prefix of n
// tokens is recomputed under the causal mask (O(n^2) per step). Projections are left out
// of both; inputs ~ N(0, 1) from Rng(seed + n).
struct DecodingCostConfig {
  int heads = 8, kv_heads = 2, d_k = 64;
  std::vector<int> ns = {256, 512, 1024, 2048, 4096};
  int max_n_without_cache = 1 << 30;  // the quadratic step is timed only up to here
  int fit_min_n = 0;  // the slopes are fitted over n >= this (fixed costs bend the small n)
  TimingOptions timing;
  std::uint64_t seed = 1;
};

struct DecodingStep {
  int n = 0;
  double seconds_with_cache = 0.0, seconds_without_cache = 0.0;  // medians per step (NaN: not timed)
};

struct DecodingCost {
  std::vector<DecodingStep> steps;  // in the order of the config's ns
  double slope_with_cache = 0.0, slope_without_cache = 0.0;  // log-log over n >= fit_min_n (NaN if < 2)
  Status status;
};

Status validate_decoding_cost_config(const DecodingCostConfig& config);
// One step at n, with or without the cache (an app can spread a measurement over frames).
Timing time_decoding_step(const DecodingCostConfig& config, int n, bool with_cache);
// The slopes of `cost.steps` by the config's fit_min_n.
void fit_decoding_slopes(const DecodingCostConfig& config, DecodingCost& cost);
// Every step of the config, then the slopes.
DecodingCost measure_decoding_cost(const DecodingCostConfig& config);

// Least-squares slope of log(y) against log(x) over the points with x >= min_x; NaN when
// fewer than two such points (or two equal x) remain. Non-positive values are skipped.
double fit_loglog_slope(const std::vector<double>& x, const std::vector<double>& y, double min_x, int* used = nullptr);

}  // namespace attn
