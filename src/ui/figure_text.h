// Text alternatives of the figures: one sentence, in the UI's language, saying what the
// current panel shows (which token the query attends to most and with what weight, the
// variance at the chosen d_k, ...). The page keeps it in an ARIA live region, so a screen
// reader hears it change as the query cursor moves; tests read it as plain state.
#pragma once

#include "app/app_state.h"

#include <string>

namespace attn::ui {

std::string describe_figure(const AppState& state);

// A UI string by its table name (the page's own buttons use the same table); "" if unknown.
const char* tr_by_name(const std::string& name);

}  // namespace attn::ui
