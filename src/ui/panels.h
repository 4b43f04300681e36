// Panels: free functions that take the state (and, for drawing, the renderer).
#pragma once

#include "app/app_state.h"
#include "gfx/heatmap_renderer.h"

namespace attn::ui {

struct Layout;
struct HeatmapDraw;

// Scene and math controls. Changing a value only edits Settings; the next
// update_results() recomputes.
void draw_controls_panel(AppState& state);

// The weights heatmap with token labels, a colour scale and numbers in large cells.
// `draw` is filled and queued for the render pass; `layout` records where it landed.
void draw_weights_panel(const AppState& state, const gfx::HeatmapRenderer& renderer,
                        HeatmapDraw& draw, Layout& layout);

}  // namespace attn::ui
