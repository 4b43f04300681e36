// Wrapped text for English and Chinese alike. Dear ImGui 1.86 breaks a line only at a space or
// after ASCII punctuation: a run of hanzi is one long "word", so Chinese lines end early and
// ragged, and "2.42" can break after its dot. wrap_lines also breaks between two CJK characters
// (never before closing punctuation such as ，。） nor after opening punctuation such as （), and
// never inside a run of Latin letters or digits.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace attn::ui {

// The lines of `text` in `width` pixels of the current font, as [begin, end) ranges of it.
std::vector<std::pair<const char*, const char*>> wrap_lines(std::string_view text, float width);

// Draws `text` wrapped at `width` pixels (0: the window's right edge), a line per item.
void wrapped_text(std::string_view text, float width = 0.0f);

}  // namespace attn::ui
