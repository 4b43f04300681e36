#include "ui/strings.h"

namespace attn::ui {
namespace {

constexpr const char* kEnglish[] = {
#define ATTNLAB_UI_STRING_TEXT(id, en) en,
    ATTNLAB_UI_STRINGS(ATTNLAB_UI_STRING_TEXT)
#undef ATTNLAB_UI_STRING_TEXT
};
static_assert(sizeof(kEnglish) / sizeof(kEnglish[0]) == static_cast<int>(S::count));

}  // namespace

const char* tr(S id) { return kEnglish[static_cast<int>(id)]; }

}  // namespace attn::ui
