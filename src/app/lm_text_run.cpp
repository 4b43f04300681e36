#include "app/lm_text_run.h"

#include "app/app_messages.h"
#include "files/json_text.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace attn {
namespace {

using nlohmann::json;

// A report's number: finite, and whole where `whole`; false when absent.
bool number_at(const json& j, const char* key, bool whole, double& out, Status& bad) {
  if (!j.contains(key)) return false;
  const json& v = j[key];
  if (!v.is_number() || !std::isfinite(v.get<double>()) || (whole && std::floor(v.get<double>()) != v.get<double>())) {
    bad = Status::error(msg::app_lm_text_report_bad, key);
    return false;
  }
  out = v.get<double>();
  return true;
}

bool head_kind_from(const std::string& name, lm::HeadKind& out) {
  for (int k = 0; k <= lm::kHeadKinds; ++k)
    if (name == lm::head_kind_name(static_cast<lm::HeadKind>(k))) {
      out = static_cast<lm::HeadKind>(k);
      return true;
    }
  return false;
}

Status parse_heads(const json& list, std::vector<LmTextHead>& out) {
  const Status bad = Status::error(msg::app_lm_text_report_bad, "heads");
  if (!list.is_array() || list.size() > 64) return bad;
  for (const json& h : list) {
    LmTextHead row;
    if (!h.is_object() || !h.value("layer", json()).is_number_integer() || !h.value("head", json()).is_number_integer() ||
        !h.value("label", json()).is_string() || !h.value("score", json()).is_number() ||
        !h.value("previous", json()).is_number() || !head_kind_from(h["label"].get<std::string>(), row.label))
      return bad;
    row.layer = h["layer"].get<int>();
    row.head = h["head"].get<int>();
    row.score = h["score"].get<float>();
    row.previous = h["previous"].get<float>();
    out.push_back(row);
  }
  return Status::success();
}

}  // namespace

Status check_lm_text(LmTextRun& run, std::string_view text, const std::string& name, const std::string& preset) {
  lm::TextTrainOptions options;
  options.preset = preset;
  lm::TextSummary summary;
  if (Status st = lm::inspect_text(text, options, summary); !st.ok) {
    run.error = st;
    ++run.revision;
    return st;
  }
  LmTextRun fresh;
  fresh.available = run.available;
  fresh.phase = LmTextPhase::Ready;
  fresh.name = name;
  fresh.summary = summary;
  fresh.preset = preset;
  fresh.steps = lm::find_text_preset(preset)->steps;
  fresh.revision = run.revision + 1;
  run = std::move(fresh);
  return Status::success();
}

Status update_lm_text_run(LmTextRun& run, std::string_view text) {
  json j;
  if (Status st = parse_json(text, 4, msg::app_message_not_json, j); !st.ok) return st;
  if (!j.is_object()) return Status::error(msg::app_lm_text_report_bad, "not an object");
  LmTextRun next = run;
  Status bad;
  double v = 0;
  if (j.contains("phase")) {
    const auto* row = j["phase"].is_string() ? choice_from_name(kLmTextPhases, j["phase"].get<std::string>()) : nullptr;
    if (!row) return Status::error(msg::app_lm_text_report_bad, "phase");
    next.phase = row->value;
  }
  if (j.contains("preset")) {
    if (!j["preset"].is_string() || !lm::find_text_preset(j["preset"].get<std::string>()))
      return Status::error(msg::app_lm_text_report_bad, "preset");
    next.preset = j["preset"].get<std::string>();
  }
  if (number_at(j, "step", true, v, bad)) next.step = static_cast<int>(v);
  if (number_at(j, "steps", true, v, bad)) next.steps = static_cast<int>(v);
  if (number_at(j, "charactersPerSecond", false, v, bad)) next.characters_per_second = v;
  if (number_at(j, "seconds", false, v, bad)) next.seconds = v;
  if (number_at(j, "trainBits", false, v, bad)) {
    next.train_steps.push_back(next.step);
    next.train_bits.push_back(v);
  }
  if (number_at(j, "heldOutBits", false, v, bad)) {
    next.held_steps.push_back(next.step);
    next.held_bits.push_back(v);
  }
  if (number_at(j, "heldOutFinal", false, v, bad)) next.held_out_final = v;
  if (number_at(j, "headsStep", true, v, bad)) next.heads_step = static_cast<int>(v);
  if (!bad.ok) return bad;
  if (j.contains("heads")) {
    next.heads.clear();
    if (Status st = parse_heads(j["heads"], next.heads); !st.ok) return st;
  }
  if (j.contains("sample")) {
    const json& s = j["sample"];
    if (!s.is_object() || !s.value("prompt", json()).is_string() || !s.value("text", json()).is_string())
      return Status::error(msg::app_lm_text_report_bad, "sample");
    next.sample_prompt = s["prompt"].get<std::string>();
    next.sample = s["text"].get<std::string>();
  }
  if (j.contains("modelLoaded")) {
    if (!j["modelLoaded"].is_boolean()) return Status::error(msg::app_lm_text_report_bad, "modelLoaded");
    next.model_loaded = j["modelLoaded"].get<bool>();
  }
  if (j.contains("error")) {
    if (!j["error"].is_string()) return Status::error(msg::app_lm_text_report_bad, "error");
    next.error = Status::error(msg::app_lm_text_failed, j["error"].get<std::string>());
  } else if (next.phase == LmTextPhase::Training) {
    next.error = Status::success();  // a run under way has left any earlier refusal behind
  }
  if (next.step < 0 || next.steps < 0 || next.step > next.steps)
    return Status::error(msg::app_lm_text_report_bad, "step");
  ++next.revision;
  run = std::move(next);
  return Status::success();
}

json lm_text_run_json(const LmTextRun& r) {
  json j;
  j["available"] = r.available;
  j["phase"] = choice_row(kLmTextPhases, r.phase).name;
  j["name"] = r.name;
  j["preset"] = r.preset;
  j["characters"] = r.summary.split.characters;
  j["bytes"] = r.summary.bytes;
  j["trainCharacters"] = r.summary.split.train_characters;
  j["heldOutCharacters"] = r.summary.split.held_out_characters;
  j["distinct"] = r.summary.distinct;
  j["vocabulary"] = r.summary.vocabulary;
  j["rare"] = r.summary.rare;
  j["bigramBits"] = r.summary.bigram_bits;
  j["step"] = r.step;
  j["steps"] = r.steps;
  j["charactersPerSecond"] = r.characters_per_second;
  j["seconds"] = r.seconds;
  j["trainPoints"] = r.train_bits.size();
  j["heldOutSteps"] = r.held_steps;
  j["heldOutBits"] = r.held_bits;
  j["heldOutFinal"] = r.held_out_final;
  json heads = json::array();
  for (const LmTextHead& h : r.heads)
    heads.push_back({{"layer", h.layer}, {"head", h.head}, {"label", lm::head_kind_name(h.label)}, {"score", h.score},
                     {"previous", h.previous}});
  j["heads"] = heads;
  j["headsStep"] = r.heads_step;
  j["sample"] = r.sample;
  j["modelLoaded"] = r.model_loaded;
  j["error"] = r.error.message;
  return j;
}

}  // namespace attn
