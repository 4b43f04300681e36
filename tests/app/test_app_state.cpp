#include "app/app_state.h"
#include "app/state_schema.h"
#include "files/colormap.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <vector>

TEST_CASE("results are recomputed only when a scene setting changes", "[app]") {
  attn::AppState state;
  REQUIRE(attn::update_results(state));
  const auto revision = state.revision;
  REQUIRE_FALSE(attn::update_results(state));
  // View settings never recompute.
  state.settings.panel = attn::Panel::Heads;
  state.settings.cursor = 3;
  state.settings.theme = attn::Theme::HighContrast;
  REQUIRE_FALSE(attn::update_results(state));
  REQUIRE(state.revision == revision);
  state.settings.math.mask.causal = true;
  REQUIRE(attn::update_results(state));
  REQUIRE(state.revision == revision + 1);
  REQUIRE(state.trace.heads[0].weights(0, 1) == 0.0f);
}

TEST_CASE("frames have work while a run, a measurement or generation goes on, and not when idle", "[app]") {
  attn::AppState s;
  attn::update_results(s);
  REQUIRE_FALSE(attn::frames_have_work(s));
  s.cost_chart.running = true;
  REQUIRE(attn::frames_have_work(s));
  s.cost_chart.running = false;
  s.modern.decoding_running = true;
  REQUIRE(attn::frames_have_work(s));
  s.modern.decoding_running = false;
  REQUIRE(attn::apply_state_json(s, R"({"training": {"running": true}})").ok);
  REQUIRE(attn::frames_have_work(s));
  REQUIRE(attn::apply_state_json(s, R"({"training": {"running": false}})").ok);
  REQUIRE_FALSE(attn::frames_have_work(s));
}

TEST_CASE("a scaling change rescales the kept stages: the same results as a fresh state", "[app]") {
  // Temperature, scale kind and custom scale on both sides, with compare on and a causal mask:
  // after each change the trace, side B and the head figures equal a state computed afresh.
  attn::AppState state;
  state.settings.compare = true;
  state.settings.math.mask.causal = true;
  state.settings.compare_math.fill = attn::MaskFill::Finite;
  REQUIRE(attn::update_results(state));
  const std::vector<std::function<void(attn::Settings&)>> changes = {
      [](attn::Settings& s) { s.math.temperature = 0.4f; },
      [](attn::Settings& s) { s.compare_math.temperature = 2.0f; },
      [](attn::Settings& s) { s.math.scale_kind = attn::ScaleKind::Custom; s.math.custom_scale = 0.3f; },
      [](attn::Settings& s) { s.compare_math.scale_kind = attn::ScaleKind::None; },
  };
  for (size_t c = 0; c < changes.size(); ++c) {
    INFO("change " << c);
    const auto revision = state.revision;
    const attn::Mat before = state.trace.heads[1].weights;
    const float* raw_memory = state.trace.heads[0].raw_scores.data();
    changes[c](state.settings);
    REQUIRE(attn::update_results(state));
    REQUIRE(state.revision == revision + 1);
    REQUIRE(state.trace.heads[0].raw_scores.data() == raw_memory);  // rescaled in place, not run again
    attn::AppState fresh;
    fresh.settings = state.settings;
    REQUIRE(attn::update_results(fresh));
    for (size_t h = 0; h < state.trace.heads.size(); ++h) {
      REQUIRE(state.trace.heads[h].masked_scores == fresh.trace.heads[h].masked_scores);
      REQUIRE(state.trace.heads[h].weights == fresh.trace.heads[h].weights);
      REQUIRE(state.compare_trace.heads[h].weights == fresh.compare_trace.heads[h].weights);
      REQUIRE(state.head_metrics[h].mean_entropy == fresh.head_metrics[h].mean_entropy);
    }
    REQUIRE(state.trace.output == fresh.trace.output);
    if (c != 1 && c != 3) REQUIRE(state.trace.heads[1].weights != before);  // side A's changes move side A
  }
  // A change of anything else still computes every stage: a new seed gives new scores.
  const attn::Mat raw = state.trace.heads[0].raw_scores;
  const float* raw_memory = state.trace.heads[0].raw_scores.data();
  state.settings.seed = 7;
  REQUIRE(attn::update_results(state));
  REQUIRE(state.trace.heads[0].raw_scores != raw);
  REQUIRE(state.trace.heads[0].raw_scores.data() != raw_memory);
}

TEST_CASE("the default scene: the English sentence, 4 heads, tokens as labels", "[app]") {
  attn::AppState state;
  attn::update_results(state);
  REQUIRE(state.tokens.size() == 11);  // The cat sat on the mat because it was tired .
  REQUIRE(state.tokens[1] == "cat");
  REQUIRE(state.trace.status.ok);
  REQUIRE(state.trace.heads.size() == 4);
  REQUIRE(state.head_metrics.size() == 4);
  for (const auto& m : state.head_metrics) {
    REQUIRE(m.mean_entropy > 0.0f);
    REQUIRE(m.mean_entropy <= std::log(11.0f) + 1e-5f);
  }
}

TEST_CASE("state JSON: patches apply, bad ones change nothing", "[app][state]") {
  attn::AppState state;
  attn::update_results(state);
  REQUIRE(attn::apply_state_json(state, R"({"source":"worked-example","mask":{"causal":true}})").ok);
  REQUIRE(state.settings.source == attn::SceneSource::WorkedExample);
  REQUIRE(state.settings.math.mask.causal);
  attn::update_results(state);
  REQUIRE(state.trace.heads[0].weights.rows() == 2);
  REQUIRE(state.settings.heads == 1);  // locked by the worked example

  const attn::AppState before = state;
  for (const char* bad : {"not json", "[1,2]", R"({"heads": 0})", R"({"heads": 3, "dModel": 16, "source": "generated"})",
                          R"({"dModel": "8"})", R"({"cursor": 2.5})", R"({"mask": "diagonal"})",
                          R"({"mask": {"window": -1}})", R"({"mask": {"wobble": 1}})", R"({"scale": "huge"})",
                          R"({"scale": 1e300})", R"({"seed": -1})", R"({"bogus": 1})", R"({"temperature": 0})",
                          R"({"maskFill": 5})", R"({"panel": "nope"})", R"({"compare": {"score": "magic"}})",
                          R"({"sentence": 42})", R"({"version": 99})", R"({"theme": "neon"})"}) {
    const attn::Status st = attn::apply_state_json(state, bad);
    INFO(bad);
    REQUIRE_FALSE(st.ok);
    REQUIRE_FALSE(st.message.empty());
    REQUIRE(attn::state_to_json(state) == attn::state_to_json(before));
  }
  // What getState returns can be fed back unchanged.
  const std::string text = attn::state_to_json(state);
  attn::AppState other;
  REQUIRE(attn::apply_state_json(other, text).ok);
  attn::update_results(other);
  REQUIRE(attn::state_to_json(other) == text);
  const auto j = nlohmann::json::parse(text);
  REQUIRE(j["version"] == attn::kStateVersion);
  REQUIRE(j["scale"] == "default");
  REQUIRE(j["figures"]["appliedScale"].get<double>() == Approx(1.0 / std::sqrt(2.0)));
}

TEST_CASE("over the token cap the sentence is refused and the previous scene stays", "[app][state]") {
  attn::AppState state;
  attn::update_results(state);
  std::string long_text;
  for (int i = 0; i < 1025; ++i) long_text += "w ";
  const std::string patch = nlohmann::json{{"sentence", long_text}}.dump();
  const attn::Status st = attn::apply_state_json(state, patch);
  REQUIRE_FALSE(st.ok);
  REQUIRE(st.message == "the text has 1025 tokens; the explorer shows at most 1024");
  REQUIRE(state.settings.sentence == attn::kDefaultSentence);
  long_text.resize(long_text.size() - 2);  // exactly 1024 tokens are fine
  REQUIRE(attn::apply_state_json(state, nlohmann::json{{"sentence", long_text}}.dump()).ok);
  attn::update_results(state);
  REQUIRE(state.tokens.size() == 1024);
}

TEST_CASE("version 1 states are migrated", "[app][state]") {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, R"({"version":1,"source":"random","n":8,"dK":16,"mask":"causal","scale":"none"})").ok);
  REQUIRE(state.settings.source == attn::SceneSource::Generated);
  REQUIRE(state.settings.math.mask.causal);
  REQUIRE(state.settings.math.scale_kind == attn::ScaleKind::None);
}

TEST_CASE("compare mode computes side B with its own math", "[app]") {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, R"({"compare":{"enabled":true,"scale":"none"}})").ok);
  attn::update_results(state);
  REQUIRE(state.compare_trace.status.ok);
  REQUIRE(state.compare_trace.heads[0].scale == 1.0f);
  REQUIRE(state.trace.heads[0].scale == Approx(0.5f));  // d_k = 16 / 4 heads = 4
  // Unscaled scores are sharper: higher max weight on average.
  REQUIRE(attn::head_metrics(state.compare_trace.heads[0].weights).mean_max_weight >
          state.head_metrics[0].mean_max_weight);
}

TEST_CASE("padding and global tokens reach the mask; indices past the end are dropped", "[app]") {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, R"({"mask":{"padding":[10,2,2,500],"global":[0]}})").ok);
  attn::update_results(state);
  REQUIRE(state.settings.math.mask.padding_tokens == std::vector<int>{2, 10});
  const attn::Mat& w = state.trace.heads[1].weights;
  for (int i = 0; i < w.rows(); ++i) {
    REQUIRE(w(i, 2) == 0.0f);
    REQUIRE(w(i, 10) == 0.0f);
  }
}

TEST_CASE("custom scale reaches the math", "[app][state]") {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, R"({"source":"worked-example","scale":"none"})").ok);
  attn::update_results(state);
  REQUIRE(state.trace.heads[0].scale == 1.0f);
  REQUIRE(state.trace.heads[0].scaled_scores(0, 1) == 5.0f);
  REQUIRE(attn::apply_state_json(state, R"({"scale":0.5})").ok);
  attn::update_results(state);
  REQUIRE(state.trace.heads[0].scaled_scores(0, 1) == 2.5f);
}

TEST_CASE("colormaps: viridis ends, diverging white at zero, monotone lightness, LUT matches", "[colormap]") {
  const attn::Rgb8 lo = attn::colormap_at(attn::Colormap::Sequential, 0.0f);
  const attn::Rgb8 hi = attn::colormap_at(attn::Colormap::Sequential, 1.0f);
  REQUIRE((lo.r == 68 && lo.g == 1 && lo.b == 84));
  REQUIRE((hi.r == 253 && hi.g == 231 && hi.b == 37));
  const attn::Rgb8 mid = attn::colormap_at(attn::Colormap::Diverging, 0.5f);
  REQUIRE((mid.r == 247 && mid.g == 247 && mid.b == 247));
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

TEST_CASE("the view's choices read back every name they write and refuse others by name", "[state]") {
  attn::AppState state;
  for (const char* theme : {"dark", "light", "high-contrast"})
    for (const char* range : {"fixed", "row", "log"})
      for (const char* language : {"en", "zh"}) {
        const nlohmann::json patch = {{"theme", theme}, {"weightRange", range}, {"language", language}};
        INFO(patch.dump());
        REQUIRE(attn::apply_state_json(state, patch.dump()).ok);
        const auto j = nlohmann::json::parse(attn::state_to_json(state));
        CHECK(j["theme"] == theme);
        CHECK(j["weightRange"] == range);
        CHECK(j["language"] == language);
      }
  const std::string kept = attn::state_to_json(state);
  CHECK(attn::apply_state_json(state, R"({"theme": "neon"})").message ==
        "'theme' must be one of \"dark\", \"light\", \"high-contrast\"");
  CHECK(attn::apply_state_json(state, R"({"weightRange": 2})").message == "'weightRange' must be one of \"fixed\", \"row\", \"log\"");
  CHECK(attn::apply_state_json(state, R"({"language": "fr"})").message == "'language' must be one of \"en\", \"zh\"");
  CHECK(attn::state_to_json(state) == kept);
}

namespace {

// {"a": {"b": v}} for the path "a.b".
nlohmann::json patch_at(const std::string& path, const nlohmann::json& v) {
  nlohmann::json patch = v;
  for (std::size_t end = path.size(); end != std::string::npos;) {
    const std::size_t dot = path.rfind('.', end - 1);
    const std::size_t from = dot == std::string::npos ? 0 : dot + 1;
    patch = nlohmann::json{{path.substr(from, end - from), patch}};
    end = dot == std::string::npos ? std::string::npos : dot;
  }
  return patch;
}

}  // namespace

TEST_CASE("every key of the schema refuses each value of a wrong type, and the state stays", "[state]") {
  // The types a key of each kind never takes (enum|number takes strings and numbers; the
  // lists take arrays). A refusal names the key and changes nothing.
  const nlohmann::json schema = nlohmann::json::parse(attn::state_schema_json());
  const nlohmann::json wrong_values[] = {"x", 1.5, true, nullptr, nlohmann::json::array(), nlohmann::json::object(),
                                         nlohmann::json::array({"a", nullptr})};
  attn::AppState state;
  state.settings.heads = 2;
  attn::update_results(state);
  const std::string before = attn::state_to_json(state);
  int refusals = 0;
  for (const nlohmann::json& key : schema) {
    const std::string path = key["path"], kind = key["kind"];
    if (path == "version") continue;
    for (const nlohmann::json& v : wrong_values) {
      const bool number = v.is_number(), text = v.is_string(), boolean = v.is_boolean(), list = v.is_array();
      const bool fits = (kind == "bool" && boolean) || ((kind == "int" || kind == "token") && number) ||
                        (kind == "number" && number) || (kind == "enum" && text) || (kind == "enum|number" && (text || number)) ||
                        (kind == "string" && text) || ((kind == "tokens" || kind == "indices" || kind == "vector" || kind == "list") && list) ||
                        (kind == "cells" && text);
      if (fits) continue;
      const std::string patch = patch_at(path, v).dump();
      INFO(path << " (" << kind << ") <- " << patch);
      const attn::Status st = attn::apply_state_json(state, patch);
      REQUIRE_FALSE(st.ok);
      REQUIRE_FALSE(st.message.empty());
      REQUIRE(attn::state_to_json(state) == before);
      ++refusals;
    }
  }
  REQUIRE(refusals > 5 * static_cast<int>(schema.size()));
}

TEST_CASE("the state's door refuses ill-formed UTF-8, deep nesting and numbers JSON cannot hold", "[state]") {
  const std::pair<std::string, const char*> bad[] = {
      {"{\"sentence\":\"\xC0\x80\"}", "not UTF-8 (byte 13)"},
      {"{\"sentence\":\"\xED\xA0\x80\"}", "not UTF-8"},
      {"{\"sentence\":\"\xF5\x80\x80\x80\"}", "not UTF-8"},
      {"{\"\xED\xBF\xBF\":1}", "not UTF-8 (byte 2)"},
      {R"({"sentence":"\ud800"})", "state is not valid JSON"},
      {R"({"temperature":1e999})", "state is not valid JSON"},
      {R"({"temperature":NaN})", "state is not valid JSON"},
      {R"({"temperature":-Infinity})", "state is not valid JSON"},
      {R"({"temperature":1e39})", "'temperature' must be between"},
      {R"({"lab":{"q":)" + std::string(20, '[') + std::string(20, ']') + "}}", "nests more than 16 levels deep (byte 26)"},
      {std::string(100000, '{'), "nests more than 16 levels"},
  };
  attn::AppState state;
  attn::update_results(state);
  const std::string before = attn::state_to_json(state);
  for (const auto& [text, why] : bad) {
    INFO(text.substr(0, 80));
    const attn::Status st = attn::apply_state_json(state, text);
    REQUIRE_FALSE(st.ok);
    REQUIRE(st.message.find(why) != std::string::npos);
    REQUIRE(attn::state_to_json(state) == before);
  }
  // A sentence that reaches the settings by another way than a door is still checked.
  REQUIRE_FALSE(attn::check_sentence("cat \xE0\x80\x80").ok);
  REQUIRE(attn::check_sentence("猫 cat").ok);
}
