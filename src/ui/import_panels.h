// Panels of the imported scene: the file's summary (in the controls) and the model view.
#pragma once

#include "app/app_state.h"
#include "ui/ui_context.h"

namespace attn::ui {

// What the loaded file holds, the special-token options; a hint when nothing is loaded.
void draw_import_summary(AppState& state);
// The layer x head grid of small heatmaps, the layer selector, the focused head and its sink.
void draw_model_panel(AppState& state, UiContext& ctx);

}  // namespace attn::ui
