// Text a figure draws itself (ImDrawList::AddText: axis labels, ticks, legends, numbers in
// cells) goes through add_text, so a frame that records what it draws (App::capture_drawn_text)
// has it too; widgets' text reaches that record through ImGui's own log.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>

#include <string>

namespace attn::ui {

// The record of a frame's text. ImGui's log ends with each top-level window (ImGui::End calls
// LogFinish), so it is started after each Begin and collected before each End.
struct TextRecord {
  bool on = false;
  std::string text;
};
inline TextRecord& text_record() {
  static TextRecord record;
  return record;
}
inline void record_window_begin() {
  if (text_record().on) ImGui::LogBegin(ImGuiLogType_Buffer, 0);  // depth 0: no tree opens for the log
}
inline void record_window_end() {
  if (!text_record().on) return;
  text_record().text += ImGui::GetCurrentContext()->LogBuffer.c_str();
  ImGui::LogFinish();
}

inline void add_text(ImDrawList* dl, ImVec2 pos, ImU32 color, const char* text, const char* end = nullptr) {
  dl->AddText(pos, color, text, end);
  if (end) ImGui::LogText("\n%.*s\n", static_cast<int>(end - text), text);
  else ImGui::LogText("\n%s\n", text);
}

}  // namespace attn::ui
