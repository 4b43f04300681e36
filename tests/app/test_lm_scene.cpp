// The explorer's language-model scene (app/lm_state.h) without a window: asked for before
// its model it waits (the previous scene kept, a notice); loaded, it shows the model's real
// weights for the chosen layer, grows a row per generated character, scores its held-out
// samples under broken math, ranks heads by ablation, and refuses a text it cannot read
// with the scene kept.
#include "app/app_state.h"
#include "app/lm_state.h"
#include "core/lm/evaluate.h"
#include "core/lm/generate.h"
#include "support/tiny_lm.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace lm = attn::lm;

namespace {

// The tests' tiny model (support/tiny_lm.h, context 24) with two held-out samples.
std::vector<std::uint8_t> tiny_model_file(int steps = 20) {
  lm::LanguageModel m = attn::test::tiny_model(steps);
  m.samples = {{0, "The cat sat. A dog ran."}, {1, "床前明月光"}};
  return lm::serialize_language_model(m);
}

}  // namespace

TEST_CASE("language scene: waits for its model, then shows the model's weights", "[lm][app]") {
  attn::AppState state;
  attn::update_results(state);
  REQUIRE(attn::apply_state_json(state, R"({"source": "language"})").ok);
  attn::update_results(state);
  REQUIRE(state.settings.source == attn::SceneSource::Generated);
  REQUIRE(state.lm_wanted);
  REQUIRE(state.notice.message == "the language model is loading; the scene opens when it arrives");

  const std::vector<std::uint8_t> bytes = tiny_model_file();
  REQUIRE(attn::load_lm_scene(state.lm_scene, bytes.data(), bytes.size(), "tiny").ok);
  REQUIRE(attn::apply_state_json(state, R"({"source": "language", "sentence": "The cat", "layer": 1})").ok);
  attn::update_results(state);
  REQUIRE(state.settings.source == attn::SceneSource::Language);
  REQUIRE(state.settings.d_model == 16);
  REQUIRE(state.settings.heads == 2);
  REQUIRE(state.tokens.size() == 8);  // <s> T h e · c a t
  REQUIRE(state.tokens[4] == "\xC2\xB7");
  // Layer 1's weights in the explorer are the model's own.
  lm::TextAttention direct;
  REQUIRE(lm::text_attention(state.lm_scene->model, "The cat", lm::RunOptions{}, direct).ok);
  for (int h = 0; h < 2; ++h)
    REQUIRE((state.trace.heads[h].weights - direct.trace.weights[2 + h]).cwiseAbs().maxCoeff() < 1e-5f);
  REQUIRE(state.lm.bits_now.size() == 2);
  REQUIRE(state.lm.bits_now[0] == state.lm.bits_base[0]);
}

TEST_CASE("language scene: a link's layer survives the wait for the model", "[lm][app]") {
  attn::AppState state;
  attn::update_results(state);
  REQUIRE(attn::apply_state_json(state, R"({"source": "language", "sentence": "The cat", "layer": 1, "panel": "heads"})").ok);
  attn::update_results(state);
  REQUIRE(state.settings.source == attn::SceneSource::Generated);  // waiting, on the one-layer scene
  REQUIRE(state.settings.layer == 0);
  const std::vector<std::uint8_t> bytes = tiny_model_file();
  REQUIRE(attn::load_lm_scene(state.lm_scene, bytes.data(), bytes.size(), "tiny").ok);
  attn::enter_wanted_lm_scene(state);
  attn::update_results(state);
  REQUIRE(state.settings.source == attn::SceneSource::Language);
  REQUIRE(state.settings.layer == 1);
  REQUIRE_FALSE(state.lm_wanted);
  // Layer 1's weights, as the model computes them.
  lm::TextAttention direct;
  REQUIRE(lm::text_attention(state.lm_scene->model, state.settings.sentence, lm::RunOptions{}, direct).ok);
  REQUIRE((state.trace.heads[0].weights - direct.trace.weights[2]).cwiseAbs().maxCoeff() < 1e-5f);
}

TEST_CASE("language scene: the model view's grid is every layer and head of the model", "[lm][app]") {
  attn::AppState state;
  const std::vector<std::uint8_t> bytes = tiny_model_file();
  REQUIRE(attn::load_lm_scene(state.lm_scene, bytes.data(), bytes.size(), "tiny").ok);
  const lm::LanguageModel& m = state.lm_scene->model;
  REQUIRE(attn::apply_state_json(state, R"({"source": "language", "sentence": "The cat sat.", "layer": 0})").ok);
  attn::update_results(state);
  const attn::ModelGridShape shape = attn::model_grid_shape(state);
  REQUIRE(shape.layers == m.config.layers);
  REQUIRE(shape.heads == 2);
  lm::TextAttention direct;
  REQUIRE(lm::text_attention(m, "The cat sat.", lm::RunOptions{}, direct).ok);
  const std::size_t cells = static_cast<std::size_t>(m.config.layers) * 2;
  REQUIRE(state.thumbnails.size() == cells);
  REQUIRE(state.thumbnails_done == static_cast<int>(cells));
  for (std::size_t i = 0; i < cells; ++i) {  // 13 x 13: small enough to be shown unpooled
    REQUIRE(state.thumbnails[i].rows() == 13);
    REQUIRE((state.thumbnails[i] - direct.trace.weights[i]).cwiseAbs().maxCoeff() < 1e-6f);
  }
  auto sink_of = [&](std::size_t i) { return direct.trace.weights[i].col(0).mean(); };
  REQUIRE(state.key_tokens == state.tokens);  // the columns are labelled (the sink is "<s>")
  REQUIRE(state.key_tokens[0] == "<s>");
  REQUIRE(state.sink_share.size() == 2);
  REQUIRE(state.sink_share[1] == Approx(sink_of(1)).margin(1e-6));
  // Another layer: the grid stays, the sink share is that layer's.
  REQUIRE(attn::apply_state_json(state, R"({"layer": 1})").ok);
  attn::update_results(state);
  REQUIRE(state.sink_share[0] == Approx(sink_of(2)).margin(1e-6));
  REQUIRE(state.sink_share[1] == Approx(sink_of(3)).margin(1e-6));
  // A scene without a model has no grid.
  REQUIRE(attn::apply_state_json(state, R"({"source": "generated"})").ok);
  attn::update_results(state);
  REQUIRE(attn::model_grid_shape(state).layers == 0);
}

TEST_CASE("language scene: generation adds rows, broken math costs bits, bad text is refused", "[lm][app]") {
  attn::AppState state;
  const std::vector<std::uint8_t> bytes = tiny_model_file();
  REQUIRE(attn::load_lm_scene(state.lm_scene, bytes.data(), bytes.size(), "tiny").ok);
  REQUIRE(attn::apply_state_json(state, R"({"source": "language", "sentence": "The", "lm": {"tokens": 10, "shown": 0}})").ok);
  attn::update_results(state);
  const std::size_t n0 = state.tokens.size();
  REQUIRE(attn::apply_state_json(state, R"({"lm": {"shown": 10}})").ok);
  attn::update_results(state);
  REQUIRE(state.tokens.size() == n0 + 10);
  REQUIRE(state.trace.heads[0].weights.rows() == static_cast<int>(n0 + 10));
  // The scene samples by default (seeded), as generate() does with the same options.
  REQUIRE(state.settings.lm.temperature == attn::kLmDefaultTemperature);
  lm::GenerateOptions g;
  g.tokens = 10;
  g.sample.temperature = attn::kLmDefaultTemperature;
  g.sample.top_k = attn::kLmDefaultTopK;
  g.sample.seed = state.settings.lm.seed;
  std::vector<lm::GeneratedToken> direct;
  REQUIRE(lm::generate(state.lm_scene->model, "The", lm::RunOptions{}, g, direct).ok);
  REQUIRE(state.lm.generated.size() == 10);
  for (int i = 0; i < 10; ++i) REQUIRE(state.lm.generated[i].token == direct[i].token);

  // Playing shows one more character per step, and stops at the end.
  REQUIRE(attn::apply_state_json(state, R"({"lm": {"shown": 0, "playing": true}})").ok);
  attn::update_results(state);
  REQUIRE(attn::advance_lm(state, 100.0));
  REQUIRE(state.settings.lm.shown == 1);
  REQUIRE_FALSE(attn::advance_lm(state, 100.01));  // too soon for the next
  REQUIRE(attn::advance_lm(state, 100.2));
  REQUIRE(state.settings.lm.shown == 2);

  // No 1/sqrt(d_k): the held-out samples' bits change from the model's own.
  REQUIRE(attn::apply_state_json(state, R"({"scale": "none", "lm": {"playing": false, "shown": 0}})").ok);
  attn::update_results(state);
  REQUIRE(state.lm.bits_now[0] != state.lm.bits_base[0]);
  // The ablation table fills a window per call with no time budget: each of the 4 heads
  // takes a call per sample and one to record its rise, which is the whole texts' rise.
  REQUIRE(attn::apply_state_json(state, R"({"panel": "language"})").ok);
  attn::update_results(state);
  REQUIRE(attn::lm_ablation_progress(state.lm, 2).head == -1);
  REQUIRE(attn::advance_lm_ablation(*state.lm_scene, state.settings.math, state.settings.lm, state.lm, 0.0));
  const attn::LmAblationProgress halfway = attn::lm_ablation_progress(state.lm, 2);
  REQUIRE(halfway.head == 0);
  REQUIRE(halfway.done == 0.5);  // the first of the two samples (one window each) scored
  int calls = 1;
  while (attn::advance_lm_ablation(*state.lm_scene, state.settings.math, state.settings.lm, state.lm, 0.0)) ++calls;
  REQUIRE(calls == 4 * 3);
  REQUIRE(attn::lm_ablation_progress(state.lm, 2).head == -1);
  const lm::LanguageModel& m = state.lm_scene->model;
  for (int head = 0; head < 4; ++head) {
    lm::RunOptions run = attn::lm_run_options(state.settings.math, state.settings.lm, m);
    double before = 0, after = 0;
    long long chars = 0;
    for (std::size_t i = 0; i < 2; ++i) {
      const std::vector<int> tokens = lm::entry_stream(m.vocabulary, {m.samples[i].text});
      const lm::Bits with = lm::score_tokens(m, tokens, run);
      run.ablated[static_cast<std::size_t>(head)] = 1;
      const lm::Bits without = lm::score_tokens(m, tokens, run);
      run.ablated[static_cast<std::size_t>(head)] = 0;
      before += with.bits;
      after += without.bits;
      chars += with.scored;
    }
    REQUIRE(state.lm.ablation_rise[head] == Approx((after - before) / static_cast<double>(chars)).margin(1e-9));
  }

  // A text longer than the context is refused; the scene is kept.
  const attn::Status st = attn::apply_state_json(state, "{\"sentence\": \"" + std::string(10000, 'x') + "\"}");
  REQUIRE(st.message == "the prompt has 10000 characters; the model reads at most 23");
  REQUIRE(state.settings.sentence == "The");
  REQUIRE_FALSE(attn::apply_state_json(state, R"({"sentence": ""})").ok);
  REQUIRE(attn::apply_state_json(state, R"({"lm": {"ablate": [0, 3, 3]}})").ok);
  REQUIRE(state.settings.lm.ablated == std::vector<int>{0, 3});
  REQUIRE(attn::apply_state_json(state, R"({"lm": {"ablate": [99]}})").message.find("'ablate' in 'lm'") != std::string::npos);
  REQUIRE(attn::apply_state_json(state, R"({"lm": {"speed": 1}})").message == "unknown key 'speed' in 'lm'");
}

TEST_CASE("language scene: a second model's held-out baseline and ablation table are its own", "[lm][app]") {
  attn::AppState state;
  const std::vector<std::uint8_t> first = tiny_model_file(20), second = tiny_model_file(40);
  REQUIRE(attn::load_lm_scene(state.lm_scene, first.data(), first.size(), "first").ok);
  REQUIRE(attn::apply_state_json(state, R"({"source": "language", "sentence": "The"})").ok);
  attn::update_results(state);
  const std::vector<double> first_base = state.lm.bits_base;
  // The same number of samples, other weights: the baseline is recomputed, not kept.
  REQUIRE(attn::load_lm_scene(state.lm_scene, second.data(), second.size(), "second").ok);
  REQUIRE(attn::apply_state_json(state, R"({"sentence": "The c"})").ok);
  attn::update_results(state);
  const lm::LanguageModel& m = state.lm_scene->model;
  REQUIRE(state.lm.bits_base.size() == 2);
  REQUIRE(state.lm.bits_base[0] != first_base[0]);
  const std::vector<int> tokens = lm::entry_stream(m.vocabulary, {m.samples[0].text});
  REQUIRE(state.lm.bits_base[0] == Approx(lm::score_tokens(m, tokens, lm::RunOptions{}).per_character()).epsilon(1e-12));
}

TEST_CASE("language scene: leaving it frees its text's results, keeps the held-out bits; coming back recomputes them", "[lm][app]") {
  attn::AppState state;
  const std::vector<std::uint8_t> bytes = tiny_model_file();
  REQUIRE(attn::load_lm_scene(state.lm_scene, bytes.data(), bytes.size(), "tiny").ok);
  const char* scene = R"({"source": "language", "sentence": "The", "panel": "language", "scale": "none", "lm": {"tokens": 10, "shown": 10}})";
  REQUIRE(attn::apply_state_json(state, scene).ok);
  attn::update_results(state);
  while (attn::advance_lm_ablation(*state.lm_scene, state.settings.math, state.settings.lm, state.lm, 0.0)) {
  }
  const attn::LmResults was = state.lm;
  REQUIRE(was.generated.size() == 10);
  REQUIRE(was.attention.logits.size() > 0);
  REQUIRE(was.ablation_rise.size() == 4);
  REQUIRE(was.ablation_rise[3] != -1.0);

  // Another scene: what only the text needed is gone (the soak measured 5 MB of it kept at
  // the shipped model's context), the per-model tables stay.
  REQUIRE(attn::apply_state_json(state, R"({"source": "generated", "sentence": "a b c"})").ok);
  attn::update_results(state);
  REQUIRE(state.settings.source == attn::SceneSource::Generated);
  REQUIRE(state.lm.text.empty());
  REQUIRE(state.lm.generated.empty());
  REQUIRE(state.lm.generated_for.empty());
  REQUIRE(state.lm.attention.logits.size() == 0);
  REQUIRE(state.lm.attention.trace.weights.empty());
  REQUIRE(state.lm.attention.tokens.empty());
  REQUIRE(state.lm.next.empty());
  REQUIRE(state.lm.labels.empty());
  REQUIRE(state.lm.ablation_job == nullptr);
  REQUIRE(state.lm.fingerprint == was.fingerprint);
  REQUIRE(state.lm.bits_base == was.bits_base);
  REQUIRE(state.lm.bits_now == was.bits_now);
  REQUIRE(state.lm.ablation_rise == was.ablation_rise);

  // Back: the same results as before leaving.
  REQUIRE(attn::apply_state_json(state, scene).ok);
  attn::update_results(state);
  REQUIRE(state.settings.source == attn::SceneSource::Language);
  REQUIRE(state.lm.text == was.text);
  REQUIRE(state.lm.generated.size() == 10);
  for (int i = 0; i < 10; ++i) REQUIRE(state.lm.generated[i].token == was.generated[i].token);
  REQUIRE((state.lm.attention.logits - was.attention.logits).cwiseAbs().maxCoeff() == 0.0f);
  REQUIRE(state.lm.bits_now == was.bits_now);
  REQUIRE(state.lm.ablation_rise == was.ablation_rise);
  REQUIRE(state.tokens.size() == was.attention.tokens.size());
}
