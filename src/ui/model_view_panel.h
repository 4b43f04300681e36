// The imported scene's summary in the controls (its model view, draw_model_view_panel, is a
// registered panel: ui/panels.h).
#pragma once

#include "app/app_state.h"
#include "ui/ui_context.h"

namespace attn::ui {

// What the loaded file holds, the special-token options; a hint when nothing is loaded.
void draw_import_summary(AppState& state);

}  // namespace attn::ui
