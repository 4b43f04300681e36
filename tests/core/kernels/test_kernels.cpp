// The SIMD kernels (core/kernels/dispatch.h) against the plain-loop oracle, for every
// instruction set this build and this CPU can run (baseline always; AVX2 and AVX-512
// where present), on shapes that are not multiples of the register tile.
#include "core/attention/attention.h"
#include "core/kernels/dispatch.h"
#include "core/attention/masks.h"
#include "core/attention/pipeline.h"
#include "core/attention/reference.h"
#include "core/base/rng.h"
#include "core/attention/softmax.h"
#include "core/attention/streaming.h"
#include "support/matrix_compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

using attn::Mat;
namespace kernels = attn::kernels;

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// C = alpha A op(B) (+ C0) in double, the oracle of gemm.
Mat gemm_oracle(const Mat& a, const Mat& b, bool b_transposed, float alpha, const Mat* c0) {
  const int m = static_cast<int>(a.rows()), k = static_cast<int>(a.cols());
  const int n = static_cast<int>(b_transposed ? b.rows() : b.cols());
  Mat c(m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int p = 0; p < k; ++p) sum += static_cast<double>(a(i, p)) * (b_transposed ? b(j, p) : b(p, j));
      c(i, j) = static_cast<float>(alpha * sum + (c0 ? (*c0)(i, j) : 0.0));
    }
  return c;
}

// C = alpha A op(B) (+ C) on whole row-major matrices, as GemmArgs.
kernels::GemmArgs gemm_args(const Mat& a, const Mat& b, bool b_transposed, Mat& c, float alpha, bool accumulate) {
  kernels::GemmArgs g;
  g.m = static_cast<int>(a.rows());
  g.n = static_cast<int>(c.cols());
  g.k = static_cast<int>(a.cols());
  g.a = a.data();
  g.lda = g.k;
  g.b = b.data();
  g.ldb = static_cast<int>(b.cols());
  g.b_transposed = b_transposed;
  g.c = c.data();
  g.ldc = g.n;
  g.alpha = alpha;
  g.accumulate = accumulate;
  return g;
}

std::string isa_label(const kernels::KernelTable& t) { return std::string("kernels: ") + t.name; }

}  // namespace

TEST_CASE("kernels: the baseline set is always there and the active one is available", "[kernels]") {
  const std::vector<kernels::Isa> isas = kernels::available_isas();
  REQUIRE_FALSE(isas.empty());
  REQUIRE(isas.front() == kernels::Isa::Baseline);
  REQUIRE(kernels::kernel_table(kernels::Isa::Baseline) != nullptr);
  bool active_listed = false;
  for (kernels::Isa isa : isas) active_listed |= kernels::kernel_table(isa) == &kernels::active_kernels();
  REQUIRE(active_listed);
  kernels::Isa parsed;
  REQUIRE(kernels::parse_isa("avx2", parsed));
  REQUIRE(parsed == kernels::Isa::Avx2);
  REQUIRE_FALSE(kernels::parse_isa("avx1024", parsed));
#if defined(__wasm__)
  // The relaxed-SIMD test binary (cmake/targets/site.cmake) expects its own kernels' name.
#ifndef ATTNLAB_EXPECTED_WASM_KERNELS
#define ATTNLAB_EXPECTED_WASM_KERNELS "simd128"
#endif
  REQUIRE(std::string(kernels::active_kernels().name) == ATTNLAB_EXPECTED_WASM_KERNELS);
#endif
}

TEST_CASE("kernels: gemm equals the double-precision oracle, every shape and layout", "[kernels]") {
  attn::Rng rng(71);
  for (kernels::Isa isa : kernels::available_isas()) {
    const kernels::KernelTable& t = *kernels::kernel_table(isa);
    INFO(isa_label(t));
    for (const auto& [m, n, k] : std::vector<std::tuple<int, int, int>>{
             {1, 1, 1}, {3, 5, 7}, {17, 33, 9}, {64, 64, 64}, {37, 530, 300}, {130, 70, 513}}) {
      for (bool transposed : {false, true}) {
        const Mat a = rng.normal_matrix(m, k);
        const Mat b = transposed ? rng.normal_matrix(n, k) : rng.normal_matrix(k, n);
        const Mat c0 = rng.normal_matrix(m, n);
        for (bool accumulate : {false, true}) {
          Mat c = c0;
          t.gemm(gemm_args(a, b, transposed, c, 0.75f, accumulate));
          INFO("m " << m << " n " << n << " k " << k << " transposed " << transposed << " accumulate " << accumulate);
          REQUIRE_MATRIX_NEAR(c, gemm_oracle(a, b, transposed, 0.75f, accumulate ? &c0 : nullptr), 2e-4f * std::sqrt(static_cast<float>(k)));
        }
      }
    }
  }
}

TEST_CASE("kernels: gemm on B packed once gives the same floats as packing it per call", "[kernels]") {
  attn::Rng rng(29);
  // Past one depth block (k > 256), past one column block (n > 512), partial panels. Each
  // instruction set gets the same inputs, and the double-precision oracle is computed once
  // for all of them (it was most of this test's time under the sanitizers).
  for (const auto& [m, n, k] : std::vector<std::tuple<int, int, int>>{
           {1, 1, 1}, {7, 13, 5}, {37, 530, 300}, {130, 768, 256}, {6, 1100, 513}}) {
    for (bool transposed : {false, true}) {
      const Mat a = rng.normal_matrix(m, k);
      const Mat b = transposed ? rng.normal_matrix(n, k) : rng.normal_matrix(k, n);
      const Mat c0 = rng.normal_matrix(m, n);
      const Mat oracle[2] = {gemm_oracle(a, b, transposed, 0.5f, nullptr), gemm_oracle(a, b, transposed, 0.5f, &c0)};
      for (kernels::Isa isa : kernels::available_isas()) {
        const kernels::KernelTable& t = *kernels::kernel_table(isa);
        INFO(isa_label(t));
        Mat per_call = c0, once = c0;
        kernels::GemmArgs g = gemm_args(a, b, transposed, per_call, 0.5f, false);
        std::vector<float> packed(static_cast<std::size_t>(t.packed_b_floats(k, n)), -1.0f);
        REQUIRE(packed.size() >= static_cast<std::size_t>(k) * n);
        t.pack_b(g, packed.data());
        for (bool accumulate : {false, true}) {
          INFO("m " << m << " n " << n << " k " << k << " transposed " << transposed << " accumulate " << accumulate);
          per_call = c0;
          once = c0;
          g.accumulate = accumulate;
          g.b_packed = nullptr;
          g.c = per_call.data();
          t.gemm(g);
          g.b_packed = packed.data();
          g.b = nullptr;  // not read
          g.c = once.data();
          t.gemm(g);
          g.b = b.data();
          REQUIRE((once.array() == per_call.array()).all());
          REQUIRE_MATRIX_NEAR(once, oracle[accumulate ? 1 : 0], 2e-4f * std::sqrt(static_cast<float>(k)));
        }
      }
    }
  }
}

TEST_CASE("kernels: gemm reads and writes strided blocks in place", "[kernels]") {
  attn::Rng rng(5);
  const Mat big_a = rng.normal_matrix(20, 40), big_b = rng.normal_matrix(30, 50);
  for (kernels::Isa isa : kernels::available_isas()) {
    const kernels::KernelTable& t = *kernels::kernel_table(isa);
    INFO(isa_label(t));
    Mat big_c = Mat::Constant(25, 60, 7.0f);
    kernels::GemmArgs g;
    g.m = 13;
    g.n = 21;
    g.k = 11;
    g.a = big_a.data() + 2 * 40 + 3;  // a = big_a[2:15, 3:14]
    g.lda = 40;
    g.b = big_b.data() + 4 * 50 + 5;  // b = big_b[4:15, 5:26]
    g.ldb = 50;
    g.c = big_c.data() + 1 * 60 + 6;  // c = big_c[1:14, 6:27]
    g.ldc = 60;
    t.gemm(g);
    const Mat want = gemm_oracle(big_a.block(2, 3, 13, 11), big_b.block(4, 5, 11, 21), false, 1.0f, nullptr);
    REQUIRE_MATRIX_NEAR(Mat(big_c.block(1, 6, 13, 21)), want, 1e-4f);
    // Nothing outside the block was touched.
    Mat outside = big_c;
    outside.block(1, 6, 13, 21).setConstant(7.0f);
    REQUIRE((outside.array() == 7.0f).all());
  }
}

// The kernels form x log2 e in float, whose rounding (|x| 2^-24 in the exponent) adds a
// relative error growing with |x|: 2e-7 + 8e-8 |x| bounds it. In a softmax x = s - max, and
// the weights where |x| is large are tiny, so the absolute error stays below 3e-7.
TEST_CASE("kernels: vectorised exp is within 2e-7 + 8e-8 |x| relative of std::exp; -inf gives exactly 0", "[kernels]") {
  std::vector<float> x;
  for (int i = 0; i <= 20000; ++i) x.push_back(-87.0f * static_cast<float>(i) / 20000.0f);
  for (float v : {0.0f, -0.5f, -1e-8f, -0.34657359f, -1.0f, -10.0f, -80.0f, -87.3f}) x.push_back(v);
  x.push_back(kNegInf);
  x.push_back(-1e30f);
  x.push_back(-200.0f);
  for (kernels::Isa isa : kernels::available_isas()) {
    const kernels::KernelTable& t = *kernels::kernel_table(isa);
    INFO(isa_label(t));
    std::vector<float> y(x.size());
    t.exp(x.data(), y.data(), static_cast<int>(x.size()));
    double worst = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = std::exp(static_cast<double>(x[i]));
      if (x[i] < -87.33f) {
        REQUIRE(y[i] == 0.0f);  // below float's normal range, and -inf: exactly zero
        continue;
      }
      const double relative = std::fabs(y[i] - want) / want;
      INFO("x " << x[i] << " exp " << want << " kernel " << y[i]);
      REQUIRE(relative <= 2e-7 + 8e-8 * std::fabs(x[i]));
      if (x[i] >= -1.0f) worst = std::max(worst, relative);
    }
    INFO("worst relative error on [-1, 0] " << worst);
    REQUIRE(worst < 2e-7);
    REQUIRE(worst > 0.0);  // a polynomial, not a call to std::exp
  }
}

TEST_CASE("kernels: vectorised tanh is within 3e-7 relative of tanh in double, odd, and keeps the sign of zero", "[kernels]") {
  std::vector<float> x;
  for (int i = -24000; i <= 24000; ++i) x.push_back(static_cast<float>(i) * 5e-4f);  // [-12, 12]
  for (float t = 1e-30f; t < 1.0f; t *= 1.7f) x.push_back(t);                         // tiny to 1
  for (float t : {8.99f, 9.0f, 9.01f, 20.0f, 1e30f}) x.push_back(t);                  // the cap and past it
  const size_t positive = x.size();
  for (size_t i = 0; i < positive; ++i) x.push_back(-x[i]);
  for (kernels::Isa isa : kernels::available_isas()) {
    const kernels::KernelTable& t = *kernels::kernel_table(isa);
    INFO(isa_label(t));
    std::vector<float> y(x.size());
    t.tanh(x.data(), y.data(), static_cast<int>(x.size()));
    double worst = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double want = std::tanh(static_cast<double>(x[i]));
      INFO("x " << x[i] << " tanh " << want << " kernel " << y[i]);
      if (want == 0.0) {
        REQUIRE(y[i] == 0.0f);
        REQUIRE(std::signbit(y[i]) == std::signbit(x[i]));
        continue;
      }
      const double relative = std::fabs(y[i] - want) / std::fabs(want);
      REQUIRE(relative <= 3e-7);
      worst = std::max(worst, relative);
    }
    for (size_t i = 0; i < positive; ++i) REQUIRE(y[positive + i] == -y[i]);
    INFO("worst relative error " << worst);
    REQUIRE(worst > 0.0);  // a polynomial, not a call to std::tanh
  }
}

// scores(i, j) = sum_a v[a] tanh(qp(i, a) + kp(j, a)) in double, the oracle of additive_scores.
Mat additive_oracle(const Mat& qp, const Mat& kp, const std::vector<float>& v) {
  Mat s(qp.rows(), kp.rows());
  for (int i = 0; i < qp.rows(); ++i)
    for (int j = 0; j < kp.rows(); ++j) {
      double sum = 0.0;
      for (int a = 0; a < qp.cols(); ++a) sum += v[a] * std::tanh(static_cast<double>(qp(i, a)) + kp(j, a));
      s(i, j) = static_cast<float>(sum);
    }
  return s;
}

TEST_CASE("kernels: additive scores equal v . tanh(qp + kp) in double, factored and pair by pair, strided", "[kernels]") {
  attn::Rng rng(31);
  // (n_q, n_k, d_a, scale of the entries): 22 and beyond leaves the factored form for tanhv.
  for (const auto& [n_q, n_k, d_a, spread] : std::vector<std::tuple<int, int, int, float>>{
           {1, 1, 1, 1.0f}, {7, 37, 13, 1.0f}, {20, 64, 16, 2.0f}, {3, 130, 5, 0.05f}, {9, 45, 11, 30.0f}}) {
    const Mat qp = rng.normal_matrix(n_q, d_a, spread), kp = rng.normal_matrix(n_k, d_a, spread);
    const Mat vm = rng.normal_matrix(1, d_a);
    const std::vector<float> v(vm.data(), vm.data() + d_a);
    const Mat want = additive_oracle(qp, kp, v);
    double v_sum = 0.0;
    for (float x : v) v_sum += std::fabs(x);
    // Each term within about 2e-7 of its tanh (relative near +-1, absolute near 0), and the
    // float sum rounds once per term: the bound is a term's error plus d_a roundings, times
    // sum |v|.
    const double bound = (2.5e-7 + 6e-8 * d_a) * v_sum;
    // The inputs sit in wider arrays, and the scores' rows have two floats of padding that
    // must stay as they were.
    Mat qw = Mat::Constant(n_q, d_a + 3, 7.0f), kw = Mat::Constant(n_k, d_a + 1, -7.0f);
    qw.leftCols(d_a) = qp;
    kw.leftCols(d_a) = kp;
    for (kernels::Isa isa : kernels::available_isas()) {
      const kernels::KernelTable& t = *kernels::kernel_table(isa);
      INFO(isa_label(t) << " n_q " << n_q << " n_k " << n_k << " d_a " << d_a << " spread " << spread);
      Mat out = Mat::Constant(n_q, n_k + 2, 5.0f);
      kernels::AdditiveArgs a;
      a.n_q = n_q;
      a.n_k = n_k;
      a.d_a = d_a;
      a.qp = qw.data();
      a.ldqp = d_a + 3;
      a.kp = kw.data();
      a.ldkp = d_a + 1;
      a.v = v.data();
      a.scores = out.data();
      a.ld_scores = n_k + 2;
      t.additive_scores(a);
      double worst = 0.0;
      for (int i = 0; i < n_q; ++i) {
        for (int j = 0; j < n_k; ++j) worst = std::max(worst, std::fabs(static_cast<double>(out(i, j)) - want(i, j)));
        REQUIRE(out(i, n_k) == 5.0f);
        REQUIRE(out(i, n_k + 1) == 5.0f);
      }
      INFO("worst " << worst << " bound " << bound);
      REQUIRE(worst <= bound);
    }
  }
}

TEST_CASE("kernels: weight_stats gives each row's entropy, largest weight and distance, as the double loops do",
          "[kernels][softmax]") {
  // Rows of softmax weights of several widths (tails of every length), sharp and flat, a
  // one-hot row, a row of zeros (a fully masked query), and weights under FLT_MIN.
  attn::Rng rng(41);
  for (int cols : {1, 3, 4, 17, 64, 65, 1000, 1029}) {
    const int rows = 7;
    Mat w(rows, cols);
    for (int i = 0; i < rows; ++i) {
      const attn::RowVec s = rng.normal_matrix(1, cols, i == 2 ? 12.0f : 1.0f);
      attn::softmax_row(s.data(), w.row(i).data(), cols);
    }
    w.row(3).setZero();
    w.row(4).setZero();
    w(4, cols / 2) = 1.0f;
    if (cols > 3) w(5, 1) = 1e-40f;  // subnormal: counted 0 by the kernel, about 9e-38 by the loop
    const int row0 = cols / 3;  // the rows are queries row0 .. row0 + 6
    for (kernels::Isa isa : kernels::available_isas()) {
      const kernels::KernelTable& t = *kernels::kernel_table(isa);
      INFO(isa_label(t) << " cols " << cols);
      std::vector<float> h(rows), mx(rows), d(rows);
      t.weight_stats(w.data(), cols, rows, cols, row0, h.data(), mx.data(), d.data());
      for (int i = 0; i < rows; ++i) {
        INFO("row " << i);
        double want_d = 0.0;
        for (int j = 0; j < cols; ++j) want_d += static_cast<double>(w(i, j)) * std::abs(row0 + i - j);
        const double want_h = attn::entropy(w.row(i));
        REQUIRE(std::fabs(h[i] - want_h) <= 2e-6 * std::max(1.0, want_h));
        REQUIRE(mx[i] == w.row(i).maxCoeff());
        REQUIRE(std::fabs(d[i] - want_d) <= 2e-6 * std::max(1.0, want_d));
      }
      REQUIRE(h[3] == 0.0f);  // no weight: no entropy, no distance
      REQUIRE(d[3] == 0.0f);
      REQUIRE(h[4] == 0.0f);  // one-hot: ln 1 = 0 exactly
      REQUIRE(d[4] == static_cast<float>(std::abs(row0 + 4 - cols / 2)));
      if (cols >= 64) REQUIRE(h[2] < h[0]);  // sharper scores, lower entropy
    }
  }
  // Uniform over n keys: ln n.
  for (int n : {5, 512}) {
    Mat u = Mat::Constant(1, n, 1.0f / static_cast<float>(n));
    const attn::WeightRowStats s = attn::weight_row_stats(u);
    REQUIRE(s.entropy[0] == Approx(std::log(static_cast<double>(n))).epsilon(2e-6));
    REQUIRE(s.max_weight[0] == 1.0f / static_cast<float>(n));
  }
}

namespace {

// Arguments of scaled_softmax_rows over whole matrices (rows of `raw`, leading dimension its
// width), with the row statistics into h, mx and d.
kernels::SoftmaxArgs softmax_args(const Mat& raw, Mat& masked, Mat& w, std::uint8_t* status, std::vector<float>& h,
                                  std::vector<float>& mx, std::vector<float>& d) {
  kernels::SoftmaxArgs a;
  a.rows = static_cast<int>(raw.rows());
  a.cols = static_cast<int>(raw.cols());
  a.raw = raw.data();
  a.ld_raw = a.cols;
  a.masked = masked.data();
  a.ld_masked = a.cols;
  a.weights = w.data();
  a.ld_weights = a.cols;
  a.status = status;
  a.entropy = h.data();
  a.max_weight = mx.data();
  a.distance = d.data();
  return a;
}

}  // namespace

TEST_CASE("kernels: scaled_softmax_rows scales, masks and normalises as the separate steps do, with the row statistics",
          "[kernels][softmax]") {
  // Widths with tails of every length; with and without a mask and kept scaled scores.
  // The scaled and masked scores and the weights must be the very floats of the steps done
  // one by one (raw * scale, + mask, softmax_rows); the statistics, which come from the
  // exponent pass instead of a log per weight, must agree with weight_stats on the weights.
  attn::Rng rng(57);
  const float scale = 0.37f;
  for (int cols : {1, 3, 4, 17, 64, 65, 1000, 1029}) {
    const int rows = 8, row0 = cols / 4;
    Mat raw = rng.normal_matrix(rows, cols, 6.0f);
    raw(2, 0) = 300.0f;  // a dominant key: a one-hot row
    Mat mask = Mat::Zero(rows, cols);
    for (int j = 1; j < cols; j += 3) mask(1, j) = kNegInf;  // masked keys
    mask.row(3).setConstant(kNegInf);                         // a fully masked query
    for (int j = 0; j < cols; ++j) mask(4, j) = -0.25f * static_cast<float>(j % 5);  // a float mask
    if (cols > 2) mask(5, 2) = -1e9f;                         // a finite fill
    for (kernels::Isa isa : kernels::available_isas()) {
      const kernels::KernelTable& t = *kernels::kernel_table(isa);
      for (const bool with_mask : {false, true})
        for (const bool keep : {false, true}) {
          INFO(isa_label(t) << " cols " << cols << " mask " << with_mask << " keep " << keep);
          Mat scaled = Mat::Constant(rows, cols, 42.0f), masked(rows, cols), w(rows, cols);
          std::vector<float> h(rows, -1.0f), mx(rows, -1.0f), d(rows, -1.0f);
          std::vector<std::uint8_t> status(rows, 99);
          kernels::SoftmaxArgs a = softmax_args(raw, masked, w, status.data(), h, mx, d);
          a.scale = scale;
          if (with_mask) a.mask = mask.data(), a.ld_mask = cols;
          if (keep) a.scaled = scaled.data(), a.ld_scaled = cols;
          a.row0 = row0;
          t.scaled_softmax_rows(a);
          Mat want_masked(rows, cols), want_w(rows, cols);
          for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j) {
              const float x = raw(i, j) * scale;
              if (keep) REQUIRE(scaled(i, j) == x);
              want_masked(i, j) = with_mask ? x + mask(i, j) : x;
            }
          if (!keep) REQUIRE((scaled.array() == 42.0f).all());
          REQUIRE((masked.array() == want_masked.array()).all());
          std::vector<std::uint8_t> want_status(rows);
          t.softmax_rows(want_masked.data(), cols, want_w.data(), cols, rows, cols, want_status.data());
          REQUIRE(status == want_status);
          REQUIRE((w.array() == want_w.array()).all());
          std::vector<float> wh(rows), wmx(rows), wd(rows);
          t.weight_stats(w.data(), cols, rows, cols, row0, wh.data(), wmx.data(), wd.data());
          for (int i = 0; i < rows; ++i) {
            INFO("row " << i);
            REQUIRE(std::fabs(h[i] - wh[i]) <= 4e-6 * std::max(1.0f, wh[i]));
            REQUIRE(mx[i] == wmx[i]);
            REQUIRE(std::fabs(d[i] - wd[i]) <= 2e-6 * std::max(1.0f, wd[i]));
          }
          if (with_mask) {
            REQUIRE(status[3] == kernels::kRowFullyMasked);
            REQUIRE((w.row(3).array() == 0.0f).all());
            REQUIRE((h[3] == 0.0f && mx[3] == 0.0f && d[3] == 0.0f));
          }
          if (cols >= 64) REQUIRE(h[2] < 1e-6f);  // one key holds all the weight
        }
    }
  }
  // A uniform row: ln n and 1 / n; rows with +inf or NaN are handed back, their masked
  // scores written and their statistics untouched; without statistics none are written.
  for (kernels::Isa isa : kernels::available_isas()) {
    const kernels::KernelTable& t = *kernels::kernel_table(isa);
    INFO(isa_label(t));
    const int cols = 512;
    Mat raw = Mat::Constant(3, cols, 2.0f);
    raw(1, 7) = std::numeric_limits<float>::infinity();
    raw(2, 9) = std::numeric_limits<float>::quiet_NaN();
    Mat masked(3, cols), w(3, cols);
    std::vector<float> h(3, -1.0f), mx(3, -1.0f), d(3, -1.0f);
    std::uint8_t status[3];
    kernels::SoftmaxArgs a = softmax_args(raw, masked, w, status, h, mx, d);
    t.scaled_softmax_rows(a);
    REQUIRE(status[0] == kernels::kRowOk);
    REQUIRE(h[0] == Approx(std::log(static_cast<double>(cols))).epsilon(2e-6));
    REQUIRE(mx[0] == 1.0f / static_cast<float>(cols));
    REQUIRE(d[0] == Approx(cols * (cols - 1) / 2.0 / cols).epsilon(2e-6));  // mean of 0 .. n - 1
    REQUIRE(status[1] == kernels::kRowNeedsScalar);
    REQUIRE(status[2] == kernels::kRowNeedsScalar);
    REQUIRE(masked(1, 7) == std::numeric_limits<float>::infinity());
    REQUIRE(std::isnan(masked(2, 9)));
    REQUIRE((h[1] == -1.0f && h[2] == -1.0f));
    a.entropy = a.max_weight = a.distance = nullptr;
    h.assign(3, -1.0f);
    t.scaled_softmax_rows(a);
    REQUIRE(status[0] == kernels::kRowOk);
    REQUIRE(h[0] == -1.0f);
  }
}

TEST_CASE("kernels: softmax_rows equals softmax_row; masked keys exactly 0; rows it cannot do are handed back",
          "[kernels][softmax]") {
  attn::Rng rng(9);
  const int rows = 9, cols = 37;
  Mat s = rng.normal_matrix(rows, cols, 4.0f);
  for (int j = 0; j < cols; j += 3) s(1, j) = kNegInf;  // some masked keys
  s.row(2).setConstant(kNegInf);                         // fully masked
  s(3, 5) = std::numeric_limits<float>::infinity();      // +inf: scalar semantics
  s(4, 7) = std::numeric_limits<float>::quiet_NaN();     // NaN: scalar semantics
  s.row(5).setConstant(1e30f);                           // huge but finite: uniform
  s(6, 0) = 80.0f;                                       // one dominant key
  for (kernels::Isa isa : kernels::available_isas()) {
    const kernels::KernelTable& t = *kernels::kernel_table(isa);
    INFO(isa_label(t));
    Mat w = Mat::Constant(rows, cols, 42.0f);
    std::vector<std::uint8_t> status(rows, 99);
    t.softmax_rows(s.data(), cols, w.data(), cols, rows, cols, status.data());
    REQUIRE(status[2] == kernels::kRowFullyMasked);
    REQUIRE((w.row(2).array() == 0.0f).all());
    REQUIRE(status[3] == kernels::kRowNeedsScalar);
    REQUIRE(status[4] == kernels::kRowNeedsScalar);
    for (int r : {0, 1, 5, 6, 7, 8}) {
      REQUIRE(status[r] == kernels::kRowOk);
      Mat want(1, cols);
      attn::softmax_row(s.row(r).data(), want.data(), cols);
      REQUIRE_MATRIX_NEAR(Mat(w.row(r)), want, 3e-7f);
      REQUIRE(std::fabs(w.row(r).sum() - 1.0f) < 1e-6f);
    }
    for (int j = 0; j < cols; j += 3) REQUIRE(w(1, j) == 0.0f);
  }
}

TEST_CASE("softmax_rows keeps its semantics on the kernel path: flags, zeros, NaN and overflow", "[kernels][softmax]") {
  Mat s(4, 5);
  s << 1, 2, 3, 4, 5,                                              //
      kNegInf, kNegInf, kNegInf, kNegInf, kNegInf,                  //
      1, std::numeric_limits<float>::infinity(), 0, 0, 0,           //
      0, std::numeric_limits<float>::quiet_NaN(), 1, kNegInf, 2;    //
  Mat kernel_w(4, 5), scalar_w(4, 5);
  std::vector<std::uint8_t> masked;
  const attn::SoftmaxFlags f = attn::softmax_rows(s, kernel_w, attn::SoftmaxForm::Stable, attn::Precision::Float32, &masked);
  attn::SoftmaxFlags want;
  for (int r = 0; r < 4; ++r) {
    const attn::SoftmaxFlags fr = attn::softmax_row(s.row(r).data(), scalar_w.row(r).data(), 5);
    want.overflow |= fr.overflow;
    want.nan |= fr.nan;
    want.fully_masked |= fr.fully_masked;
  }
  REQUIRE(f.overflow == want.overflow);
  REQUIRE(f.nan == want.nan);
  REQUIRE(f.fully_masked);
  REQUIRE(masked == std::vector<std::uint8_t>{0, 1, 0, 0});
  REQUIRE((kernel_w.row(1).array() == 0.0f).all());
  // Rows 2 and 3 went to the scalar path: bit for bit what softmax_row gives.
  for (int r : {2, 3})
    for (int j = 0; j < 5; ++j) {
      const float a = kernel_w(r, j), b = scalar_w(r, j);
      REQUIRE(((std::isnan(a) && std::isnan(b)) || a == b));
    }
  REQUIRE_MATRIX_NEAR(Mat(kernel_w.row(0)), Mat(scalar_w.row(0)), 3e-7f);
}

TEST_CASE("kernels: streaming attention equals the reference oracle for every shape, mask and set", "[kernels][streaming]") {
  attn::Rng rng(404);
  struct Case {
    int n_q, n_k, d_k, d_v;
    bool causal;
    int window, query_block, key_tile;
  };
  const std::vector<Case> cases = {
      {1, 1, 1, 1, false, 0, 64, 256},    {7, 5, 3, 2, false, 0, 64, 256},   {64, 64, 64, 64, true, 0, 64, 256},
      {100, 300, 64, 64, false, 0, 64, 256}, {129, 129, 17, 33, true, 0, 16, 32}, {90, 200, 32, 5, false, 9, 8, 24},
      {200, 150, 64, 64, true, 20, 40, 64}, {33, 700, 8, 64, false, 0, 128, 96}};
  for (kernels::Isa isa : kernels::available_isas()) {
    const kernels::KernelTable& t = *kernels::kernel_table(isa);
    INFO(isa_label(t));
    for (const Case& c : cases) {
      INFO("n_q " << c.n_q << " n_k " << c.n_k << " d_k " << c.d_k << " d_v " << c.d_v << " causal " << c.causal
                  << " window " << c.window);
      const Mat q = rng.normal_matrix(c.n_q, c.d_k), k = rng.normal_matrix(c.n_k, c.d_k), v = rng.normal_matrix(c.n_k, c.d_v);
      attn::AttentionOptions ao;
      ao.causal = c.causal;
      if (c.window) {
        attn::MaskSpec spec;
        spec.window = c.window;
        ao.allowed = attn::build_mask(spec, c.n_q, c.n_k);
      }
      const attn::AttentionResult oracle = attn::reference::attention(q, k, v, ao);
      Mat out = Mat::Constant(c.n_q, c.d_v, 123.0f);
      kernels::AttentionArgs a;
      a.n_q = c.n_q;
      a.n_k = c.n_k;
      a.d_k = c.d_k;
      a.d_v = c.d_v;
      a.q = q.data();
      a.ldq = c.d_k;
      a.k = k.data();
      a.ldk = c.d_k;
      a.v = v.data();
      a.ldv = c.d_v;
      a.o = out.data();
      a.ldo = c.d_v;
      a.scale = attn::default_scale(c.d_k);
      a.causal = c.causal;
      a.window = c.window;
      a.query_block = c.query_block;
      a.key_tile = c.key_tile;
      t.attention(a);
      REQUIRE_MATRIX_NEAR(out, oracle.output, 2e-5f);
    }
  }
}

TEST_CASE("kernels: a query with no allowed key gets a zero row, never NaN", "[kernels][streaming]") {
  // A window of 1 over 12 queries and 3 keys: queries 4..11 see no key (l = 0).
  attn::Rng rng(3);
  const Mat q = rng.normal_matrix(12, 4), k = rng.normal_matrix(3, 4), v = rng.normal_matrix(3, 2);
  for (kernels::Isa isa : kernels::available_isas()) {
    const kernels::KernelTable& t = *kernels::kernel_table(isa);
    INFO(isa_label(t));
    Mat out = Mat::Constant(12, 2, 5.0f);
    kernels::AttentionArgs a;
    a.n_q = 12;
    a.n_k = 3;
    a.d_k = 4;
    a.d_v = 2;
    a.q = q.data();
    a.ldq = 4;
    a.k = k.data();
    a.ldk = 4;
    a.v = v.data();
    a.ldv = 2;
    a.o = out.data();
    a.ldo = 2;
    a.scale = 0.5f;
    a.window = 1;  // query i sees keys i-1..i+1: queries 4..11 see none of keys 0..2
    t.attention(a);
    REQUIRE(out.allFinite());
    for (int i = 4; i < 12; ++i) REQUIRE((out.row(i).array() == 0.0f).all());
    REQUIRE(out.row(0).cwiseAbs().sum() > 0.0f);
  }
}

TEST_CASE("pipeline on the kernels: every stage equals the reference oracle", "[kernels][pipeline]") {
  attn::Rng rng(12);
  for (const auto& [n_q, n_k, d] : std::vector<std::tuple<int, int, int>>{{5, 7, 3}, {64, 64, 64}, {70, 130, 24}}) {
    const Mat q = rng.normal_matrix(n_q, d), k = rng.normal_matrix(n_k, d), v = rng.normal_matrix(n_k, d + 3);
    for (bool causal : {false, true}) {
      attn::AttentionOptions o;
      o.causal = causal;
      const attn::AttentionResult fast = attn::attention(q, k, v, o), slow = attn::reference::attention(q, k, v, o);
      REQUIRE(fast.status.ok);
      REQUIRE_MATRIX_NEAR(fast.raw_scores, slow.raw_scores, 2e-5f);
      REQUIRE_MATRIX_NEAR(fast.scores, slow.scores, 2e-5f);
      REQUIRE_MATRIX_NEAR(fast.weights, slow.weights, 1e-6f);
      REQUIRE_MATRIX_NEAR(fast.output, slow.output, 2e-5f);
      if (causal)
        for (int i = 0; i < n_q; ++i)
          for (int j = i + 1; j < n_k; ++j) REQUIRE(fast.weights(i, j) == 0.0f);
    }
  }
}

TEST_CASE("streaming multi-head attention equals the pipeline's output", "[kernels][streaming]") {
  attn::Rng rng(8);
  for (const auto& [n, d_model, heads, causal] :
       std::vector<std::tuple<int, int, int, bool>>{{9, 16, 2, false}, {40, 32, 4, true}, {130, 256, 8, false}}) {
    const Mat x = rng.normal_matrix(n, d_model);
    attn::ProjectionWeights w = attn::random_projection_weights(d_model, heads, 17);
    w.bq = rng.normal_matrix(1, d_model);
    w.bo = rng.normal_matrix(1, d_model);
    attn::PipelineConfig c;
    c.d_model = d_model;
    c.heads = heads;
    c.mask.causal = causal;
    const attn::PipelineTrace trace = attn::run_pipeline(x, x, x, w, c);
    REQUIRE(trace.status.ok);
    attn::StreamingOptions so;
    so.causal = causal;
    const attn::StreamingResult r = attn::streaming_multi_head_attention(x, x, x, w, heads, so);
    REQUIRE(r.status.ok);
    REQUIRE_MATRIX_NEAR(r.output, trace.output, 3e-5f);
  }
  const Mat x = rng.normal_matrix(4, 6);
  const attn::ProjectionWeights w = attn::random_projection_weights(6, 1, 1);
  REQUIRE_FALSE(attn::streaming_multi_head_attention(x, x, x, w, 4).status.ok);  // 6 % 4 != 0
  REQUIRE_FALSE(attn::streaming_multi_head_attention(x, x, x, attn::random_projection_weights(8, 1, 1), 1).status.ok);
}

TEST_CASE("a packed self-attention layer gives the floats of streaming multi-head attention", "[kernels][streaming]") {
  attn::Rng rng(12);
  for (const auto& [n, d_model, heads, causal, biases] : std::vector<std::tuple<int, int, int, bool, int>>{
           {9, 16, 2, false, 0}, {40, 32, 4, true, 1}, {130, 256, 8, false, 2}, {3, 200, 5, true, 3}}) {
    INFO("n " << n << " d_model " << d_model << " heads " << heads << " causal " << causal << " biases " << biases);
    const Mat x = rng.normal_matrix(n, d_model);
    attn::ProjectionWeights w = attn::random_projection_weights(d_model, heads, 23);
    if (biases >= 1) w.bk = rng.normal_matrix(1, d_model);  // one projection with a bias, the others without
    if (biases >= 2) w.bo = rng.normal_matrix(1, d_model);
    if (biases >= 3) w.bq = rng.normal_matrix(1, d_model), w.bv = rng.normal_matrix(1, d_model);
    attn::PackedMultiHead layer;
    REQUIRE(attn::pack_multi_head(w, d_model, heads, layer).ok);
    attn::StreamingOptions so;
    so.causal = causal;
    const attn::StreamingResult want = attn::streaming_multi_head_attention(x, x, x, w, heads, so);
    const attn::StreamingResult got = attn::streaming_self_attention(x, layer, so);
    REQUIRE(want.status.ok);
    REQUIRE(got.status.ok);
    REQUIRE(got.output.rows() == n);
    REQUIRE(got.output.cols() == d_model);
    REQUIRE((got.output.array() == want.output.array()).all());
    // A second call on the same layer is the same again: the packed weights are read only.
    REQUIRE((attn::streaming_self_attention(x, layer, so).output.array() == want.output.array()).all());
  }
  attn::PackedMultiHead layer;
  const attn::ProjectionWeights w6 = attn::random_projection_weights(6, 1, 1);
  REQUIRE_FALSE(attn::pack_multi_head(w6, 6, 4, layer).ok);  // 6 % 4 != 0
  REQUIRE_FALSE(attn::pack_multi_head(w6, 8, 1, layer).ok);  // weights are (6, 6)
  attn::ProjectionWeights bad_bias = w6;
  bad_bias.bv = attn::RowVec::Ones(5);
  REQUIRE_FALSE(attn::pack_multi_head(bad_bias, 6, 2, layer).ok);
  REQUIRE_FALSE(attn::streaming_self_attention(rng.normal_matrix(3, 6), layer).status.ok);  // never packed
  REQUIRE(attn::pack_multi_head(w6, 6, 2, layer).ok);
  const attn::StreamingResult wrong = attn::streaming_self_attention(rng.normal_matrix(3, 5), layer);
  REQUIRE_FALSE(wrong.status.ok);
  REQUIRE(wrong.status.message == "embeddings must have d_model = 6 columns");
  REQUIRE(attn::streaming_self_attention(rng.normal_matrix(3, 6), layer).status.ok);
}
