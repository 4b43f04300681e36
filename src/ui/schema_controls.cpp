#include "ui/schema_controls.h"

#include "app/state_schema.h"
#include "ui/setting_widgets.h"

namespace attn::ui {

bool schema_slider(const char* label, float& v, std::string_view path, const char* format, ImGuiSliderFlags flags) {
  const KeyRange r = slider_range(path);
  char id[160];
  label = fit_label(label, id, sizeof id);
  return ImGui::SliderFloat(label, &v, static_cast<float>(r.min), static_cast<float>(r.max), format, flags);
}

bool schema_slider(const char* label, int& v, std::string_view path, const char* format, ImGuiSliderFlags flags) {
  const KeyRange r = slider_range(path);
  char id[160];
  label = fit_label(label, id, sizeof id);
  return ImGui::SliderInt(label, &v, static_cast<int>(r.min), static_cast<int>(r.max), format, flags);
}

bool schema_drag(const char* label, float* v, int components, float speed, std::string_view path, const char* format) {
  const KeyRange r = slider_range(path);
  const float lo = static_cast<float>(r.min), hi = static_cast<float>(r.max);
  char id[160];
  label = fit_label(label, id, sizeof id);
  // One component is ImGui::DragFloat (DragScalarN would group it, a different layout).
  if (components == 1) return ImGui::DragScalar(label, ImGuiDataType_Float, v, speed, &lo, &hi, format);
  return ImGui::DragScalarN(label, ImGuiDataType_Float, v, components, speed, &lo, &hi, format);
}

}  // namespace attn::ui
