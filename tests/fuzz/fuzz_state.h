// The default scene computed once, for the fuzz targets that feed the state's doors: a state
// copied from it recomputes only what an input changes, which keeps each run cheap.
#pragma once

#include "app/app_state.h"

inline const attn::AppState& computed_default() {
  static const attn::AppState state = [] {
    attn::AppState s;
    attn::update_results(s);
    return s;
  }();
  return state;
}
