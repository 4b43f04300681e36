// The modern-attention panels' figures (app/modern_state.h) on the explorer's scene, and the
// scene computed with RoPE and ALiBi: checked against the core's attention() and the
// formulas, through the state's JSON as the page reads them.
#include "app/app_state.h"
#include "core/attention/attention.h"
#include "core/attention/positional.h"
#include "core/attention/tokenizer.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace {

using nlohmann::json;

// The state after one frame's updates with the patch applied; the panel's figures as JSON.
json figures_after(attn::AppState& s, const std::string& patch) {
  const attn::Status st = attn::apply_state_json(s, patch);
  INFO(st.message);
  REQUIRE(st.ok);
  attn::update_results(s);
  attn::update_modern_panels(s);
  return json::parse(attn::state_to_json(s))["figures"]["modern"];
}

// The generated scene's head h: its content q, k, v (no positions) from the embeddings.
void content_qkv(const attn::AppState& s, int h, attn::Mat& q, attn::Mat& k, attn::Mat& v) {
  const attn::Settings& st = s.settings;
  const attn::Mat x = attn::token_embeddings(attn::tokenize(st.sentence), st.d_model, st.seed);
  const int d_k = st.d_model / st.heads;
  q = x * s.weights.wq.middleCols(h * d_k, d_k);
  k = x * s.weights.wk.middleCols(h * d_k, d_k);
  v = x * s.weights.wv.middleCols(h * d_k, d_k);
}

}  // namespace

TEST_CASE("the scene with RoPE: each head's weights are attention() on its q and k turned", "[modern][app]") {
  attn::AppState s;
  figures_after(s, R"({"positional": "rope", "ropeBase": 500, "ropePairing": "interleaved", "mask": {"causal": true}})");
  REQUIRE(s.trace.status.ok);
  for (int h = 0; h < s.settings.heads; ++h) {
    attn::Mat q, k, v;
    content_qkv(s, h, q, k, v);
    attn::AttentionOptions o;
    o.causal = true;
    o.positional.kind = attn::PositionalKind::Rope;
    o.positional.rope_base = 500;
    o.positional.rope_pairing = attn::RopePairing::Interleaved;
    const attn::AttentionResult want = attn::attention(q, k, v, o);
    REQUIRE(want.status.ok);
    CHECK((s.trace.heads[h].weights - want.weights).cwiseAbs().maxCoeff() < 1e-5f);
  }
}

TEST_CASE("the scene with ALiBi: head h gets the paper's slope 2^(-8 (h + 1) / H)", "[modern][app]") {
  attn::AppState s;
  figures_after(s, R"({"positional": "alibi", "heads": 4})");
  REQUIRE(s.trace.status.ok);
  const int n = static_cast<int>(s.tokens.size());
  for (int h = 0; h < 4; ++h) {
    const float m = std::pow(2.0f, -8.0f * (h + 1) / 4.0f);
    attn::Mat q, k, v;
    content_qkv(s, h, q, k, v);
    const attn::Mat scores = q * k.transpose() / 2.0f + attn::alibi_bias(n, n, m, false);  // d_k = 4: scale 1/2
    attn::Mat w = scores;
    for (int i = 0; i < n; ++i) {
      w.row(i) = (scores.row(i).array() - scores.row(i).maxCoeff()).exp();
      w.row(i) /= w.row(i).sum();
    }
    CHECK((s.trace.heads[h].weights - w).cwiseAbs().maxCoeff() < 1e-5f);
  }
}

TEST_CASE("positions panel: RoPE depends on the offset alone, the sinusoidal encoding does not", "[modern][app]") {
  attn::AppState s;
  const json f = figures_after(s, R"({"panel": "positions", "modern": {"shift": 7}, "cursor": 3})")["positions"];
  INFO(f.dump());
  CHECK(f["shift"] == 7);
  CHECK(f["toeplitzDeviation"].get<double>() < 1e-4);
  CHECK(f["ropeShiftDifference"].get<double>() < 1e-4);
  // The sinusoidal encoding moves the block's scores: absolute positions.
  CHECK(f["sinusoidalShiftDifference"].get<double>() > 0.05);
  const json slopes = f["alibiSlopes"];
  REQUIRE(slopes.size() == 4);
  for (int h = 0; h < 4; ++h) CHECK(slopes[h].get<double>() == Approx(std::pow(2.0, -2.0 * (h + 1))));
  // The long sequence's block equals the sentence alone, cell by cell.
  const attn::Mat* long_scores = attn::modern_matrix(s.modern, "positions/ropeLong");
  const attn::Mat* alone = attn::modern_matrix(s.modern, "positions/ropeScores");
  REQUIRE(long_scores);
  REQUIRE(alone);
  const int n = static_cast<int>(alone->rows());
  CHECK(long_scores->rows() == n + 7);
  CHECK((long_scores->bottomRightCorner(n, n) - *alone).cwiseAbs().maxCoeff() < 1e-4f);
  // Score against distance starts at q_c . k_c scaled.
  attn::Mat q, k, v;
  content_qkv(s, 0, q, k, v);
  CHECK(f["offsetScores"][0].get<double>() == Approx(q.row(3).dot(k.row(3)) / 2.0).margin(1e-5));
}

TEST_CASE("positions panel: an odd d_k gives ALiBi's figures and RoPE's reason", "[modern][app]") {
  attn::AppState s;
  const json f = figures_after(s, R"({"panel": "positions", "dModel": 12, "heads": 4})")["positions"];
  CHECK(f["ropeError"] == "RoPE turns pairs of coordinates: d_k = 3 must be even");
  CHECK(f["alibiSlopes"].size() == 4);
  CHECK_FALSE(f.contains("toeplitzDeviation"));
}

TEST_CASE("GQA panel: G = H is multi-head attention, fewer groups change the weights; the cache's bytes", "[modern][app]") {
  attn::AppState s;
  json f = figures_after(s, R"({"panel": "gqa", "modern": {"kvHeads": 4, "layers": 32, "bytesPerValue": 2}})")["gqa"];
  INFO(f.dump());
  CHECK(f["kvHeads"] == 4);
  for (const json& d : f["difference"]) CHECK(d.get<double>() == 0.0);
  CHECK(f["bytesPerToken"].get<double>() == 2.0 * 4 * 4 * 32 * 2);
  f = figures_after(s, R"({"modern": {"kvHeads": 2, "layers": 12, "bytesPerValue": 4, "decodeStep": 5}})")["gqa"];
  CHECK(f["kvHeads"] == 2);
  CHECK(f["kvHeadOf"] == json::array({0, 0, 1, 1}));
  CHECK(f["bytesPerToken"].get<double>() == 2.0 * 2 * 4 * 12 * 4);
  CHECK(f["bytesPerTokenMultiHead"].get<double>() == 2.0 * 4 * 4 * 12 * 4);
  CHECK(f["bytesPerTokenMultiQuery"].get<double>() == 2.0 * 1 * 4 * 12 * 4);
  CHECK(f["cacheBytes"].get<double>() == 5 * 2.0 * 2 * 4 * 12 * 4);
  double largest = 0;
  for (const json& d : f["difference"]) largest = std::max(largest, d.get<double>());
  CHECK(largest > 1e-3);
  // G = 3 does not divide 4 heads: the panel uses the largest divisor below it.
  f = figures_after(s, R"({"modern": {"kvHeads": 3}})")["gqa"];
  CHECK(f["kvHeads"] == 2);
  // Pooled K and V: query head 1's weights are attention() on the mean of heads 0 and 1's keys.
  const attn::Mat k01 = (s.trace.heads[0].k + s.trace.heads[1].k) / 2.0f, v01 = (s.trace.heads[0].v + s.trace.heads[1].v) / 2.0f;
  const attn::AttentionResult want = attn::attention(s.trace.heads[1].q, k01, v01, {});
  CHECK((*attn::modern_matrix(s.modern, "gqa/weights/1") - want.weights).cwiseAbs().maxCoeff() < 1e-6f);
  CHECK(attn::modern_matrix(s.modern, "gqa/weights/9") == nullptr);
  CHECK(attn::modern_matrix(s.modern, "gqa/weights/x") == nullptr);
}

TEST_CASE("flash panel: the output equals exact attention; a tile's last step holds the row's max and sum", "[modern][app]") {
  attn::AppState s;
  for (const char* causal : {"false", "true"}) {
    const json f = figures_after(s, std::string(R"({"panel": "flash", "modern": {"blockQ": 3, "blockK": 4, "flashCausal": )") +
                                        causal + "}}")["flash"];
    INFO(f.dump());
    CHECK(f["maxDifference"].get<double>() < 1e-5);
    const int n = static_cast<int>(s.tokens.size());
    CHECK(f["matrixFloats"].get<double>() == n * n);
    CHECK(f["workingFloats"].get<double>() < n * n);
    // Step through every step; where a query tile meets its last key tile, m and l are final.
    const int steps = f["steps"];
    CHECK(steps > 1);
    int finished = 0;
    for (int i = 0; i < steps; ++i) {
      const json g = figures_after(s, R"({"modern": {"flashStep": )" + std::to_string(i) + "}}")["flash"];
      const json& c = g["current"];
      const bool last = c["kEnd"].get<int>() == n || (std::string(causal) == "true" && c["kEnd"].get<int>() >= c["qEnd"].get<int>());
      if (!last) continue;
      for (int r = c["qBegin"].get<int>(); r < c["qEnd"].get<int>(); ++r) {
        CHECK(c["m"][r - c["qBegin"].get<int>()].get<double>() == Approx(g["rowMax"][r].get<double>()).margin(1e-5));
        CHECK(c["l"][r - c["qBegin"].get<int>()].get<double>() == Approx(g["rowSum"][r].get<double>()).epsilon(1e-5));
      }
      ++finished;
    }
    CHECK(finished == (n + 2) / 3);
  }
}

TEST_CASE("sinks panel: off by one lets a row that matches nothing attend to nothing", "[modern][app]") {
  attn::AppState s;
  json f = figures_after(s, R"({"panel": "sinks", "cursor": 4, "modern": {"rowOffset": 0}})")["sinks"];
  double softmax_sum = 0;
  for (const json& w : f["rowSoftmax"]) softmax_sum += w.get<double>();
  CHECK(softmax_sum == Approx(1.0).margin(1e-5));
  const double near_zero_offset = f["offByOneSum"];
  f = figures_after(s, R"({"modern": {"rowOffset": -12}})")["sinks"];
  softmax_sum = 0;
  for (const json& w : f["rowSoftmax"]) softmax_sum += w.get<double>();
  CHECK(softmax_sum == Approx(1.0).margin(1e-5));  // softmax must still give all of it away
  CHECK(f["offByOneSum"].get<double>() < 1e-3);
  CHECK(f["offByOneSum"].get<double>() < near_zero_offset);
  // The StreamingLLM mask keeps the sinks: every row sees key 0.
  f = figures_after(s, R"({"modern": {"sinkWindow": 2, "sinks": 1}})")["sinks"];
  const attn::Mat& allowed = *attn::modern_matrix(s.modern, "sinks/streamingAllowed");
  for (int i = 0; i < allowed.rows(); ++i) {
    CHECK(allowed(i, 0) == 1.0f);
    for (int j = 0; j < allowed.cols(); ++j) CHECK(allowed(i, j) == ((j == 0 || (j <= i && j >= i - 2)) ? 1.0f : 0.0f));
  }
  CHECK(f["headSinkShare"].size() == 4);
  CHECK(f["streamingSinkShare"].get<double>() > 0.0);
}

TEST_CASE("query-key space: the plane of a 2-dimensional head keeps all of its variance", "[modern][app]") {
  attn::AppState s;
  json f = figures_after(s, R"({"panel": "qk-space", "dModel": 8})")["qkSpace"];
  CHECK(f["explained"].get<double>() == Approx(1.0).margin(1e-5));
  const int n = static_cast<int>(s.tokens.size());
  CHECK(f["queries"].size() == static_cast<size_t>(n));
  CHECK(f["keys"].size() == static_cast<size_t>(n));
  f = figures_after(s, R"({"dModel": 64})")["qkSpace"];
  CHECK(f["explained"].get<double>() > 0.0);
  CHECK(f["explained"].get<double>() < 1.0);
  // Each query's strongest key is its weights' argmax.
  for (int i = 0; i < n; ++i) {
    Eigen::Index best = 0;
    s.trace.heads[0].weights.row(i).maxCoeff(&best);
    CHECK(f["strongestKey"][i] == best);
  }
}

TEST_CASE("modern settings: bad values are refused with the key named and nothing changes", "[modern][app]") {
  attn::AppState s;
  const attn::ModernSettings before = s.settings.modern;
  for (const auto& [patch, message] :
       {std::pair{R"({"modern": {"blockQ": 0}})", "'blockQ' in 'modern' must be a whole number from 1 to 1024"},
        std::pair{R"({"modern": {"kvHeads": 1.5}})", "'kvHeads' in 'modern' must be a whole number from 1 to 16"},
        std::pair{R"({"modern": {"rowOffset": "low"}})", "'rowOffset' in 'modern' must be a number from -20 to 5"},
        std::pair{R"({"modern": {"tile": 4}})", "unknown key 'tile' in 'modern'"},
        std::pair{R"({"modern": 3})", "'modern' must be an object"},
        std::pair{R"({"ropeBase": -1})", "'ropeBase' must be between 2.0 and 10000000.0"},
        std::pair{R"({"ropePairing": "zigzag"})", "'ropePairing' must be one of \"half\", \"interleaved\""}}) {
    const attn::Status st = attn::apply_state_json(s, patch);
    CHECK_FALSE(st.ok);
    CHECK(st.message == message);
  }
  CHECK(s.settings.modern == before);
}

TEST_CASE("KV-cache panel: the decoding measurement runs a sample per frame to the end, then fits its slopes", "[modern][app]") {
  attn::AppState s;
  json f = figures_after(s, R"({"panel": "gqa", "modern": {"kvHeads": 2, "decodeRequest": 1}})")["gqa"];
  REQUIRE(f["decoding"]["running"] == true);
  CHECK(f["decoding"]["done"] == 1);
  CHECK_FALSE(f["decoding"].contains("slopeWithCache"));
  const int total = f["decoding"]["total"];
  CHECK(total == 18);  // 9 sizes, with and without the cache
  int frames = 1;
  while (s.modern.decoding_running && frames < 100) {
    attn::update_modern_panels(s);
    ++frames;
  }
  CHECK(frames == 14);  // one frame per timed sample: 9 with the cache, 5 without (n <= 1024)
  f = json::parse(attn::state_to_json(s))["figures"]["modern"]["gqa"];
  const json& d = f["decoding"];
  CHECK(d["running"] == false);
  REQUIRE(d["steps"].size() == 9);
  for (const json& step : d["steps"]) {
    CHECK(step["secondsWithCache"].get<double>() > 0.0);
    if (step["n"].get<int>() <= 1024) CHECK(step["secondsWithoutCache"].get<double>() > 0.0);
    else CHECK(step["secondsWithoutCache"].is_null());
  }
  CHECK(d["slopeWithCache"].is_number());
  CHECK(d["slopeWithoutCache"].is_number());
}

TEST_CASE("modern panels: only the shown panel's figures are kept; a panel shown again computes the same ones", "[modern][app]") {
  attn::AppState s;
  figures_after(s, R"({"panel": "positions", "modern": {"shift": 9}})");
  const attn::Mat long_scores = s.modern.positions.rope_long;
  REQUIRE(long_scores.rows() > 9);
  figures_after(s, R"({"panel": "sinks"})");
  REQUIRE(s.modern.sinks.ok);
  // Left: the positions figures are freed (at 900 tokens they are about 20 MB).
  CHECK(s.modern.positions.rope_long.size() == 0);
  CHECK(s.modern.positions.rope_fixed.size() == 0);
  CHECK(s.modern.positions_for == ~0ull);
  CHECK(attn::modern_matrix(s.modern, "positions/ropeLong")->size() == 0);
  for (const char* panel : {"gqa", "flash", "qk-space", "pipeline"}) {
    figures_after(s, std::string(R"({"panel": ")") + panel + "\"}");
    CHECK(s.modern.sinks_for == ~0ull);
    CHECK(s.modern.sinks.row_softmax.empty());
  }
  // Only the pipeline is shown now: no panel's figures are held.
  CHECK(s.modern.gqa_for == ~0ull);
  CHECK(s.modern.flash_for == ~0ull);
  CHECK(s.modern.qk_for == ~0ull);
  CHECK(s.modern.qk.queries.empty());
  // Back on positions: the same figures again.
  const json f = figures_after(s, R"({"panel": "positions"})")["positions"];
  CHECK(f["shift"] == 9);
  REQUIRE(s.modern.positions.rope_long.rows() == long_scores.rows());
  CHECK((s.modern.positions.rope_long - long_scores).cwiseAbs().maxCoeff() == 0.0f);
}
