#include "ui/strings.h"

namespace attn::ui {
namespace {

constexpr const char* kEnglish[] = {
#define ATTNLAB_UI_STRING_EN(id, en, zh) en,
    ATTNLAB_UI_STRINGS(ATTNLAB_UI_STRING_EN)
#undef ATTNLAB_UI_STRING_EN
};
constexpr const char* kChinese[] = {
#define ATTNLAB_UI_STRING_ZH(id, en, zh) zh,
    ATTNLAB_UI_STRINGS(ATTNLAB_UI_STRING_ZH)
#undef ATTNLAB_UI_STRING_ZH
};
static_assert(sizeof(kEnglish) / sizeof(kEnglish[0]) == static_cast<int>(S::count));
static_assert(sizeof(kChinese) / sizeof(kChinese[0]) == static_cast<int>(S::count));

Language g_language = Language::English;

}  // namespace

const char* tr(S id, Language language) {
  return (language == Language::Chinese ? kChinese : kEnglish)[static_cast<int>(id)];
}
const char* tr(S id) { return tr(id, g_language); }
void set_language(Language language) { g_language = language; }
Language language() { return g_language; }

}  // namespace attn::ui
