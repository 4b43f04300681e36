// The mask editor's model: cells painted by hand on top of the composed mask, their compact
// text form for the state JSON, and the undo/redo history of mask edits. No GL, no ImGui:
// the panel (ui/variant_panels.cpp) calls these, and the Catch2 tests check them.
//
// A painted cell (row i, column j) is a query/key pair set by hand: "allow" lets query i
// see key j, "block" hides it. Painted cells are applied last, after the patterns (union)
// and the restrictions (causal, padding: intersection) of core/attention/masks.h, so a hand-painted
// cell always shows what the user painted.
//
// Text form (the state JSON's mask.painted): cells separated by single spaces, each
// "<row>:<col>" followed by '+' (allow) or '-' (block), sorted by row then column, one entry
// per cell: "0:3- 2:1+". The empty string is no painted cell.
//
// Sections: 1 painted cells  2 text form  3 history
#pragma once

#include "core/base/types.h"

#include <string>
#include <vector>

namespace attn {

// ---- 1 painted cells --------------------------------------------------------------------

struct PaintedCell {
  int row = 0, col = 0;
  bool allow = false;
  bool operator==(const PaintedCell&) const = default;
};

// At most this many painted cells (a full 256 x 256 mask); more are refused.
inline constexpr int kMaxPaintedCells = 65536;

// Sorts by (row, col) and keeps one entry per cell: the last one given wins. Cells outside
// an n x n mask are dropped.
void normalize_painted(std::vector<PaintedCell>& cells, int n);

// Sets one cell (replacing what was painted there). Keeps the list normalized.
void paint_cell(std::vector<PaintedCell>& cells, int row, int col, bool allow);

// Paints every cell on the straight line from (r0, c0) to (r1, c1) (Bresenham), so a fast
// drag sampled once per frame leaves no gaps.
void paint_line(std::vector<PaintedCell>& cells, int r0, int c0, int r1, int c1, bool allow);

// Applies the painted cells to a composed mask (n_q, n_k); cells outside it are ignored.
void apply_painted(const std::vector<PaintedCell>& cells, BoolMat& allowed);

// ---- 2 text form ------------------------------------------------------------------------

std::string encode_painted(const std::vector<PaintedCell>& cells);

// Strict: any other text (a missing sign, a negative or non-numeric index, an index of
// kMaxPaintedIndex or more, stray spaces, too many cells) is refused with a message and
// `out` is left unchanged. Duplicates are allowed and normalized (the last wins).
inline constexpr int kMaxPaintedIndex = 1024;  // the explorer's token cap
Status decode_painted(const std::string& text, std::vector<PaintedCell>& out);

// ---- 3 history --------------------------------------------------------------------------

// Undo and redo of mask edits, over snapshots of whatever mask value the caller keeps
// (the app keeps MaskSettings). An edit is recorded when it settles: observe() is called
// every frame with the current value and whether an edit is still in progress (a drag, a
// slider held); a drag that paints twenty cells is one step.
template <typename Value>
class EditHistory {
 public:
  static constexpr size_t kMaxSteps = 100;

  // First call: remembers the value. Later: if the value changed and no edit is in
  // progress, the previous settled value becomes an undo step and the redo list is cleared.
  void observe(const Value& current, bool editing) {
    if (!started_) {
      settled_ = current;
      started_ = true;
      return;
    }
    if (editing || current == settled_) return;
    undo_.push_back(settled_);
    if (undo_.size() > kMaxSteps) undo_.erase(undo_.begin());
    redo_.clear();
    settled_ = current;
  }

  // Restores the value before the last step; false (value unchanged) when there is none.
  bool undo(Value& current) {
    if (undo_.empty()) return false;
    redo_.push_back(current);
    current = undo_.back();
    undo_.pop_back();
    settled_ = current;
    return true;
  }

  // Re-applies the last undone step; false when there is none.
  bool redo(Value& current) {
    if (redo_.empty()) return false;
    undo_.push_back(current);
    current = redo_.back();
    redo_.pop_back();
    settled_ = current;
    return true;
  }

  size_t undo_steps() const { return undo_.size(); }
  size_t redo_steps() const { return redo_.size(); }

 private:
  bool started_ = false;
  Value settled_{};
  std::vector<Value> undo_, redo_;
};

}  // namespace attn
