#include "ui/setting_widgets.h"

#include "ui/strings.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace attn::ui {

void head_count_radios(int& heads, int shown, int d_model, std::initializer_list<int> choices, const char* id_suffix) {
  ImGui::TextUnformatted(tr(S::heads));
  for (int h : choices) {
    ImGui::SameLine();
    char label[16];
    std::snprintf(label, sizeof label, "%d%s", h, id_suffix);
    ImGui::BeginDisabled(d_model % h != 0);
    if (ImGui::RadioButton(label, shown == h)) heads = h;
    ImGui::EndDisabled();
  }
}

void seed_field(std::uint64_t& seed) {
  int shown = static_cast<int>(seed & 0x7fffffff);
  if (ImGui::InputInt(tr(S::seed), &shown)) seed = static_cast<std::uint64_t>(std::max(shown, 0));
}

}  // namespace attn::ui
