// Training the language model on one plain text, a user's own: the split of corpus.h
// (split_plain_text), a preset's shape and schedule, steps run in as many calls as the caller
// likes (a Worker's slices, a CLI loop), the held-out bits and the text's own character bigram
// to beat. The page (through the math module), Node and `attnlab-cli lm-train --text` all
// train through this class, so the same text, seed, preset and steps give the same bytes.
//
// Everything measured here is measured on the float16 weights the file keeps (as lm-train
// measures the shipped model): evaluate(), model() and save() agree with a file loaded back.
#pragma once

#include "core/base/types.h"
#include "core/lm/corpus.h"
#include "core/lm/evaluate.h"
#include "core/lm/language_model.h"
#include "core/lm/trainer.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::lm {

// A preset: the model's shape and the schedule. `page` is the default, sized so a text of
// about 30,000 characters forms a previous-character head and beats its own bigram within
// minutes on one core (docs/LANGUAGE-MODEL.md gives the measured times).
// page_seconds: the time it took in the page's Worker (Chromium, SIMD) on the project's machines
// (2 shared cores), which the page's size menu states; the steps' cost does not depend on the
// text's length, only the evaluations' does, a little.
struct TextPreset {
  const char* name;
  int layers, heads, d_model, d_mlp, context, batch, steps;
  float learning_rate;
  int warmup, min_count, eval_every;
  int page_seconds;
};

inline constexpr TextPreset kTextPresets[] = {
    // name     L  H  d    mlp  ctx batch steps  lr      warm min eval  page s
    {"quick", 1, 4, 32, 128, 32, 16, 400, 3e-3f, 40, 2, 50, 3},
    {"page", 2, 4, 64, 256, 64, 16, 1600, 3e-3f, 80, 2, 100, 60},
    {"large", 2, 4, 96, 384, 128, 16, 2000, 2e-3f, 100, 2, 250, 450},
};
inline constexpr int kTextPresetCount = static_cast<int>(sizeof(kTextPresets) / sizeof(kTextPresets[0]));
static_assert(kTextPresetCount == 3, "add the preset's expected time to docs/LANGUAGE-MODEL.md");
inline constexpr const char* kDefaultTextPreset = "page";

// The preset named `name`, or nullptr.
const TextPreset* find_text_preset(std::string_view name);

struct TextTrainOptions {
  std::uint64_t seed = 1;
  double held_out_fraction = kDefaultHeldOutFraction;
  std::string preset = kDefaultTextPreset;
  // 0: the preset's value.
  int layers = 0, heads = 0, d_model = 0, context = 0, steps = 0;
};

// The trainer's config for these options (slices 1: the page trains on one thread, and the
// bits depend on the slices, not the threads). Refuses an unknown preset or a shape the
// language model does not take.
Status text_train_config(const TextTrainOptions& options, LmTrainConfig& out);

// What a text would train on, shown before training: the split, the training part's distinct
// characters and how many the preset's vocabulary keeps (a character seen fewer than its
// min_count times becomes <unk>). Refuses what reset() refuses, with the same messages.
struct TextSummary {
  TextSplit split;
  long long bytes = 0;  // of UTF-8, as given
  int distinct = 0;     // distinct characters of the training part
  int vocabulary = 0;   // the model's tokens: the kept characters, <s> and <unk>
  int rare = 0;         // distinct characters that become <unk>
  double bigram_bits = 0;  // the line to beat: TextEvaluation::bigram_bits, known before training
};
Status inspect_text(std::string_view text, const TextTrainOptions& options, TextSummary& out);

struct TextStepResult {
  int step = 0;                // steps done so far
  double train_bits = 0;       // mean training loss of the steps of this call, bits per token
  bool evaluated = false;      // an evaluation point fell in this call:
  double held_out_bits = 0;    //   the held-out sample's bits per character there
};

struct TextEvaluation {
  double held_out_bits = 0;  // the whole held-out part, bits per character (as lm-eval scores it)
  double bigram_bits = 0;    // the interpolated character bigram fitted on the training part
  long long tokens = 0;      // characters scored
};

class TextTrainer {
 public:
  // Splits the text and builds the model; on a refusal the trainer keeps what it had.
  Status reset(std::string_view text, const TextTrainOptions& options);
  bool ready() const { return !trainer_.model().empty(); }

  // Runs up to k more steps (fewer at the planned end).
  Status step(int k, TextStepResult& out);
  int steps_done() const { return trainer_.steps(); }
  int steps_planned() const { return trainer_.config().steps; }

  TextEvaluation evaluate() const;
  // The model as the file keeps it (float16 weights, notes on the text, no copy of it).
  LanguageModel model() const;
  std::vector<std::uint8_t> save() const;

  const TextSplit& split() const { return split_; }
  const std::string& preset() const { return preset_; }
  const LmTrainConfig& config() const { return trainer_.config(); }

 private:
  LmTrainer trainer_;
  CorpusFile corpus_;
  TextSplit split_;
  std::string preset_;
  Bigram bigram_;
  long long text_bytes_ = 0;
};

}  // namespace attn::lm
