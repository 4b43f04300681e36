// Training the language model on the user's own text ("Train on your text", the panel after
// the language model's): what that panel shows. The page keeps the text and the Worker that
// trains on it (web/lm-text-ui.mjs); it gives the text here to be checked before anything
// starts (check_lm_text), then reports the run as it goes (update_lm_text_run). The panel
// draws this record and nothing else; the tests read it through getState()'s figures.lmText.
//
// Sections: 1 the record  2 operations
#pragma once

#include "core/base/choices.h"
#include "core/base/types.h"
#include "core/lm/head_labels.h"
#include "core/lm/text_trainer.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// ---- 1 the record -------------------------------------------------------------------------

// empty: no text yet; ready: a text checked, not trained; training / paused; stopped: by the
// user before the planned steps; done: every planned step run. X(enumerator, name in reports
// and getState()).
#define ATTNLAB_LM_TEXT_PHASES(X) \
  X(Empty, "empty") X(Ready, "ready") X(Training, "training") X(Paused, "paused") X(Stopped, "stopped") X(Done, "done")
enum class LmTextPhase { ATTNLAB_LM_TEXT_PHASES(ATTNLAB_CHOICE_ENUMERATOR) };
#define ATTNLAB_LM_TEXT_PHASE_ROW(value, name) {LmTextPhase::value, name},
inline constexpr NamedChoice<LmTextPhase> kLmTextPhases[] = {ATTNLAB_LM_TEXT_PHASES(ATTNLAB_LM_TEXT_PHASE_ROW)};
#undef ATTNLAB_LM_TEXT_PHASE_ROW
static_assert(choices_in_order(kLmTextPhases));

// One head as the Worker labelled it on the held-out text's first context - 1 characters.
struct LmTextHead {
  int layer = 0, head = 0;
  lm::HeadKind label = lm::HeadKind::Mixed;
  float score = 0;     // the label's score (0 for mixed)
  float previous = 0;  // the mean weight on the previous character
};

struct LmTextRun {
  bool available = false;  // this platform trains on a text (the page, with its Worker)
  LmTextPhase phase = LmTextPhase::Empty;
  std::string name;        // the file's name; empty for pasted text
  lm::TextSummary summary;
  std::string preset = lm::kDefaultTextPreset;
  int step = 0, steps = 0;
  double characters_per_second = 0, seconds = 0;  // training time so far, in the Worker
  std::vector<double> train_steps, train_bits;    // a point per report: mean of its steps
  std::vector<double> held_steps, held_bits;      // a point per evaluation
  double held_out_final = 0;  // the whole held-out part's bits when the run ended (0: not yet)
  std::vector<LmTextHead> heads;
  int heads_step = -1;        // the step the heads and the sample are from
  std::string sample_prompt, sample;
  bool model_loaded = false;  // the language-model scene runs this run's model
  Status error;               // the last refused text or failed run (shown; ok: none)
  std::uint64_t revision = 0;
};

// ---- 2 operations --------------------------------------------------------------------------

// Checks a text with `preset` (core/lm/text_trainer.h inspect_text): on success the run
// starts afresh on it (ready, nothing trained); on a refusal the run keeps its text, its
// curves and its model, and `error` says why.
Status check_lm_text(LmTextRun& run, std::string_view text, const std::string& name, const std::string& preset);

// A report of the page's (JSON, all keys optional):
//   {phase: 'training' | 'paused' | 'stopped' | 'done', step, steps, charactersPerSecond,
//    seconds, trainBits, heldOutBits, heldOutFinal, preset,
//    heads: [{layer, head, label (a head kind's name), score, previous}], headsStep,
//    sample: {prompt, text}, modelLoaded, error (a failure's text: the run ends)}
// trainBits adds a point at `step`, heldOutBits an evaluation point. A report that is not
// valid is refused whole (the run unchanged).
Status update_lm_text_run(LmTextRun& run, std::string_view json);

// figures.lmText of getState().
nlohmann::json lm_text_run_json(const LmTextRun& run);

}  // namespace attn
