// What the features of src/app (the modern, variant, language-model and import panels' figures)
// read of the explorer's scene, below the state that holds it: the scene's limits, the math
// settings it runs under, and SceneView, the scene's results as a panel's figures see them.
// The state (app/app_state.h) fills a SceneView from itself and hands each feature that and
// the feature's own settings and results; no feature sees the whole state.
#pragma once

#include "app/mask_edit.h"
#include "app/panel_registry.h"
#include "core/attention/pipeline.h"
#include "core/attention/positional.h"
#include "core/base/choices.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// ---- limits -----------------------------------------------------------------------------

inline constexpr int kMaxTokens = 1024;          // the explorer's cap (n x n display)
inline constexpr int kMaxSentenceBytes = 65536;  // text beyond this is refused
inline constexpr int kMaxDModel = 256;
inline constexpr int kMaxHeads = 16;
inline constexpr int kMaxLmTokens = 200;  // generated per request in the lab (the CLI: lm::kMaxGeneratedTokens)

// ---- where the scene comes from ---------------------------------------------------------

// The scene's sources, one row each (core/base/choices.h): X(enumerator, its name in the
// state and URLs, its label in ui/strings.h (only the UI expands it), what choosing it needs,
// where its projections come from).
//   generated       text -> tokens -> deterministic embeddings -> projections from the seed
//   worked-example  the tutorial's 2-token example with given Q, K, V (d_k = 2, one head)
//   trained         a trained model's layer on its task's probe sequence (app/train_state.h)
//   imported        attention read from a file (files/import_view.h)
//   language        the character-level language model on the sentence (app/lm_state.h)
// What choosing it needs (SceneSourceNeeds):
//   Nothing        any state or link may choose it: the schema's choices
//   TrainedModel   a trained model; the state refuses it until one is loaded
//   ImportedFile   an imported file; the state refuses it while there is none
//   LanguageModel  the language model, fetched the first time its scene is chosen
// Where its projections W_Q, W_K, W_V come from (SceneWeights):
//   Random     drawn from the seed: nothing in its figures was learned (the panels say so)
//   ByHand     set by hand to show one step (the worked example's Q, K, V)
//   Learned    trained on a task or on text
//   FromFile   whatever the file's model computed
#define ATTNLAB_SCENE_SOURCES(X)                                          \
  X(Generated, "generated", source_generated, Nothing, Random)            \
  X(WorkedExample, "worked-example", source_worked, Nothing, ByHand)      \
  X(Trained, "trained", source_trained, TrainedModel, Learned)            \
  X(Imported, "imported", source_imported, ImportedFile, FromFile)        \
  X(Language, "language", source_language, LanguageModel, Learned)

enum class SceneSource { ATTNLAB_SCENE_SOURCES(ATTNLAB_CHOICE_ENUMERATOR) };

enum class SceneSourceNeeds { Nothing, TrainedModel, ImportedFile, LanguageModel };
enum class SceneWeights { Random, ByHand, Learned, FromFile };

struct SceneSourceInfo {
  SceneSource value;
  const char* name;
  SceneSourceNeeds needs;
  SceneWeights weights;
};

inline constexpr SceneSourceInfo kSceneSources[] = {
#define ATTNLAB_SCENE_SOURCE_ROW(value, name, label, needs, weights) \
  {SceneSource::value, name, SceneSourceNeeds::needs, SceneWeights::weights},
    ATTNLAB_SCENE_SOURCES(ATTNLAB_SCENE_SOURCE_ROW)
#undef ATTNLAB_SCENE_SOURCE_ROW
};
static_assert(choices_in_order(kSceneSources));

// ---- the math settings ------------------------------------------------------------------

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

// ---- the scene as the panels' figures read it -------------------------------------------

// Side A of the scene and the view settings the figures follow (scene_view() in
// app/app_state.h makes one; it refers into the state, so it lives no longer than a call).
struct SceneView {
  bool has_results = false;
  const PipelineTrace& trace;               // side A
  const ProjectionWeights& weights;
  const std::vector<std::string>& tokens;   // labels, one per token
  std::uint64_t revision = 0;               // bumped on every recompute
  Panel panel = Panel::Pipeline;            // the panel shown
  int head = 0;                             // the focused head
  int cursor = 0;                           // the query token highlighted; -1 = none
  // The generated scene's input before any position: its sentence (null for the other
  // scenes), width and seed; and the positions and mask side A runs with.
  const std::string* generated_sentence = nullptr;
  int d_model = 0;
  std::uint64_t seed = 0;
  float rope_base = 10000.0f;
  RopePairing rope_pairing = RopePairing::Half;
  bool causal = false;
};

}  // namespace attn
