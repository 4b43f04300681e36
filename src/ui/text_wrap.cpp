#include "ui/text_wrap.h"

#include "core/base/utf8.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdint>

namespace attn::ui {
namespace {

bool is_cjk(std::uint32_t c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x3000 && c <= 0x303F);
}
// Punctuation that must not begin a line, and that must not end one.
bool closes(std::uint32_t c) {
  static constexpr char32_t k[] = U"，。、；：！？）」』】》〉”’…％,.;:!?)]}%";
  for (char32_t x : k)
    if (x == c) return true;
  return false;
}
bool opens(std::uint32_t c) {
  static constexpr char32_t k[] = U"（「『【《〈“‘([{";
  for (char32_t x : k)
    if (x == c) return true;
  return false;
}

// The code point at `p` and its length in bytes, by the core's one decoder (invalid bytes
// are U+FFFD, one per maximal invalid subpart, as ImGui draws them).
std::uint32_t decode(const char* p, const char* end, int& len) {
  const Utf8Decoded d = decode_utf8_at(std::string_view(p, static_cast<std::size_t>(end - p)), 0);
  len = d.length;
  return d.code_point;
}

}  // namespace

std::vector<std::pair<const char*, const char*>> wrap_lines(std::string_view text, float width) {
  std::vector<std::pair<const char*, const char*>> lines;
  const char* p = text.data();
  const char* const end = p + text.size();
  ImFont* font = ImGui::GetFont();
  const float scale = ImGui::GetFontSize() / font->FontSize;
  auto advance_of = [&](std::uint32_t c) { return font->GetCharAdvance(static_cast<ImWchar>(c <= 0xFFFF ? c : '?')) * scale; };
  auto width_of = [&](const char* a, const char* b) {
    float w = 0.0f;
    for (int l = 1; a < b; a += l) w += advance_of(decode(a, b, l));
    return w;
  };
  const char* line = p;
  const char* brk_end = nullptr;   // the last place the line may end ...
  const char* brk_next = nullptr;  // ... and where the next line then starts
  const char* space_start = nullptr;
  float w = 0.0f;
  std::uint32_t prev = 0;
  while (p < end) {
    int len = 1;
    const std::uint32_t c = decode(p, end, len);
    if (c == '\n') {
      lines.push_back({line, p});
      p += len;
      line = p, brk_end = brk_next = nullptr, w = 0.0f, prev = 0;
      continue;
    }
    // May the line end before this character?
    if (p > line && c != ' ') {
      if (prev == ' ') brk_end = space_start, brk_next = p;
      else if ((is_cjk(c) || is_cjk(prev)) && !closes(c) && !opens(prev)) brk_end = brk_next = p;
    }
    if (c == ' ' && prev != ' ') space_start = p;
    const float advance = advance_of(c);
    if (c != ' ' && w + advance > width && p > line) {
      if (brk_next && brk_next > line) {
        lines.push_back({line, brk_end});
        line = brk_next;
      } else {
        lines.push_back({line, p});  // one word longer than the line: cut it
        line = p;
      }
      brk_end = brk_next = nullptr;
      w = width_of(line, p);
    }
    w += advance;
    prev = c;
    p += len;
  }
  if (line < end || lines.empty()) lines.push_back({line, end});
  return lines;
}

void wrapped_text(std::string_view text, float width) {
  // As ImGui::TextWrapped: to the pushed wrap position if there is one, else the window's edge.
  if (width <= 0.0f) {
    const float wrap_pos = ImGui::GetCurrentWindow()->DC.TextWrapPos;
    width = wrap_pos > 0.0f ? wrap_pos - ImGui::GetCursorPosX() : ImGui::GetContentRegionAvail().x;
  }
  for (const auto& [b, e] : wrap_lines(text, std::max(width, ImGui::GetFontSize() * 2.0f))) {
    const char* s = b;
    while (s < e && *s == ' ') ++s;  // a line never starts with the space it broke at
    ImGui::TextUnformatted(s, e);
  }
}

}  // namespace attn::ui
