#include "app/mask_edit.h"

#include "app/app_messages.h"

#include <algorithm>
#include <cstdlib>

namespace attn {

// ---- 1 painted cells --------------------------------------------------------------------

void normalize_painted(std::vector<PaintedCell>& cells, int n) {
  cells.erase(std::remove_if(cells.begin(), cells.end(),
                             [n](const PaintedCell& c) { return c.row < 0 || c.col < 0 || c.row >= n || c.col >= n; }),
              cells.end());
  // A stable sort keeps the order of repeated cells; then the last of each run wins.
  std::stable_sort(cells.begin(), cells.end(), [](const PaintedCell& a, const PaintedCell& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  std::vector<PaintedCell> unique;
  unique.reserve(cells.size());
  for (const PaintedCell& c : cells) {
    if (!unique.empty() && unique.back().row == c.row && unique.back().col == c.col) unique.back() = c;
    else unique.push_back(c);
  }
  cells = std::move(unique);
}

void paint_cell(std::vector<PaintedCell>& cells, int row, int col, bool allow) {
  const auto at = std::lower_bound(cells.begin(), cells.end(), PaintedCell{row, col, allow},
                                   [](const PaintedCell& a, const PaintedCell& b) {
                                     return a.row != b.row ? a.row < b.row : a.col < b.col;
                                   });
  if (at != cells.end() && at->row == row && at->col == col) at->allow = allow;
  else if (static_cast<int>(cells.size()) < kMaxPaintedCells) cells.insert(at, PaintedCell{row, col, allow});
}

void paint_line(std::vector<PaintedCell>& cells, int r0, int c0, int r1, int c1, bool allow) {
  const int dr = std::abs(r1 - r0), dc = std::abs(c1 - c0);
  const int sr = r0 < r1 ? 1 : -1, sc = c0 < c1 ? 1 : -1;
  int err = dc - dr;
  for (;;) {
    paint_cell(cells, r0, c0, allow);
    if (r0 == r1 && c0 == c1) break;
    const int e2 = 2 * err;
    if (e2 > -dr) {
      err -= dr;
      c0 += sc;
    }
    if (e2 < dc) {
      err += dc;
      r0 += sr;
    }
  }
}

void apply_painted(const std::vector<PaintedCell>& cells, BoolMat& allowed) {
  for (const PaintedCell& c : cells)
    if (c.row < allowed.rows() && c.col < allowed.cols()) allowed(c.row, c.col) = c.allow;
}

// ---- 2 text form ------------------------------------------------------------------------

std::string encode_painted(const std::vector<PaintedCell>& cells) {
  std::string out;
  for (const PaintedCell& c : cells) {
    if (!out.empty()) out += ' ';
    out += std::to_string(c.row) + ':' + std::to_string(c.col) + (c.allow ? '+' : '-');
  }
  return out;
}

namespace {

// Reads a decimal index at text[pos...]: digits only, no sign, below kMaxPaintedIndex.
bool read_index(const std::string& text, size_t& pos, int& out) {
  const size_t start = pos;
  long value = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && pos - start < 5) {
    value = value * 10 + (text[pos] - '0');
    ++pos;
  }
  if (pos == start || value >= kMaxPaintedIndex) return false;
  out = static_cast<int>(value);
  return true;
}

}  // namespace

Status decode_painted(const std::string& text, std::vector<PaintedCell>& out) {
  std::vector<PaintedCell> cells;
  size_t pos = 0;
  while (pos < text.size()) {
    if (!cells.empty()) {
      if (text[pos] != ' ') return Status::error(msg::app_painted_space);
      ++pos;
    }
    const size_t at = pos;
    PaintedCell c;
    const bool ok = read_index(text, pos, c.row) && pos < text.size() && text[pos++] == ':' &&
                    read_index(text, pos, c.col) && pos < text.size() && (text[pos] == '+' || text[pos] == '-');
    if (!ok)
      return Status::error(msg::app_painted_cell, cells.size() + 1, at, kMaxPaintedIndex - 1);
    c.allow = text[pos++] == '+';
    if (cells.size() >= static_cast<size_t>(kMaxPaintedCells))
      return Status::error(msg::app_painted_count, kMaxPaintedCells);
    cells.push_back(c);
  }
  normalize_painted(cells, kMaxPaintedIndex);
  out = std::move(cells);
  return Status::success();
}

}  // namespace attn
