// The explorer's caps (app_state.h: kMaxSentenceBytes, kMaxTokens, kMaxDModel, kMaxHeads)
// at the state's door, apply_state_json, and in clamped() (what the UI's controls and
// every recompute go through). Over the cap: a message naming the limit, and the previous
// state stays. README "Limits" lists every door.
#include "app/app_state.h"
#include "core/io/import_attention.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace {

// Applies a patch that must be refused, and checks the state is unchanged.
std::string refusal(const nlohmann::json& patch) {
  attn::AppState state;
  attn::update_results(state);
  const std::string before = attn::state_to_json(state);
  const attn::Status st = attn::apply_state_json(state, patch.dump());
  REQUIRE_FALSE(st.ok);
  REQUIRE(attn::state_to_json(state) == before);
  return st.message;
}

}  // namespace

TEST_CASE("limits: a sentence over kMaxSentenceBytes is refused even with few tokens", "[limits][app]") {
  const std::string one_long_word(attn::kMaxSentenceBytes + 1, 'a');
  REQUIRE(refusal({{"sentence", one_long_word}}) == "the text is 65537 bytes; the explorer takes at most 65536");
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, nlohmann::json{{"sentence", one_long_word.substr(1)}}.dump()).ok);
  attn::update_results(state);
  REQUIRE(state.tokens.size() == 1);
}

TEST_CASE("limits: dModel and heads over their caps are refused at the door and clamped inside", "[limits][app]") {
  REQUIRE(refusal({{"dModel", attn::kMaxDModel + 1}}) == "'dModel' must be between 1 and 256");
  REQUIRE(refusal({{"heads", attn::kMaxHeads + 1}}) == "'heads' must be between 1 and 16");
  // Imported files may have up to kImportMaxHeads heads: 'head' is refused past that, and
  // clamped to the scene's heads inside.
  REQUIRE(refusal({{"head", attn::kImportMaxHeads}}) == "'head' must be between 0 and 255");
  REQUIRE(refusal({{"cursor", attn::kMaxTokens}}) == "'cursor' must be between -1 and 1023");
  REQUIRE(refusal({{"mask", {{"window", attn::kMaxTokens + 1}}}}) == "'window' must be between 0 and 1024");

  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, nlohmann::json{{"dModel", attn::kMaxDModel}, {"heads", attn::kMaxHeads}}.dump()).ok);
  attn::update_results(state);
  REQUIRE(state.trace.status.ok);
  REQUIRE(state.trace.heads.size() == static_cast<size_t>(attn::kMaxHeads));

  attn::Settings s;
  s.d_model = 100000;
  s.heads = 1000;
  s.cursor = 5000;
  const attn::Settings c = attn::clamped(s, 10);
  REQUIRE(c.d_model == attn::kMaxDModel);
  REQUIRE(c.heads == attn::kMaxHeads);
  REQUIRE(c.cursor == 9);
}

TEST_CASE("limits: token index lists are capped at kMaxTokens entries", "[limits][app]") {
  nlohmann::json many = nlohmann::json::array();
  for (int i = 0; i <= attn::kMaxTokens; ++i) many.push_back(0);
  REQUIRE(refusal({{"mask", {{"global", many}}}}) == "'global' must be a list of at most 1024 token indices");
  REQUIRE(refusal({{"compare", {{"mask", {{"padding", many}}}}}}) == "'padding' must be a list of at most 1024 token indices");
}

TEST_CASE("limits: a state text over kMaxStateBytes is refused before it is parsed", "[limits][app]") {
  // Valid JSON, but 1 MiB + 1 bytes: refused for its size, not for what it holds.
  std::string padded = "{\"sentence\": \"a\"}";
  padded.insert(1, static_cast<size_t>(attn::kMaxStateBytes) + 1 - padded.size(), ' ');
  REQUIRE(padded.size() == static_cast<size_t>(attn::kMaxStateBytes) + 1);
  attn::AppState state;
  const attn::Status st = attn::apply_state_json(state, padded);
  REQUIRE_FALSE(st.ok);
  REQUIRE(st.message == "the state is 1048577 bytes; at most 1048576 are read");
  padded.erase(1, 1);
  REQUIRE(attn::apply_state_json(state, padded).ok);
  REQUIRE(state.settings.sentence == "a");
}
