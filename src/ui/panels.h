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
void draw_pipeline_panel(AppState& state, UiContext& ctx);
void draw_token_panel(AppState& state, UiContext& ctx);
void draw_heads_panel(AppState& state, UiContext& ctx);
void draw_compare_panel(AppState& state, UiContext& ctx);

// The scaling and softmax lab (ui/lab_panels.cpp): each draws state.lab's figures.
void draw_dot_product_panel(AppState& state, UiContext& ctx);
void draw_variance_panel(AppState& state, UiContext& ctx);
void draw_saturation_panel(AppState& state, UiContext& ctx);
void draw_softmax_panel(AppState& state, UiContext& ctx);
void draw_stability_panel(AppState& state, UiContext& ctx);
void draw_walkthrough_panel(AppState& state, UiContext& ctx);

// Masks, scoring functions and efficient attention (ui/variant_panels.cpp).
void draw_mask_panel(AppState& state, UiContext& ctx);
void draw_scoring_panel(AppState& state, UiContext& ctx);
void draw_variants_panel(AppState& state, UiContext& ctx);
void draw_cost_chart_panel(AppState& state, UiContext& ctx);
// The training lab (ui/train_panels.cpp): each draws state.train's results.
void draw_training_panel(AppState& state, UiContext& ctx);
void draw_scaling_run_panel(AppState& state, UiContext& ctx);

// How the value at (row, col) of a named matrix came about: q_i . k_j term by term, the
// scale, the mask, the softmax step. Empty for matrices that have no derivation.
std::string derivation_text(const AppState& state, const std::string& matrix, int head, int row, int col);

}  // namespace attn::ui
