// Which characters a figure draws beyond Latin-1, and so whether it needs the CJK font.
// ImGui's default font covers Latin-1 only; everything else (hanzi, kana, hangul, and the
// Greek, Cyrillic and punctuation that come with them) is drawn from the CJK font, which the
// page downloads only when a figure needs it (about 1 MB gzip). One rule serves the glyph
// atlas (App::update_glyph_set) and the page's choice to fetch the font (the bindings'
// needsCjkFont, asked by web/api.mjs and web/app.js).
#pragma once

#include "app/app_state.h"

#include <set>
#include <string>

namespace attn::ui {

// The Chinese UI's own text: every string of the table in Chinese, one after another.
std::string chinese_ui_text();

// Code points in U+0100..U+FFFF (beyond Latin-1, within ImWchar's 16 bits) of what the
// figure may draw: the sentence, the tokens, the language model's predicted and generated
// characters, the controls' preset buttons (Chinese
// sentences) when `controls_shown`, and the Chinese UI's strings when that is the language.
std::set<unsigned> glyphs_beyond_latin1(const AppState& state, bool controls_shown);

// Whether the figure draws anything the default font lacks.
bool needs_cjk_font(const AppState& state, bool controls_shown);

}  // namespace attn::ui
