// Activation patching in the language model's chapter (core/lm/patching.h): the panel's
// settings, its presets, and the grid it draws. The grid is one forward pass per cell, so it
// is computed a few cells per frame (advance_lm_patch) while the panel is open; the panel
// draws what is done and a progress bar, and getState()'s figures.lmPatch reports it.
//
// Sections: 1 settings and presets  2 results  3 operations
#pragma once

#include "core/base/types.h"
#include "core/lm/language_model.h"
#include "core/lm/patching.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace attn {

// ---- 1 settings and presets ---------------------------------------------------------------

// What the panel asks (state keys under "patch."). position: the head grid's position, or
// lm::kAllPositions.
struct LmPatchSettings {
  std::string clean, corrupt, answer, foil;
  lm::PatchBy by = lm::PatchBy::Head;
  int position = lm::kAllPositions;
  bool operator==(const LmPatchSettings&) const = default;
};

// A pair of prompts chosen on the shipped model because one head carries their difference.
struct LmPatchPreset {
  const char* name;  // its id (tests; the panel sets the four strings from it)
  const char* clean;
  const char* corrupt;
  const char* answer;
  const char* foil;
};
extern const LmPatchPreset kLmPatchPresets[];
extern const int kLmPatchPresetCount;

// The first preset's prompts (the settings' defaults).
LmPatchSettings default_lm_patch_settings();
// Settings `s` with preset `index`'s prompts, answer and foil (the grid asked for is kept).
LmPatchSettings with_lm_patch_preset(LmPatchSettings s, int index);

// The longest prompt the keys take, in bytes (the model reads far fewer characters; the job
// names the model's limit).
inline constexpr std::size_t kMaxPatchPromptBytes = 4096;

// ---- 2 results ----------------------------------------------------------------------------

struct LmPatchResults {
  lm::PatchResult result;       // the grid so far (NaN where not yet computed)
  int cells_done = 0, cells = 0;
  Status status;                // why the request was refused (the last grid stays)
  LmPatchSettings computed_for;
  std::uint64_t model = 0;      // the model's fingerprint the grid is of (0: none)
  std::uint64_t version = 0;    // bumped when the grid changes (the heatmap's key)
  Mat grid;                     // (rows, cols) restored fractions as drawn: 0 where undefined or not yet computed
  // On the clean prompt, each head's weights from the last position over every position
  // (layer * heads + head, then position): where the head that restores the gap looks.
  std::vector<float> last_row;
  int changed = -1;             // the first position (start token 0) where the prompts differ
  std::shared_ptr<lm::PatchJob> job;  // the grid being computed; null when done or refused
};

// ---- 3 operations -------------------------------------------------------------------------

// Starts a grid when the settings or the model changed: the request is checked and the two
// runs made at once (a refusal keeps the last grid and says why). True when anything changed.
bool update_lm_patch(const lm::LanguageModel& model, std::uint64_t fingerprint, const LmPatchSettings& settings,
                     LmPatchResults& results);

// A frame's share of the grid: a cell is a forward pass of a few milliseconds in WebAssembly,
// so the page keeps drawing at its rate while the grid fills.
inline constexpr double kLmPatchBudgetMs = 5.0;

// Computes cells of the grid for about `budget_ms` (at least one). True when it computed any.
bool advance_lm_patch(LmPatchResults& results, double budget_ms);

// The largest defined fraction of the grid and its cell, or -1 when none is defined yet.
struct LmPatchPeak {
  int cell = -1;
  float restored = 0;
};
LmPatchPeak lm_patch_peak(const lm::PatchResult& result);

// On the clean prompt, head `head`'s (layer * heads + head) weight from the last position on
// the first changed position; -1 when the prompts are not read.
float lm_patch_head_weight_on_changed(const LmPatchResults& results, int head);

// getState()'s figures.lmPatch: the request, both differences, the grid (null where undefined
// or not computed yet), progress and the refusal.
nlohmann::json lm_patch_json(const LmPatchResults& results, const LmPatchSettings& settings);

}  // namespace attn
