#include "core/attention/attention.h"
#include "core/attention/masks.h"
#include "core/base/rng.h"
#include "core/attention/streaming.h"
#include "support/matrix_compare.h"

using attn::Mat;

TEST_CASE("streaming attention equals the full matrix path", "[streaming]") {
  attn::Rng rng(31);
  for (int trial = 0; trial < 6; ++trial) {
    const int n_q = 37 + 50 * trial, n_k = trial % 2 ? n_q : 29 + 41 * trial, d = 16;
    const Mat q = rng.normal_matrix(n_q, d), k = rng.normal_matrix(n_k, d), v = rng.normal_matrix(n_k, 5);
    attn::StreamingOptions so;
    so.causal = trial % 3 == 1;
    so.window = trial % 3 == 2 ? 7 : 0;
    so.query_block = 16;
    so.key_tile = 32;
    attn::AttentionOptions ao;
    ao.causal = so.causal;
    if (so.window) {
      attn::MaskSpec spec;
      spec.window = so.window;
      ao.allowed = attn::build_mask(spec, n_q, n_k);
    }
    const attn::AttentionResult full = attn::attention(q, k, v, ao);
    const attn::StreamingResult streamed = attn::streaming_attention(q, k, v, so);
    REQUIRE(streamed.status.ok);
    REQUIRE_MATRIX_NEAR(streamed.output, full.output, 1e-5f);
  }
}

TEST_CASE("streaming attention: rows with no allowed key are zero; bad input refused", "[streaming]") {
  attn::Rng rng(2);
  const Mat q = rng.normal_matrix(4, 8), k = rng.normal_matrix(6, 8), v = rng.normal_matrix(6, 3);
  attn::StreamingOptions so;
  so.causal = true;
  so.window = 1;
  const attn::StreamingResult r = attn::streaming_attention(q, k, v, so);
  REQUIRE(r.status.ok);
  REQUIRE(r.output.allFinite());
  REQUIRE_FALSE(attn::streaming_attention(q, rng.normal_matrix(6, 7), v).status.ok);
  REQUIRE_FALSE(attn::streaming_attention(q, k, rng.normal_matrix(5, 3)).status.ok);
}
