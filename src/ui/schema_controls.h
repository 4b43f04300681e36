// Sliders and drags whose ranges come from the state schema (app/state_schema.h): a control
// names the key it edits, and its range is the schema's slider_range for that key, so the
// UI, apply_state_json and the clamps can never disagree about a bound.
#pragma once

#include <imgui.h>

#include <string_view>

namespace attn::ui {

bool schema_slider(const char* label, float& v, std::string_view path, const char* format = "%.3f",
                   ImGuiSliderFlags flags = 0);
bool schema_slider(const char* label, int& v, std::string_view path, const char* format = "%d",
                   ImGuiSliderFlags flags = 0);
// `components` floats (1 to 4) dragged together, each within the key's slider range.
bool schema_drag(const char* label, float* v, int components, float speed, std::string_view path,
                 const char* format = "%.2f");

}  // namespace attn::ui
