// The figures of the panels on attention as current models use it: positions inside
// attention (RoPE, ALiBi), grouped-query attention and the KV cache, FlashAttention tile by
// tile, attention sinks and softmax off by one, and the query-key space. No GL, no ImGui.
//
// Inputs: the focused head of the explorer's scene (app/scene.h's SceneView; the state hands
// it over, with these panels' settings and results, from app_state_features.cpp). The positions panel needs the head's
// contents before any position (the generated scene's embeddings through its projections;
// other scenes' Q and K as they are); the other panels take the head's Q, K, V as attention
// saw them. Each figure is recomputed only when its inputs change (the scene's revision,
// the head, the cursor, the settings below), and only while its panel is shown.
//
// Sections: 1 settings  2 results  3 operations  4 the app's door
#pragma once

#include "app/scene.h"
#include "core/attention/flash.h"
#include "core/base/types.h"
#include "core/efficient/cost.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// ---- 1 settings -------------------------------------------------------------------------

struct ModernSettings {
  int shift = 5;               // positions: the sentence placed after this many tokens
  int kv_heads = 1;            // GQA: G key/value heads (must divide the scene's heads)
  int layers = 32;             // the KV cache's model: layers and bytes per value
  int bytes_per_value = 2;
  int decode_step = 0;         // the KV cache drawn after this many tokens (0 = all of them)
  int decode_request = 0;      // raised by the panel's button: measure decoding with and without the cache
  int block_q = 3, block_k = 4;  // FlashAttention's tiles
  bool flash_causal = false;
  int flash_step = 0;          // the step shown (clamped to the steps there are)
  int sink_window = 3, sinks = 1;  // StreamingLLM: the window and the first tokens kept
  float row_offset = -6.0f;    // sinks: added to the cursor's scores, so the row matches nothing
  bool operator==(const ModernSettings&) const = default;
};

// ---- 2 results --------------------------------------------------------------------------

struct PositionsFigures {
  bool ok = false;
  std::string why;           // when not ok
  int shift = 0;
  // RoPE on fixed contents: the cursor's q and k at every position; constant along each
  // diagonal, so a score depends on i - j alone.
  Mat rope_fixed;            // (n, n)
  float toeplitz_deviation = 0.0f;  // max over diagonals of (max - min)
  // The sentence after `shift` tokens (the sentence's own, cyclically): its block of scores.
  std::vector<std::string> long_tokens;
  Mat rope_long;             // (shift + n, shift + n) RoPE scores of the long sequence
  Mat rope_scores;           // (n, n) RoPE scores of the sentence alone
  float rope_shift_difference = 0.0f;        // max |block - sentence alone|
  float sinusoidal_shift_difference = -1.0f; // the same with the sinusoidal encoding (-1: no embeddings)
  // Score against distance for fixed contents: RoPE's q_c . k_c at offset d = 0 .. D.
  std::vector<float> offset_scores;
  // ALiBi: the paper's slopes for the scene's heads, the focused head's bias and weights.
  std::vector<float> alibi_slopes;
  Mat alibi_bias, alibi_weights;  // (n, n)
};

struct GqaFigures {
  bool ok = false;
  std::string why;
  int heads = 0, kv_heads = 0, d_k = 0;
  std::vector<int> kv_head_of;             // per query head
  std::vector<Mat> weights;                // per query head, K and V mean-pooled per group
  std::vector<float> difference;           // per query head: max |GQA weights - MHA weights|
  double bytes_per_token = 0.0, bytes_per_token_mha = 0.0, bytes_per_token_mqa = 0.0;
  int decode_step = 0;                     // tokens in the cache as drawn
};

struct FlashFigures {
  bool ok = false;
  std::string why;
  FlashResult result;
  Mat exact_weights, exact_output;
  float max_difference = 0.0f;  // |flash output - exact output|
  int step = 0;                 // the step shown
  std::vector<float> row_max, row_sum;  // exact: per query row, max s and sum exp(s - max)
  double matrix_floats = 0.0;   // the n x n matrix exact attention holds
};

struct SinkFigures {
  bool ok = false;
  std::string why;
  Mat streaming_allowed, streaming_weights, causal_weights;  // (n, n)
  float streaming_sink_share = 0.0f;  // mean weight on the first `sinks` keys under the mask
  std::vector<float> head_sink_share; // per head of the scene: mean weight on key 0
  int row = 0;                        // the query row of the comparison
  std::vector<float> row_scores, row_softmax, row_off_by_one;
  float off_by_one_sum = 0.0f;        // sum of the off-by-one weights (softmax's is 1)
};

struct QkSpaceFigures {
  bool ok = false;
  std::string why;
  std::vector<std::array<float, 2>> queries, keys;  // each token's q and k in the plane
  float explained = 0.0f;             // share of the joint variance the plane keeps
  std::vector<int> strongest_key;     // per query: its largest weight's key
  Mat weights;                        // the head's weights
};

struct ModernResults {
  // inputs the figures were computed for, per figure
  std::uint64_t positions_for = ~0ull, gqa_for = ~0ull, flash_for = ~0ull, sinks_for = ~0ull, qk_for = ~0ull;
  std::uint64_t version = 0;  // bumped on every recompute, so the GL side re-uploads
  PositionsFigures positions;
  GqaFigures gqa;
  FlashFigures flash;
  SinkFigures sinks;
  QkSpaceFigures qk;
  // The decoding measurement, one (n, with or without the cache) sample per frame.
  int decode_request = 0;     // the request the measurement served
  DecodingCostConfig decoding_config;
  DecodingCost decoding;      // the samples so far; slopes once done
  bool has_decoding = false;  // a measurement started
  bool decoding_running = false;
  int decoding_done = 0, decoding_total = 0;  // samples
};

// ---- 3 operations -----------------------------------------------------------------------

// The KV-cache panel's measurement for the scene's heads: with the cache n = 64 .. 16384,
// without it (quadratic) up to 1024, slopes fitted over n >= 256.
DecodingCostConfig app_decoding_config(int heads, int kv_heads, int d_k);

// The scene's G for the settings: kv_heads if it divides heads, else the largest divisor
// of heads below it.
int effective_kv_heads(int heads, int kv_heads);

// ---- 4 the app's door -------------------------------------------------------------------

// Once per frame, after update_results(): the figures of the shown panel, if its inputs
// changed; a decoding measurement started when its request was raised, and advanced by one
// sample per frame while it runs (each well under a second).
void update_modern_panels(const SceneView& scene, const ModernSettings& settings, ModernResults& results);

// The figures of `panel` (the shown one: the others' are not kept). The settings are the
// state's keys "modern.*" (app/state_schema.h).
nlohmann::json modern_figures_json(const ModernResults& results, Panel panel);

// A matrix of these panels by name, for the page's getMatrix(): "positions/<ropeFixed|
// ropeLong|ropeScores|alibiBias|alibiWeights>", "gqa/weights/<h>", "flash/<exactWeights|
// output|exactOutput>", "sinks/<streamingAllowed|streamingWeights|causalWeights>",
// "qk/weights". Null if absent.
const Mat* modern_matrix(const ModernResults& results, const std::string& name);

}  // namespace attn
