// The text audit (ui/text_audit.h) on frames made for it: Dear ImGui runs without a window or
// a renderer here (its draw lists are data), so each case draws a known fault, or none, and
// the audit must name it.
#include "ui/text_audit.h"

#include <catch2/catch.hpp>
#include <imgui.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace {

// One frame of an 800 x 600 display drawn by `draw`, audited.
std::vector<attn::ui::TextFault> audit_frame(const std::function<void()>& draw) {
  ImGuiContext* context = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(800, 600);
  io.DeltaTime = 1.0f / 60.0f;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // the atlas the glyphs' texture corners come from
  std::vector<attn::ui::TextFault> faults;
  for (int frame = 0; frame < 2; ++frame) {  // windows take their size on their first frame
    ImGui::NewFrame();
    draw();
    ImGui::Render();
  }
  faults = attn::ui::audit_text(*ImGui::GetDrawData());
  ImGui::DestroyContext(context);
  return faults;
}

const ImGuiWindowFlags kFixed = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings;

void begin_box(const char* name, float x, float y, float w, float h) {
  ImGui::SetNextWindowPos(ImVec2(x, y));
  ImGui::SetNextWindowSize(ImVec2(w, h));
  ImGui::Begin(name, nullptr, kFixed);
}

size_t count(const std::vector<attn::ui::TextFault>& faults, const std::string& kind) {
  return static_cast<size_t>(std::count_if(faults.begin(), faults.end(), [&](const auto& f) { return f.kind == kind; }));
}

}  // namespace

TEST_CASE("text audit: short text inside its window has no fault", "[ui][text_audit]") {
  const auto faults = audit_frame([] {
    begin_box("short", 10, 10, 300, 100);
    ImGui::TextUnformatted("Var(q.k) = 63.85 (theory 64)");
    ImGui::End();
  });
  CHECK(faults.empty());
}

TEST_CASE("text audit: a line past its window's edge is cut, and the window is wider than it shows", "[ui][text_audit]") {
  const auto faults = audit_frame([] {
    begin_box("narrow", 10, 10, 120, 100);
    ImGui::TextUnformatted("Var(q.k) = 63.85 (theory 64)");
    ImGui::End();
  });
  REQUIRE(count(faults, "cut") == 1);
  REQUIRE(count(faults, "wider") == 1);
  const auto wider = *std::find_if(faults.begin(), faults.end(), [](const auto& f) { return f.kind == "wider"; });
  CHECK(wider.window == "narrow");
  CHECK(wider.w > 50.0f);  // the line runs well past the edge
  const auto cut = *std::find_if(faults.begin(), faults.end(), [](const auto& f) { return f.kind == "cut"; });
  CHECK(cut.x < 130.0f);
  CHECK(cut.x + cut.w > 130.0f - 8.0f);  // the glyph straddling the window's clip edge
}

TEST_CASE("text audit: two strings drawn over each other overlap; one string's letters do not", "[ui][text_audit]") {
  const auto over = audit_frame([] {
    begin_box("ticks", 10, 10, 300, 200);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddText(ImVec2(40, 40), IM_COL32_WHITE, "-2");
    dl->AddText(ImVec2(41, 43), IM_COL32_WHITE, "-4");  // a tick label stacked on the last
    ImGui::End();
  });
  CHECK(count(over, "overlap") >= 1);
  const auto apart = audit_frame([] {
    begin_box("ticks", 10, 10, 300, 200);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddText(ImVec2(40, 40), IM_COL32_WHITE, "-2");
    dl->AddText(ImVec2(40, 60), IM_COL32_WHITE, "-4");
    ImGui::End();
  });
  CHECK(count(apart, "overlap") == 0);
}

TEST_CASE("text audit: text under a window drawn over it is covered; an opaque veil hides what it covers", "[ui][text_audit]") {
  const auto covered = audit_frame([] {
    begin_box("figure", 10, 10, 400, 200);
    ImGui::TextUnformatted("the legend");
    ImGui::End();
    begin_box("card", 10, 10, 200, 100);
    ImGui::End();
  });
  CHECK(count(covered, "covered") >= 5);
  const auto veiled = audit_frame([] {
    begin_box("figure", 10, 10, 400, 200);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddText(ImVec2(40, 40), IM_COL32_WHITE, "answer 0.61");
    dl->AddRectFilled(ImVec2(30, 30), ImVec2(200, 70), IM_COL32(30, 40, 60, 255));  // the veil
    dl->AddText(ImVec2(50, 42), IM_COL32_WHITE, "Veiled");
    ImGui::End();
  });
  CHECK(veiled.empty());
}
