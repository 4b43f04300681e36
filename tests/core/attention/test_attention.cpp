#include "core/attention/attention.h"
#include "core/attention/reference.h"
#include "core/base/finite.h"
#include "core/base/rng.h"
#include "support/matrix_compare.h"

#include <cmath>
#include <limits>

using attn::Mat;
using attn::test::mat;

TEST_CASE("worked example from the tutorial, section 5.3", "[attention]") {
  const attn::WorkedExample ex = attn::worked_example();
  const attn::AttentionResult r = attn::attention(ex.q, ex.k, ex.v);
  REQUIRE(r.status.ok);
  REQUIRE_MATRIX_NEAR(r.raw_scores, mat(2, 2, {4, 5, 5, 4}), 1e-6f);
  REQUIRE(r.scale == Approx(1.0 / std::sqrt(2.0)).epsilon(1e-6));
  REQUIRE_MATRIX_NEAR(r.scores, mat(2, 2, {2.828f, 3.536f, 3.536f, 2.828f}), 1e-3f);
  REQUIRE_MATRIX_NEAR(r.weights, mat(2, 2, {0.330f, 0.670f, 0.670f, 0.330f}), 1e-3f);
  REQUIRE_MATRIX_NEAR(r.output, mat(2, 2, {0.99f, 2.01f, 2.01f, 0.99f}), 1e-2f);
  for (int i = 0; i < 2; ++i) REQUIRE(r.weights.row(i).sum() == Approx(1.0f).margin(1e-6));
  // Exact values: weights = 1 / (1 + e^{-1/sqrt 2}).
  const double w_hi = 1.0 / (1.0 + std::exp(-1.0 / std::sqrt(2.0)));
  REQUIRE(r.weights(0, 1) == Approx(w_hi).margin(1e-6));
  REQUIRE(r.output(0, 1) == Approx(3.0 * w_hi).margin(1e-5));
}

TEST_CASE("Eigen path agrees with the plain-loop reference", "[attention]") {
  attn::Rng rng(7);
  for (int trial = 0; trial < 4; ++trial) {
    const int n_q = 5 + 3 * trial, n_k = 7 + 2 * trial, d_k = 8 << trial, d_v = 3 + trial;
    const Mat q = rng.normal_matrix(n_q, d_k), k = rng.normal_matrix(n_k, d_k), v = rng.normal_matrix(n_k, d_v);
    attn::AttentionOptions options;
    options.causal = trial % 2 == 1;
    const attn::AttentionResult fast = attn::attention(q, k, v, options);
    const attn::AttentionResult ref = attn::reference::attention(q, k, v, options);
    REQUIRE(fast.status.ok);
    REQUIRE(ref.status.ok);
    REQUIRE_MATRIX_NEAR(fast.scores, ref.scores, 1e-5f);
    REQUIRE_MATRIX_NEAR(fast.weights, ref.weights, 1e-5f);
    REQUIRE_MATRIX_NEAR(fast.output, ref.output, 1e-5f);
  }
}

TEST_CASE("causal mask: upper triangle exactly zero, rows sum to one", "[attention][mask]") {
  attn::Rng rng(3);
  const Mat q = rng.normal_matrix(12, 16), k = rng.normal_matrix(12, 16), v = rng.normal_matrix(12, 4);
  attn::AttentionOptions options;
  options.causal = true;
  const attn::AttentionResult r = attn::attention(q, k, v, options);
  REQUIRE(r.status.ok);
  for (int i = 0; i < 12; ++i) {
    for (int j = i + 1; j < 12; ++j) {
      REQUIRE(r.weights(i, j) == 0.0f);
      REQUIRE(r.scores(i, j) == -std::numeric_limits<float>::infinity());
    }
    REQUIRE(r.weights.row(i).sum() == Approx(1.0f).margin(1e-6));
  }
  // The first query sees only itself.
  REQUIRE(r.weights(0, 0) == 1.0f);
}

TEST_CASE("fully masked row: zeros and a flag with -inf, uniform with a finite fill", "[attention][mask]") {
  const Mat q = mat(2, 2, {1, 0, 0, 1});
  const Mat k = mat(3, 2, {1, 0, 0, 1, 1, 1});
  const Mat v = mat(3, 1, {1, 2, 3});
  attn::AttentionOptions options;
  options.allowed = attn::BoolMat::Constant(2, 3, true);
  options.allowed.row(1).setConstant(false);
  const attn::AttentionResult r = attn::attention(q, k, v, options);
  REQUIRE(r.status.ok);
  REQUIRE(r.fully_masked_rows[0] == 0);
  REQUIRE(r.fully_masked_rows[1] == 1);
  REQUIRE(r.weights.row(1).isZero(0.0f));
  REQUIRE(r.output(1, 0) == 0.0f);
  REQUIRE(r.weights.allFinite());

  options.fill = attn::MaskFill::Finite;
  const attn::AttentionResult f = attn::attention(q, k, v, options);
  REQUIRE(f.fully_masked_rows[1] == 0);
  // Every score of row 1 is shifted by the same -1e9, which the softmax cancels (up to
  // float rounding of the shifted scores): the weights are (nearly) uniform.
  for (int j = 0; j < 3; ++j) REQUIRE(f.weights(1, j) == Approx(1.0 / 3.0).margin(1e-6));
}

TEST_CASE("bad inputs are refused with a message, never computed", "[attention]") {
  const Mat q = Mat::Ones(2, 3), k = Mat::Ones(4, 3), v = Mat::Ones(4, 2);
  REQUIRE(attn::attention(q, k, v).status.ok);
  const attn::AttentionResult wrong_k = attn::attention(q, Mat::Ones(4, 2), v);
  REQUIRE_FALSE(wrong_k.status.ok);
  REQUIRE(wrong_k.status.message.find("k (4, 2)") != std::string::npos);
  REQUIRE_FALSE(attn::attention(q, k, Mat::Ones(3, 2)).status.ok);
  Mat bad = q;
  bad(1, 1) = std::numeric_limits<float>::quiet_NaN();
  const attn::AttentionResult nan_q = attn::attention(bad, k, v);
  REQUIRE_FALSE(nan_q.status.ok);
  REQUIRE(nan_q.status.message == "q contains NaN or Inf");
  attn::AttentionOptions options;
  options.allowed = attn::BoolMat::Constant(3, 3, true);
  REQUIRE_FALSE(attn::attention(q, k, v, options).status.ok);
}

TEST_CASE("all_finite finds every NaN and infinity, wherever it is, and nothing else", "[attention]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(), inf, -inf};
  const float fine[] = {0.0f, -0.0f, std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                        std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::min(), 1.0f, -3.5f};
  Mat m(7, 13);  // 91 floats: whole vectors and a tail
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = fine[i % 8];
  REQUIRE(attn::all_finite(m));
  for (const float x : specials)
    for (const Eigen::Index at : {Eigen::Index{0}, Eigen::Index{5}, Eigen::Index{44}, m.size() - 1}) {
      Mat bad = m;
      bad.data()[at] = x;
      REQUIRE_FALSE(attn::all_finite(bad));
      REQUIRE(!bad.allFinite());  // the same answer as Eigen's
    }
  // A block with a row stride reads its own columns only.
  Mat wide = m;
  wide(3, 12) = inf;
  REQUIRE_FALSE(attn::all_finite(wide));
  REQUIRE(attn::all_finite(wide.leftCols(12)));
  REQUIRE_FALSE(attn::all_finite(wide.middleRows(2, 3).rightCols(4)));
  REQUIRE(attn::all_finite(Mat(0, 4)));
}

TEST_CASE("the project's generator is deterministic and standard normal", "[rng]") {
  attn::Rng a(123), b(123), c(124);
  const Mat ma = a.normal_matrix(4, 4), mb = b.normal_matrix(4, 4), mc = c.normal_matrix(4, 4);
  REQUIRE(ma == mb);
  REQUIRE(ma != mc);
  attn::Rng big(5);
  const int count = 200000;
  double sum = 0, sum_sq = 0;
  for (int i = 0; i < count; ++i) {
    const double x = big.normal();
    sum += x;
    sum_sq += x * x;
  }
  const double mean = sum / count, var = sum_sq / count - mean * mean;
  REQUIRE(std::fabs(mean) < 0.01);
  REQUIRE(var == Approx(1.0).margin(0.015));
  attn::Rng u(9);
  for (int i = 0; i < 1000; ++i) {
    const float x = u.uniform();
    REQUIRE(x >= 0.0f);
    REQUIRE(x < 1.0f);
  }
}
