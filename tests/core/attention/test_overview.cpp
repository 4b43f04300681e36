// The overview's streaming pass (core/attention/overview.h) against the exact path
// (core/attention/attention.h) at n = 2,048, d_k = 64: its pooled blocks equal the exact
// weights pooled (mean and max, causal or not, a block size that does not divide n) within
// 1e-6, its key totals the exact weights' column sums, region_weights a slice of the exact
// weights; the job in small steps gives the one-shot's floats; and the refusals.
#include "core/attention/overview.h"

#include "core/attention/attention.h"
#include "core/base/rng.h"
#include "support/matrix_compare.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

using attn::BlockPool;
using attn::Mat;

// The exact weights of q, k (v unused: one zero column).
Mat exact_weights(const Mat& q, const Mat& k, bool causal) {
  attn::AttentionOptions o;
  o.causal = causal;
  const attn::AttentionResult r = attn::attention(q, k, Mat::Zero(k.rows(), 1), o);
  REQUIRE(r.status.ok);
  return r.weights;
}

// The exact weights pooled over b x b blocks, in double: the mean over each block's actual
// cells (masked ones are zeros there), or their max.
Mat pool_exact(const Mat& w, int b, BlockPool pool) {
  const int rows = (static_cast<int>(w.rows()) + b - 1) / b, cols = (static_cast<int>(w.cols()) + b - 1) / b;
  Mat out(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int h = std::min(b, static_cast<int>(w.rows()) - r * b), wd = std::min(b, static_cast<int>(w.cols()) - c * b);
      const Mat cell = w.block(r * b, c * b, h, wd);
      out(r, c) = pool == BlockPool::Max ? cell.maxCoeff()
                                         : static_cast<float>(cell.cast<double>().sum() / (static_cast<double>(h) * wd));
    }
  return out;
}

Mat column_sums(const Mat& w) { return w.cast<double>().colwise().sum().cast<float>(); }

}  // namespace

TEST_CASE("overview: pooled blocks and key totals equal the exact weights' at n = 2048", "[overview]") {
  attn::Rng rng(43);
  const Mat q = rng.normal_matrix(2048, 64), k = rng.normal_matrix(2048, 64);
  for (const bool causal : {false, true}) {
    const Mat w = exact_weights(q, k, causal);
    for (const BlockPool pool : {BlockPool::Mean, BlockPool::Max}) {
      INFO("causal " << causal << ", pool " << (pool == BlockPool::Max ? "max" : "mean"));
      attn::OverviewOptions o;
      o.causal = causal;
      o.pool = pool;
      o.block = 48;  // 2048 = 42 * 48 + 32: the last row and column of blocks are partial
      const attn::OverviewResult r = attn::overview(q, k, o);
      REQUIRE(r.status.ok);
      REQUIRE(r.pooled.rows() == 43);
      REQUIRE(r.pooled.cols() == 43);
      const Mat want = pool_exact(w, 48, pool);
      const float pooled_diff = (r.pooled - want).cwiseAbs().maxCoeff();
      const float totals_diff = (Mat(r.key_totals) - column_sums(w)).cwiseAbs().maxCoeff();
      WARN("pooled max |difference| " << pooled_diff << ", key totals " << totals_diff);
      REQUIRE_MATRIX_NEAR(r.pooled, want, 1e-6f);
      REQUIRE_MATRIX_NEAR(Mat(r.key_totals), column_sums(w), 1e-6f);
      // Each query's weights sum to 1: the totals sum to n_q.
      REQUIRE(Mat(r.key_totals).cast<double>().sum() == Approx(2048.0).epsilon(1e-6));
    }
  }
}

TEST_CASE("overview: region_weights is the exact weights' slice", "[overview]") {
  attn::Rng rng(7);
  const Mat q = rng.normal_matrix(2048, 64), k = rng.normal_matrix(2048, 64);
  for (const bool causal : {false, true}) {
    attn::OverviewOptions o;
    o.causal = causal;
    o.block = 64;
    const attn::OverviewResult r = attn::overview(q, k, o);
    REQUIRE(r.status.ok);
    const Mat w = exact_weights(q, k, causal);
    Mat region;
    // Across the diagonal: causal rows see part of the region's keys.
    REQUIRE(attn::region_weights(q, k, r.stats, 700, 1724, 1000, 2024, region).ok);
    REQUIRE_MATRIX_NEAR(region, Mat(w.block(700, 1000, 1024, 1024)), 1e-6f);
    REQUIRE(attn::region_weights(q, k, r.stats, 0, 1, 0, 5, region).ok);
    REQUIRE_MATRIX_NEAR(region, Mat(w.block(0, 0, 1, 5)), 1e-6f);
  }
}

TEST_CASE("overview: cross-attention, scale and the job in small steps", "[overview]") {
  attn::Rng rng(11);
  const Mat q = rng.normal_matrix(300, 24), k = rng.normal_matrix(700, 24);
  attn::OverviewOptions o;
  o.causal = true;  // rows past 700 keys would see them all; here rows 0..299 see j <= i
  o.block = 7;
  o.pool = BlockPool::Max;
  o.scale = 0.3f;
  const attn::OverviewResult once = attn::overview(q, k, o);
  REQUIRE(once.status.ok);
  attn::AttentionOptions ao;
  ao.causal = true;
  ao.scale = 0.3f;
  const Mat w = attn::attention(q, k, Mat::Zero(700, 1), ao).weights;
  REQUIRE_MATRIX_NEAR(once.pooled, pool_exact(w, 7, BlockPool::Max), 1e-6f);
  REQUIRE(once.stats.scale == 0.3f);

  attn::OverviewJob job;
  REQUIRE(job.begin(q, k, o).ok);
  REQUIRE(!job.result().status.ok);  // not finished yet
  double last = 0.0;
  while (job.active()) {
    REQUIRE(job.step(5).ok);
    REQUIRE(job.progress() >= last);
    last = job.progress();
  }
  REQUIRE(job.done());
  REQUIRE(job.rows_done() == 300);
  REQUIRE(last == 1.0);
  REQUIRE(job.result().pooled == once.pooled);
  REQUIRE(job.result().key_totals == once.key_totals);
  REQUIRE(job.result().stats.row_max == once.stats.row_max);
  REQUIRE(job.result().stats.row_lse == once.stats.row_lse);
  // The job keeps q and k for regions.
  Mat region;
  REQUIRE(attn::region_weights(job.q(), job.k(), job.result().stats, 10, 20, 0, 700, region).ok);
  REQUIRE_MATRIX_NEAR(region, Mat(w.block(10, 0, 10, 700)), 1e-6f);
  REQUIRE(!job.step(1).ok);  // finished
}

TEST_CASE("overview: refusals name the problem and change nothing", "[overview]") {
  const Mat q = Mat::Ones(8, 4), k = Mat::Ones(8, 4);
  attn::OverviewOptions o;
  auto refused = [&](const Mat& qq, const Mat& kk, const attn::OverviewOptions& oo) {
    const attn::OverviewResult r = attn::overview(qq, kk, oo);
    REQUIRE(!r.status.ok);
    REQUIRE(r.pooled.size() == 0);
    return r.status.message;
  };
  REQUIRE(refused(Mat(0, 4), k, o) == "the overview needs at least one query and one key, and d_k >= 1");
  REQUIRE(refused(q, Mat::Ones(8, 3), o) == "k has d_k = 3 columns, q has 4: they must match");
  REQUIRE(refused(Mat::Ones(32769, 1), Mat::Ones(8, 1), o) == "32769 queries x 8 keys: the overview takes at most 32768 per side");
  REQUIRE(refused(Mat::Ones(1, 1025), Mat::Ones(1, 1025), o) == "d_k = 1025: the overview takes at most 1024");
  attn::OverviewOptions bad = o;
  bad.block = 0;
  REQUIRE(refused(q, k, bad) == "the block size must be a whole number >= 1, got 0");
  bad.block = 1;
  REQUIRE(refused(Mat::Ones(4096, 1), Mat::Ones(4096, 1), bad) ==
          "blocks of 1 make a 4096 x 4096 overview, more than 4194304 cells: choose a larger block");
  bad = o;
  bad.scale = std::numeric_limits<float>::infinity();
  REQUIRE(refused(q, k, bad) == "scale must be a finite number");
  Mat nan = q;
  nan(3, 2) = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(refused(nan, k, o) == "q contains NaN or Inf");
  REQUIRE(refused(q, nan, o) == "k contains NaN or Inf");

  attn::OverviewJob job;
  REQUIRE(job.step(1).message == "no overview is in progress");
  REQUIRE(!job.begin(nan, k, o).ok);
  REQUIRE(!job.active());

  const attn::OverviewResult r = attn::overview(q, k, o);
  Mat region = Mat::Constant(1, 1, 5.0f);
  REQUIRE(attn::region_weights(q, k, r.stats, 0, 9, 0, 8, region).message ==
          "the region's query rows [0, 9) must lie within 0 to 8 and not be empty");
  REQUIRE(attn::region_weights(q, k, r.stats, 0, 8, 4, 4, region).message ==
          "the region's keys [4, 4) must lie within 0 to 8 and not be empty");
  REQUIRE(attn::region_weights(Mat::Ones(9, 4), k, r.stats, 0, 8, 0, 8, region).message ==
          "the row statistics are for 8 queries, q has 9");
  const Mat big = Mat::Ones(2048, 2);
  attn::OverviewOptions big_o;
  big_o.block = 64;
  const attn::OverviewResult rb = attn::overview(big, big, big_o);
  REQUIRE(attn::region_weights(big, big, rb.stats, 0, 1025, 0, 10, region).message ==
          "the region is 1025 x 10: at most 1024 per side");
  REQUIRE(region(0, 0) == 5.0f);
  // Equal scores: every weight of a row is 1 / n_k.
  REQUIRE(attn::region_weights(big, big, rb.stats, 0, 2, 0, 3, region).ok);
  REQUIRE(region(1, 2) == Approx(1.0 / 2048).epsilon(1e-6));
}
