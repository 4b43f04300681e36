// Attention as current models use it: RoPE (both pairings) and its relative property, ALiBi's
// slopes and bias, grouped-query attention against multi-head attention with K and V repeated,
// and FlashAttention's tiles against exact attention, with the online softmax's m and l.
#include "core/attention/attention.h"
#include "core/attention/flash.h"
#include "core/attention/grouped.h"
#include "core/attention/masks.h"
#include "core/attention/positional.h"
#include "core/attention/softmax.h"
#include "core/base/rng.h"
#include "support/matrix_compare.h"

#include <cmath>
#include <limits>
#include <vector>

using attn::Mat;

namespace {

float inf_value() { return std::numeric_limits<float>::infinity(); }

attn::PositionalOptions rope(attn::RopePairing pairing, float base = 10000.0f) {
  attn::PositionalOptions p;
  p.kind = attn::PositionalKind::Rope;
  p.rope_pairing = pairing;
  p.rope_base = base;
  return p;
}

}  // namespace

TEST_CASE("RoPE turns each pair by p * theta_i: identity at position 0, norms kept, the pairings differ", "[positional]") {
  attn::Rng rng(11);
  const Mat x = rng.normal_matrix(6, 8);
  for (const attn::RopePairing pairing : {attn::RopePairing::Half, attn::RopePairing::Interleaved}) {
    const Mat at0 = attn::apply_rope(x.topRows(1), 0, 10000.0f, pairing);
    REQUIRE_MATRIX_NEAR(at0, Mat(x.topRows(1)), 0.0f);
    const Mat turned = attn::apply_rope(x, 0, 10000.0f, pairing);
    for (int r = 0; r < 6; ++r) REQUIRE(turned.row(r).norm() == Approx(x.row(r).norm()).epsilon(1e-5));
  }
  // Pair 0 at position 1 turns by exactly 1 radian (theta_0 = 1): (x_0, x_4) rotating half,
  // (x_0, x_1) interleaved.
  const Mat one = attn::apply_rope(x.row(1), 1, 10000.0f, attn::RopePairing::Half);
  REQUIRE(one(0, 0) == Approx(x(1, 0) * std::cos(1.0) - x(1, 4) * std::sin(1.0)).margin(1e-6));
  REQUIRE(one(0, 4) == Approx(x(1, 0) * std::sin(1.0) + x(1, 4) * std::cos(1.0)).margin(1e-6));
  const Mat inter = attn::apply_rope(x.row(1), 1, 10000.0f, attn::RopePairing::Interleaved);
  REQUIRE(inter(0, 1) == Approx(x(1, 0) * std::sin(1.0) + x(1, 1) * std::cos(1.0)).margin(1e-6));
  // The last pair turns slowest: theta_3 = 10000^(-6/8).
  REQUIRE(attn::rope_frequencies(8, 10000.0f)[3] == Approx(std::pow(10000.0, -0.75)).epsilon(1e-12));
}

TEST_CASE("RoPE's scores depend on the offset alone: the same tokens shifted by k positions give the same scores", "[positional]") {
  attn::Rng rng(12);
  const int n = 7, d = 16, shift = 5;
  const Mat q = rng.normal_matrix(n, d), k = rng.normal_matrix(n, d), v = rng.normal_matrix(n, 3);
  for (const attn::RopePairing pairing : {attn::RopePairing::Half, attn::RopePairing::Interleaved}) {
    attn::AttentionOptions options;
    options.positional = rope(pairing);
    const attn::AttentionResult plain = attn::attention(q, k, v, options);
    REQUIRE(plain.status.ok);
    // The same tokens after `shift` others: their block of scores sits on the shifted diagonals.
    Mat q_long(n + shift, d), k_long(n + shift, d), v_long(n + shift, 3);
    q_long << rng.normal_matrix(shift, d), q;
    k_long << rng.normal_matrix(shift, d), k;
    v_long << rng.normal_matrix(shift, 3), v;
    const attn::AttentionResult shifted = attn::attention(q_long, k_long, v_long, options);
    REQUIRE(shifted.status.ok);
    REQUIRE_MATRIX_NEAR(Mat(shifted.raw_scores.bottomRightCorner(n, n)), plain.raw_scores, 1e-4f);
    // Without RoPE the contents alone decide too (a check that the test can tell the two apart:
    // with RoPE the scores differ from the unrotated ones).
    attn::AttentionOptions none;
    const attn::AttentionResult unrotated = attn::attention(q, k, v, none);
    REQUIRE((unrotated.raw_scores - plain.raw_scores).cwiseAbs().maxCoeff() > 0.1f);
  }
}

TEST_CASE("ALiBi: the paper's slopes, and -m|i - j| added after the scaling", "[positional]") {
  const std::vector<float> eight = attn::alibi_slopes(8);
  for (int h = 0; h < 8; ++h) REQUIRE(eight[static_cast<std::size_t>(h)] == Approx(std::pow(2.0, -(h + 1))).epsilon(1e-7));
  // Six heads: the four of 4 heads (2^-2, 2^-4, 2^-6, 2^-8), then every other of 8 (2^-1, 2^-3).
  const std::vector<float> six = attn::alibi_slopes(6);
  const double want[] = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
  REQUIRE(six.size() == 6);
  for (int h = 0; h < 6; ++h) REQUIRE(six[static_cast<std::size_t>(h)] == Approx(want[h]).epsilon(1e-7));

  attn::Rng rng(13);
  const Mat q = rng.normal_matrix(5, 4), k = rng.normal_matrix(5, 4), v = rng.normal_matrix(5, 2);
  for (const bool causal : {false, true}) {
    attn::AttentionOptions options;
    options.causal = causal;
    options.positional.kind = attn::PositionalKind::Alibi;
    options.positional.alibi_slope = 0.5f;
    const attn::AttentionResult r = attn::attention(q, k, v, options);
    REQUIRE(r.status.ok);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j <= (causal ? i : 4); ++j)
        REQUIRE(r.scores(i, j) == Approx(r.raw_scores(i, j) * 0.5f - 0.5f * std::abs(i - j)).margin(1e-5));
  }
}

TEST_CASE("positions refuse what they cannot do: odd d_k with RoPE, a non-finite base or slope", "[positional]") {
  attn::Rng rng(14);
  const Mat odd = rng.normal_matrix(3, 5), v = rng.normal_matrix(3, 2);
  attn::AttentionOptions options;
  options.positional = rope(attn::RopePairing::Half);
  REQUIRE(attn::attention(odd, odd, v, options).status.message == "RoPE needs an even d_k (it turns pairs of entries), got 5");
  const Mat even = rng.normal_matrix(3, 4);
  options.positional.rope_base = std::nanf("");
  REQUIRE(attn::attention(even, even, v, options).status.message == "the RoPE base must be a finite number > 0");
  options.positional = {};
  options.positional.kind = attn::PositionalKind::Alibi;
  options.positional.alibi_slope = INFINITY;
  REQUIRE(attn::attention(even, even, v, options).status.message == "the ALiBi slope must be a finite number");
}

TEST_CASE("grouped-query attention equals multi-head attention with K and V repeated per group", "[grouped]") {
  attn::Rng rng(15);
  const int heads = 6, n = 9, d_k = 4, d_v = 3;
  for (const int kv_heads : {1, 2, 3, 6}) {
    std::vector<Mat> q, k, v;
    for (int h = 0; h < heads; ++h) q.push_back(rng.normal_matrix(n, d_k));
    for (int g = 0; g < kv_heads; ++g) {
      k.push_back(rng.normal_matrix(n, d_k));
      v.push_back(rng.normal_matrix(n, d_v));
    }
    attn::AttentionOptions options;
    options.causal = kv_heads % 2 == 0;
    const attn::GroupedQueryResult r = attn::grouped_query_attention(q, k, v, options);
    REQUIRE(r.status.ok);
    REQUIRE(r.heads.size() == static_cast<std::size_t>(heads));
    for (int h = 0; h < heads; ++h) {
      const int g = h / (heads / kv_heads);  // K and V repeated: heads / kv_heads copies of each
      REQUIRE(r.kv_head_of[static_cast<std::size_t>(h)] == g);
      const attn::AttentionResult mha = attn::attention(q[static_cast<std::size_t>(h)], k[static_cast<std::size_t>(g)], v[static_cast<std::size_t>(g)], options);
      REQUIRE_MATRIX_NEAR(r.heads[static_cast<std::size_t>(h)].output, mha.output, 1e-6f);
      REQUIRE_MATRIX_NEAR(r.heads[static_cast<std::size_t>(h)].weights, mha.weights, 1e-6f);
    }
  }
  std::vector<Mat> q(4, rng.normal_matrix(2, 2)), kv(3, rng.normal_matrix(2, 2));
  REQUIRE(attn::grouped_query_attention(q, kv, kv, {}).status.message == "kvHeads = 3 must divide heads = 4");
  // 2 * G * d_k * layers * bytes: 8 kv heads of 128, 32 layers, float16 = 128 KiB per token.
  REQUIRE(attn::kv_cache_bytes_per_token(8, 128, 32, 2) == 131072.0);
}

TEST_CASE("FlashAttention tile by tile equals exact attention; its last step's m and l are the row's max and sum", "[flash]") {
  attn::Rng rng(16);
  const int n_q = 13, n_k = 11, d_k = 8, d_v = 5;
  const Mat q = rng.normal_matrix(n_q, d_k), k = rng.normal_matrix(n_k, d_k), v = rng.normal_matrix(n_k, d_v);
  for (const bool causal : {false, true})
    for (const auto& [bq, bk] : std::vector<std::pair<int, int>>{{4, 3}, {5, 5}, {1, 11}, {13, 2}, {16, 16}}) {
      INFO("causal " << causal << " tiles " << bq << " x " << bk);
      attn::FlashOptions fo;
      fo.block_q = bq;
      fo.block_k = bk;
      fo.causal = causal;
      const attn::FlashResult f = attn::flash_attention(q, k, v, fo);
      REQUIRE(f.status.ok);
      attn::AttentionOptions options;
      options.causal = causal;
      const attn::AttentionResult exact = attn::attention(q, k, v, options);
      REQUIRE_MATRIX_NEAR(f.output, exact.output, 1e-5f);
      // Steps: every pair of tiles, less those wholly above the causal diagonal.
      const int q_tiles = (n_q + bq - 1) / bq, k_tiles = (n_k + bk - 1) / bk;
      int pairs = 0;
      for (int a = 0; a < q_tiles; ++a)
        for (int b = 0; b < k_tiles; ++b) pairs += !causal || b * bk <= std::min(n_q, (a + 1) * bq) - 1;
      REQUIRE(static_cast<int>(f.steps.size()) == pairs);
      // The last step of each query tile: m = the row's largest score, l = sum exp(s - m).
      for (std::size_t s = 0; s < f.steps.size(); ++s) {
        const attn::FlashStep& step = f.steps[s];
        if (s + 1 < f.steps.size() && f.steps[s + 1].q_tile == step.q_tile) continue;
        for (int i = step.q_begin; i < step.q_end; ++i) {
          const int seen = causal ? std::min(n_k, i + 1) : n_k;
          const float m = exact.scores.row(i).head(seen).maxCoeff();
          double l = 0;
          for (int j = 0; j < seen; ++j) l += std::exp(static_cast<double>(exact.scores(i, j)) - m);
          REQUIRE(step.m[static_cast<std::size_t>(i - step.q_begin)] == Approx(m).margin(1e-5));
          REQUIRE(step.l[static_cast<std::size_t>(i - step.q_begin)] == Approx(l).epsilon(1e-5));
        }
      }
    }
}

TEST_CASE("FlashAttention refuses tiles <= 0 and more steps than it records", "[flash]") {
  attn::Rng rng(17);
  const Mat x = rng.normal_matrix(4, 2);
  attn::FlashOptions fo;
  fo.block_q = 0;
  REQUIRE(attn::flash_attention(x, x, x, fo).status.message == "tile sizes must be >= 1, got blockQ = 0, blockK = 16");
  const Mat long_x = Mat::Zero(300, 2);
  fo.block_q = 1;
  fo.block_k = 1;
  REQUIRE(attn::flash_attention(long_x, long_x, long_x, fo).status.message ==
          "90000 tile pairs is more than the 65536 steps one call records: use larger tiles");
}

TEST_CASE("attention sinks: StreamingLLM's window-plus-sink mask, and softmax with an extra zero logit", "[sinks]") {
  // n = 8, window 2, 1 sink: query i sees key 0 and keys i-2 .. i.
  const attn::MaskSpec spec = attn::streaming_llm_mask(2, 1);
  REQUIRE(attn::validate_mask(spec, 8, 8).ok);
  const attn::BoolMat allowed = attn::build_mask(spec, 8, 8);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) REQUIRE(allowed(i, j) == (j <= i && (j == 0 || i - j <= 2)));
  REQUIRE(attn::nonzeros_per_row(allowed) == std::vector<int>{1, 2, 3, 4, 4, 4, 4, 4});

  // A row with nothing to attend to: softmax must spread 1 over the keys; off by one gives
  // almost all of it to the missing zero logit. A row with a clear winner barely changes.
  const float nothing[4] = {-9.0f, -9.5f, -10.0f, -9.2f};
  float w[4], soft[4];
  const float left = attn::softmax_off_by_one_row(nothing, w, 4);
  attn::softmax_row(nothing, soft, 4);
  double sum = 0, sum_soft = 0;
  for (int j = 0; j < 4; ++j) {
    sum += w[j];
    sum_soft += soft[j];
    REQUIRE(w[j] == Approx(std::exp(nothing[j]) / (1.0 + std::exp(-9.0) + std::exp(-9.5) + std::exp(-10.0) + std::exp(-9.2))).epsilon(1e-5));
  }
  REQUIRE(sum_soft == Approx(1.0).margin(1e-6));
  REQUIRE(sum < 1e-3);
  REQUIRE(left == Approx(1.0 - sum).margin(1e-6));
  const float clear[3] = {12.0f, 1.0f, -inf_value()};
  float wc[3];
  attn::softmax_off_by_one_row(clear, wc, 3);
  REQUIRE(wc[0] == Approx(1.0 / (1.0 + std::exp(-11.0) + std::exp(-12.0))).epsilon(1e-6));
  REQUIRE(wc[2] == 0.0f);
  // Large scores do not overflow: the maximum is subtracted first.
  const float big[2] = {1000.0f, 999.0f};
  float wb[2];
  attn::softmax_off_by_one_row(big, wb, 2);
  REQUIRE(wb[0] == Approx(1.0 / (1.0 + std::exp(-1.0))).epsilon(1e-6));
}
