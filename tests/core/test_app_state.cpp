#include "app/app_state.h"
#include "app/colormap.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

TEST_CASE("results are recomputed only when settings change", "[app]") {
  attn::AppState state;
  REQUIRE(attn::update_results(state));
  const auto revision = state.revision;
  REQUIRE_FALSE(attn::update_results(state));
  REQUIRE(state.revision == revision);
  state.settings.mask = attn::MaskKind::Causal;
  REQUIRE(attn::update_results(state));
  REQUIRE(state.revision == revision + 1);
  REQUIRE(state.result.weights(0, 1) == 0.0f);
}

TEST_CASE("state JSON: patches apply, bad ones change nothing", "[app][state]") {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, R"({"source":"worked-example","mask":"causal"})").ok);
  REQUIRE(state.settings.source == attn::SceneSource::WorkedExample);
  REQUIRE(state.settings.mask == attn::MaskKind::Causal);
  attn::update_results(state);
  REQUIRE(state.result.weights.rows() == 2);

  const attn::Settings before = state.settings;
  for (const char* bad : {"not json", "[1,2]", R"({"n": 0})", R"({"n": 5000})", R"({"n": "8"})",
                          R"({"n": 2.5})", R"({"mask": "diagonal"})", R"({"scale": "huge"})",
                          R"({"scale": 1e300})", R"({"seed": -1})", R"({"bogus": 1})",
                          R"({"dK": 4, "mask": 3})"}) {
    const attn::Status st = attn::apply_state_json(state, bad);
    INFO(bad);
    REQUIRE_FALSE(st.ok);
    REQUIRE_FALSE(st.message.empty());
    REQUIRE(state.settings == before);
  }

  // What getState returns can be fed back unchanged.
  const std::string text = attn::state_to_json(state);
  attn::AppState other;
  REQUIRE(attn::apply_state_json(other, text).ok);
  REQUIRE(other.settings == state.settings);
  const auto j = nlohmann::json::parse(text);
  REQUIRE(j["version"] == attn::kStateVersion);
  REQUIRE(j["scale"] == "default");
  REQUIRE(j["appliedScale"].get<double>() == Approx(1.0 / std::sqrt(2.0)));
}

TEST_CASE("custom scale reaches the math", "[app][state]") {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, R"({"source":"worked-example","scale":"none"})").ok);
  attn::update_results(state);
  REQUIRE(state.result.scale == 1.0f);
  REQUIRE(state.result.scores(0, 1) == 5.0f);
  REQUIRE(attn::apply_state_json(state, R"({"scale":0.5})").ok);
  attn::update_results(state);
  REQUIRE(state.result.scores(0, 1) == 2.5f);
}

TEST_CASE("sequential colormap: viridis ends, monotone lightness, LUT matches", "[colormap]") {
  const attn::Rgb8 lo = attn::colormap_at(attn::Colormap::Sequential, 0.0f);
  const attn::Rgb8 hi = attn::colormap_at(attn::Colormap::Sequential, 1.0f);
  REQUIRE((lo.r == 68 && lo.g == 1 && lo.b == 84));
  REQUIRE((hi.r == 253 && hi.g == 231 && hi.b == 37));
  const attn::Rgb8 mid = attn::colormap_at(attn::Colormap::Sequential, 0.5f);
  REQUIRE((mid.r == 33 && mid.g == 145 && mid.b == 140));
  // Luma rises along the scale, so it reads in greyscale too.
  float prev = -1.0f;
  for (int i = 0; i <= 100; ++i) {
    const attn::Rgb8 c = attn::colormap_at(attn::Colormap::Sequential, i / 100.0f);
    const float luma = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
    REQUIRE(luma > prev);
    prev = luma;
  }
  const auto lut = attn::colormap_lut_rgba(attn::Colormap::Sequential);
  REQUIRE(lut.size() == 4u * attn::kLutSize);
  const attn::Rgb8 c100 = attn::colormap_at(attn::Colormap::Sequential, 100.0f / 255.0f);
  REQUIRE((lut[400] == c100.r && lut[401] == c100.g && lut[402] == c100.b && lut[403] == 255));
}
