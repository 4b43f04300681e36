// The guided tour: one step per idea of the tutorial, in its order. A step names the panel it
// shows, the settings it sets (a state patch, as setState takes) and the element of the figure
// it speaks of (a heatmap's or a plot's id, as layout() names them). The tour's position is
// the state key `tour` (0: no tour; 1..kTourSteps: that step), so a step has its own link
// (#tour=N and the state). The step's text is the UI's (ui/strings.h: tour_title_N, tour_text_N).
#pragma once

#include "app/app_state.h"

namespace attn {

struct TourStep {
  const char* panel;      // the panel's id
  const char* patch;      // settings set when the step opens (JSON object; may be "{}")
  const char* highlight;  // the heatmap or plot spoken of ("" = the panel itself)
};

inline constexpr int kTourSteps = 14;
const TourStep& tour_step(int step);  // step in 1..kTourSteps

// Opens the step the state's `tour` names when it changed since the last call: its panel and
// its settings (the rest of the state is left as it is, so the learner can go on changing it
// within the step). Returns whether a step was opened.
bool update_tour(AppState& state);

}  // namespace attn
