#include "app/app_state.h"

#include "core/rng.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace attn {

using json = nlohmann::json;

const char* to_string(SceneSource s) {
  return s == SceneSource::WorkedExample ? "worked-example" : "random";
}

const char* to_string(MaskKind m) { return m == MaskKind::Causal ? "causal" : "none"; }

Settings clamped(Settings s) {
  s.n = std::clamp(s.n, 1, kMaxTokens);
  s.d_k = std::clamp(s.d_k, 1, kMaxDk);
  if (!std::isfinite(s.custom_scale)) s.custom_scale = 1.0f;
  s.custom_scale = std::clamp(s.custom_scale, -100.0f, 100.0f);
  return s;
}

bool update_results(AppState& state) {
  const Settings s = clamped(state.settings);
  state.settings = s;
  if (state.has_results && s == state.computed_for) return false;

  if (s.source == SceneSource::WorkedExample) {
    const WorkedExample ex = worked_example();
    state.q = ex.q;
    state.k = ex.k;
    state.v = ex.v;
  } else {
    Rng rng(s.seed);
    state.q = rng.normal_matrix(s.n, s.d_k);
    state.k = rng.normal_matrix(s.n, s.d_k);
    state.v = rng.normal_matrix(s.n, s.d_k);
  }
  AttentionOptions options;
  options.causal = s.mask == MaskKind::Causal;
  if (s.scale_mode == ScaleMode::None) options.scale = 1.0f;
  if (s.scale_mode == ScaleMode::Custom) options.scale = s.custom_scale;
  state.result = attention(state.q, state.k, state.v, options);
  state.computed_for = s;
  state.has_results = true;
  ++state.revision;
  return true;
}

std::string state_to_json(const AppState& state) {
  const Settings& s = state.settings;
  json j;
  j["version"] = kStateVersion;
  j["source"] = to_string(s.source);
  j["seed"] = s.seed;
  j["n"] = s.n;
  j["dK"] = s.d_k;
  if (s.scale_mode == ScaleMode::Default)
    j["scale"] = "default";
  else if (s.scale_mode == ScaleMode::None)
    j["scale"] = "none";
  else
    j["scale"] = s.custom_scale;
  j["mask"] = to_string(s.mask);
  j["appliedScale"] = state.has_results ? state.result.scale : 0.0f;
  return j.dump();
}

namespace {

// Reads an integer key if present; refuses non-integers.
Status read_int(const json& j, const char* key, long long lo, long long hi, long long& out) {
  if (!j.contains(key)) return Status::success();
  const json& v = j[key];
  if (!v.is_number_integer() && !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()))
    return Status::error(std::string("'") + key + "' must be an integer");
  const double d = v.get<double>();
  if (!(d >= static_cast<double>(lo) && d <= static_cast<double>(hi)))
    return Status::error(std::string("'") + key + "' must be between " + std::to_string(lo) +
                         " and " + std::to_string(hi));
  out = static_cast<long long>(d);
  return Status::success();
}

}  // namespace

Status apply_state_json(AppState& state, const std::string& json_text) {
  const json j = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::error("state is not valid JSON");
  if (!j.is_object()) return Status::error("state must be a JSON object");

  static const char* const kKnown[] = {"version", "source", "seed", "n", "dK",
                                       "scale", "mask", "appliedScale"};
  for (const auto& item : j.items()) {
    if (std::find_if(std::begin(kKnown), std::end(kKnown),
                     [&](const char* k) { return item.key() == k; }) == std::end(kKnown))
      return Status::error("unknown state key '" + item.key() + "'");
  }

  Settings s = state.settings;
  if (j.contains("source")) {
    const json& v = j["source"];
    if (v == "worked-example")
      s.source = SceneSource::WorkedExample;
    else if (v == "random")
      s.source = SceneSource::Random;
    else
      return Status::error("'source' must be \"worked-example\" or \"random\"");
  }
  long long value = 0;
  Status st;
  value = static_cast<long long>(s.seed & 0x1FFFFFFFFFFFFFull);
  if (!(st = read_int(j, "seed", 0, (1ll << 53) - 1, value)).ok) return st;
  s.seed = static_cast<std::uint64_t>(value);
  value = s.n;
  if (!(st = read_int(j, "n", 1, kMaxTokens, value)).ok) return st;
  s.n = static_cast<int>(value);
  value = s.d_k;
  if (!(st = read_int(j, "dK", 1, kMaxDk, value)).ok) return st;
  s.d_k = static_cast<int>(value);
  if (j.contains("scale")) {
    const json& v = j["scale"];
    if (v == "default") {
      s.scale_mode = ScaleMode::Default;
    } else if (v == "none") {
      s.scale_mode = ScaleMode::None;
    } else if (v.is_number() && std::isfinite(v.get<double>()) && std::fabs(v.get<double>()) <= 100.0) {
      s.scale_mode = ScaleMode::Custom;
      s.custom_scale = v.get<float>();
    } else {
      return Status::error("'scale' must be \"default\", \"none\" or a number in [-100, 100]");
    }
  }
  if (j.contains("mask")) {
    const json& v = j["mask"];
    if (v == "none")
      s.mask = MaskKind::None;
    else if (v == "causal")
      s.mask = MaskKind::Causal;
    else
      return Status::error("'mask' must be \"none\" or \"causal\"");
  }
  state.settings = clamped(s);
  return Status::success();
}

}  // namespace attn
