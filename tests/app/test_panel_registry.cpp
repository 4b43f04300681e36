// The panel registry (app/panel_registry.h) is the one list of panels: the state's parser,
// its error message, the schema and the JSON writer all follow it, and each panel's list of
// state keys names keys that exist.
#include "app/app_state.h"
#include "app/panel_registry.h"
#include "app/state_schema.h"

#include <array>
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>
#include <string>
#include <vector>

using nlohmann::json;

TEST_CASE("every registered panel is set by its id and written back under it", "[app][panels]") {
  std::set<std::string> ids;
  for (const attn::PanelInfo& p : attn::kPanels) {
    INFO(p.id);
    REQUIRE(ids.insert(p.id).second);  // ids are unique
    REQUIRE(attn::panel_from_id(p.id) == p.panel);
    REQUIRE(std::string(attn::to_string(p.panel)) == p.id);
    attn::AppState state;
    REQUIRE(attn::apply_state_json(state, json({{"panel", p.id}}).dump()).ok);
    REQUIRE(state.settings.panel == p.panel);
    REQUIRE(json::parse(attn::settings_to_json(state.settings))["panel"] == p.id);
  }
  REQUIRE(static_cast<int>(ids.size()) == attn::kPanelCount);
}

TEST_CASE("an unknown panel is refused with the registry's ids in the message, nothing changed", "[app][panels]") {
  attn::AppState state;
  state.settings.panel = attn::Panel::Heads;
  const attn::Status st = attn::apply_state_json(state, R"({"panel": "no-such-panel"})");
  REQUIRE_FALSE(st.ok);
  REQUIRE(st.message == "'panel' must be one of " + attn::panel_id_list());
  for (const attn::PanelInfo& p : attn::kPanels) REQUIRE(st.message.find(p.id) != std::string::npos);
  REQUIRE(state.settings.panel == attn::Panel::Heads);
  REQUIRE_FALSE(attn::apply_state_json(state, R"({"panel": 3})").ok);
}

TEST_CASE("the schema's panel choices are the registry's ids in its order", "[app][panels]") {
  const json schema = json::parse(attn::state_schema_json());
  json choices;
  for (const json& key : schema)
    if (key["path"] == "panel") choices = key["choices"];
  REQUIRE(choices.size() == attn::kPanels.size());
  for (size_t i = 0; i < attn::kPanels.size(); ++i) REQUIRE(choices[i] == attn::kPanels[i].id);
}

TEST_CASE("each panel's state keys exist in the settings' JSON", "[app][panels]") {
  const json settings = json::parse(attn::settings_to_json(attn::Settings{}));
  // training and scalingRun are written by the full state (their own settings objects).
  attn::AppState state;
  const json full = json::parse(attn::state_to_json(state));
  for (const attn::PanelInfo& p : attn::kPanels) {
    std::istringstream words(p.state_keys);
    int count = 0;
    for (std::string key; words >> key; ++count) {
      INFO(p.id << ": " << key);
      const json* node = settings.contains(key.substr(0, key.find('.'))) ? &settings : &full;
      for (std::size_t from = 0;;) {
        const std::size_t dot = key.find('.', from);
        const std::string part = key.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
        REQUIRE(node->is_object());
        REQUIRE(node->contains(part));
        node = &(*node)[part];
        if (dot == std::string::npos) break;
        from = dot + 1;
      }
    }
    INFO(p.id);
    REQUIRE(count > 0);
  }
}

TEST_CASE("panels cycle in the registry's order, both ways, wrapping around", "[app][panels]") {
  const attn::Panel first = attn::kPanels.front().panel, last = attn::kPanels.back().panel;
  REQUIRE(attn::panel_after(last, 1) == first);
  REQUIRE(attn::panel_after(first, -1) == last);
  REQUIRE(attn::panel_after(first, 1) == attn::kPanels[1].panel);
  REQUIRE(attn::panel_after(first, attn::kPanelCount) == first);
}

TEST_CASE("registry flags: the scaling lab's panels, and the panels that need scores", "[app][panels]") {
  REQUIRE(attn::is_scaling_lab_panel(attn::Panel::Variance));
  REQUIRE_FALSE(attn::is_scaling_lab_panel(attn::Panel::Pipeline));
  REQUIRE(attn::panel_info(attn::Panel::Pipeline).has(attn::kPanelNeedsScores));
  REQUIRE_FALSE(attn::panel_info(attn::Panel::Heads).has(attn::kPanelNeedsScores));
}

TEST_CASE("the registry follows the tutorial's chapters, each with at least one panel", "[app][panels]") {
  // The navigation shows the chapters in order and a chapter's panels together: the
  // registry's order must never go back to an earlier chapter.
  int chapter = 0;
  std::array<int, attn::kChapterCount> panels{};
  for (const attn::PanelInfo& p : attn::kPanels) {
    INFO(p.id);
    REQUIRE(static_cast<int>(p.chapter) >= chapter);
    chapter = static_cast<int>(p.chapter);
    ++panels[chapter];
  }
  for (int c = 0; c < attn::kChapterCount; ++c) {
    INFO(attn::chapter_id(static_cast<attn::Chapter>(c)));
    CHECK(panels[c] > 0);
  }
  CHECK(attn::kPanels.front().panel == attn::Panel::DotProduct);
}

TEST_CASE("the chapters' table: ten, in the tutorial's order, each id once and back to its chapter", "[app][panels]") {
  // The ids are public (getState()'s panels, the module's panels(), the page's navigation).
  CHECK(attn::choice_names(attn::kChapters) ==
        std::vector<std::string>{"similarity", "scaling", "softmax", "weighted-values", "order", "masks", "multi-head",
                                 "variants", "training", "your-model"});
  CHECK(attn::kChapterCount == 10);
  for (const attn::NamedChoice<attn::Chapter>& row : attn::kChapters) {
    INFO(row.name);
    REQUIRE(attn::choice_from_name(attn::kChapters, row.name) == &row);
    CHECK(attn::chapter_id(row.value) == row.name);
  }
  CHECK(attn::panel_info(attn::kPanels.front().panel).chapter == attn::Chapter::Similarity);
  CHECK(attn::panel_info(attn::kPanels.back().panel).chapter == attn::Chapter::YourModel);
}

TEST_CASE("which panels read which keys, and which use the scene's controls", "[app][panels]") {
  CHECK(attn::panel_reads_key(attn::Panel::Gqa, "modern"));          // modern.kvHeads and others
  CHECK(attn::panel_reads_key(attn::Panel::Gqa, "modern.kvHeads"));
  CHECK_FALSE(attn::panel_reads_key(attn::Panel::Gqa, "modern.kv"));  // a prefix of a name is not the key
  CHECK_FALSE(attn::panel_reads_key(attn::Panel::Variance, "sentence"));
  CHECK(attn::panel_reads_key(attn::Panel::Variance, "lab.dk"));
  for (attn::Panel p : {attn::Panel::Pipeline, attn::Panel::Mask, attn::Panel::Variants, attn::Panel::Flash, attn::Panel::QkSpace})
    CHECK(attn::panel_uses_scene_controls(p));
  for (attn::Panel p : {attn::Panel::DotProduct, attn::Panel::Variance, attn::Panel::Softmax, attn::Panel::Walkthrough,
                        attn::Panel::CostChart, attn::Panel::Training, attn::Panel::ModelView})
    CHECK_FALSE(attn::panel_uses_scene_controls(p));
}

TEST_CASE("a panel drawn from the generated scene's random projections is marked as such; learned and set scenes are not", "[app][panels]") {
  attn::Settings s;
  REQUIRE(s.source == attn::SceneSource::Generated);
  // The panels drawn from the scene's projections: every one reading the seed.
  std::vector<std::string> marked;
  for (const attn::PanelInfo& p : attn::kPanels) {
    s.panel = p.panel;
    if (attn::shows_random_projections(s)) marked.push_back(p.id);
  }
  CHECK(marked == std::vector<std::string>{"qk-space", "sinks", "pipeline", "token", "positions", "mask", "heads",
                                           "compare", "gqa", "scoring", "variants", "flash"});
  // The same panel from a scene whose projections were learned, set by hand or read from a file.
  s.panel = attn::Panel::Pipeline;
  for (attn::SceneSource source : {attn::SceneSource::WorkedExample, attn::SceneSource::Trained,
                                   attn::SceneSource::Imported, attn::SceneSource::Language}) {
    s.source = source;
    CHECK_FALSE(attn::shows_random_projections(s));
  }
  CHECK(attn::choice_row(attn::kSceneSources, attn::SceneSource::Generated).weights == attn::SceneWeights::Random);
  CHECK(attn::choice_row(attn::kSceneSources, attn::SceneSource::Language).weights == attn::SceneWeights::Learned);
}
