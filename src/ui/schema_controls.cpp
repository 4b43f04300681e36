#include "ui/schema_controls.h"

#include "app/state_schema.h"

namespace attn::ui {

bool schema_slider(const char* label, float& v, std::string_view path, const char* format, ImGuiSliderFlags flags) {
  const KeyRange r = slider_range(path);
  return ImGui::SliderFloat(label, &v, static_cast<float>(r.min), static_cast<float>(r.max), format, flags);
}

bool schema_slider(const char* label, int& v, std::string_view path, const char* format, ImGuiSliderFlags flags) {
  const KeyRange r = slider_range(path);
  return ImGui::SliderInt(label, &v, static_cast<int>(r.min), static_cast<int>(r.max), format, flags);
}

bool schema_drag(const char* label, float* v, int components, float speed, std::string_view path, const char* format) {
  const KeyRange r = slider_range(path);
  const float lo = static_cast<float>(r.min), hi = static_cast<float>(r.max);
  // One component is ImGui::DragFloat (DragScalarN would group it, a different layout).
  if (components == 1) return ImGui::DragScalar(label, ImGuiDataType_Float, v, speed, &lo, &hi, format);
  return ImGui::DragScalarN(label, ImGuiDataType_Float, v, components, speed, &lo, &hi, format);
}

}  // namespace attn::ui
