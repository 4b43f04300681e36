// What the state writes, it reads back: state_to_json's text passes apply_state_json and
// gives the same state. The fuzz target tests/fuzz/state_json.cpp checks this for every
// input it accepts; the cases here are the ones it found.
#include "app/app_state.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace {

// Applies the patch, computes, writes; then reads the text into a fresh state.
void require_round_trip(const nlohmann::json& patch) {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, patch.dump()).ok);
  attn::update_results(state);
  const std::string written = attn::state_to_json(state);
  attn::AppState again;
  const attn::Status st = attn::apply_state_json(again, written);
  INFO(st.message);
  REQUIRE(st.ok);
  attn::update_results(again);
  REQUIRE(attn::state_to_json(again) == written);
}

}  // namespace

TEST_CASE("a state at the float ends of its ranges reads back", "[app][state][fuzz]") {
  // Found by the state_json fuzz target: -1e30 and 0.01 are stored as floats and written as
  // the doubles -1.00000002e30 and 0.0099999998, which the range checks used to refuse.
  require_round_trip({{"maskFill", -1e30}});
  require_round_trip({{"temperature", 0.01}, {"compare", {{"enabled", true}, {"temperature", 0.01}, {"maskFill", -1e30}}}});
  require_round_trip({{"lab", {{"temperature", 0.05}}}});
}

TEST_CASE("values beyond the ranges are still refused, huge ones too", "[app][state][fuzz]") {
  attn::AppState state;
  REQUIRE_FALSE(attn::apply_state_json(state, R"({"maskFill": -1.1e30})").ok);
  REQUIRE_FALSE(attn::apply_state_json(state, R"({"maskFill": -1e300})").ok);
  REQUIRE_FALSE(attn::apply_state_json(state, R"({"temperature": 0.0099})").ok);
  REQUIRE_FALSE(attn::apply_state_json(state, R"({"temperature": 1e300})").ok);
  REQUIRE_FALSE(attn::apply_state_json(state, R"({"uiScale": -1e300})").ok);
  REQUIRE(state.settings.math.temperature == 1.0f);
  REQUIRE(state.settings.math.fill == attn::MaskFill::NegInfinity);
}
