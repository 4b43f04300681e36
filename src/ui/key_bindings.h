// Every key the lab handles, one row each: the app's own keys (App::handle_keys reads this
// table to act on them), the keys the page reads itself (web/keys-overlay.mjs: the list of
// keys, and closing it), and the words that list shows for each (keys_json(), in the UI's
// language). A key added here is handled and listed with nothing else to change; the browser
// test tests/browser/page.test.mjs compares the page's list with this table.
//
// It is not a key map for Dear ImGui's own widgets (Tab, Ctrl+click on a slider), which
// behave as ImGui documents.
#pragma once

#include "ui/keys.h"
#include "ui/strings.h"

#include <string>

namespace attn::ui {

// What a key does, in the order the list of keys shows it. The column is its name in
// keys_json() and the words that describe it.
#define ATTNLAB_KEY_ACTIONS(X)                          \
  X(QueryNext, "queryNext", key_query_next)             \
  X(QueryPrevious, "queryPrevious", key_query_previous) \
  X(TourNext, "tourNext", key_tour_next)                \
  X(TourBack, "tourBack", key_tour_back)                \
  X(PanelNext, "panelNext", key_panel_next)             \
  X(PanelPrevious, "panelPrevious", key_panel_previous) \
  X(NextHead, "nextHead", key_next_head)                \
  X(Play, "play", key_play)                             \
  X(Presentation, "presentation", key_presentation)     \
  X(MaskUndo, "maskUndo", key_mask_undo)                \
  X(MaskRedo, "maskRedo", key_mask_redo)                \
  X(ExerciseCheck, "exerciseCheck", key_exercise_check) \
  X(KeysList, "keysList", key_keys_list)                \
  X(KeysListClose, "keysListClose", key_keys_list_close)

#define ATTNLAB_KEY_ACTION_ENUMERATOR(value, name, text) value,
enum class KeyAction { ATTNLAB_KEY_ACTIONS(ATTNLAB_KEY_ACTION_ENUMERATOR) count };
#undef ATTNLAB_KEY_ACTION_ENUMERATOR

struct KeyActionInfo {
  KeyAction action;
  const char* name;  // keys_json()'s "action"
  S text;            // what the key does, in the UI's language
};
#define ATTNLAB_KEY_ACTION_ROW(value, name, text) {KeyAction::value, name, S::text},
inline constexpr KeyActionInfo kKeyActions[] = {ATTNLAB_KEY_ACTIONS(ATTNLAB_KEY_ACTION_ROW)};
#undef ATTNLAB_KEY_ACTION_ROW
static_assert(sizeof(kKeyActions) / sizeof(kKeyActions[0]) == static_cast<int>(KeyAction::count));

// When a key does it.
enum class KeyWhen {
  Always,
  NotTouring,   // left and right step the tour while its card has Back and Next
  Touring,
  MaskPanel,    // the mask editor's undo and redo
  AnswerField,  // an exercise's answer field has the focus: ui/exercise_card.cpp reads Enter itself
  Page,         // the page's own key (web/keys-overlay.mjs), outside the page's text fields
};

struct KeyBinding {
  KeyAction action;
  int key;               // GLFW's number (ui/keys.h); 0 for a key only the page reads
  bool ctrl;             // with Ctrl held
  const char* page_key;  // the KeyboardEvent.key the page reads (KeyWhen::Page), else nullptr
  const char* legend;    // the key's name where it is the same in every language (→, H, Ctrl+Z)
  S legend_text;         // else its name in the UI's language (S::count when `legend` is given)
  KeyWhen when;
};

// One row a key (several for one action); an action's keys are listed in this order.
inline constexpr KeyBinding kKeyBindings[] = {
    {KeyAction::QueryNext, GLFW_KEY_RIGHT, false, nullptr, "→", S::count, KeyWhen::NotTouring},
    {KeyAction::QueryNext, GLFW_KEY_DOWN, false, nullptr, "↓", S::count, KeyWhen::Always},
    {KeyAction::QueryPrevious, GLFW_KEY_LEFT, false, nullptr, "←", S::count, KeyWhen::NotTouring},
    {KeyAction::QueryPrevious, GLFW_KEY_UP, false, nullptr, "↑", S::count, KeyWhen::Always},
    {KeyAction::TourNext, GLFW_KEY_RIGHT, false, nullptr, "→", S::count, KeyWhen::Touring},
    {KeyAction::TourBack, GLFW_KEY_LEFT, false, nullptr, "←", S::count, KeyWhen::Touring},
    {KeyAction::PanelNext, GLFW_KEY_RIGHT_BRACKET, false, nullptr, "]", S::count, KeyWhen::Always},
    {KeyAction::PanelNext, GLFW_KEY_PAGE_DOWN, false, nullptr, nullptr, S::key_name_page_down, KeyWhen::Always},
    {KeyAction::PanelPrevious, GLFW_KEY_LEFT_BRACKET, false, nullptr, "[", S::count, KeyWhen::Always},
    {KeyAction::PanelPrevious, GLFW_KEY_PAGE_UP, false, nullptr, nullptr, S::key_name_page_up, KeyWhen::Always},
    {KeyAction::NextHead, GLFW_KEY_H, false, nullptr, "H", S::count, KeyWhen::Always},
    {KeyAction::Play, GLFW_KEY_SPACE, false, nullptr, nullptr, S::key_name_space, KeyWhen::Always},
    {KeyAction::Presentation, GLFW_KEY_P, false, nullptr, "P", S::count, KeyWhen::Always},
    {KeyAction::MaskUndo, GLFW_KEY_Z, true, nullptr, "Ctrl+Z", S::count, KeyWhen::MaskPanel},
    {KeyAction::MaskRedo, GLFW_KEY_Y, true, nullptr, "Ctrl+Y", S::count, KeyWhen::MaskPanel},
    {KeyAction::ExerciseCheck, GLFW_KEY_ENTER, false, nullptr, nullptr, S::key_name_enter, KeyWhen::AnswerField},
    {KeyAction::KeysList, 0, false, "?", "?", S::count, KeyWhen::Page},
    {KeyAction::KeysListClose, 0, false, "Escape", nullptr, S::key_name_escape, KeyWhen::Page},
};

// Each row names its key once (a legend or a name to translate); a key the page reads has no
// GLFW number and the app's keys no page key; every action has a key, read by the page alone
// or by the app alone.
constexpr bool key_bindings_well_formed() {
  for (const KeyBinding& b : kKeyBindings) {
    if ((b.legend == nullptr) == (b.legend_text == S::count)) return false;
    if ((b.when == KeyWhen::Page) != (b.key == 0 && b.page_key != nullptr)) return false;
    if (b.when != KeyWhen::Page && b.page_key != nullptr) return false;
  }
  for (const KeyActionInfo& a : kKeyActions) {
    int keys = 0, page = 0;
    for (const KeyBinding& b : kKeyBindings) {
      if (b.action != a.action) continue;
      ++keys;
      if (b.when == KeyWhen::Page) ++page;
    }
    if (keys == 0 || (page != 0 && page != keys)) return false;
  }
  return true;
}
static_assert(key_bindings_well_formed());

// The table as the page's list of keys reads it, in the UI's current language:
// [{action, text, keys: [name...], page: bool, pageKeys: [KeyboardEvent.key...]}], one entry
// an action, in kKeyActions' order; `page` when the page, not the app, reads its keys.
std::string keys_json();

}  // namespace attn::ui
