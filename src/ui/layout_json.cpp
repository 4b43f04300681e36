#include "ui/layout_json.h"

#include "files/json_text.h"
#include "ui/app.h"
#include "ui/text_audit.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace attn::ui {

std::string layout_json(const App& app) {
  const UiContext& ui = app.ui();
  nlohmann::json heatmaps = nlohmann::json::object();
  for (const auto& [id, p] : ui.placements)
    heatmaps[id] = {{"x", p.x}, {"y", p.y}, {"w", p.w}, {"h", p.h}, {"rows", p.rows}, {"cols", p.cols},
                    {"viewX0", p.view.x0}, {"viewY0", p.view.y0}, {"viewW", p.view.w}, {"viewH", p.view.h},
                    {"rangeLo", p.range_lo}, {"rangeHi", p.range_hi},
                    {"colourRange", p.colour_range == 1 ? "row" : p.colour_range == 2 ? "log" : "fixed"}};
  nlohmann::json plots = nlohmann::json::object();
  for (const auto& [id, p] : ui.plots)
    plots[id] = {{"x", p.x}, {"y", p.y}, {"w", p.w}, {"h", p.h}, {"xTitle", p.x_title}, {"yTitle", p.y_title},
                 {"xRange", {p.x_lo, p.x_hi}}, {"yRange", {p.y_lo, p.y_hi}}, {"logX", p.log_x}, {"logY", p.log_y},
                 {"xTicks", p.x_ticks}, {"yTicks", p.y_ticks}, {"legend", p.legend}, {"references", p.references},
                 {"readout", p.readout}};
  nlohmann::json nav = nlohmann::json::array();
  for (const NavItem& n : ui.nav)
    nav.push_back({{"kind", n.kind}, {"id", n.id}, {"text", n.text}, {"x", n.x}, {"y", n.y}, {"w", n.w}, {"h", n.h},
                   {"textWidth", n.text_w}, {"selected", n.selected}, {"right", ui.nav_right}});
  nlohmann::json tabs = nlohmann::json::object();
  for (const auto& [panel, r] : ui.tabs) tabs[panel] = {{"x", r[0]}, {"y", r[1]}, {"w", r[2]}, {"h", r[3]}};
  const TourLayout& t = ui.tour;
  const nlohmann::json tour = {{"step", t.step}, {"panel", t.panel}, {"title", t.title}, {"text", t.text},
                               {"highlight", t.highlight},
                               {"x", t.box[0]}, {"y", t.box[1]}, {"w", t.box[2]}, {"h", t.box[3]},
                               {"highlightBox", {{"x", t.highlight_box[0]}, {"y", t.highlight_box[1]},
                                                 {"w", t.highlight_box[2]}, {"h", t.highlight_box[3]}}},
                               {"backBox", {{"x", t.back_box[0]}, {"y", t.back_box[1]}, {"w", t.back_box[2]}, {"h", t.back_box[3]}}},
                               {"nextBox", {{"x", t.next_box[0]}, {"y", t.next_box[1]}, {"w", t.next_box[2]}, {"h", t.next_box[3]}}}};
  // The UI font as drawn: its size in CSS pixels and the advance of each digit (all equal in
  // a face with tabular digits, so columns of numbers align).
  nlohmann::json digits = nlohmann::json::array();
  const ImFont* font = ImGui::GetFont();
  for (char c = '0'; c <= '9'; ++c) {
    const ImFontGlyph* g = font ? font->FindGlyphNoFallback(static_cast<ImWchar>(c)) : nullptr;
    digits.push_back(g ? g->AdvanceX : 0.0f);
  }
  const nlohmann::json font_info = {{"ui", app.has_ui_font()}, {"pixels", ImGui::GetFontSize() / std::max(0.01f, ui.dpi_scale)},
                                    {"digitAdvances", digits}};
  // The exercise card and what it veils (ui/exercise_card.h).
  const ExerciseLayout& x = ui.exercise;
  const auto rect = [](const float* b) { return nlohmann::json{{"x", b[0]}, {"y", b[1]}, {"w", b[2]}, {"h", b[3]}}; };
  nlohmann::json exercise = {{"id", x.id}};
  if (x.id > 0) {
    nlohmann::json veiled = nlohmann::json::object();
    for (const auto& [id, b] : x.veiled) veiled[id] = rect(b.data());
    nlohmann::json choices = nlohmann::json::array();
    for (const auto& b : x.choice_boxes) choices.push_back(rect(b.data()));
    exercise = {{"id", x.id}, {"question", x.question}, {"feedback", x.feedback}, {"answerOn", x.answer_on},
                {"x", x.box[0]}, {"y", x.box[1]}, {"w", x.box[2]}, {"h", x.box[3]}, {"veiled", veiled},
                {"choiceBoxes", choices}, {"inputBox", rect(x.input_box)}, {"checkBox", rect(x.check_box)},
                {"showBox", rect(x.show_box)}, {"nextBox", rect(x.next_box)}};
  }
  const UiContext::Note& note = ui.random_note;
  const nlohmann::json random_note = note.text.empty() ? nlohmann::json(nullptr)
      : nlohmann::json{{"text", note.text}, {"x", note.box[0]}, {"y", note.box[1]}, {"w", note.box[2]}, {"h", note.box[3]}};
  // Text no reader could read whole in the last frame (ui/text_audit.h).
  nlohmann::json text_faults = nlohmann::json::array();
  if (const ImDrawData* data = ImGui::GetDrawData())
    for (const TextFault& f : audit_text(*data))
      text_faults.push_back({{"kind", f.kind}, {"window", f.window}, {"x", f.x}, {"y", f.y}, {"w", f.w}, {"h", f.h}});
  const nlohmann::json layout = {
      {"tour", tour},
      {"exercise", exercise},
      {"randomNote", random_note},
      {"font", font_info},
      {"heatmaps", heatmaps},
      {"tabs", tabs},
      {"plots", plots},
      {"nav", nav},
      {"controls", app.controls_drawn()},
      {"hover", {{"heatmap", ui.hover.heatmap}, {"row", ui.hover.row}, {"col", ui.hover.col}, {"derivation", ui.hover.derivation}}},
      {"framebufferWidth", ui.framebuffer_w},
      {"framebufferHeight", ui.framebuffer_h},
      {"playing", ui.playing},
      {"missingGlyphs", app.missing_glyphs()},
      {"textFaults", text_faults},
      {"cjkFont", app.has_cjk_font()},
      {"textures", std::count_if(ui.heatmaps.begin(), ui.heatmaps.end(), [](const auto& h) { return h.second.texture.id() != 0; })},
  };
  return json_text(layout);
}

}  // namespace attn::ui
