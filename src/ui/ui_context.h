// What the UI keeps between frames that is not part of the application's state: the GL
// heatmap program, what each heatmap made from its matrix (its texture first), zoom and pan
// of each heatmap, where each heatmap
// landed (the page's handle reports it, so tests can find cells), what the pointer
// hovers, and the heatmap draws queued for this frame's render pass.
#pragma once

#include "app/app_state.h"
#include "core/base/types.h"
#include "gfx/heatmap_gl.h"
#include "ui/heatmap_key.h"

#include <imgui.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <utility>
#include <string>
#include <vector>

namespace attn::ui {

// A heatmap queued for drawing inside ImGui's render pass.
struct HeatmapDraw {
  const gfx::HeatmapProgram* program = nullptr;
  const gfx::MatrixTexture* texture = nullptr;
  gfx::HeatmapStyle style;
  gfx::HeatmapView view;
  float x = 0, y = 0, w = 0, h = 0;  // ImGui display coordinates
};

struct HeatmapPlacement {
  float x = 0, y = 0, w = 0, h = 0;  // display pixels, from the top-left of the canvas
  int rows = 0, cols = 0;
  gfx::HeatmapView view;
  float range_lo = 0, range_hi = 1;
  int colour_range = 0;  // WeightRange: the weights' colours by [0, 1], by row or by log10
};

// A plot's axes as drawn (ui/plot.h), for layout().
struct PlotPlacement {
  float x = 0, y = 0, w = 0, h = 0;  // the axes' box, display pixels
  std::string x_title, y_title;
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
  bool log_x = false, log_y = false;
  std::vector<std::string> x_ticks, y_ticks;  // the tick labels drawn
  std::vector<std::string> legend;
  std::vector<std::string> references;
  std::string readout;  // the point under the pointer, as shown
};

// One item of the chapter and panel navigation as drawn, for layout(): its text and box, so a
// test can tell a truncated label from a whole one.
struct NavItem {
  std::string kind;  // "chapter", "panel", "toggle" (the controls) or "tour" (its start)
  std::string id;    // the chapter's or the panel's id
  std::string text;  // the label shown
  float x = 0, y = 0, w = 0, h = 0;  // the button, display pixels
  float text_w = 0;                  // the label's width
  bool selected = false;
};

// The tour's card this frame (ui/tour_card.h), for layout(): step 0 when there is none.
struct TourLayout {
  int step = 0;
  std::string panel, title, text, highlight;
  float box[4] = {0, 0, 0, 0};            // the card, display pixels (x, y, w, h)
  float highlight_box[4] = {0, 0, 0, 0};  // the element spoken of, when it was drawn
  float back_box[4] = {0, 0, 0, 0}, next_box[4] = {0, 0, 0, 0};  // its buttons (0 when absent)
};

// This frame's exercise card (ui/exercise_card.h) and what it veils, for the panels, the
// heatmaps and layout(). `veil` and `answer_on` are set before the panel is drawn.
struct ExerciseLayout {
  int id = 0;
  std::string veil;        // ids hidden until the learner answers ("" = nothing veiled)
  std::string answer_on;   // the heatmap whose click answers a cell exercise ("" = none)
  bool cell_clicked = false;  // a click on `answer_on` this frame, at (row, col)
  int cell_row = -1, cell_col = -1;
  std::string question, feedback;
  std::map<std::string, std::array<float, 4>> veiled;  // what was veiled this frame: x, y, w, h
  std::map<std::string, std::array<float, 4>> asked;   // the panel's blocks asked about (VeilGroup), veiled or not
  std::vector<std::array<float, 4>> choice_boxes;      // a choice exercise's options
  float box[4] = {0, 0, 0, 0};        // the card
  float input_box[4] = {0, 0, 0, 0};  // a number exercise's field
  float check_box[4] = {0, 0, 0, 0}, show_box[4] = {0, 0, 0, 0}, next_box[4] = {0, 0, 0, 0};
};

struct Hover {
  std::string heatmap;  // empty = nothing hovered
  int row = -1, col = -1;
  std::string derivation;  // how the hovered value came about
};

// A weights matrix as its colour range shows it (ui/heatmap_widget.cpp), with the range it
// was made for and the value at the bottom of its scale.
struct RangedWeights {
  int range = -1;  // WeightRange; -1: not made
  Mat values;
  float lo = 0.0f;
};

// A heatmap's widest axis label, with what it was measured for (ui/heatmap_widget.cpp).
struct LabelWidth {
  bool measured = false;
  size_t count = 0;
  float font = 0.0f;
  float widest = 0.0f;
};

// What one heatmap made from its matrix (ui/heatmap_widget.cpp). Each part is made when first
// needed and kept while the key stays; a new key drops them all. The whole is freed, texture
// and all, when the heatmap is not drawn for two frames.
struct HeatmapCache {
  HeatmapKey key;  // the matrix they were made from
  gfx::MatrixTexture texture;
  int texture_range = -1;  // WeightRange of the values the texture holds; -1: nothing yet
  bool has_scale = false;  // a diverging heatmap's colour scale, +-max|finite|
  std::pair<float, float> scale;
  RangedWeights ranged;
  LabelWidth row_labels, col_labels;
  std::uint64_t last_drawn = 0;  // UiContext::heatmap_frame
};

// Where one frame's CPU time went, for the knob-to-picture benchmark (bench/latency.mjs).
// compute: the results and the panels' own work before any widget, with what setState
// computed since the previous frame; upload: the matrices handed to textures
// (glTexImage2D); ui: the widgets without those uploads; draw: ImGui::Render and the GL
// calls. In a browser the GPU's part runs after these, in another process.
struct FrameTimings {
  double compute_ms = 0.0, ui_ms = 0.0, upload_ms = 0.0, draw_ms = 0.0, total_ms = 0.0;
  std::uint64_t frame = 0;  // App::frames_drawn() when it was drawn
};

struct UiContext {
  gfx::HeatmapProgram program;
  std::deque<HeatmapDraw> draws;  // this frame's; stable addresses until the next frame
  std::map<std::string, gfx::HeatmapView> views;  // zoom/pan per heatmap id
  std::map<std::string, std::pair<int, int>> view_sizes;  // the matrix size each view was made for
  std::map<std::string, HeatmapPlacement> placements;  // this frame's
  std::map<std::string, PlotPlacement> plots;          // this frame's
  std::map<std::string, std::array<float, 4>> tabs;     // this frame's tab rectangles (x, y, w, h) by panel name
  std::vector<NavItem> nav;                              // this frame's chapter and panel buttons
  TourLayout tour;                                       // this frame's tour card
  ExerciseLayout exercise;                               // this frame's exercise card and veils
  // The first frames of a tour step or an exercise: what it speaks of is scrolled into view,
  // in a scrolling part of the panel too (App::scroll_to_spoken_of, VeilGroup).
  bool scroll_to_asked = false;
  // This frame's line saying the projections are random (empty text: none), for layout().
  struct Note {
    std::string text;
    std::array<float, 4> box{};  // x, y, w, h
  } random_note;
  float nav_right = 0;                                   // the right edge the navigation must keep within
  WeightRange weight_range = WeightRange::Fixed;  // the state's, set each frame
  std::map<std::string, HeatmapCache> heatmaps;    // per heatmap id, those drawn in the last two frames
  std::uint64_t heatmap_frame = 0;                 // frames ended (end_heatmap_frame)
  Hover hover;
  bool playing = false;
  double play_accumulator = 0.0;
  int framebuffer_w = 0, framebuffer_h = 0;
  float dpi_scale = 1.0f;
  double frame_ms = 0.0;  // CPU time of the last frame() (recompute + UI + GL calls)
  FrameTimings timings;         // the frame being drawn, filled in as it goes
  FrameTimings last_recompute;  // the last frame that drew newly computed results
  double pending_compute_ms = 0.0;  // results computed outside frame() (setState) since the last frame
  std::uint64_t drawn_revision = 0;  // AppState::revision of the results the last frame drew
  // The mask editor's stroke: painting while the button is held, from the last cell painted.
  bool painting = false;
  int paint_row = -1, paint_col = -1;
  // Training panel: on the desktop a path field saves and loads the run; the web page has
  // its own download button and file picker instead.
  bool model_files_on_disk = true;
  std::string model_path = "run.attnmodel";
};

}  // namespace attn::ui
