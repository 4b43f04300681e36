// Why this cell (the chosen query row and key column, Settings::cursor and cursor_key, of the
// focused head): the raw score q . k as its terms over the head's dimensions (the largest as
// bars, the rest summed: core/attention/score_terms.h), then the scale, the mask and the
// softmax applied to it, and with RoPE the score the same q and k give without the rotation.
// The state recomputes it when the scene, the cell or the head changed
// (update_cell_why in app/app_state.h); the pipeline panel draws it; getState() reports it as
// figures.cell.
#pragma once

#include "core/attention/pipeline.h"
#include "core/attention/score_terms.h"
#include "core/base/types.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>

namespace attn {

inline constexpr int kCellTermsShown = 8;

struct CellWhy {
  bool shown = false;
  int row = -1, col = -1, head = 0;
  ScoreTerms terms;
  float raw = 0, scale = 1, scaled = 0, mask_add = 0, masked = 0, weight = 0;
  bool rope = false;         // the scene rotates q and k (RoPE):
  double raw_unrotated = 0;  //   the score of the same q and k before the rotation
  Status status;             // why there is nothing to show (not a dot product, weights only)
  // What it was computed for.
  std::uint64_t revision = 0;
  int for_row = -2, for_col = -2, for_head = -1;
};

// The cell (row, col) of head `h`'s trace; `dot` false when the scene's score is not a dot
// product (`score_name` says which). Refuses a cell outside the matrices or a trace without q
// and k (an imported file with weights only).
Status explain_cell(const HeadTrace& h, int row, int col, bool dot, const char* score_name, CellWhy& out);

nlohmann::json cell_why_json(const CellWhy& c);

}  // namespace attn
