#include "app/state_schema.h"

#include "app/panel_registry.h"
#include "app/scaling_lab.h"
#include "app/scene.h"
#include "app/tour.h"
#include "app/view_choices.h"
#include "core/attention/positional.h"
#include "core/efficient/attention.h"
#include "core/io/import_attention.h"
#include "core/lm/evaluate.h"
#include "core/lm/language_model.h"
#include "core/train/model.h"
#include "files/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace attn {

using json = nlohmann::json;

namespace {

struct Key {
  std::string path;
  const char* kind;
  double min = 0, max = 0;
  std::vector<const char*> choices = {};
  int length = 0;
  const char* below = nullptr;
  const char* divides = nullptr;
  bool fixed = false;
  const char* needs_even_dk = nullptr;  // this choice needs d_k = dModel / heads even (rope)
};

// The names of a choice's table (core/base/choices.h) whose rows keep() accepts.
template <class Row, std::size_t N, class Keep>
std::vector<const char*> choice_ids(const Row (&table)[N], Keep keep) {
  std::vector<const char*> ids;
  for (const Row& row : table)
    if (keep(row)) ids.push_back(row.name);
  return ids;
}

template <class Row, std::size_t N>
std::vector<const char*> choice_ids(const Row (&table)[N]) {
  return choice_ids(table, [](const Row&) { return true; });
}

// The positional choice that needs an even d_k (the schema's needsEvenDk names one).
const char* even_dk_positional() {
  for (const PositionalInfo& row : kPositionals)
    if (row.even_dk) return row.name;
  return nullptr;
}

std::vector<const char*> panel_ids() {
  std::vector<const char*> ids;
  for (const PanelInfo& p : kPanels) ids.push_back(p.id);
  return ids;
}

// The ranges apply_state_json() accepts; the math keys appear twice, at the top level
// (side A) and under compare (side B).
std::vector<Key> make_keys() {
  std::vector<Key> k = {
      // The sources any state may choose; the others need a model or a file first.
      {"source", "enum", 0, 0, choice_ids(kSceneSources, [](const SceneSourceInfo& r) { return r.needs == SceneSourceNeeds::Nothing; })},
      {"sentence", "string"},
      {"panel", "enum", 0, 0, panel_ids()},
      {"dModel", "int", 1, kMaxDModel},
      {"heads", "int", 1, kMaxHeads, {}, 0, nullptr, "dModel"},
      {"positional", "enum", 0, 0, choice_ids(kPositionals), 0, nullptr, nullptr, false, even_dk_positional()},
      {"ropeBase", "number", 2, 1e7},
      {"ropePairing", "enum", 0, 0, choice_ids(kRopePairings)},
      {"seed", "int", 0, 9007199254740991.0},
      {"cursor", "token", -1, kMaxTokens - 1},
      // Imported files and trained models may have more heads and layers than a generated
      // scene (update_results clamps to what the scene has).
      {"head", "int", 0, kImportMaxHeads - 1, {}, 0, "heads"},
      {"diffHead", "int", 0, kImportMaxHeads - 1, {}, 0, "heads"},
      {"layer", "int", 0, std::max(kImportMaxLayers, train::kMaxLayers) - 1, {}, 0, nullptr, nullptr, true},
      {"tour", "int", 0, kTourSteps},
      {"compare.enabled", "bool"},
      {"theme", "enum", 0, 0, choice_ids(kThemes)},
      {"weightRange", "enum", 0, 0, choice_ids(kWeightRanges)},
      {"presentation", "bool"},
      {"uiScale", "number", 0.5, 4.0},
      {"language", "enum", 0, 0, choice_ids(kUiLanguages)},
      {"hideSpecial", "bool"},
      {"renormalise", "bool"},
      {"variants.kind", "enum", 0, 0, choice_ids(kEfficientKinds, [](const EfficientKindInfo& r) { return r.variant; })},
      {"variants.window", "int", 1, 1024},
      {"variants.stride", "int", 1, 1024},
      {"variants.block", "int", 1, 1024},
      {"variants.features", "int", 1, 4096},
      {"variants.rank", "int", 1, 1024},
      {"variants.causal", "bool"},
      {"variants.seed", "int", 0, 9007199254740991.0},
      // Raising it starts a cost chart (tens of seconds): a link keeps the default.
      {"variants.costChartRequest", "int", 0, 1 << 30, {}, 0, nullptr, nullptr, true},
      {"variants.paintAllow", "bool"},
      {"modern.shift", "int", 1, 256},
      {"modern.kvHeads", "int", 1, kMaxHeads},
      {"modern.layers", "int", 1, 256},
      {"modern.bytesPerValue", "int", 1, 8},
      {"modern.decodeStep", "int", 0, kMaxTokens},
      // Raising it measures decoding (a fraction of a second): a link keeps the default.
      {"modern.decodeRequest", "int", 0, 1 << 30, {}, 0, nullptr, nullptr, true},
      {"modern.blockQ", "int", 1, kMaxTokens},
      {"modern.blockK", "int", 1, kMaxTokens},
      {"modern.flashCausal", "bool"},
      {"modern.flashStep", "int", 0, 1 << 16},
      {"modern.sinkWindow", "int", 0, kMaxTokens},
      {"modern.sinks", "int", 0, kMaxTokens},
      {"modern.rowOffset", "number", -20, 5},
      // "indices": a list of distinct whole numbers from min to max (the heads switched off)
      {"lm.ablate", "indices", 0, lm::kLanguageModelLimits.layers * lm::kLanguageModelLimits.heads - 1},
      {"lm.half", "bool"},
      {"lm.tokens", "int", 1, kMaxLmTokens},
      {"lm.temperature", "number", 0, lm::kMaxTemperature},
      {"lm.topK", "int", 0, lm::kMaxVocabulary},
      {"lm.seed", "int", 0, 9007199254740991.0},
      {"lm.shown", "int", 0, kMaxLmTokens},
      {"lm.playing", "bool"},
      {"lab.q", "vector", -10, 10, {}, 2},
      {"lab.k", "vector", -10, 10, {}, 2},
      {"lab.kLong", "vector", -10, 10, {}, 2},
      {"lab.dk", "int", 1, 1024},
      {"lab.scaled", "bool"},
      {"lab.temperature", "number", 0.05, 20},
      {"lab.row", "list", -1e4, 1e4, {}, kScalingLabMaxRow},
      {"lab.half", "bool"},
      {"lab.wq", "vector", -10, 10, {}, 4},
      {"lab.wk", "vector", -10, 10, {}, 4},
      {"lab.wv", "vector", -10, 10, {}, 4},
  };
  for (const std::string side : {"", "compare."}) {
    auto path = [&](const char* name) { return side + name; };
    k.push_back({path("scale"), "enum|number", -100, 100, {"default", "none"}});
    k.push_back({path("temperature"), "number", 0.01, 100});
    k.push_back({path("score"), "enum", 0, 0, choice_ids(kScoreFunctions)});
    k.push_back({path("mask.causal"), "bool"});
    k.push_back({path("mask.window"), "int", 0, kMaxTokens});
    k.push_back({path("mask.stride"), "int", 0, kMaxTokens});
    k.push_back({path("mask.block"), "int", 0, kMaxTokens});
    k.push_back({path("mask.global"), "tokens"});
    k.push_back({path("mask.padding"), "tokens"});
    k.push_back({path("mask.painted"), "cells"});
    k.push_back({path("maskFill"), "enum|number", -1e30, 0, {"-inf"}});
  }
  return k;
}


const std::vector<Key>& keys() {
  static const std::vector<Key> k = make_keys();
  return k;
}

// Where a slider offers less than the state accepts: (path, min, max).
struct SliderRange {
  const char* path;
  double min, max;
};
constexpr SliderRange kSliderRanges[] = {
    {"dModel", 2, 128},       {"temperature", 0.05, 20}, {"scale", 0, 4},
    {"mask.window", 0, 64},   {"mask.stride", 0, 16},    {"mask.block", 0, 64},
    {"uiScale", 0.75, 3.0},   {"variants.features", 1, 512},
    {"lab.q", -5, 5},         {"lab.k", -5, 5},          {"lab.kLong", -5, 5},
    {"lab.row", -30, 30},  // the softmax panel's row; the stability panel offers the whole range
};

const json* at_path(const json& j, const std::string& path) {
  const json* node = &j;
  size_t from = 0;
  for (;;) {
    const size_t dot = path.find('.', from);
    const std::string key = path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
    if (dot == std::string::npos) return node;
    from = dot + 1;
  }
}

}  // namespace

float KeyRange::clamp(float v, float fallback) const {
  if (!std::isfinite(v)) return fallback;
  return std::clamp(v, static_cast<float>(min), static_cast<float>(max));
}

int KeyRange::clamp(int v) const {
  return static_cast<int>(std::clamp(static_cast<double>(v), min, max));
}

KeyRange key_range(std::string_view path) {
  for (const Key& k : keys())
    if (k.path == path) return {k.min, k.max};
  // A range asked for a key the schema lacks is a mistake in the code, not in any input: stop
  // at once (every test that reads or clamps a state reaches each of these calls).
  std::fprintf(stderr, "state_schema: no key '%.*s'\n", static_cast<int>(path.size()), path.data());
  std::abort();
}

KeyRange slider_range(std::string_view path) {
  for (const SliderRange& r : kSliderRanges)
    if (path == r.path) return {r.min, r.max};
  return key_range(path);
}

std::string schema_json(const json& defaults) {
  json out = json::array();
  for (const Key& k : keys()) {
    json e = {{"path", k.path}, {"kind", k.kind}};
    const std::string kind = k.kind;
    if (kind != "bool" && kind != "enum" && kind != "string" && kind != "tokens" && kind != "cells") {
      e["min"] = k.min;
      e["max"] = k.max;
    }
    if (!k.choices.empty()) e["choices"] = k.choices;
    if (k.length) e["length"] = k.length;
    if (k.below) e["below"] = k.below;
    if (k.divides) e["divides"] = k.divides;
    if (k.fixed) e["fixed"] = true;
    if (k.needs_even_dk) e["needsEvenDk"] = k.needs_even_dk;
    const json* d = at_path(defaults, k.path);
    e["default"] = d ? *d : json(nullptr);
    out.push_back(e);
  }
  return json_text(out);
}

}  // namespace attn
