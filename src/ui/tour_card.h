// The guided tour's card (app/tour.h): the step's title and sentences beside the figure, Back
// and Next, and a frame around the element the step speaks of. Drawn over the panel window,
// at its lower right, after the panel (whose heatmaps and plots are placed by then).
#pragma once

#include "app/app_state.h"
#include "ui/ui_context.h"

namespace attn::ui {

// The step's card in `column` (x, y, w, h), the room beside the panel window; `navigation`
// false leaves out Back and Next (an embed that shows one step).
void draw_tour_card(AppState& state, UiContext& ctx, const float column[4], bool navigation);

}  // namespace attn::ui
