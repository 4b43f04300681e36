#include "ui/layout_json.h"

#include "ui/app.h"

#include <nlohmann/json.hpp>

namespace attn::ui {

std::string layout_json(const App& app) {
  const UiContext& ui = app.ui();
  nlohmann::json heatmaps = nlohmann::json::object();
  for (const auto& [id, p] : ui.placements)
    heatmaps[id] = {{"x", p.x}, {"y", p.y}, {"w", p.w}, {"h", p.h}, {"rows", p.rows}, {"cols", p.cols},
                    {"viewX0", p.view.x0}, {"viewY0", p.view.y0}, {"viewW", p.view.w}, {"viewH", p.view.h},
                    {"rangeLo", p.range_lo}, {"rangeHi", p.range_hi}};
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
  const nlohmann::json layout = {
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
      {"cjkFont", app.has_cjk_font()},
      {"textures", static_cast<int>(ui.program.texture_count())},
  };
  // Token text may hold bytes that are not UTF-8 (an imported file's labels): replaced, not
  // thrown on (the web build does not catch exceptions).
  return layout.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace attn::ui
