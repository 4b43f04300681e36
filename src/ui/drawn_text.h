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

// `text` cut to `max_w` pixels, ending in an ellipsis when it was longer.
inline std::string fit_text(const std::string& text, float max_w) {
  if (ImGui::CalcTextSize(text.c_str()).x <= max_w) return text;
  const float dots = ImGui::CalcTextSize("\u2026").x;
  std::string cut = text;
  while (!cut.empty() && ImGui::CalcTextSize(cut.c_str()).x + dots > max_w) {
    unsigned char last;
    do {  // one whole UTF-8 character: its continuation bytes, then its lead
      last = static_cast<unsigned char>(cut.back());
      cut.pop_back();
    } while (!cut.empty() && (last & 0xC0) == 0x80);
  }
  return cut + "\u2026";
}

// Text turned a quarter turn anticlockwise, its baseline's start at `bottom` (reads upwards).
inline void add_upright_text(ImDrawList* dl, ImVec2 bottom, ImU32 col, const char* text) {
  // Drawn level first (unclipped sideways, where the level text would lie), then its vertices
  // are turned about `bottom`.
  const ImVec2 clip_min = dl->GetClipRectMin(), clip_max = dl->GetClipRectMax();
  dl->PushClipRect(ImVec2(-1e6f, clip_min.y), ImVec2(1e6f, clip_max.y), false);
  const int first = dl->VtxBuffer.Size;
  add_text(dl, bottom, col, text);
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {
    ImVec2& p = dl->VtxBuffer[i].pos;
    const ImVec2 d(p.x - bottom.x, p.y - bottom.y);
    p = ImVec2(bottom.x + d.y, bottom.y - d.x);
  }
  dl->PopClipRect();
}

}  // namespace attn::ui
