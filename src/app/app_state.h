// The application state: what the user chose (Settings), what the core computed from it
// (the scene: tokens, embeddings and one or two attention traces), and nothing about
// windows or GL.
//
// Panels edit Settings; update_results() recomputes only when a setting that changes the
// math differs from the one the results were computed for (view settings such as the
// panel, the cursor or the theme never recompute). Every door into the state (the page's
// window.attnlab handle, the desktop's --state file, the URL, session files and an embed's
// postMessage) goes through apply_state_json(), which validates and clamps exactly as the UI
// does, and on any error changes nothing.
//
// The features below the state (app/scene.h, and the modern, variants, language-model and
// import files) never see it: section 5 hands each the scene and its own settings and results.
//
// Sections: 1 settings  2 results  3 operations  4 JSON and schema  5 the features' doors
#pragma once

#include "app/exercises.h"
#include "app/scaling_lab.h"
#include "app/lm_state.h"
#include "app/lm_text_run.h"
#include "app/lm_patch.h"
#include "app/overview_state.h"
#include "app/across_layers.h"
#include "app/cell_why.h"
#include "app/mask_edit.h"
#include "app/modern_state.h"
#include "app/panel_registry.h"
#include "app/scene.h"
#include "app/variants_state.h"
#include "app/view_choices.h"
#include "app/train_state.h"
#include "core/attention/pipeline.h"
#include "core/attention/positional.h"
#include "core/attention/tokenizer.h"
#include "core/io/import_attention.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attn {


// ---- 1 settings -------------------------------------------------------------------------

// Where the scene comes from (SceneSource, app/scene.h): its table kSceneSources.

// Where the scene's positions come from (Positional, core/attention/positional.h: nothing,
// the sinusoidal encoding added to x before the projections, RoPE turning each head's q and k,
// or ALiBi's bias on the scores with the paper's slope per head): its table kPositionals.

// Theme, WeightRange and UiLanguage, the view's choices: app/view_choices.h.

// 3: positional became a choice (v2's true/false migrate); 4: the language model samples by
// default (a v3 link of its scene keeps greedy generation).
inline constexpr int kStateVersion = 4;
// kMaxTokens, kMaxSentenceBytes, kMaxDModel and kMaxHeads: app/scene.h.
inline constexpr int kMaxStateBytes = 1 << 20;   // JSON text of a state or patch (every door)
// Levels of arrays and objects in a state or patch (every door; the deepest key the state
// writes, a painted mask cell, is 3 levels down): checked on the text before it is parsed.
inline constexpr int kMaxStateDepth = 16;
inline constexpr const char* kDefaultSentence = "The cat sat on the mat because it was tired.";

// MaskSettings and MathSettings, the math of a side: app/scene.h.

struct Settings {
  // scene
  SceneSource source = SceneSource::Generated;
  std::string sentence = kDefaultSentence;
  int d_model = 16;
  int heads = 4;
  Positional positional = Positional::Sinusoidal;
  float rope_base = 10000.0f;
  RopePairing rope_pairing = RopePairing::Half;
  std::uint64_t seed = 1;
  MathSettings math;
  // compare mode: side B = the same input under compare_math
  bool compare = false;
  MathSettings compare_math;
  // view (never recomputes)
  Panel panel = Panel::Pipeline;
  int cursor = 0;  // query token highlighted everywhere; -1 = none
  int cursor_key = -1;  // with cursor, the chosen cell's key (app/cell_why.h); -1 = none
  int head = 0;    // focused head
  int layer = 0;
  int tour = 0;  // the guided tour's step (app/tour.h): 0 = no tour, 1..kTourSteps
  int exercise = 0;  // the exercise shown (app/exercises.h): 0 = none, 1..kExercises
  int diff_head = 1;  // head B of the heads panel's difference view
  Theme theme = Theme::Dark;
  WeightRange weight_range = WeightRange::Fixed;
  bool presentation = false;
  float ui_scale = 1.0f;
  UiLanguage language = UiLanguage::English;
  // the scaling and softmax lab (its own figures, recomputed when these change)
  ScalingLabSettings scaling_lab;
  // the mask, scoring and efficient-attention panels (app/variants_state.h)
  VariantSettings variants;
  // the panels of attention as current models use it (app/modern_state.h)
  ModernSettings modern;
  // the language-model scene: generation and the heads switched off (app/lm_state.h)
  LmSettings lm;
  // imported scenes: which file (bumped on every load), special tokens hidden, rows renormalised
  std::uint64_t import_id = 0;
  bool hide_special = false;
  bool renormalise = false;
  // the model view beside the single heads (app/across_layers.h): not part of the scene, its
  // figures are computed from the scene's results
  AcrossLayers across = AcrossLayers::Heads;
  float rollout_residual = 0.5f;
  // activation patching on the language model (app/lm_patch.h): its own grid, not the scene's
  LmPatchSettings patch = default_lm_patch_settings();
  // the long-input overview of a file of q and k without weights (app/overview_state.h)
  OverviewSettings overview;

  // True when the two differ in anything that changes the computed results.
  bool same_scene(const Settings& o) const {
    return source == o.source && sentence == o.sentence && d_model == o.d_model && heads == o.heads &&
           positional == o.positional && rope_base == o.rope_base && rope_pairing == o.rope_pairing && seed == o.seed && math == o.math && compare == o.compare &&
           (!compare || compare_math == o.compare_math) && (source != SceneSource::Trained || layer == o.layer) &&
           (source != SceneSource::Language || (layer == o.layer && lm.same_scene(o.lm))) &&
           (source != SceneSource::Imported ||
            (import_id == o.import_id && layer == o.layer && hide_special == o.hide_special && renormalise == o.renormalise));
  }
};

// ---- 2 results --------------------------------------------------------------------------

struct HeadMetrics {
  float mean_entropy = 0.0f;     // nats, averaged over query rows
  float mean_max_weight = 0.0f;  // averaged over query rows
  float mean_distance = 0.0f;    // sum_j w_ij |i - j|, averaged over rows: how far a head looks
};

struct AppState {
  Settings settings;
  int tour_opened = 0;  // the tour step whose panel and settings were last opened (app/tour.h)
  ExerciseSession exercise;  // the shown exercise's veil and verdict, and the learner's progress

  // Results: derived from `computed_for`; never edited by panels.
  Settings computed_for;
  bool has_results = false;
  std::vector<std::string> tokens;  // labels, one per token
  ProjectionWeights weights;
  PipelineTrace trace;          // side A (the settings' math)
  PipelineTrace compare_trace;  // side B, when compare is on
  std::vector<HeadMetrics> head_metrics;  // per head of side A
  std::uint64_t revision = 0;  // bumped on every recompute, so the GL side knows to re-upload
  ScalingLabSettings scaling_lab_computed_for;
  bool has_scaling_lab = false;
  ScalingLabResults scaling_lab;
  Status notice;               // the last refused change, shown to the user (ok: none)
  EditHistory<MaskSettings> mask_history;  // undo/redo of side A's mask (the mask editor)
  VariantResults variants;     // the scoring and efficient-attention panels' figures
  CostChartRun cost_chart;     // the cost chart, measured a slice per frame
  ModernResults modern;        // the modern-attention panels' figures
  TrainState train;            // the training lab and the trained scene's model
  std::shared_ptr<const LmScene> lm_scene;  // the language model, once loaded
  LmResults lm;                // what the language-model scene computed
  bool lm_wanted = false;      // the scene was asked for before its model arrived (the page fetches it)
  int lm_wanted_layer = 0;     // ... and the layer it asked for (the waiting scene has one layer)
  bool lm_unavailable = false; // the page cannot fetch the model (the offline single-file pages)
  OverviewState overview;      // a file of q and k of up to 32,768 tokens, and its pooled picture
  LmPatchResults lm_patch;     // activation patching's grid, a few cells a frame (app/lm_patch.h)
  LmTextRun lm_text;           // training on the user's own text (the page's Worker reports it)

  // Imported scene (files/import_view.h): the file's data, and what the selected layer shows.
  std::shared_ptr<const ImportedAttention> imported;
  std::string imported_name;
  std::vector<std::string> key_tokens;          // column labels (= tokens unless cross-attention)
  std::vector<int> visible_rows, visible_cols;  // indices into the file's tokens
  float qkv_max_difference = 0.0f;              // |recomputed - file weights|, focused layer, all heads

  // The model view of the imported, language or trained scene (model_grid_shape).
  std::vector<Mat> thumbnails;    // layer * heads + head: pooled shown weights
  int thumbnails_done = 0;        // an imported file's: a few per frame (advance_thumbnails)
  std::vector<float> sink_share;  // per head of the layer: mean weight on key 0 (raw)
  AcrossLayersResults across;     // the model view's layers beside the single heads (app/across_layers.h)
  CellWhy cell;                   // why the chosen cell scores what it scores (app/cell_why.h)
};

// ---- 3 operations -----------------------------------------------------------------------

// Recomputes the results when a scene setting changed. Returns true if it did.
bool update_results(AppState& state);

// The language model arrived for a scene asked for before it: the scene opens, on the layer the
// link or setState named (the scene waited on the previous one, which had a single layer).
void enter_wanted_lm_scene(AppState& state);

// The model view's grid: the layers and heads of the shown scene's model (an imported file's
// or the language model's); 0 x 0 when the scene has none.
struct ModelGridShape {
  int layers = 0, heads = 0;
};
ModelGridShape model_grid_shape(const AppState& state);

// Whether the shown panel draws projections drawn from the seed (a generated scene): nothing
// in its figures was learned, and the panel says so (one line above it).
bool shows_random_projections(const Settings& s);

// Clamps settings to their legal ranges (what the UI's controls allow) given the token
// count n of the current scene. Sentence length is checked by check_sentence().
Settings clamped(Settings s, int n_tokens);

// Refuses a sentence that is too long, not UTF-8, or has more than kMaxTokens tokens.
Status check_sentence(const std::string& sentence);

PipelineConfig pipeline_config(const Settings& s, const MathSettings& math, int n_tokens);

HeadMetrics head_metrics(const Mat& weights);
// The same from a head's trace: its row statistics when the pipeline kept them.
HeadMetrics head_metrics(const HeadTrace& head);

const char* to_string(SceneSource s);
const char* to_string(Positional p);
const char* to_string(ScoreFunction f);

// ---- 4 JSON and schema (state_json.cpp, state_schema.cpp) ------------------------------
// Both walk one table of the state's keys (app/state_schema.h): each key's path, kind, range
// or choices, and its field in Settings.

// The state as JSON text: every setting, plus read-only facts (version, tokens, figures).
std::string state_to_json(const AppState& state);

// Only the settings (and the version): what a link, a session file or an embed restores.
std::string settings_to_json(const Settings& settings);
// The same as a JSON value (links write it key by key: app/url_state.h).
nlohmann::json settings_json(const Settings& settings);

// Applies a JSON object of settings to change (a patch). Every value is validated and
// clamped by the same rules as the UI; on any error nothing changes and the message says
// which key failed. Older versions of the schema are migrated first.
Status apply_state_json(AppState& state, const std::string& json_text);

// The table as JSON, for the page and tools: an array of {path, kind, min, max, choices,
// length, below, divides, fixed, needsEvenDk, default}, each default settings_json()'s.
std::string state_schema_json();

struct KeyRange {
  double min = 0, max = 0;
  float clamp(float v, float fallback) const;  // v within [min, max]; fallback if v is NaN or infinite
  int clamp(int v) const;
};

// The range the state accepts for the numeric key at `path` ("temperature", "lab.dk",
// "compare.mask.window", "variants.rank"). A path the table lacks is a bug: it aborts.
KeyRange key_range(std::string_view path);

// The range a slider offers for the key: narrower than key_range where the full range would
// make the slider too coarse to use (a state may still hold any value key_range allows).
KeyRange slider_range(std::string_view path);

// ---- 5 the features' doors (app_state_features.cpp) ------------------------------------

// The scene's side A as the panels' figures read it.
SceneView scene_view(const AppState& state);

// Once per frame, after update_results(): the figures of the shown modern-attention panel
// (app/modern_state.h), and the scoring, variant and cost-chart figures (app/variants_state.h;
// the chart is measured for about `chart_budget_seconds`).
void update_modern_panels(AppState& state);
void update_variant_panels(AppState& state, double chart_budget_seconds);

// A frame's work for the language scene (app/lm_state.h): while playing, one more generated
// token every kLmPlaySeconds; and kLmAblationBudgetMs of the ablation table. True if a
// setting changed.
bool advance_lm(AppState& state, double now_seconds);

// The long-input overview while its panel shows: a new pass when its settings changed, the
// region, and (no Worker) a slice of the pass within `budget_ms`.
bool advance_overview_panel(AppState& state, double budget_ms);

// Opens `panel` (its id) and applies `patch` (a settings patch of the lab's own: a tour step's,
// an exercise's); a refused patch still opens the panel.
void open_panel_with(AppState& state, const char* panel, const char* patch);

// Opens the tour step the state's `tour` names (app/tour.h) when it changed since the last
// call: its panel and its settings (the rest of the state is left as it is, so the learner can
// go on changing it within the step). Returns whether a step was opened.
bool update_tour(AppState& state);

// The imported scene (files/import_view.h). import_into_state parses `bytes` and, on success,
// makes it the scene (source Imported, layer 0, head 0, cursor 0); on error the state is
// unchanged and the message says why. set_imported makes already-parsed data the scene; it
// refuses a file without weights (q and k alone, for the overview), leaving the state as it was.
Status import_into_state(AppState& state, const std::uint8_t* bytes, std::size_t size, const std::string& name,
                         const ImportOptions& options, const InflateFn& inflate);
Status set_imported(AppState& state, ImportedAttention data, const std::string& name);

// Rebuilds the scene from the imported data for the settings' layer (update_results calls it
// when the scene changed).
void update_imported_results(AppState& state);

// The model view's thumbnails of an imported file are filled a few per frame within
// `budget_ms`, so a large file never stalls the frame loop. True when it filled some (the
// view should redraw).
bool advance_thumbnails(AppState& state, double budget_ms);

// Whether work goes on over the coming frames: a training run or the scaling experiment, the
// cost chart or the decoding measurement, generation playing, the ablation table or the
// patching grid filling on its panel, an imported file's thumbnails, the overview's pass in
// frames. The web loop keeps every animation frame while it does, and idles only when
// nothing does (platform/main_web.cpp).
bool frames_have_work(const AppState& state);

// The model view's layers beside the single heads (app/across_layers.h), from the scene's own
// weights: recomputed when the scene, Settings::across or the residual share changed; freed
// while the model view does not show them. True if it computed.
bool update_across_layers(AppState& state);

// Why the chosen cell (Settings::cursor, cursor_key) of the focused head scores what it does
// (app/cell_why.h): recomputed when the scene, the cell or the head changed. True if it did.
bool update_cell_why(AppState& state);

// True when the scene is imported without Q/K/V and `panel` needs the scores they give
// (pipeline, compare); the UI then says so instead of drawing the panel.
bool imported_panel_needs_qkv(const AppState& state, Panel panel);

}  // namespace attn
