// The glyph rule of font_coverage.h: what text a figure may draw, decoded to code points.
#include "ui/font_coverage.h"

#include "core/base/utf8.h"
#include "ui/strings.h"

#include <cstdint>

namespace attn::ui {

std::string chinese_ui_text() {
  std::string text;
  for (int id = 0; id < static_cast<int>(S::count); ++id) text += tr(static_cast<S>(id), Language::Chinese);
  return text;
}

std::set<unsigned> glyphs_beyond_latin1(const AppState& state, bool controls_shown) {
  const bool chinese = state.settings.language == UiLanguage::Chinese;
  std::string text = state.settings.sentence;
  for (const std::string& t : state.tokens) text += t;
  if (state.settings.source == SceneSource::Language && state.lm_scene) {
    // The language panel's bars and generated text: the characters the model predicts.
    const lm::Vocabulary& v = state.lm_scene->model.vocabulary;
    for (const auto& [token, p] : state.lm.next) text += v.token_text(token);
    for (const lm::GeneratedToken& g : state.lm.generated) {
      text += v.token_text(g.token);
      for (const auto& [token, p] : g.top) text += v.token_text(token);
    }
  }
  if (controls_shown) {
    const Language language = chinese ? Language::Chinese : Language::English;
    text += tr(S::preset_cat_mouse, language);
    text += tr(S::preset_mouse_cat, language);
  }
  if (chinese) text += chinese_ui_text();
  std::set<unsigned> glyphs;
  for (std::uint32_t c : decode_utf8(text))
    if (c >= 0x100 && c <= 0xFFFF) glyphs.insert(c);
  return glyphs;
}

bool needs_cjk_font(const AppState& state, bool controls_shown) {
  return !glyphs_beyond_latin1(state, controls_shown).empty();
}

}  // namespace attn::ui
