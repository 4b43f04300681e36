// Controls that more than one panel draws the same way: the explorer's model section and the
// training panel both pick a head count that must divide d_model, and both take a seed.
#pragma once

#include <cstdint>
#include <initializer_list>

namespace attn::ui {

// "heads" and one radio button per choice; a choice that does not divide d_model is disabled.
// `shown` is the count the buttons mark as chosen: the one the section started the frame with,
// even when a control above it has just changed `heads`. `id_suffix` keeps the buttons' ImGui
// ids apart from other "1", "2", ... in the same window.
void head_count_radios(int& heads, int shown, int d_model, std::initializer_list<int> choices, const char* id_suffix);

// The seed as a non-negative int field (the generator takes 64 bits; the field shows 31).
void seed_field(std::uint64_t& seed);

}  // namespace attn::ui
