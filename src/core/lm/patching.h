// Activation patching on the language model: which of its heads, and which positions of its
// residual stream, carry the difference between two prompts. Not here: path patching,
// gradient-based attribution, or noising (the runs patched are the corrupted prompt's, the
// values put in are the clean run's).
//
// Legend: L = layers, H = heads, n = the prompt's characters; the model reads n + 1 tokens,
// position 0 the start token and positions 1 .. n the characters. a = the answer character,
// b = the foil.
//   1 clean run     the clean prompt, recording every site (runner.h): D_clean
//   2 corrupt run   the corrupted prompt (same n): D_corrupt
//   3 per cell      the corrupted prompt again with one site taken from the clean run: D_patched
//   4 fraction      restored = (D_patched - D_corrupt) / (D_clean - D_corrupt)
// where D = logit_a - logit_b at the last position (the model's guess for the character
// after the prompt). 0 = the corrupted run's difference, 1 = the clean run's; undefined (NaN,
// null in JSON) where |D_clean - D_corrupt| < kMinDifferenceGap.
//
// Grids, row-major:
//   head      L x H: head (l, h)'s output before W_O, at every position or at one position
//   residual  (L + 1) x (n + 1): the stream entering layer l (row 0: the embeddings) or after
//             the last layer (row L), at one position (column = position)
//
// What must hold (tests/core/lm/test_patching.cpp): patching nothing gives 0; patching the
// residual stream entering layer 0 at every position gives 1; when the prompts differ only
// before the last position, patching every head and MLP output of every layer gives 1; the
// residual stream after the last layer restores 1 at the last position and 0 elsewhere (the
// difference is read there alone); with the causal mask, any cell at a position before the
// first changed character restores 0 (nothing there differs).
//
// The grid is a resumable job (one forward pass per cell) so a page can spread it over
// frames; patch_activations is the job run to the end.
#pragma once

#include "core/base/choices.h"
#include "core/base/types.h"
#include "core/lm/language_model.h"
#include "core/lm/runner.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::lm {

// The grids: X(enumerator, name in the CLI, JSON and the state).
#define ATTNLAB_PATCH_GRIDS(X) X(Head, "head") X(Residual, "residual")
enum class PatchBy { ATTNLAB_PATCH_GRIDS(ATTNLAB_CHOICE_ENUMERATOR) };
#define ATTNLAB_PATCH_GRID_ROW(value, name) {PatchBy::value, name},
inline constexpr NamedChoice<PatchBy> kPatchGrids[] = {ATTNLAB_PATCH_GRIDS(ATTNLAB_PATCH_GRID_ROW)};
#undef ATTNLAB_PATCH_GRID_ROW
static_assert(choices_in_order(kPatchGrids));

// "head", "residual"
const char* patch_by_name(PatchBy by);
// The grid named `name`; refuses any other name, listing the names.
Status parse_patch_by(std::string_view name, PatchBy& out);

inline constexpr float kMinDifferenceGap = 1e-6f;

struct PatchRequest {
  std::string clean, corrupt;    // UTF-8, the same number of characters, all in the vocabulary
  std::string answer, foil;      // one character each, in the vocabulary, different
  PatchBy by = PatchBy::Head;
  int position = kAllPositions;  // head grid only: every position, or one of 0 .. n
  RunOptions options;            // the math of every run (default: the model's own)
};

struct PatchResult {
  PatchBy by = PatchBy::Head;
  int position = kAllPositions;
  int rows = 0, cols = 0;
  int answer_token = 0, foil_token = 0;
  float clean_difference = 0, corrupt_difference = 0;  // D_clean, D_corrupt
  std::vector<float> patched;   // rows * cols: D_patched, NaN until the cell is computed
  std::vector<float> restored;  // rows * cols: the fraction, NaN where undefined or not yet computed
  std::vector<std::string> clean_tokens, corrupt_tokens;  // each position's token as text (<s> first)

  // Whether the fraction is defined: |D_clean - D_corrupt| >= kMinDifferenceGap.
  bool defined() const;
};

// (patched - corrupt) / (clean - corrupt), NaN where |clean - corrupt| < kMinDifferenceGap.
float restored_fraction(float patched, float clean, float corrupt);

class PatchJob {
 public:
  // Checks the request and runs steps 1 and 2. The model must outlive the job. On error the
  // job holds nothing (done() is false, cells() 0).
  Status begin(const LanguageModel& model, const PatchRequest& request);
  // Computes up to max_cells more cells (row-major order), one forward pass each; returns how
  // many it computed.
  int step(int max_cells);
  int cells() const { return result_.rows * result_.cols; }
  int cells_done() const { return next_; }
  double progress() const;  // cells_done / cells, 0 before begin
  bool done() const { return model_ != nullptr && next_ == cells(); }
  // The grid so far: computed cells in row-major order, the rest NaN.
  const PatchResult& result() const { return result_; }

  // The site a cell patches.
  Patch cell_patch(int cell) const;
  // D of the corrupted run with these sites taken from the clean run (any set of sites; begin
  // first). Refuses a site outside the model or the prompt.
  Status patched_difference(const std::vector<Patch>& patches, float& out);

 private:
  float run_corrupt(const Intervention& intervention);

  const LanguageModel* model_ = nullptr;
  std::optional<Runner> runner_;
  std::vector<int> corrupt_tokens_;
  Activations clean_;
  PatchResult result_;
  int next_ = 0;
};

// The whole grid at once (the job run to the end).
Status patch_activations(const LanguageModel& model, const PatchRequest& request, PatchResult& out);

}  // namespace attn::lm
