// Panels: free functions that take the state and the UI context. Changing a control only
// edits Settings; the next update_results() recomputes what changed.
#pragma once

#include "app/app_state.h"
#include "ui/ui_context.h"

namespace attn::ui {

// Which platform the controls run on: on the web the sentence is typed into a real HTML
// text field (IMEs, paste, mobile keyboards), so the panel only shows it.
struct ControlsOptions {
  bool sentence_in_html_field = false;
  bool model_files_in_page = false;  // the training panel's save/load are the page's buttons
};

void draw_controls_panel(AppState& state, UiContext& ctx, const ControlsOptions& options);

// Every panel's draw function, declared from the registry (app/panel_registry.h); each is
// defined in the file of its group: explorer_panels.cpp (pipeline, token, heads, compare, and
// the controls), scaling_lab_panels.cpp (the scaling and softmax lab), variant_panels.cpp
// (masks, scoring, efficient attention), train_panels.cpp (training), model_view_panel.cpp
// (the imported file's model view).
#define ATTNLAB_PANEL_DECLARE(name, id, chapter, title, draw, keys, flags) void draw(AppState& state, UiContext& ctx);
ATTNLAB_PANELS(ATTNLAB_PANEL_DECLARE)
#undef ATTNLAB_PANEL_DECLARE

// How the value at (row, col) of a named matrix came about: q_i . k_j term by term, the
// scale, the mask, the softmax step. Empty for matrices that have no derivation.
std::string derivation_text(const AppState& state, const std::string& matrix, int head, int row, int col);

// A training task's name and what its loss scores, in the UI's language (train_panels.cpp).
const char* task_label(train::TrainTask task);
const char* task_scored(train::TrainTask task);

// In the language scene, what head `head` of the shown layer does on the text: its label and
// the score that earned it, one line (language_panel.cpp); nothing in other scenes.
void draw_lm_head_label(const AppState& state, int head);
// Why the chosen cell scores what it does (app/cell_why.h), under the pipeline panel's stages
// (cell_why_view.cpp): whether there is something to show, and the view `height` tall.
bool cell_why_shown(const AppState& state);
void draw_cell_why(const AppState& state, UiContext& ctx, float width, float height);
// A head kind's name in the UI's language ("previous character", ...) (language_panel.cpp).
const char* lm_kind_label(lm::HeadKind kind);

}  // namespace attn::ui
