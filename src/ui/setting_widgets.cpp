#include "ui/setting_widgets.h"

#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace attn::ui {

void head_count_radios(int& heads, int shown, int d_model, std::initializer_list<int> choices, const char* id_suffix) {
  ImGui::TextUnformatted(tr(S::heads));
  for (int h : choices) {
    char label[16];
    std::snprintf(label, sizeof label, "%d%s", h, id_suffix);
    same_line_or_wrap(label, true);
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
  flow_item(w);
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

void begin_side_card(const char* name, const float column[4], ImU32 border, float dpi_scale) {
  ImGui::SetNextWindowPos(ImVec2(column[0], column[1]), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(column[2], column[3]), ImGuiCond_Always);
  ImGui::PushStyleColor(ImGuiCol_Border, ImGui::ColorConvertU32ToFloat4(border));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, std::max(1.0f, dpi_scale * 1.5f));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoFocusOnAppearing;
  ImGui::Begin(name, nullptr, flags);
  ImGui::PushTextWrapPos(0.0f);  // its text wraps at its edge
}

void end_side_card(float box[4]) {
  ImGui::PopTextWrapPos();
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  box[0] = pos.x, box[1] = pos.y, box[2] = size.x, box[3] = size.y;
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

float side_card_width(float width) { return std::floor(std::min(ImGui::GetFontSize() * 24.0f, width * 0.38f)); }

void flow_item(float width, float spacing) {
  // Decided before moving: SameLine then NewLine would count the abandoned place on the
  // line as content (a window wider than it shows).
  const float gap = spacing < 0.0f ? ImGui::GetStyle().ItemSpacing.x : spacing;
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  if (ImGui::GetItemRectMax().x + gap + width <= right) ImGui::SameLine(0.0f, gap);
}

bool begin_fitted_table(const char* id, int columns, int rows, ImGuiTableFlags flags) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row_h = ImGui::GetFrameHeight() + style.CellPadding.y * 2;
  const ImVec2 outer(0.0f, (rows + 1) * row_h + style.ScrollbarSize + style.CellPadding.y * 2);
  return ImGui::BeginTable(id, columns, flags | ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit, outer);
}

bool wrapped_checkbox(const char* label, bool* value) {
  ImGui::PushID(label);
  bool changed = ImGui::Checkbox("##box", value);
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::BeginGroup();
  wrapped_text(label);  // between hanzi too
  ImGui::EndGroup();
  if (ImGui::IsItemClicked()) *value = !*value, changed = true;
  ImGui::PopID();
  return changed;
}

void begin_wrapped_child(const char* id, ImVec2 size) {
  ImGui::BeginChild(id, size);
  ImGui::PushTextWrapPos(0.0f);
}

void end_wrapped_child() {
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

void flow_button(const char* label) {
  flow_item(ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2);
}

}  // namespace attn::ui
