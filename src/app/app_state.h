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
// Sections: 1 settings  2 results  3 operations  4 JSON schema
#pragma once

#include "app/scaling_lab.h"
#include "app/lm_state.h"
#include "app/mask_edit.h"
#include "app/modern_state.h"
#include "app/panel_registry.h"
#include "app/variants_state.h"
#include "app/train_state.h"
#include "core/attention/pipeline.h"
#include "core/attention/positional.h"
#include "core/attention/tokenizer.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attn {

struct ImportedAttention;  // core/io/import_attention.h

// ---- 1 settings -------------------------------------------------------------------------

enum class SceneSource {
  Generated,      // text -> tokens -> deterministic embeddings -> projections from the seed
  WorkedExample,  // the tutorial's 2-token example with given Q, K, V (d_k = 2, one head)
  Trained,        // a trained model's layer on its task's probe sequence (app/train_state.h)
  Imported,       // attention read from a file (app/import_state.h); only a loaded file selects it
  Language,       // the character-level language model on the sentence (app/lm_state.h)
};

// Where the scene's positions come from (Positional, core/attention/positional.h: nothing,
// the sinusoidal encoding added to x before the projections, RoPE turning each head's q and k,
// or ALiBi's bias on the scores with the paper's slope per head): its table kPositionals.

// The view's choices, one table each (core/base/choices.h): X(enumerator, public name). The
// state's schema, reader, writer and messages read them.
//   theme        the colours
//   weightRange  how the weights' heatmaps map a weight to a colour: fixed [0, 1]; each row by
//                its own maximum (long sentences, where every weight is near 1/n); log10 of the
//                weight. The data, and the hover readout, stay the weights themselves.
//   language     the UI's strings (ui/strings.h columns)
#define ATTNLAB_THEMES(X) X(Dark, "dark") X(Light, "light") X(HighContrast, "high-contrast")
#define ATTNLAB_WEIGHT_RANGES(X) X(Fixed, "fixed") X(Row, "row") X(Log, "log")
#define ATTNLAB_UI_LANGUAGES(X) X(English, "en") X(Chinese, "zh")

#define ATTNLAB_VIEW_ENUMERATOR(value, name) value,
enum class Theme { ATTNLAB_THEMES(ATTNLAB_VIEW_ENUMERATOR) };
enum class WeightRange { ATTNLAB_WEIGHT_RANGES(ATTNLAB_VIEW_ENUMERATOR) };
enum class UiLanguage { ATTNLAB_UI_LANGUAGES(ATTNLAB_VIEW_ENUMERATOR) };
#undef ATTNLAB_VIEW_ENUMERATOR

// A row of a choice that has a name and nothing else.
template <class E>
struct NamedChoice {
  E value;
  const char* name;
};

#define ATTNLAB_THEME_ROW(value, name) {Theme::value, name},
#define ATTNLAB_WEIGHT_RANGE_ROW(value, name) {WeightRange::value, name},
#define ATTNLAB_UI_LANGUAGE_ROW(value, name) {UiLanguage::value, name},
inline constexpr NamedChoice<Theme> kThemes[] = {ATTNLAB_THEMES(ATTNLAB_THEME_ROW)};
inline constexpr NamedChoice<WeightRange> kWeightRanges[] = {ATTNLAB_WEIGHT_RANGES(ATTNLAB_WEIGHT_RANGE_ROW)};
inline constexpr NamedChoice<UiLanguage> kUiLanguages[] = {ATTNLAB_UI_LANGUAGES(ATTNLAB_UI_LANGUAGE_ROW)};
#undef ATTNLAB_THEME_ROW
#undef ATTNLAB_WEIGHT_RANGE_ROW
#undef ATTNLAB_UI_LANGUAGE_ROW
static_assert(choices_in_order(kThemes) && choices_in_order(kWeightRanges) && choices_in_order(kUiLanguages));

inline constexpr int kStateVersion = 3;  // 3: positional became a choice (v2's true/false migrate)
inline constexpr int kMaxTokens = 1024;          // the explorer's cap (n x n display)
inline constexpr int kMaxSentenceBytes = 65536;  // text beyond this is refused
inline constexpr int kMaxDModel = 256;
inline constexpr int kMaxHeads = 16;
inline constexpr int kMaxStateBytes = 1 << 20;   // JSON text of a state or patch (every door)
// Levels of arrays and objects in a state or patch (every door; the deepest key the state
// writes, a painted mask cell, is 3 levels down): checked on the text before it is parsed.
inline constexpr int kMaxStateDepth = 16;
inline constexpr const char* kDefaultSentence = "The cat sat on the mat because it was tired.";

// The mask as the user composes it (see core/attention/masks.h for each pattern's definition).
struct MaskSettings {
  bool causal = false;
  int window = 0, stride = 0, block = 0;
  std::vector<int> global_tokens;
  std::vector<int> padding_tokens;
  std::vector<PaintedCell> painted;  // cells set by hand, applied last (app/mask_edit.h)
  bool operator==(const MaskSettings&) const = default;
};

// The knobs of the math itself: the ones compare mode can set differently for side B.
struct MathSettings {
  ScoreFunction score = ScoreFunction::Dot;
  ScaleKind scale_kind = ScaleKind::Default;
  float custom_scale = 1.0f;
  float temperature = 1.0f;
  MaskSettings mask;
  MaskFill fill = MaskFill::NegInfinity;
  float finite_fill = -1e9f;
  bool operator==(const MathSettings&) const = default;
};

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
  int head = 0;    // focused head
  int layer = 0;
  int tour = 0;  // the guided tour's step (app/tour.h): 0 = no tour, 1..kTourSteps
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

  // Imported scene (app/import_state.h): the file's data, and what the selected layer shows.
  std::shared_ptr<const ImportedAttention> imported;
  std::string imported_name;
  std::vector<std::string> key_tokens;          // column labels (= tokens unless cross-attention)
  std::vector<int> visible_rows, visible_cols;  // indices into the file's tokens
  float qkv_max_difference = 0.0f;              // |recomputed - file weights|, focused layer, all heads

  // The model view of the imported or language scene (model_grid_shape).
  std::vector<Mat> thumbnails;    // layer * heads + head: pooled shown weights
  int thumbnails_done = 0;        // an imported file's: a few per frame (advance_thumbnails)
  std::vector<float> sink_share;  // per head of the layer: mean weight on key 0 (raw)
};

// ---- 3 operations -----------------------------------------------------------------------

// Recomputes the results when a scene setting changed. Returns true if it did.
bool update_results(AppState& state);

// The model view's grid: the layers and heads of the shown scene's model (an imported file's
// or the language model's); 0 x 0 when the scene has none.
struct ModelGridShape {
  int layers = 0, heads = 0;
};
ModelGridShape model_grid_shape(const AppState& state);

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

// ---- 4 JSON schema ----------------------------------------------------------------------

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

}  // namespace attn
