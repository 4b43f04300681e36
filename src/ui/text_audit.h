// What a frame drew of its text that no reader could read whole: a glyph cut by the edge of
// its window or its clip rectangle, two glyphs of different strings drawn over each other
// (stacked tick labels), glyphs under a card drawn over them, and windows whose content is wider than the window shows. Read off
// the last frame's draw lists (ImGui keeps them until the next frame begins), so it sees
// every string however it was drawn: widgets, plots, heatmap labels. For layout() and the
// tests that try figures at a course page's sizes.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace attn::ui {

struct TextFault {
  std::string kind;    // "cut" (a glyph partly outside its clip rect), "overlap", "covered"
                       // (under a card or popup), "wider" (a window: from its edge to its farthest item)
  std::string window;  // the draw list's (or window's) name
  float x = 0, y = 0, w = 0, h = 0;  // the glyph (or the window), display pixels
};

// The faults of the frame last rendered; at most `limit` of them (the first found).
std::vector<TextFault> audit_text(const ImDrawData& data, size_t limit = 40);

}  // namespace attn::ui
