#include "app/lm_patch.h"

#include "core/lm/generate.h"
#include "files/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>

namespace attn {

using nlohmann::json;

// Found on the shipped model (attnlab-cli lm-patch over candidate pairs; docs/LANGUAGE-MODEL.md,
// "Activation patching"): each changes one character and one head restores most of the gap.
const LmPatchPreset kLmPatchPresets[] = {
    // The character before the last changed: head 0.3, the previous-character head, restores
    // 0.87 of the gap, no other head more than 0.18.
    {"previous", "If at first you do not succeed, try, try aga", "If at first you do not succeed, try, try aya", "i", "n"},
    // The word before the last changed: head 1.1, a word-start head, restores 0.98.
    {"word", "A friend in need is a friend ind", "A friend in need is a friend and", "e", " "},
};
const int kLmPatchPresetCount = static_cast<int>(std::size(kLmPatchPresets));

LmPatchSettings with_lm_patch_preset(LmPatchSettings s, int index) {
  const LmPatchPreset& p = kLmPatchPresets[std::clamp(index, 0, kLmPatchPresetCount - 1)];
  s.clean = p.clean;
  s.corrupt = p.corrupt;
  s.answer = p.answer;
  s.foil = p.foil;
  return s;
}

LmPatchSettings default_lm_patch_settings() { return with_lm_patch_preset(LmPatchSettings{}, 0); }

namespace {

// The clean prompt's attention from its last position, per head, and where the prompts first
// differ (both read as the job read them: it accepted them).
void clean_last_row(const lm::LanguageModel& model, const LmPatchSettings& settings, LmPatchResults& r) {
  lm::Encoded clean_encoded, corrupt_encoded;
  std::vector<int> clean, corrupt;
  r.last_row.clear();
  r.changed = -1;
  if (!lm::read_prompt(model, settings.clean, clean_encoded, clean).ok ||
      !lm::read_prompt(model, settings.corrupt, corrupt_encoded, corrupt).ok || clean.size() != corrupt.size())
    return;
  for (std::size_t i = 0; i < clean.size() && r.changed < 0; ++i)
    if (clean[i] != corrupt[i]) r.changed = static_cast<int>(i);
  lm::Runner runner(model, lm::RunOptions{});
  lm::FeedTrace trace;
  Mat logits;
  runner.feed(clean.data(), static_cast<int>(clean.size()), logits, &trace);
  for (const Mat& w : trace.weights)
    for (Eigen::Index j = 0; j < w.cols(); ++j) r.last_row.push_back(w(w.rows() - 1, j));
}

// The grid as drawn: the fractions, 0 where undefined or not yet computed.
void refresh_grid(LmPatchResults& r) {
  const lm::PatchResult& p = r.result;
  r.grid = Mat::Zero(p.rows, p.cols);
  for (int i = 0; i < p.rows * p.cols; ++i)
    if (std::isfinite(p.restored[static_cast<std::size_t>(i)])) r.grid.data()[i] = p.restored[static_cast<std::size_t>(i)];
  ++r.version;
}

}  // namespace

bool update_lm_patch(const lm::LanguageModel& model, std::uint64_t fingerprint, const LmPatchSettings& settings,
                     LmPatchResults& r) {
  if (r.model == fingerprint && r.computed_for == settings) return false;
  r.computed_for = settings;
  lm::PatchRequest request;
  request.clean = settings.clean;
  request.corrupt = settings.corrupt;
  request.answer = settings.answer;
  request.foil = settings.foil;
  request.by = settings.by;
  request.position = settings.position;
  auto job = std::make_shared<lm::PatchJob>();
  if (Status st = job->begin(model, request); !st.ok) {
    r.status = st;  // the last grid stays beside the refusal
    r.model = fingerprint;
    return true;
  }
  r.status = Status::success();
  r.model = fingerprint;
  clean_last_row(model, settings, r);
  r.result = job->result();
  r.cells = job->cells();
  r.cells_done = 0;
  r.job = std::move(job);
  refresh_grid(r);
  return true;
}

bool advance_lm_patch(LmPatchResults& r, double budget_ms) {
  if (!r.job) return false;
  const auto start = std::chrono::steady_clock::now();
  do {
    r.job->step(1);
  } while (!r.job->done() &&
           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < budget_ms);
  r.result = r.job->result();
  r.cells_done = r.job->cells_done();
  if (r.job->done()) r.job.reset();
  refresh_grid(r);
  return true;
}

LmPatchPeak lm_patch_peak(const lm::PatchResult& result) {
  LmPatchPeak peak;
  for (std::size_t i = 0; i < result.restored.size(); ++i)
    if (std::isfinite(result.restored[i]) && (peak.cell < 0 || result.restored[i] > peak.restored))
      peak = {static_cast<int>(i), result.restored[i]};
  return peak;
}

float lm_patch_head_weight_on_changed(const LmPatchResults& r, int head) {
  const int positions = static_cast<int>(r.result.clean_tokens.size());
  const std::size_t at = static_cast<std::size_t>(head) * positions + r.changed;
  if (r.changed < 0 || positions == 0 || at >= r.last_row.size()) return -1.0f;
  return r.last_row[at];
}

json lm_patch_json(const LmPatchResults& r, const LmPatchSettings& s) {
  json j;
  j["clean"] = s.clean;
  j["corrupt"] = s.corrupt;
  j["answer"] = s.answer;
  j["foil"] = s.foil;
  j["by"] = lm::patch_by_name(s.by);
  j["position"] = s.position;
  j["error"] = r.status.message;
  const lm::PatchResult& p = r.result;
  j["cleanDiff"] = p.clean_difference;
  j["corruptDiff"] = p.corrupt_difference;
  j["gridBy"] = lm::patch_by_name(p.by);
  j["rows"] = p.rows;
  j["cols"] = p.cols;
  j["cellsDone"] = r.cells_done;
  j["cells"] = r.cells;
  j["grid"] = rows_json(p.restored.data(), p.rows, p.cols);  // null: undefined or not yet run
  j["cleanTokens"] = p.clean_tokens;
  j["corruptTokens"] = p.corrupt_tokens;
  j["changed"] = r.changed;
  const LmPatchPeak peak = lm_patch_peak(p);
  j["peak"] = nullptr;
  if (peak.cell >= 0) {
    j["peak"] = {{"row", peak.cell / p.cols}, {"col", peak.cell % p.cols}, {"restored", peak.restored}};
    const float w = lm_patch_head_weight_on_changed(r, peak.cell);
    if (p.by == lm::PatchBy::Head && w >= 0) j["peak"]["weightOnChanged"] = w;
  }
  return j;
}

}  // namespace attn
