// The state in a URL fragment: a property test over every key of the state schema (random
// non-default values, generated from state_schema_json() alone), the schema's coverage of
// settings_to_json(), broken and hostile links, and links of schema version 1.
#include "app/app_state.h"
#include "app/state_schema.h"
#include "app/url_state.h"
#include "core/attention/tokenizer.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>

using nlohmann::json;

namespace {

const json& schema() {
  static const json s = json::parse(attn::state_schema_json());
  return s;
}

// Every leaf path of a settings object ("mask.causal", "lab.q", ...).
void leaf_paths(const json& j, const std::string& prefix, std::set<std::string>& out) {
  for (const auto& item : j.items()) {
    const std::string p = prefix.empty() ? item.key() : prefix + "." + item.key();
    if (item.value().is_object()) leaf_paths(item.value(), p, out);
    else out.insert(p);
  }
}

void set_path(json& j, const std::string& path, const json& v) {
  json* node = &j;
  size_t from = 0;
  for (size_t dot; (dot = path.find('.', from)) != std::string::npos; from = dot + 1)
    node = &(*node)[path.substr(from, dot - from)];
  (*node)[path.substr(from)] = v;
}

json get_path(const json& j, const std::string& path) {
  const json* node = &j;
  size_t from = 0;
  for (size_t dot; (dot = path.find('.', from)) != std::string::npos; from = dot + 1)
    node = &(*node)[path.substr(from, dot - from)];
  return (*node)[path.substr(from)];
}

// A random legal value for a schema entry, different from its default when it can be.
json random_value(const json& e, const json& patch, int n_tokens, std::mt19937& rng) {
  const std::string kind = e["kind"];
  const json def = e["default"];
  // Kept a hair inside the range, so rounding to float never steps outside it.
  auto uniform = [&](double lo, double hi) {
    const double margin = (hi - lo) * 1e-6;
    return std::uniform_real_distribution<double>(lo + margin, hi - margin)(rng);
  };
  auto integer = [&](long long lo, long long hi) { return std::uniform_int_distribution<long long>(lo, hi)(rng); };
  auto as_float = [](double d) { return static_cast<double>(static_cast<float>(d)); };
  std::vector<json> other;  // the choices other than the default (and legal for the patch so far)
  const json even_dk = e.value("needsEvenDk", json::array());  // the choices that need an even d_k
  const bool odd_dk = !even_dk.empty() &&
                      (get_path(patch, "dModel").get<long long>() / get_path(patch, "heads").get<long long>()) % 2 != 0;
  if (e.contains("choices"))
    for (const json& c : e["choices"])
      if (c != def && !(odd_dk && std::find(even_dk.begin(), even_dk.end(), c) != even_dk.end())) other.push_back(c);
  auto pick = [&]() { return other[integer(0, static_cast<long long>(other.size()) - 1)]; };
  for (int attempt = 0; attempt < 100; ++attempt) {
    json v;
    if (kind == "bool") v = !def.get<bool>();
    else if (kind == "enum") v = pick();
    else if (kind == "enum|number") v = !other.empty() && integer(0, 1) ? pick() : json(as_float(uniform(e["min"], e["max"])));
    else if (kind == "number") v = as_float(uniform(e["min"], e["max"]));
    else if (kind == "string") v = patch["sentence"];
    else if (kind == "token") v = integer(0, n_tokens - 1);
    else if (kind == "tokens") {
      json list = json::array();
      for (int t = 0; t < n_tokens; ++t)
        if (integer(0, 2) == 0) list.push_back(t);
      v = list;
    } else if (kind == "cells") {  // painted mask cells: "row:col+" / "row:col-", sorted, one per cell
      std::map<std::pair<long long, long long>, char> cells;
      for (long long c = integer(1, 4); c > 0; --c) cells[{integer(0, n_tokens - 1), integer(0, n_tokens - 1)}] = integer(0, 1) ? '+' : '-';
      std::string text;
      for (const auto& [cell, sign] : cells)
        text += (text.empty() ? "" : " ") + std::to_string(cell.first) + ":" + std::to_string(cell.second) + sign;
      v = text;
    } else if (kind == "indices") {
      json list = json::array();
      for (long long i = e["min"].get<long long>(); i <= e["max"].get<long long>(); ++i)
        if (integer(0, 3) == 0) list.push_back(i);
      v = list;
    } else if (kind == "vector" || kind == "list") {
      const int len = kind == "vector" ? e["length"].get<int>() : static_cast<int>(integer(1, e["length"].get<int>()));
      json list = json::array();
      for (int i = 0; i < len; ++i) list.push_back(as_float(uniform(e["min"], e["max"])));
      v = list;
    } else if (kind == "int") {
      long long lo = e["min"], hi = e["max"];
      if (e.contains("below")) hi = get_path(patch, e["below"]).get<long long>() - 1;
      if (e.contains("divides")) {
        const long long of = get_path(patch, e["divides"]);
        long long d = integer(lo, std::min(hi, of));
        while (of % d != 0) --d;
        v = d;
      } else {
        v = integer(lo, std::max(lo, hi));
      }
    }
    if (v != def) return v;
  }
  return def;  // only the default is legal here (e.g. head when heads = 1)
}

// Settings patch with every schema key set at random (source "generated" unless asked).
json random_patch(std::mt19937& rng, bool worked_example) {
  static const char* words[] = {"cat", "mat", "a&b", "x=y", "50%", "#tag", "\"q\"", "+", "猫", "追", "老鼠", "naïve", "12", "true"};
  json patch = json::object();
  std::string sentence;
  const int count = std::uniform_int_distribution<int>(6, 14)(rng);
  for (int i = 0; i < count; ++i) sentence += std::string(i ? " " : "") + words[std::uniform_int_distribution<int>(0, 13)(rng)];
  patch["sentence"] = sentence;
  const int n = static_cast<int>(attn::tokenize(sentence).size());
  for (const json& e : schema()) {
    if (e.value("fixed", false)) continue;
    const std::string path = e["path"];
    if (path == "source") set_path(patch, path, worked_example ? "worked-example" : "generated");
    else if (path != "sentence") set_path(patch, path, random_value(e, patch, n, rng));
  }
  return patch;
}

// The settings as update_results() leaves them (token indices clamped to the sentence),
// without computing the scene and the lab's figures, which this test does not need.
std::string settings_of(attn::AppState& s) {
  const int n = s.settings.source == attn::SceneSource::WorkedExample
                    ? 2
                    : static_cast<int>(attn::tokenize(s.settings.sentence).size());
  s.settings = attn::clamped(s.settings, n);
  return attn::settings_to_json(s.settings);
}

}  // namespace

TEST_CASE("the schema lists every key of the settings, and only those", "[url]") {
  std::set<std::string> in_json, in_schema;
  leaf_paths(json::parse(attn::settings_to_json(attn::Settings{})), "", in_json);
  in_json.erase("version");
  for (const json& e : schema()) in_schema.insert(e["path"].get<std::string>());
  REQUIRE(in_json == in_schema);
}

TEST_CASE("every state key round-trips through the URL fragment (random non-default values)", "[url]") {
  std::mt19937 rng(20261130);
  std::set<std::string> non_default;  // keys seen away from their default after a round trip
  for (int trial = 0; trial < 40; ++trial) {
    const json patch = random_patch(rng, trial % 6 == 5);
    attn::AppState a;
    const attn::Status st = attn::apply_state_json(a, patch.dump());
    INFO("patch " << patch.dump());
    REQUIRE(st.ok);
    const std::string want = settings_of(a);
    const std::string fragment = attn::settings_to_fragment(a.settings);
    INFO("fragment " << fragment);
    attn::AppState b;
    b.settings.sentence = "something else";  // a link replaces the whole state
    REQUIRE(attn::load_fragment(b, "#" + fragment).ok);
    REQUIRE(settings_of(b) == want);
    const json got = json::parse(want);
    for (const json& e : schema())
      if (get_path(got, e["path"]) != e["default"]) non_default.insert(e["path"].get<std::string>());
  }
  for (const json& e : schema()) {
    INFO("key " << e["path"]);
    CHECK((e.value("fixed", false) || non_default.count(e["path"].get<std::string>()) == 1));
  }
}

TEST_CASE("a fragment lists only what differs from the defaults, readably", "[url]") {
  attn::AppState s;
  REQUIRE(attn::settings_to_fragment(s.settings) == "v=4");
  REQUIRE(attn::apply_state_json(s, R"({"sentence":"a b & c","mask":{"causal":true},"temperature":0.1,"lab":{"q":[1,2.5]}})").ok);
  REQUIRE(attn::settings_to_fragment(s.settings) ==
          "v=4&lab.q=[1,2.5]&mask.causal=true&sentence=a%20b%20%26%20c&temperature=0.1");
  // A sentence that reads as JSON is quoted, so it stays a string.
  REQUIRE(attn::apply_state_json(s, R"({"sentence":"42"})").ok);
  attn::AppState t;
  REQUIRE(attn::load_fragment(t, attn::settings_to_fragment(s.settings)).ok);
  REQUIRE(t.settings.sentence == "42");
}

TEST_CASE("version 2 links and states: positional true/false become sinusoidal/none; version 3 wants a choice", "[url]") {
  attn::AppState a;
  REQUIRE(attn::load_fragment(a, "v=2&panel=token&positional=false").ok);
  CHECK(a.settings.positional == attn::Positional::None);
  CHECK(attn::settings_to_fragment(a.settings) == "v=4&panel=token&positional=none");
  attn::AppState b;
  b.settings.positional = attn::Positional::Rope;
  REQUIRE(attn::apply_state_json(b, R"({"version": 2, "positional": true})").ok);
  CHECK(b.settings.positional == attn::Positional::Sinusoidal);
  // A version 3 state (or a patch without a version) with a switch is refused, naming the choices.
  const attn::Status st = attn::apply_state_json(b, R"({"positional": false})");
  REQUIRE_FALSE(st.ok);
  CHECK(st.message.find("one of \"none\", \"sinusoidal\", \"rope\", \"alibi\"") != std::string::npos);
  CHECK(b.settings.positional == attn::Positional::Sinusoidal);
  REQUIRE(attn::apply_state_json(b, R"({"positional": "alibi"})").ok);
  CHECK(b.settings.positional == attn::Positional::Alibi);
  // RoPE with an odd d_k is refused at the door and the previous choice kept.
  const attn::Status odd = attn::apply_state_json(b, R"({"dModel": 12, "heads": 4, "positional": "rope"})");
  REQUIRE_FALSE(odd.ok);
  CHECK(odd.message == "RoPE turns pairs of coordinates: d_k = dModel / heads = 3 must be even");
  CHECK(b.settings.positional == attn::Positional::Alibi);
  CHECK(b.settings.d_model == 16);
}

TEST_CASE("a broken or hostile link gives the defaults and a notice, never a crash", "[url]") {
  const std::string bad[] = {
      "v=2&dModel=99999", "v=2&dModel", "v=2&sentence=%ZZ", "v=9", "v=2&nonsense=1", "v=2&mask=1&mask.causal=true",
      "v=2&mask.causal=true&mask.causal=false", "v=2&a..b=1", "v=2&heads=3", "v=2&sentence=%FF%FE",
      "v=2&" + std::string(2 << 20, 'x'), "v=2&panel=<script>", "v=2&a.b.c.d.e.f.g.h.i=1", "v=2&temperature=NaN",
      "v=2&lab.row=[]", "v=2&cursor=1e400",
  };
  for (const std::string& fragment : bad) {
    INFO("fragment " << fragment.substr(0, 80));
    attn::AppState s;
    s.settings.heads = 2;  // not the default: a bad link resets to the defaults
    const attn::Status st = attn::load_fragment(s, fragment);
    REQUIRE_FALSE(st.ok);
    REQUIRE(attn::settings_to_json(s.settings) == attn::settings_to_json(attn::Settings{}));
    REQUIRE(s.notice.message.rfind("The link's state was ignored: ", 0) == 0);
    REQUIRE_NOTHROW(attn::state_to_json(s));
  }
}

TEST_CASE("a link with ill-formed UTF-8, deep nesting or non-finite numbers is refused with its reason", "[url]") {
  // Each class of ill-formed UTF-8 (overlong, surrogate, beyond U+10FFFF, lead bytes F5-FF,
  // lone continuation, cut sequences), in the sentence, in another string key and inside a
  // JSON value; nesting past the state's depth, also under a dotted path; numbers JSON cannot
  // hold. The reason is the gate's, and the state written afterwards is valid JSON.
  const std::pair<std::string, std::string> bad[] = {
      {"v=3&sentence=%C0%80", "is not UTF-8 text"},
      {"v=3&sentence=a%E0%80%80b", "is not UTF-8 text"},
      {"v=3&sentence=%F0%80%80%80", "is not UTF-8 text"},
      {"v=3&sentence=%ED%A0%80", "is not UTF-8 text"},
      {"v=3&sentence=%ED%BF%BF", "is not UTF-8 text"},
      {"v=3&sentence=%F4%90%80%80", "is not UTF-8 text"},
      {"v=3&sentence=%F5%80%80%80", "is not UTF-8 text"},
      {"v=3&sentence=%F7%BF%BF%BF", "is not UTF-8 text"},
      {"v=3&sentence=cat%80", "is not UTF-8 text"},
      {"v=3&sentence=cat%E7%8C", "is not UTF-8 text"},
      {"v=3&sentence=%E7%8C%20x", "is not UTF-8 text"},
      {"v=3&theme=%C0%80", "is not UTF-8 text"},
      {"v=3&lm.ablate=[%22%ED%A0%80%22]", "is not UTF-8 text"},
      {"v=3&sentence=" + std::string(3000, '['), "the value of 'sentence' in the link nests more than 15 levels deep"},
      {"v=3&lab.q=" + std::string(3000, '[') + std::string(3000, ']'), "'lab.q' in the link nests more than 14 levels"},
      {"v=3&mask.painted=" + std::string(40, '{'), "'mask.painted' in the link nests more than 14"},
      {"v=3&lab.row=" + std::string(15, '[') + "1" + std::string(15, ']'), "'lab.row' in the link nests more than 14 levels"},
      {"v=3&temperature=1e999", "'temperature' must be a number"},
      {"v=3&temperature=-1e999", "'temperature' must be a number"},
      {"v=3&temperature=Infinity", "'temperature' must be a number"},
      {"v=3&scale=1e39", "'scale' must be"},
  };
  for (const auto& [fragment, why] : bad) {
    INFO("fragment " << fragment.substr(0, 80));
    attn::AppState s;
    s.settings.heads = 2;
    const attn::Status st = attn::load_fragment(s, fragment);
    REQUIRE_FALSE(st.ok);
    REQUIRE(st.message.find(why) != std::string::npos);
    REQUIRE(attn::settings_to_json(s.settings) == attn::settings_to_json(attn::Settings{}));
    REQUIRE(s.notice.message.rfind("The link's state was ignored: ", 0) == 0);
    REQUIRE(json::parse(attn::state_to_json(s)).is_object());
    REQUIRE(attn::settings_to_fragment(s.settings) == "v=4");
  }
}

TEST_CASE("a sentence that looks like deep JSON round-trips through a link as a string", "[url]") {
  for (const std::string& sentence : {std::string(40, '[') + std::string(40, ']'), std::string(30, '{'), std::string("[1]"),
                                    std::string(16, '['), std::string(15, '[')}) {
    attn::Settings settings;
    settings.sentence = sentence;
    attn::AppState s;
    const attn::Status st = attn::load_fragment(s, attn::settings_to_fragment(settings));
    INFO(st.message);
    REQUIRE(st.ok);
    REQUIRE(s.settings.sentence == sentence);
  }
}

TEST_CASE("links of schema version 1 still open", "[url]") {
  attn::AppState s;
  REQUIRE(attn::load_fragment(s, "#v=1&source=random&n=8&dK=16&mask=causal&scale=none").ok);
  REQUIRE(s.settings.math.mask.causal);
  REQUIRE(s.settings.math.scale_kind == attn::ScaleKind::None);
  REQUIRE(s.settings.source == attn::SceneSource::Generated);
}

TEST_CASE("version 3 links of the language model's scene keep greedy generation; new ones sample", "[url][lm]") {
  attn::AppState fresh;
  REQUIRE(fresh.settings.lm.temperature == attn::kLmDefaultTemperature);
  REQUIRE(fresh.settings.lm.top_k == attn::kLmDefaultTopK);
  REQUIRE(attn::kLmDefaultTemperature > 0.0f);
  // A v3 link of the scene: greedy, every token, as it showed then; and a link made now of
  // that state says so, so it shows the same.
  attn::AppState old;
  REQUIRE(attn::load_fragment(old, "v=3&source=language&sentence=Love%20is&lm.tokens=30").ok);
  REQUIRE(old.settings.lm.temperature == 0.0f);
  REQUIRE(old.settings.lm.top_k == 0);
  REQUIRE(old.settings.lm.tokens == 30);
  const std::string now = attn::settings_to_fragment(old.settings);
  REQUIRE(now.find("lm.temperature=0") != std::string::npos);
  REQUIRE(now.find("lm.topK=0") != std::string::npos);
  attn::AppState again;
  REQUIRE(attn::load_fragment(again, now).ok);
  REQUIRE(again.settings.lm == old.settings.lm);
  // A v3 link that chose its own sampling keeps it; one of another scene is untouched.
  attn::AppState chose;
  REQUIRE(attn::load_fragment(chose, "v=3&source=language&lm.temperature=1.5").ok);
  REQUIRE(chose.settings.lm.temperature == 1.5f);
  REQUIRE(chose.settings.lm.top_k == 0);
  attn::AppState other;
  REQUIRE(attn::load_fragment(other, "v=3&panel=token").ok);
  REQUIRE(other.settings.lm.temperature == attn::kLmDefaultTemperature);
  // A v4 link, and a session without a version, sample by default.
  attn::AppState v4;
  REQUIRE(attn::load_fragment(v4, "v=4&source=language").ok);
  REQUIRE(v4.settings.lm.temperature == attn::kLmDefaultTemperature);
  attn::AppState session;
  REQUIRE(attn::load_settings_json(session, R"({"version": 3, "source": "language"})").ok);
  REQUIRE(session.settings.lm.temperature == 0.0f);
}
