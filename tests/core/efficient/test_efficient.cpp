// Efficient attention variants against exact attention and against plain-loop references.
//
// Sections: 1 sparse variants  2 kernel methods  3 linformer  4 display and report
//           5 cost formulas and the slope fit  6 refusals
#include "core/attention/attention.h"
#include "core/efficient/attention.h"
#include "core/efficient/cost.h"
#include "core/efficient/reference.h"
#include "core/attention/masks.h"
#include "core/attention/reference.h"
#include "core/base/rng.h"
#include "support/matrix_compare.h"

#include <cmath>
#include <ctime>
#include <limits>
#include <numeric>

using attn::EfficientConfig;
using attn::EfficientKind;
using attn::Mat;

namespace {

struct Inputs {
  Mat q, k, v;
};

Inputs random_inputs(int n, int d_k, int d_v, std::uint64_t seed, float stddev = 1.0f) {
  attn::Rng rng(seed);
  Inputs in;
  in.q = rng.normal_matrix(n, d_k, stddev);
  in.k = rng.normal_matrix(n, d_k, stddev);
  in.v = rng.normal_matrix(n, d_v);
  return in;
}

Mat run(const Inputs& in, const EfficientConfig& config) {
  const attn::EfficientOutput r = attn::efficient_attention(in.q, in.k, in.v, config);
  INFO(r.status.message);
  REQUIRE(r.status.ok);
  return r.output;
}

Mat exact_output(const Inputs& in, bool causal) {
  attn::AttentionOptions options;
  options.causal = causal;
  return attn::reference::attention(in.q, in.k, in.v, options).output;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// 1 sparse variants
// ---------------------------------------------------------------------------------------

TEST_CASE("window attention with w >= n equals exact attention", "[efficient][window]") {
  const Inputs in = random_inputs(40, 16, 6, 11);
  for (bool causal : {false, true})
    for (int w : {40, 41, 100, attn::kEfficientMaxParameter}) {
      EfficientConfig config;
      config.kind = EfficientKind::Window;
      config.window = w;
      config.causal = causal;
      INFO("w = " << w << ", causal = " << causal);
      REQUIRE_MATRIX_NEAR(run(in, config), exact_output(in, causal), 2e-6f);
    }
}

TEST_CASE("sparse variants equal the dense product masked with masks.h's pattern", "[efficient][sparse]") {
  // Sizes that the stride and block do not divide, so the last class and block are short.
  for (int n : {1, 7, 37, 130})
    for (bool causal : {false, true})
      for (EfficientKind kind : {EfficientKind::Window, EfficientKind::Strided, EfficientKind::BlockSparse})
        for (int p : {1, 3, 8}) {
          const Inputs in = random_inputs(n, 12, 5, 100 + n + p);
          EfficientConfig config;
          config.kind = kind;
          config.causal = causal;
          attn::MaskSpec spec;
          spec.causal = causal;
          if (kind == EfficientKind::Window) config.window = spec.window = p;
          if (kind == EfficientKind::Strided) config.stride = spec.stride = p;
          if (kind == EfficientKind::BlockSparse) config.block = spec.block = p;
          attn::AttentionOptions masked;
          masked.allowed = attn::build_mask(spec, n, n);
          INFO(attn::efficient_kind_name(kind) << " " << p << ", n = " << n << ", causal = " << causal);
          REQUIRE_MATRIX_NEAR(run(in, config), attn::reference::attention(in.q, in.k, in.v, masked).output, 2e-6f);
        }
}

TEST_CASE("strided patterns have the documented number of non-zeros per row", "[efficient][strided]") {
  // docs/EFFICIENT.md: row i has ceil((n - (i mod s)) / s) keys, floor(i / s) + 1 with causal.
  for (int n : {1, 10, 33, 64})
    for (int s : {1, 2, 3, 5, 8, 64, 100})
      for (bool causal : {false, true}) {
        attn::MaskSpec spec;
        spec.stride = s;
        spec.causal = causal;
        const std::vector<int> counts = attn::nonzeros_per_row(attn::build_mask(spec, n, n));
        long total = 0;
        for (int i = 0; i < n; ++i) {
          const int documented = causal ? i / s + 1 : (n - i % s + s - 1) / s;
          INFO("n = " << n << ", s = " << s << ", causal = " << causal << ", row " << i);
          REQUIRE(counts[i] == documented);
          total += documented;
        }
        // The report shows the same pattern, and the cost formula counts the same pairs.
        EfficientConfig config;
        config.kind = EfficientKind::Strided;
        config.stride = s;
        config.causal = causal;
        const Inputs in = random_inputs(n, 4, 2, 5);
        const attn::EfficientReport rep = attn::efficient_report(in.q, in.k, in.v, config);
        REQUIRE(rep.status.ok);
        REQUIRE(rep.nonzeros == counts);
        REQUIRE(attn::efficient_cost(config, n, 4, 2).pairs == static_cast<double>(total));
      }
  // A worked case: n = 10, s = 3 gives rows with 4, 3, 3, 4, 3, 3, 4, 3, 3, 4 keys.
  attn::MaskSpec spec;
  spec.stride = 3;
  REQUIRE(attn::nonzeros_per_row(attn::build_mask(spec, 10, 10)) == std::vector<int>{4, 3, 3, 4, 3, 3, 4, 3, 3, 4});
}

TEST_CASE("window and block patterns have the documented number of non-zeros per row", "[efficient][sparse]") {
  for (int n : {5, 20, 33})
    for (int p : {1, 2, 4, 7})
      for (bool causal : {false, true}) {
        attn::MaskSpec window;
        window.window = p;
        window.causal = causal;
        attn::MaskSpec block;
        block.block = p;
        block.causal = causal;
        const std::vector<int> wc = attn::nonzeros_per_row(attn::build_mask(window, n, n));
        const std::vector<int> bc = attn::nonzeros_per_row(attn::build_mask(block, n, n));
        for (int i = 0; i < n; ++i) {
          // window: min(i, w) keys before, itself, min(n - 1 - i, w) after (none with causal)
          const int w_documented = std::min(i, p) + 1 + (causal ? 0 : std::min(n - 1 - i, p));
          // block: its block's size, or its position in the block + 1 with causal
          const int block_start = i / p * p, block_len = std::min(p, n - block_start);
          const int b_documented = causal ? i - block_start + 1 : block_len;
          INFO("n = " << n << ", p = " << p << ", causal = " << causal << ", row " << i);
          REQUIRE(wc[i] == w_documented);
          REQUIRE(bc[i] == b_documented);
        }
      }
}

// ---------------------------------------------------------------------------------------
// 2 kernel methods
// ---------------------------------------------------------------------------------------

TEST_CASE("causal linear attention by prefix sums equals the direct O(n^2) kernel formula", "[efficient][linear]") {
  for (int n : {1, 9, 64, 200, 300}) {  // the algorithm works in chunks of 128 rows
    const Inputs in = random_inputs(n, 16, 7, 40 + n);
    const attn::FeaturePair f = attn::linear_features(in.q, in.k);
    // elu(x) + 1: x + 1 above zero, e^x at or below.
    REQUIRE(f.phi_q(0, 0) == Approx(in.q(0, 0) > 0 ? in.q(0, 0) + 1.0f : std::exp(in.q(0, 0))).epsilon(1e-6));
    REQUIRE((f.phi_k.array() > 0.0f).all());
    for (bool causal : {true, false}) {
      INFO("n = " << n << ", causal = " << causal);
      const Mat direct = attn::reference::kernel_attention_direct(f.phi_q, f.phi_k, in.v, causal);
      REQUIRE_MATRIX_NEAR(attn::kernel_attention(f.phi_q, f.phi_k, in.v, causal), direct, 2e-5f);
      EfficientConfig config;
      config.kind = EfficientKind::Linear;
      config.causal = causal;
      REQUIRE_MATRIX_NEAR(run(in, config), direct, 2e-5f);
    }
  }
}

TEST_CASE("performer: prefix sums equal the direct formula; features estimate exp(q.k/sqrt(d))", "[efficient][performer]") {
  const int n = 48, d = 16, m = 32;
  const Inputs in = random_inputs(n, d, 5, 8, 0.5f);
  attn::Rng rng(3);
  const Mat omega = rng.normal_matrix(m, d);
  const attn::FeaturePair f = attn::performer_features(in.q, in.k, omega);
  REQUIRE((f.phi_q.array() > 0.0f).all());
  REQUIRE((f.phi_k.array() > 0.0f).all());
  for (bool causal : {true, false}) {
    const Mat direct = attn::reference::kernel_attention_direct(f.phi_q, f.phi_k, in.v, causal);
    REQUIRE_MATRIX_NEAR(attn::kernel_attention(f.phi_q, f.phi_k, in.v, causal), direct, 2e-5f);
  }
  // The real algorithm (features formed 128 rows at a time, keys rescaled whenever a chunk
  // raises the largest exponent) equals the direct formula on features of the whole input.
  for (int tokens : {48, 300})
    for (bool causal : {true, false}) {
      const Inputs big = random_inputs(tokens, d, 5, 9 + tokens, 0.5f);
      EfficientConfig config;
      config.kind = EfficientKind::Performer;
      config.features = m;
      config.seed = 5;
      config.causal = causal;
      const attn::EfficientParams p = attn::draw_efficient_params(config, tokens, d);
      const attn::FeaturePair whole = attn::performer_features(big.q, big.k, p.omega);
      INFO("n = " << tokens << ", causal = " << causal);
      REQUIRE_MATRIX_NEAR(run(big, config), attn::reference::kernel_attention_direct(whole.phi_q, whole.phi_k, big.v, causal), 2e-5f);
    }
  // Up to one factor per query (it cancels in the normalisation), phi(q_i) . phi(k_j) is the
  // Monte-Carlo estimate of exp(q_i . k_j / sqrt(d)); with m = 200000 features the ratio of
  // estimate to truth is the same for every key of a row, within a few percent.
  const Mat omega_many = rng.normal_matrix(200000, d);
  const attn::FeaturePair g = attn::performer_features(in.q.topRows(2), in.k.topRows(6), omega_many);
  for (int i = 0; i < 2; ++i) {
    double ratio0 = 0.0;
    for (int j = 0; j < 6; ++j) {
      const double truth = std::exp(in.q.row(i).dot(in.k.row(j)) / std::sqrt(static_cast<double>(d)));
      const double ratio = g.phi_q.row(i).dot(g.phi_k.row(j)) / truth;
      if (j == 0) ratio0 = ratio;
      INFO("query " << i << ", key " << j << ": ratio " << ratio << " vs " << ratio0);
      REQUIRE(ratio / ratio0 == Approx(1.0).margin(0.05));
    }
  }
}

TEST_CASE("the performer's error falls as the number of features grows (averaged over seeds)", "[efficient][performer]") {
  const int n = 32, d = 8, seeds = 12;
  const std::vector<int> features = {4, 16, 64, 256};
  std::vector<double> mean_error(features.size(), 0.0);
  for (int seed = 0; seed < seeds; ++seed) {
    const Inputs in = random_inputs(n, d, 4, 1000 + seed, 0.3f);
    const Mat exact = exact_output(in, false);
    for (size_t f = 0; f < features.size(); ++f) {
      EfficientConfig config;
      config.kind = EfficientKind::Performer;
      config.features = features[f];
      config.seed = 77 + seed;
      mean_error[f] += attn::relative_frobenius_error(run(in, config), exact) / seeds;
    }
  }
  // Monte-Carlo error ~ 1/sqrt(m): each 4x more features should about halve it.
  for (size_t f = 0; f + 1 < features.size(); ++f) {
    INFO("m = " << features[f] << ": " << mean_error[f] << ", m = " << features[f + 1] << ": " << mean_error[f + 1]);
    REQUIRE(mean_error[f + 1] < 0.75 * mean_error[f]);
  }
  INFO("m = 4: " << mean_error.front() << ", m = 256: " << mean_error.back());
  REQUIRE(mean_error.back() < 0.25 * mean_error.front());
}

// ---------------------------------------------------------------------------------------
// 3 linformer
// ---------------------------------------------------------------------------------------

TEST_CASE("linformer with rank n and identity projections equals exact attention", "[efficient][linformer]") {
  for (int n : {1, 17, 96}) {
    const Inputs in = random_inputs(n, 16, 8, 60 + n);
    EfficientConfig config;
    config.kind = EfficientKind::Linformer;
    config.rank = n;
    config.projection = attn::LinformerProjection::Identity;
    INFO("n = " << n);
    REQUIRE_MATRIX_NEAR(run(in, config), exact_output(in, false), 2e-6f);
  }
}

TEST_CASE("linformer with random projections: E and F ~ N(0, 1/r), error finite and not zero", "[efficient][linformer]") {
  EfficientConfig config;
  config.kind = EfficientKind::Linformer;
  config.rank = 400;
  config.seed = 9;
  const attn::EfficientParams p = attn::draw_efficient_params(config, 300, 8);
  REQUIRE(p.e.rows() == 400);
  REQUIRE(p.e.cols() == 300);
  // Sample variance of 120000 draws of N(0, 1/400): 0.0025 within 2 %.
  const double variance = p.e.squaredNorm() / static_cast<double>(p.e.size());
  REQUIRE(variance == Approx(1.0 / 400).epsilon(0.02));
  REQUIRE((p.e - p.f).norm() > 1.0f);  // E and F are independent draws
  config.rank = 8;
  const Inputs in = random_inputs(64, 8, 4, 12);
  const attn::EfficientReport rep = attn::efficient_report(in.q, in.k, in.v, config);
  REQUIRE(rep.status.ok);
  REQUIRE(std::isfinite(rep.relative_error));
  REQUIRE(rep.relative_error > 0.01);
}

// ---------------------------------------------------------------------------------------
// 4 display and report
// ---------------------------------------------------------------------------------------

TEST_CASE("every variant's display weights reproduce its output: output = weights v", "[efficient][report]") {
  const Inputs in = random_inputs(48, 8, 5, 21);
  for (EfficientKind kind : attn::efficient_variants())
    for (bool causal : {false, true}) {
      if (causal && !attn::efficient_kind_info(kind).causal) continue;  // no causal form (refusal tested below)
      EfficientConfig config;
      config.kind = kind;
      config.causal = causal;
      config.window = 5;
      config.stride = 4;
      config.block = 10;
      config.features = 16;
      config.rank = 12;
      const attn::EfficientReport rep = attn::efficient_report(in.q, in.k, in.v, config);
      INFO(attn::efficient_kind_name(kind) << ", causal = " << causal << ": " << rep.status.message);
      REQUIRE(rep.status.ok);
      REQUIRE(rep.has_display);
      REQUIRE_MATRIX_NEAR(Mat(rep.weights * in.v), rep.output, 2e-5f);
      REQUIRE_MATRIX_NEAR(rep.exact_output, exact_output(in, causal), 2e-6f);
      REQUIRE_MATRIX_NEAR(rep.weight_error, Mat(rep.weights - rep.exact_weights), 0.0f);
      REQUIRE(rep.relative_error == Approx(attn::relative_frobenius_error(rep.output, rep.exact_output)).epsilon(1e-12));
      REQUIRE(rep.relative_error > 1e-3);  // these settings are real approximations
      // Weights live only on the pattern; the cost's pairs count the pattern.
      for (int i = 0; i < 48; ++i)
        for (int j = 0; j < 48; ++j)
          if (!rep.pattern(i, j)) REQUIRE(rep.weights(i, j) == 0.0f);
      const int total = std::accumulate(rep.nonzeros.begin(), rep.nonzeros.end(), 0);
      REQUIRE(attn::efficient_cost(config, 48, 8, 5).pairs == static_cast<double>(total));
    }
}

TEST_CASE("relative error: exact is 0, a known perturbation gives its norm ratio", "[efficient][report]") {
  const Mat b = attn::test::mat(2, 2, {3, 0, 0, 4});
  REQUIRE(attn::relative_frobenius_error(b, b) == 0.0);
  REQUIRE(attn::relative_frobenius_error(attn::test::mat(2, 2, {3, 1, 0, 4}), b) == Approx(0.2).epsilon(1e-12));
  REQUIRE(attn::relative_frobenius_error(Mat::Zero(2, 2), Mat::Zero(2, 2)) == 0.0);
  REQUIRE(std::isinf(attn::relative_frobenius_error(b, Mat::Zero(2, 2))));
}

TEST_CASE("above the display limit the report keeps the outputs and the error only", "[efficient][report]") {
  const int n = attn::kEfficientDisplayMaxTokens + 1;
  const Inputs in = random_inputs(n, 4, 2, 2);
  EfficientConfig config;
  config.kind = EfficientKind::Window;
  config.window = 3;
  const attn::EfficientReport rep = attn::efficient_report(in.q, in.k, in.v, config);
  REQUIRE(rep.status.ok);
  REQUIRE_FALSE(rep.has_display);
  REQUIRE(rep.weights.size() == 0);
  REQUIRE(rep.output.rows() == n);
  REQUIRE(rep.relative_error > 0.0);
}

// ---------------------------------------------------------------------------------------
// 5 cost formulas and the slope fit
// ---------------------------------------------------------------------------------------

TEST_CASE("cost formulas for n = 1024, d_k = d_v = 64", "[efficient][cost]") {
  EfficientConfig c;
  c.kind = EfficientKind::Exact;
  REQUIRE(attn::efficient_cost(c, 1024, 64, 64).multiply_adds == 1024.0 * 1024 * 128);
  c.kind = EfficientKind::Window;
  c.window = 32;
  // n(2w+1) - w(w+1) = 1024 * 65 - 32 * 33
  REQUIRE(attn::efficient_cost(c, 1024, 64, 64).pairs == 1024.0 * 65 - 32 * 33);
  c.kind = EfficientKind::Strided;
  c.stride = 8;  // 8 classes of 128 tokens
  REQUIRE(attn::efficient_cost(c, 1024, 64, 64).pairs == 8.0 * 128 * 128);
  c.kind = EfficientKind::BlockSparse;
  c.block = 100;  // 10 blocks of 100 and one of 24
  REQUIRE(attn::efficient_cost(c, 1024, 64, 64).pairs == 10.0 * 100 * 100 + 24 * 24);
  c.kind = EfficientKind::Linear;
  REQUIRE(attn::efficient_cost(c, 1024, 64, 64).multiply_adds == 2.0 * 1024 * 64 * 65);
  c.kind = EfficientKind::Performer;
  c.features = 256;
  REQUIRE(attn::efficient_cost(c, 1024, 64, 64).multiply_adds == 2.0 * 1024 * 256 * 129);
  REQUIRE(attn::efficient_cost(c, 1024, 64, 64).memory_floats == 2.0 * 1024 * 256 + 256 * 65);
  c.kind = EfficientKind::Linformer;
  c.rank = 64;
  REQUIRE(attn::efficient_cost(c, 1024, 64, 64).multiply_adds == 2.0 * 1024 * 64 * 128);
  REQUIRE(attn::efficient_cost(c, 1024, 64, 64).memory_floats == 64.0 * 128 + 1024 * 64);
}

TEST_CASE("log-log slope fit: power laws give their exponent, small n are left out", "[efficient][cost]") {
  const std::vector<double> n = {64, 128, 256, 512, 1024, 2048, 4096};
  std::vector<double> quadratic, linear_with_offset;
  for (double x : n) {
    quadratic.push_back(3e-9 * x * x);
    // a fixed overhead dominates small n only
    linear_with_offset.push_back(x < 512 ? 1e-3 : 2e-6 * x);
  }
  int used = 0;
  REQUIRE(attn::fit_loglog_slope(n, quadratic, 0, &used) == Approx(2.0).epsilon(1e-9));
  REQUIRE(used == 7);
  REQUIRE(attn::fit_loglog_slope(n, linear_with_offset, 512, &used) == Approx(1.0).epsilon(1e-9));
  REQUIRE(used == 4);
  REQUIRE(std::isnan(attn::fit_loglog_slope(n, quadratic, 4096)));
}

TEST_CASE("cost chart: every kind at every n, with the formulas of efficient_cost", "[efficient][cost]") {
  attn::CostChartConfig config;
  config.kinds = {EfficientKind::Exact, EfficientKind::Window, EfficientKind::Linear};
  config.ns = {16, 32, 64};
  config.d_k = config.d_v = 8;
  config.timing.min_seconds = 0.0005;
  config.timing.measurements = 3;
  config.fit_min_n = 32;
  const attn::CostChart chart = attn::measure_cost_chart(config);
  REQUIRE(chart.status.ok);
  REQUIRE(chart.series.size() == 3);
  for (const attn::CostSeries& s : chart.series) {
    REQUIRE(s.samples.size() == 3);
    REQUIRE(s.fit_points == 2);
    for (const attn::CostSample& p : s.samples) {
      EfficientConfig c = config.variant;
      c.kind = s.kind;
      REQUIRE(p.seconds > 0.0);
      REQUIRE(p.runs_per_measurement >= 1);
      REQUIRE(p.multiply_adds == attn::efficient_cost(c, p.n, 8, 8).multiply_adds);
    }
  }
  REQUIRE(chart.series[1].samples[2].n == 64);
}

// ---------------------------------------------------------------------------------------
// 6 refusals
// ---------------------------------------------------------------------------------------

TEST_CASE("bad settings and inputs are refused with a message naming them", "[efficient][errors]") {
  const Inputs in = random_inputs(8, 4, 3, 1);
  const auto refused = [&](const EfficientConfig& c, const std::string& needle) {
    const attn::EfficientOutput r = attn::efficient_attention(in.q, in.k, in.v, c);
    INFO(r.status.message);
    REQUIRE_FALSE(r.status.ok);
    REQUIRE(r.status.message.find(needle) != std::string::npos);
    REQUIRE_FALSE(attn::efficient_report(in.q, in.k, in.v, c).status.ok);
  };
  EfficientConfig c;
  c.kind = EfficientKind::Window;
  c.window = 0;
  refused(c, "window");
  c.kind = EfficientKind::Strided;
  c.stride = -2;
  refused(c, "stride");
  c.kind = EfficientKind::BlockSparse;
  c.block = 0;
  refused(c, "block");
  c.kind = EfficientKind::Performer;
  c.features = 0;
  refused(c, "features");
  c.kind = EfficientKind::Linformer;
  c.causal = true;
  refused(c, "causal");
  c.causal = false;
  c.projection = attn::LinformerProjection::Identity;
  c.rank = 4;
  refused(c, "rank = n");

  c.kind = EfficientKind::Window;
  c.window = 2;
  Mat bad = in.q;
  bad(1, 2) = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(attn::efficient_attention(bad, in.k, in.v, c).status.message == "q contains NaN or Inf");
  REQUIRE(attn::efficient_attention(in.q, in.k.leftCols(3), in.v, c).status.message.find("k must have the shape of q") == 0);
  REQUIRE(attn::efficient_attention(in.q, in.k, in.v.topRows(5), c).status.message.find("v must have n = 8 rows") == 0);
  // Parameters drawn for another configuration are refused, not read out of bounds.
  c.kind = EfficientKind::Performer;
  c.features = 16;
  REQUIRE_FALSE(attn::run_efficient(in.q, in.k, in.v, c, attn::EfficientParams{}).status.ok);
}

TEST_CASE("time_runs never measures 0 when one slow calibration run leaves a single run per measurement") {
  // The calibration's only run takes 10 ms of processor time (as a page fault or another
  // process can make a first run slow); every later run is nearly free. A measurement of that
  // one free run would end within one tick of the processor clock and read 0.
  int calls = 0;
  const auto run = [&calls]() {
    if (++calls == 2) {
      const std::clock_t start = std::clock();
      while (std::clock() - start < CLOCKS_PER_SEC / 100) {
      }
    }
    return attn::Status::success();
  };
  attn::TimingOptions options;
  options.min_seconds = 0.005;
  options.measurements = 3;
  options.clock = attn::TimingClock::Cpu;
  const attn::Timing t = attn::time_runs(run, options);
  REQUIRE(t.status.ok);
  REQUIRE(t.runs_per_measurement == 1);
  REQUIRE(t.seconds.size() == 3);
  for (double s : t.seconds) REQUIRE(s > 0.0);
  REQUIRE(t.median_seconds > 0.0);
  // Each measurement ran for at least half of min_seconds: many free runs, each a tiny share.
  REQUIRE(calls > 2 + 3);
}
