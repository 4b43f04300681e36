// Controls that more than one panel draws the same way: the explorer's model section and the
// training panel both pick a head count that must divide d_model, and both take a seed.
#pragma once

#include <imgui.h>

#include <array>
#include <vector>

#include <cstdint>
#include <initializer_list>

namespace attn::ui {

// "heads" and one radio button per choice; a choice that does not divide d_model is disabled.
// `shown` is the count the buttons mark as chosen: the one the section started the frame with,
// even when a control above it has just changed `heads`. `id_suffix` keeps the buttons' ImGui
// ids apart from other "1", "2", ... in the same window.
void head_count_radios(int& heads, int shown, int d_model, std::initializer_list<int> choices, const char* id_suffix);

// Before a radio button or checkbox labelled `label`: on the same line as the last item when
// it fits in the window (with `radio`'s square before the text), else on a new line, so a row
// of choices wraps instead of running past the window's edge.
void same_line_or_wrap(const char* label, bool radio);

// A labelled row of radio buttons, one per choice, wrapping where the window ends; `value` is
// the index of the chosen one. Returns whether it changed.
bool choice_row(const char* title, int& value, std::initializer_list<const char*> choices);

// Before a labelled slider, drag or field: returns the label to give it. The label stays to
// the right when it fits beside a field of at least 45% of the width left; else it is written
// (wrapped) on a line of its own and the field takes the whole width, under the returned
// "##" id. `buffer` holds that id while the widget is drawn.
const char* fit_label(const char* label, char* buffer, int size);

// fit_label for a widget drawn at once: the returned id lives in a small ring of buffers, valid
// until eight more labels have been fitted.
const char* fitted(const char* label);

// A hint under or beside a control: the disabled text colour, wrapped at the window's edge.
void hint_text(const char* text);

// A card over the panel at its lower right, or its lower left with `left` (the tour's step, an
// exercise): a window `name`, as wide as 26 em (at most 45% of the panel, `panel` = x, y, w,
// h), framed in `border`. end_corner_card ends it and gives its box (x, y, w, h).
void begin_corner_card(const char* name, const float panel[4], ImU32 border, float dpi_scale, float alpha, bool left = false);

// Whether such a card, `size` (w, h) large, covers less of the boxes `avoid` (x, y, w, h each:
// what the card speaks of) at the panel's lower left than at its lower right.
bool corner_card_left(const float panel[4], const float size[2], const std::vector<std::array<float, 4>>& avoid);
void end_corner_card(float box[4]);

// The seed as a non-negative int field (the generator takes 64 bits; the field shows 31).
void seed_field(std::uint64_t& seed);

}  // namespace attn::ui
