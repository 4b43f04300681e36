#include "ui/setting_widgets.h"

#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

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

void same_line_or_wrap(const char* label, bool radio) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* end = std::strstr(label, "##");
  float w = ImGui::CalcTextSize(label, end).x;
  if (radio) w += ImGui::GetFrameHeight() + style.ItemInnerSpacing.x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + w <= right) ImGui::SameLine();
}

bool choice_row(const char* title, int& value, std::initializer_list<const char*> choices) {
  const int before = value;
  ImGui::TextUnformatted(title);
  int index = 0;
  for (const char* choice : choices) {
    same_line_or_wrap(choice, true);
    ImGui::RadioButton(choice, &value, index++);
  }
  return value != before;
}

const char* fit_label(const char* label, char* buffer, int size) {
  const char* end = std::strstr(label, "##");
  const float text_w = ImGui::CalcTextSize(label, end).x;
  if (text_w == 0.0f) return label;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float room = avail - text_w - ImGui::GetStyle().ItemInnerSpacing.x;
  if (room >= avail * 0.45f) {
    ImGui::SetNextItemWidth(std::min(room, ImGui::CalcItemWidth()));
    return label;
  }
  wrapped_text(std::string_view(label, end ? static_cast<size_t>(end - label) : std::strlen(label)));
  std::snprintf(buffer, static_cast<size_t>(size), "##%s", label);
  ImGui::SetNextItemWidth(-1.0f);
  return buffer;
}

const char* fitted(const char* label) {
  static char ring[8][160];
  static int next = 0;
  char* buffer = ring[next];
  next = (next + 1) % 8;
  return fit_label(label, buffer, sizeof ring[0]);
}

void hint_text(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  wrapped_text(text);
  ImGui::PopStyleColor();
}

void seed_field(std::uint64_t& seed) {
  int shown = static_cast<int>(seed & 0x7fffffff);
  char id[96];
  if (ImGui::InputInt(fit_label(tr(S::seed), id, sizeof id), &shown)) seed = static_cast<std::uint64_t>(std::max(shown, 0));
}

void begin_corner_card(const char* name, const float panel[4], ImU32 border, float dpi_scale, float alpha, bool left) {
  const float font = ImGui::GetFontSize();
  const float w = std::min(font * 26.0f, panel[2] * 0.45f);
  const float x = left ? panel[0] + font * 0.8f : panel[0] + panel[2] - font * 0.8f;
  ImGui::SetNextWindowPos(ImVec2(x, panel[1] + panel[3] - font * 0.8f), ImGuiCond_Always, ImVec2(left ? 0.0f : 1.0f, 1.0f));
  ImGui::SetNextWindowSize(ImVec2(w, 0.0f));
  ImGui::SetNextWindowBgAlpha(alpha);
  ImGui::PushStyleColor(ImGuiCol_Border, ImGui::ColorConvertU32ToFloat4(border));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, std::max(1.0f, dpi_scale * 1.5f));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing;
  ImGui::Begin(name, nullptr, flags);
}

bool corner_card_left(const float panel[4], const float size[2], const std::vector<std::array<float, 4>>& avoid) {
  const float font = ImGui::GetFontSize();
  const float bottom = panel[1] + panel[3] - font * 0.8f, top = bottom - size[1];
  const float right_x0 = panel[0] + panel[2] - font * 0.8f - size[0], left_x0 = panel[0] + font * 0.8f;
  float right = 0.0f, left = 0.0f;
  for (const auto& b : avoid) {
    const float oy = std::min(bottom, b[1] + b[3]) - std::max(top, b[1]);
    if (oy <= 0) continue;
    right += std::max(0.0f, std::min(right_x0 + size[0], b[0] + b[2]) - std::max(right_x0, b[0])) * oy;
    left += std::max(0.0f, std::min(left_x0 + size[0], b[0] + b[2]) - std::max(left_x0, b[0])) * oy;
  }
  return left < right;
}

void end_corner_card(float box[4]) {
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  box[0] = pos.x, box[1] = pos.y, box[2] = size.x, box[3] = size.y;
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

}  // namespace attn::ui
