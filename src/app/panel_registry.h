// The panels of the lab, one entry each: the only list of them in the source. Everything that
// lists panels reads it: the Panel enum, the state's `panel` key (its parsing, its error
// message and the schema's choices), getState(), the UI's tabs and the keys that cycle them,
// and the page (through the module's panels()).
//
// Adding a panel: its draw function in a file of its own under src/ui, one X(...) line below
// (in the order the tabs show), and its title in ui/strings.h. Nothing else names it.
//
// Columns of ATTNLAB_PANELS(X):
//   name      the Panel enumerator
//   id        its name in the state, URLs, getState() and layout() (public: never renamed)
//   chapter   the tutorial's chapter it belongs to (Chapter below)
//   title     its title, an ui::S string id (ui/strings.h); only the UI expands this column
//   draw      its draw function, void(AppState&, ui::UiContext&); only the UI expands it
//   keys      the state keys it reads, space-separated: top-level keys or dotted paths of
//             settings_to_json's object (tests check each one exists)
//   flags     PanelFlags: what it needs and draws
// The entries follow the chapters (Chapter below) and, within one, the order the UI offers them.
// The app layer never sees the title and draw columns as code: its expansions drop them, so
// the tokens need no declaration here.
#pragma once

#include "core/base/choices.h"

#include <array>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

namespace attn {

// The tutorial's chapters, in its order, one row each (core/base/choices.h): X(enumerator, its
// id in getState() and the module's panels() (public: never renamed), its title as a ui::S
// string id (ui/strings.h; only the UI expands this column)).
#define ATTNLAB_CHAPTERS(X)                                     \
  X(Similarity, "similarity", chapter_similarity)               \
  X(Scaling, "scaling", chapter_scaling)                        \
  X(Softmax, "softmax", chapter_softmax)                        \
  X(WeightedValues, "weighted-values", chapter_weighted_values) \
  X(Order, "order", chapter_order)                              \
  X(Masks, "masks", chapter_masks)                              \
  X(MultiHead, "multi-head", chapter_multi_head)                \
  X(Variants, "variants", chapter_variants)                     \
  X(Training, "training", chapter_training)                     \
  X(YourModel, "your-model", chapter_your_model)

enum class Chapter { ATTNLAB_CHAPTERS(ATTNLAB_CHOICE_ENUMERATOR) };

#define ATTNLAB_CHAPTER_ROW(value, id, title) {Chapter::value, id},
inline constexpr NamedChoice<Chapter> kChapters[] = {ATTNLAB_CHAPTERS(ATTNLAB_CHAPTER_ROW)};  // name: its id
#undef ATTNLAB_CHAPTER_ROW
static_assert(choices_in_order(kChapters));
inline constexpr int kChapterCount = static_cast<int>(std::size(kChapters));

// What a panel needs and draws.
enum PanelFlags : unsigned {
  kPanelNone = 0,
  kPanelHeatmaps = 1u << 0,     // draws heatmaps with the GL heatmap program (needs a GL context)
  kPanelScalingLab = 1u << 1,   // draws the scaling and softmax lab's figures (ScalingLabResults)
  kPanelNeedsScores = 1u << 2,  // shows raw or scaled scores: an imported file needs Q/K/V for it
  kPanelTrainingRuns = 1u << 3, // draws the training lab's live run or its scaling experiment (TrainState)
};

#define ATTNLAB_SCENE_KEYS \
  "source sentence dModel heads positional ropeBase ropePairing seed scale temperature score mask maskFill"

#define ATTNLAB_PANELS(X)                                                                                      \
  X(DotProduct, "dot-product", Chapter::Similarity, panel_dot, draw_dot_product_panel, "lab.q lab.k lab.kLong", \
    kPanelScalingLab)                                                                                          \
  X(QkSpace, "qk-space", Chapter::Similarity, panel_qk_space, draw_qk_space_panel, ATTNLAB_SCENE_KEYS " cursor head", \
    kPanelNeedsScores)                                                                                         \
  X(Variance, "variance", Chapter::Scaling, panel_variance, draw_variance_panel, "lab.dk lab.scaled",          \
    kPanelScalingLab)                                                                                          \
  X(Saturation, "saturation", Chapter::Scaling, panel_saturation, draw_saturation_panel,                       \
    "lab.scaled lab.temperature", kPanelScalingLab)                                                            \
  X(Softmax, "softmax", Chapter::Softmax, panel_softmax, draw_softmax_panel, "lab.row", kPanelScalingLab)      \
  X(Stability, "stability", Chapter::Softmax, panel_stability, draw_stability_panel, "lab.row lab.half",       \
    kPanelScalingLab)                                                                                          \
  X(Sinks, "sinks", Chapter::Softmax, panel_sinks, draw_sinks_panel,                                           \
    ATTNLAB_SCENE_KEYS " cursor head modern.sinkWindow modern.sinks modern.rowOffset",                         \
    kPanelHeatmaps | kPanelNeedsScores)                                                                        \
  X(Walkthrough, "walkthrough", Chapter::WeightedValues, panel_walkthrough, draw_walkthrough_panel,            \
    "lab.wq lab.wk lab.wv", kPanelScalingLab)                                                                  \
  X(Pipeline, "pipeline", Chapter::WeightedValues, panel_pipeline, draw_pipeline_panel,                        \
    ATTNLAB_SCENE_KEYS " cursor cursorKey head layer", kPanelHeatmaps | kPanelNeedsScores)                               \
  X(Token, "token", Chapter::WeightedValues, panel_token, draw_token_panel,                                    \
    ATTNLAB_SCENE_KEYS " cursor head layer", kPanelHeatmaps)                                                   \
  X(Positions, "positions", Chapter::Order, panel_positions, draw_positions_panel,                             \
    ATTNLAB_SCENE_KEYS " cursor head modern.shift", kPanelHeatmaps | kPanelNeedsScores)                        \
  X(Mask, "mask", Chapter::Masks, panel_mask, draw_mask_panel,                                                 \
    ATTNLAB_SCENE_KEYS " cursor head variants.paintAllow", kPanelHeatmaps)                                     \
  X(Heads, "heads", Chapter::MultiHead, panel_heads, draw_heads_panel,                                         \
    ATTNLAB_SCENE_KEYS " cursor head diffHead layer", kPanelHeatmaps)                                          \
  X(Compare, "compare", Chapter::MultiHead, panel_compare, draw_compare_panel,                                 \
    ATTNLAB_SCENE_KEYS " compare cursor head layer", kPanelHeatmaps | kPanelNeedsScores)                       \
  X(Gqa, "gqa", Chapter::MultiHead, panel_gqa, draw_gqa_panel,                                                 \
    ATTNLAB_SCENE_KEYS " head modern.kvHeads modern.layers modern.bytesPerValue modern.decodeStep modern.decodeRequest", \
    kPanelHeatmaps | kPanelNeedsScores)                                                                        \
  X(Scoring, "scoring", Chapter::Variants, panel_scoring, draw_scoring_panel, ATTNLAB_SCENE_KEYS " head",      \
    kPanelHeatmaps)                                                                                            \
  X(Variants, "variants", Chapter::Variants, panel_variants, draw_variants_panel,                              \
    "source sentence dModel heads positional ropeBase ropePairing seed head variants", kPanelHeatmaps)         \
  X(CostChart, "cost-chart", Chapter::Variants, panel_cost_chart, draw_cost_chart_panel, "variants",           \
    kPanelNone)                                                                                                \
  X(Flash, "flash", Chapter::Variants, panel_flash, draw_flash_panel,                                          \
    ATTNLAB_SCENE_KEYS " head modern.blockQ modern.blockK modern.flashCausal modern.flashStep",                \
    kPanelHeatmaps | kPanelNeedsScores)                                                                        \
  X(Training, "training", Chapter::Training, panel_training, draw_training_panel, "training",               \
    kPanelHeatmaps | kPanelTrainingRuns)                                                                       \
  X(ScalingRun, "scaling-run", Chapter::Training, panel_scaling_run, draw_scaling_run_panel, "scalingRun",     \
    kPanelTrainingRuns)                                                                                        \
  X(Language, "language", Chapter::Training, panel_language, draw_language_panel,                             \
    "source sentence scale temperature mask maskFill layer head cursor lm", kPanelNone)                      \
  X(LmText, "lm-train", Chapter::Training, panel_lm_text, draw_lm_text_panel, "language", kPanelNone)        \
  X(LmPatch, "lm-patch", Chapter::Training, panel_lm_patch, draw_lm_patch_panel, "source patch", kPanelNone)  \
  X(ModelView, "model", Chapter::YourModel, panel_model_view, draw_model_view_panel,                           \
    "layer head cursor hideSpecial renormalise acrossLayers rolloutResidual", kPanelHeatmaps)                  \
  X(Overview, "overview", Chapter::YourModel, panel_overview, draw_overview_panel, "overview", kPanelNone)

enum class Panel {
#define ATTNLAB_PANEL_ENUM(name, id, chapter, title, draw, keys, flags) name,
  ATTNLAB_PANELS(ATTNLAB_PANEL_ENUM)
#undef ATTNLAB_PANEL_ENUM
};

struct PanelInfo {
  Panel panel;
  const char* id;
  Chapter chapter;
  const char* state_keys;
  unsigned flags;

  constexpr bool has(PanelFlags f) const { return (flags & f) != 0; }
};

inline constexpr std::array<PanelInfo, 0
#define ATTNLAB_PANEL_COUNT(name, id, chapter, title, draw, keys, flags) +1
                                             ATTNLAB_PANELS(ATTNLAB_PANEL_COUNT)
#undef ATTNLAB_PANEL_COUNT
                                       >
    kPanels = {{
#define ATTNLAB_PANEL_INFO(name, id, chapter, title, draw, keys, flags) {Panel::name, id, chapter, keys, flags},
        ATTNLAB_PANELS(ATTNLAB_PANEL_INFO)
#undef ATTNLAB_PANEL_INFO
    }};

inline constexpr int kPanelCount = static_cast<int>(kPanels.size());

inline constexpr const PanelInfo& panel_info(Panel p) { return kPanels[static_cast<int>(p)]; }

// Its id: "pipeline", "dot-product", ...
inline constexpr const char* to_string(Panel p) { return panel_info(p).id; }

// The scaling and softmax lab's panels: the ones that draw ScalingLabResults.
inline constexpr bool is_scaling_lab_panel(Panel p) { return panel_info(p).has(kPanelScalingLab); }
// The training lab's panels: the ones that draw its live run or its scaling experiment.
inline constexpr bool is_training_runs_panel(Panel p) { return panel_info(p).has(kPanelTrainingRuns); }

// The panel `steps` places after p in the registry's order, wrapping around (keys cycle tabs).
inline constexpr Panel panel_after(Panel p, int steps) {
  return static_cast<Panel>(((static_cast<int>(p) + steps) % kPanelCount + kPanelCount) % kPanelCount);
}

// The panel whose id is `id`, if any.
std::optional<Panel> panel_from_id(std::string_view id);

// Every panel id in the registry's order, separated by `separator` (for messages).
std::string panel_id_list(const char* separator = ", ");

// Whether the panel reads `key` (a top-level key, or any dotted path under it) by its keys column.
bool panel_reads_key(Panel p, std::string_view key);

// Whether the panel reads any setting of the scene and its math (the controls window's
// Scene, Model and Math sections): the full lab folds that window away for the others.
bool panel_uses_scene_controls(Panel p);

// Whether the panel draws what the scene's projections make (it reads the seed they are
// drawn from in a generated scene): its figures are only as meaningful as those weights.
inline bool panel_shows_projections(Panel p) { return panel_reads_key(p, "seed"); }

// "similarity", "scaling", ...: the chapter's name in getState() and the module's panels().
inline constexpr const char* chapter_id(Chapter c) { return choice_row(kChapters, c).name; }

}  // namespace attn
