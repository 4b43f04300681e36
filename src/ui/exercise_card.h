// The exercise card (app/exercises.h): the question beside its figure, the answer's controls
// (options, a number field, or a click on the veiled heatmap), the verdict with its reason read
// off the live figures, and what stays veiled until the learner answers.
//
// A panel veils a block of its own (a readout, a table, bars) by drawing it inside a VeilGroup;
// the heatmap widget veils a heatmap itself, keeping its labels and grid, and turns a click on
// it into the answer of a cell exercise (the cursor stays where it was).
#pragma once

#include "app/app_state.h"
#include "ui/strings.h"
#include "ui/ui_context.h"

#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

namespace attn::ui {

// Whether the settings show an exercise's card: an exercise on its own panel.
bool exercise_card_shown(const Settings& s);

// Before the panel is drawn: what the shown exercise veils this frame (nothing once revealed
// or answered right) and the heatmap whose click answers it.
void begin_exercise_frame(const AppState& state, UiContext& ctx);

// Whether the shown exercise hides the element `id` this frame.
bool veiled(const UiContext& ctx, std::string_view id);

// Covers [min, max] (a veiled element) with the panel's colour and the words "veiled until you
// answer", and records the box for layout().
void cover_veiled(UiContext& ctx, ImDrawList* list, const std::string& id, ImVec2 min, ImVec2 max);

// A block of a panel that an exercise may veil: drawn as usual, covered when veiled.
class VeilGroup {
 public:
  VeilGroup(UiContext& ctx, const char* id);
  ~VeilGroup();
  VeilGroup(const VeilGroup&) = delete;
  VeilGroup& operator=(const VeilGroup&) = delete;

 private:
  UiContext& ctx_;
  const char* id_;
};

// After the panel, in its window: yellow frames around what the shown exercise asks about
// (under the card, which may lie over a figure).
void frame_asked(const UiContext& ctx);

// After the panel: the card in the column beside it (`column` = x, y, w, h) and the answer
// the learner gave this frame.
void draw_exercise_card(AppState& state, UiContext& ctx, const float column[4]);

// The reason for the right answer, read off the live figures, in the UI's language ("" when
// the figures are not ready).
std::string exercise_explanation(const AppState& state, int id);

// The question and the options of exercise `id` in `language` (options split at line breaks).
const char* exercise_question(int id, Language language);
std::vector<std::string> exercise_choices(int id, Language language);

}  // namespace attn::ui
