// Controls that more than one panel draws the same way: the explorer's model section and the
// training panel both pick a head count that must divide d_model, and both take a seed.
#pragma once

#include <imgui.h>

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

// A card in the column beside the panel (the tour's step, an exercise): a window `name`
// filling `column` (x, y, w, h), framed in `border`, its text wrapped at its edge and
// scrolling if taller. It never covers the figure it speaks of. end_side_card ends it and
// gives its box (x, y, w, h).
void begin_side_card(const char* name, const float column[4], ImU32 border, float dpi_scale);
void end_side_card(float box[4]);

// The width of that column beside a panel area `width` wide: 24 em, at most 38% of it.
float side_card_width(float width);

// Before an item `width` wide after the first of a row: on the same line (`spacing` after the
// last, -1: the style's) when it fits there, else on the next; rows of figures wrap instead of
// running past the window's edge.
void flow_item(float width, float spacing = -1.0f);

// A table of `rows` rows under its header whose columns fit their numbers, unwrapped: wider
// than the window (a narrow figure), it scrolls sideways instead of being cut or wrapping a
// number digit by digit. Ends with ImGui::EndTable as any table.
bool begin_fitted_table(const char* id, int columns, int rows, ImGuiTableFlags flags = ImGuiTableFlags_Borders);

// A scrolling part of a panel (ImGui::BeginChild) whose text wraps at its edge, as the panel's
// own window does (App::draw_windows); end_wrapped_child ends it.
void begin_wrapped_child(const char* id, ImVec2 size);
void end_wrapped_child();

// A checkbox whose label wraps at the window's edge (a narrow column); a click on the label
// toggles it too.
bool wrapped_checkbox(const char* label, bool* value);

// Before a button after the first of a row: on the same line when `label` fits there, else on
// the next (a narrow card's buttons wrap instead of running past its edge).
void flow_button(const char* label);

// The seed as a non-negative int field (the generator takes 64 bits; the field shows 31).
void seed_field(std::uint64_t& seed);

}  // namespace attn::ui
