// The guided tour: one step per idea of the tutorial, in its order. A step names the panel it
// shows, the settings it sets (a state patch, as setState takes) and the element of the figure
// it speaks of (a heatmap's or a plot's id, as layout() names them). The tour's position is
// the state key `tour` (0: no tour; 1..kTourSteps: that step), so a step has its own link
// (#tour=N and the state). The step's text is the UI's (ui/strings.h: tour_title_N, tour_text_N).
// The state opens a step (update_tour in app/app_state.h).
#pragma once

namespace attn {

struct TourStep {
  const char* panel;      // the panel's id
  const char* patch;      // settings set when the step opens (JSON object; may be "{}")
  const char* highlight;  // the heatmap or plot spoken of ("" = the panel itself)
};

inline constexpr int kTourSteps = 15;
const TourStep& tour_step(int step);  // step in 1..kTourSteps

}  // namespace attn
