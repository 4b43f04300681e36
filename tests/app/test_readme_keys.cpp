// The table of the state's keys (app/state_schema.h) is the one list of them: the README's
// list of keys is exactly the table's (natively: the WebAssembly tests read no files), and the
// reader's unknown-key check follows the table in every object the keys sit in.
#include "app/state_schema.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

#ifndef __EMSCRIPTEN__
// README.md of the source tree: the tests run from its top (scripts/test.sh) or from a build
// folder inside it.
std::string readme_keys_text() {
  namespace fs = std::filesystem;
  for (fs::path dir = fs::current_path();; dir = dir.parent_path()) {
    if (fs::exists(dir / "README.md") && fs::exists(dir / "src" / "app" / "state_schema.h")) {
      std::ifstream in(dir / "README.md");
      std::stringstream text;
      text << in.rdbuf();
      return text.str();
    }
    if (dir == dir.parent_path()) return "";
  }
}
#endif

// The keys of the README's table of state keys: every `name` in the first cell of each row
// between its two markers, each as often as it is written.
std::vector<std::string> readme_state_keys(const std::string& text) {
  std::vector<std::string> keys;
  const size_t begin = text.find("<!-- state keys"), end = text.find("<!-- end of state keys -->");
  if (begin == std::string::npos || end == std::string::npos || end < begin) return keys;
  std::istringstream lines(text.substr(begin, end - begin));
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::string cell = line.substr(1, line.find(" | ", 1) - 1);
    for (size_t open = cell.find('`'); open != std::string::npos; open = cell.find('`', open)) {
      const size_t close = cell.find('`', open + 1);
      if (close == std::string::npos) break;
      keys.push_back(cell.substr(open + 1, close - open - 1));
      open = close + 1;
    }
  }
  return keys;
}

}  // namespace

#ifndef __EMSCRIPTEN__
TEST_CASE("the README lists the state's keys: exactly the table's, each once", "[state][readme]") {
  const std::string text = readme_keys_text();
  REQUIRE_FALSE(text.empty());
  const std::vector<std::string> listed = readme_state_keys(text);
  std::map<std::string, int> in_readme;
  for (const std::string& k : listed) ++in_readme[k];
  std::set<std::string> in_table;
  for (const attn::StateKey& k : attn::state_keys()) in_table.insert(k.path);
  REQUIRE(in_table.size() == attn::state_keys().size());
  for (const std::string& k : in_table) {
    INFO("the README's list of state keys lacks " << k);
    CHECK(in_readme.count(k) == 1);
  }
  for (const auto& [k, times] : in_readme) {
    INFO("the README lists " << k << " (" << times << " times), which the table lacks or has once");
    CHECK(in_table.count(k) == 1);
    CHECK(times == 1);
  }
  CHECK(listed.size() == in_table.size());
}
#endif

TEST_CASE("the README's list of keys is read row by row, every key of the first cell", "[state][readme]") {
  const std::string text =
      "before `x`\n<!-- state keys -->\n| keys | values |\n|---|---|\n| `a`, `b.c` | `v` \\| `w` |\n| `d` | 1 |\n"
      "<!-- end of state keys -->\n| `after` | |\n";
  CHECK(readme_state_keys(text) == std::vector<std::string>{"a", "b.c", "d"});
  CHECK(readme_state_keys("| `a` | no markers |").empty());
}

TEST_CASE("each object the keys sit in refuses a key the table lacks, and names the object", "[state]") {
  // The objects are the table's paths' prefixes; the messages name an object by its last part.
  const std::pair<const char*, const char*> cases[] = {
      {R"({"bogus":1})", "unknown key 'bogus'"},
      {R"({"mask":{"bogus":1}})", "unknown key 'bogus' in 'mask'"},
      {R"({"compare":{"bogus":1}})", "unknown key 'bogus' in 'compare'"},
      {R"({"compare":{"mask":{"bogus":1}}})", "unknown key 'bogus' in 'mask'"},
      {R"({"lab":{"bogus":1}})", "unknown key 'bogus' in 'lab'"},
      {R"({"variants":{"bogus":1}})", "unknown key 'bogus' in 'variants'"},
      {R"({"modern":{"bogus":1}})", "unknown key 'bogus' in 'modern'"},
      {R"({"lm":{"bogus":1}})", "unknown key 'bogus' in 'lm'"},
      {R"({"compare":{"mask":5}})", "'mask' in 'compare' must be an object"},
      {R"({"lm":[]})", "'lm' must be an object"},
  };
  for (const auto& [patch, message] : cases) {
    attn::AppState state;
    const std::string before = attn::settings_to_json(state.settings);
    const attn::Status st = attn::apply_state_json(state, patch);
    INFO(patch);
    REQUIRE_FALSE(st.ok);
    CHECK(st.message == message);
    CHECK(attn::settings_to_json(state.settings) == before);
  }
  // What state_to_json writes besides the settings is read back without complaint.
  attn::AppState state;
  attn::update_results(state);
  CHECK(attn::apply_state_json(state, attn::state_to_json(state)).ok);
}

TEST_CASE("every key of the table is written where its path says, and read back from there", "[state]") {
  attn::AppState state;
  attn::update_results(state);
  const std::string before = attn::settings_to_json(state.settings);
  const nlohmann::json written = attn::settings_json(state.settings);
  for (const attn::StateKey& k : attn::state_keys()) {
    INFO(k.path);
    std::string pointer = "/" + k.path;
    for (char& c : pointer)
      if (c == '.') c = '/';
    REQUIRE(written.contains(nlohmann::json::json_pointer(pointer)));
    // The key alone, at its place in a patch, is read back to the same settings.
    nlohmann::json patch;
    patch[nlohmann::json::json_pointer(pointer)] = written[nlohmann::json::json_pointer(pointer)];
    REQUIRE(attn::apply_state_json(state, patch.dump()).ok);
    REQUIRE(attn::settings_to_json(state.settings) == before);
  }
}
