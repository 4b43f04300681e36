// What the UI adds to each entry of the panel registry (app/panel_registry.h): its title and
// its draw function, expanded from the registry's own columns, so the UI keeps no list of
// panels of its own.
#pragma once

#include "app/app_state.h"
#include "ui/strings.h"
#include "ui/ui_context.h"

#include <string>

namespace attn::ui {

struct PanelView {
  Panel panel;
  S title;
  void (*draw)(AppState&, UiContext&);
};

// Every panel in the registry's order (the order of the tabs).
const PanelView* panel_views_begin();
const PanelView* panel_views_end();
inline const PanelView& panel_view(Panel p) { return panel_views_begin()[static_cast<int>(p)]; }

// The registry for the page: [{id, chapter, title (in the current language), stateKeys,
// heatmaps, scalingLab, needsScores}], in the tabs' order.
std::string panels_json();

}  // namespace attn::ui
