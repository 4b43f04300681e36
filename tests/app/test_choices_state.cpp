// The state's choice keys read the core's tables (core/base/choices.h): the schema's choices,
// the reader and writer of each value, and the refusals that list the names.
#include "app/app_state.h"
#include "app/state_schema.h"
#include "app/variants_state.h"
#include "core/efficient/attention.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using json = nlohmann::json;

namespace {

json schema_key(const std::string& path) {
  static const json schema = json::parse(attn::state_schema_json());
  for (const json& key : schema)
    if (key["path"] == path) return key;
  FAIL("no key " << path << " in the schema");
  return {};
}

}  // namespace

TEST_CASE("the schema's choices are the tables' names", "[choices][state]") {
  CHECK(schema_key("variants.kind")["choices"].get<std::vector<std::string>>() == attn::efficient_variant_name_list());
  CHECK(schema_key("positional")["choices"].get<std::vector<std::string>>() == attn::choice_names(attn::kPositionals));
  CHECK(schema_key("positional")["needsEvenDk"] == json::array({"rope"}));
  // Any state may choose the sources that need nothing; the others once their model or file is loaded.
  CHECK(schema_key("source")["choices"] == json::array({"generated", "worked-example"}));
  CHECK(schema_key("source")["loadedChoices"] == json::array({"trained", "imported", "language"}));
  CHECK(schema_key("ropePairing")["choices"].get<std::vector<std::string>>() == attn::choice_names(attn::kRopePairings));
  CHECK(schema_key("score")["choices"].get<std::vector<std::string>>() == attn::choice_names(attn::kScoreFunctions));
  CHECK(schema_key("compare.score")["choices"].get<std::vector<std::string>>() == attn::choice_names(attn::kScoreFunctions));
}

TEST_CASE("every row of each state choice goes through the state's door and back by name", "[choices][state]") {
  attn::AppState state;
  for (const attn::PositionalInfo& row : attn::kPositionals) {
    REQUIRE(attn::apply_state_json(state, json{{"positional", row.name}}.dump()).ok);
    CHECK(state.settings.positional == row.value);
    CHECK(json::parse(attn::state_to_json(state))["positional"] == row.name);
  }
  for (const attn::RopePairingInfo& row : attn::kRopePairings) {
    REQUIRE(attn::apply_state_json(state, json{{"ropePairing", row.name}}.dump()).ok);
    CHECK(json::parse(attn::state_to_json(state))["ropePairing"] == row.name);
  }
  for (const attn::ScoreFunctionInfo& row : attn::kScoreFunctions) {
    REQUIRE(attn::apply_state_json(state, json{{"compare", {{"score", row.name}}}}.dump()).ok);
    CHECK(state.settings.compare_math.score == row.value);
    CHECK(json::parse(attn::state_to_json(state))["compare"]["score"] == row.name);
  }
  for (const attn::EfficientKindInfo& row : attn::kEfficientKinds) {
    const attn::Status st = attn::apply_state_json(state, json{{"variants", {{"kind", row.name}}}}.dump());
    REQUIRE(st.ok == row.variant);
    if (!row.variant) continue;
    CHECK(state.settings.variants.kind == row.value);
    CHECK(json::parse(attn::state_to_json(state))["variants"]["kind"] == row.name);
  }
}

TEST_CASE("a refused choice names the table's values", "[choices][state]") {
  attn::AppState state;
  CHECK(attn::apply_state_json(state, R"({"variants": {"kind": "exact"}})").message ==
        "'kind' in 'variants' must be one of window, strided, blocksparse, linear, performer, linformer");
  CHECK(attn::apply_state_json(state, R"({"positional": "learned"})").message ==
        "'positional' must be one of \"none\", \"sinusoidal\", \"rope\", \"alibi\"");
  CHECK(attn::apply_state_json(state, R"({"score": "bilinear"})").message ==
        "'score' must be one of \"dot\", \"cosine\", \"additive\"");
  CHECK(attn::apply_state_json(state, R"({"compare": {"score": 3}})").message ==
        "'score' in 'compare' must be one of \"dot\", \"cosine\", \"additive\"");
}

TEST_CASE("the scene's sources: any state chooses those that need nothing; the others wait for what they need",
          "[choices][state]") {
  // The schema offers the sources that need nothing first: generated and worked-example.
  CHECK(schema_key("source")["choices"].get<std::vector<std::string>>() ==
        std::vector<std::string>{"generated", "worked-example"});
  CHECK(attn::choice_names(attn::kSceneSources) ==
        std::vector<std::string>{"generated", "worked-example", "trained", "imported", "language"});
  attn::AppState state;
  for (const attn::SceneSourceInfo& row : attn::kSceneSources) {
    INFO(row.name);
    CHECK(std::string(attn::to_string(row.value)) == row.name);
    const attn::Status st = attn::apply_state_json(state, json{{"source", row.name}}.dump());
    switch (row.needs) {
      case attn::SceneSourceNeeds::Nothing:
      case attn::SceneSourceNeeds::LanguageModel:  // fetched once its scene is chosen
        REQUIRE(st.ok);
        CHECK(state.settings.source == row.value);
        CHECK(json::parse(attn::settings_to_json(state.settings))["source"] == row.name);
        break;
      case attn::SceneSourceNeeds::TrainedModel:
        CHECK(st.message == "the trained model is not loaded (yet)");
        break;
      case attn::SceneSourceNeeds::ImportedFile:
        CHECK(st.message == "'source' \"imported\" needs a loaded file (drop one on the page or use Import)");
        break;
    }
  }
  CHECK(attn::apply_state_json(state, R"({"source": "random"})").message ==
        "'source' must be one of \"generated\", \"worked-example\", \"trained\", \"imported\", \"language\"");
  CHECK(attn::apply_state_json(state, R"({"source": 1})").message.rfind("'source' must be one of \"generated\"", 0) == 0);
}

TEST_CASE("a kind without a causal form runs non-causal from the state", "[choices][state]") {
  attn::VariantSettings v;
  v.causal = true;
  for (const attn::EfficientKindInfo& row : attn::kEfficientKinds) {
    v.kind = row.value;
    CHECK(attn::efficient_config(v).causal == row.causal);
  }
}
