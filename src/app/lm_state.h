// The explorer's language-model scene (SceneSource::Language): the lab's character-level
// model (core/lm) read on the user's sentence, token-by-token generation from it, and what
// breaking the math does to a trained model's predictions and held-out bits.
//
// The scene's text is the sentence plus the first `shown` generated characters, so each
// generation step adds a row and a column to every explorer panel. The explorer's math is
// the model's switches: scale none = no 1/sqrt(d_k), the temperature divides every layer's
// scores, the causal mask may be dropped, the finite fill is the -1e9 fill; with `half` the
// attention runs in float16, and `ablated` heads add nothing. The panels show the chosen
// layer's real Q, K and V, with the lab's stages under the same math.
//
// Sections: 1 settings  2 the loaded model and results  3 operations
#pragma once

#include "app/scene.h"
#include "core/attention/pipeline.h"
#include "core/base/types.h"
#include "core/lm/evaluate.h"
#include "core/lm/generate.h"
#include "core/lm/head_labels.h"
#include "core/lm/language_model.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attn {

// ---- 1 settings -------------------------------------------------------------------------

// kMaxLmTokens, generated per request in the lab: app/scene.h.

inline constexpr float kLmDefaultTemperature = 0.8f;
inline constexpr int kLmDefaultTopK = 20;

struct LmSettings {
  std::vector<int> ablated;  // heads switched off, as layer * heads + head, ascending
  bool half = false;
  int tokens = 20;           // how many to generate
  // Sampled, and seeded (reproducible), by default: greedy decoding of a model this small loops
  // ("a some the some the"). Links of schema version 3 and before were greedy and stay so.
  float temperature = kLmDefaultTemperature;  // 0 = greedy
  int top_k = kLmDefaultTopK;                 // 0 = all
  std::uint64_t seed = 1;
  int shown = 0;             // generated tokens appended to the sentence, 0..tokens
  bool playing = false;      // shown grows by one a step until it reaches tokens
  // The heads panel puts the focused head beside a head of projections drawn from the scene's
  // seed, on the same characters: learned against random.
  bool random_beside = false;
  bool operator==(const LmSettings&) const = default;
  // Everything but `playing` (which only moves `shown`).
  bool same_scene(const LmSettings& o) const;
};

// ---- 2 the loaded model and results ------------------------------------------------------

struct LmScene {
  lm::LanguageModel model;
  std::string name;
  std::uint64_t fingerprint = 0;  // the file's size and CRC-32: results of another model are dropped
};

// The ablation table's head being measured: its samples scored a window at a time.
struct LmAblationJob {
  int head = -1;                 // layer * heads + head
  std::size_t sample = 0;        // the sample being scored
  std::unique_ptr<lm::StreamScorer> scorer;
  double bits_after = 0, bits_before = 0;
  long long characters = 0;
};

struct LmResults {
  std::uint64_t fingerprint = 0;          // the scene they were computed for (LmScene::fingerprint)
  std::string text;                       // the sentence plus the shown generated tokens
  lm::TextAttention attention;            // every layer's q, k, v and weights on it
  std::vector<lm::HeadLabel> labels;      // per layer and head, on this text
  std::vector<std::pair<int, float>> next;  // the 10 most probable tokens after the text
  // Generation from the sentence under the current settings (recomputed when they change).
  std::vector<lm::GeneratedToken> generated;
  std::string generated_for;
  // Held-out bits per character of each of the model's samples: its own math, and now.
  std::vector<double> bits_base, bits_now;
  std::vector<long long> bits_characters;
  std::string bits_for;
  // Each head ablated alone: the rise in held-out bits (all samples), filled by
  // advance_lm_ablation; -1 while not measured.
  std::vector<double> ablation_rise;
  std::string ablation_for;
  std::shared_ptr<LmAblationJob> ablation_job;  // the head being measured, if any
  double played_at = -1;  // when play last showed a token (the caller's clock); -1 = not playing
  // A head of projections drawn from a seed on the same characters (LmSettings::random_beside).
  Mat random_head;
  std::string random_head_for;
};

// ---- 3 operations -----------------------------------------------------------------------

// Loads a language model file as the scene's model. On error nothing changes.
Status load_lm_scene(std::shared_ptr<const LmScene>& scene, const std::uint8_t* bytes, std::size_t size,
                     const std::string& name);

// Leaving the scene: drops what only its text needs (every layer's q, k, v and weights, the
// logits, the generated tokens and the ablation head being measured: about 5 MB at the
// shipped model's context with 200 generated characters), so a scene not shown holds no
// memory; keeps what is computed once per model and switches (the held-out bits, the
// ablation table). Coming back computes the text's results again.
void release_lm_text_results(LmResults& results);

// The model's switches from the explorer's math and the scene's settings.
lm::RunOptions lm_run_options(const MathSettings& math, const LmSettings& lm, const lm::LanguageModel& model);

// Recomputes what changed (attention on the text, generation, held-out bits). Refuses a text
// the model cannot read (results unchanged).
Status update_lm_results(const LmScene& scene, const std::string& sentence, const MathSettings& math,
                         const LmSettings& settings, LmResults& results);

// One layer of the scene as the explorer's trace: per head its Q, K, V columns of that layer,
// then the lab's stages under `config`; `tokens` gets the characters' labels.
PipelineTrace lm_scene_trace(const LmScene& scene, const LmResults& results, int layer, const PipelineConfig& config,
                             std::vector<std::string>& tokens);

// The weights of head `head` of the lab's generated scene (embeddings and projections drawn
// from `seed`, sinusoidal positions, 1/sqrt(d_k), causal as the model is) on the characters
// `tokens`, `d_model` wide with `heads` heads: what attention without learning looks like on
// the text the model reads. Kept in results.random_head; computed again only when an input
// changed.
void update_random_head(const std::vector<std::string>& tokens, int d_model, int heads, int head, std::uint64_t seed,
                        LmResults& results);

// Goes on measuring the ablation table: windows of the held-out samples with the next
// unmeasured head switched off, at least one and more while `budget_ms` lasts (a head is
// hundreds of milliseconds in WebAssembly: spread over frames, the page stays smooth).
// False when every head is measured.
bool advance_lm_ablation(const LmScene& scene, const MathSettings& math, const LmSettings& settings, LmResults& results,
                         double budget_ms);

// How far the ablation table's head being measured is: its layer * heads + head and the
// share of its samples' tokens scored (0..1); head -1 when none is being measured.
struct LmAblationProgress {
  int head = -1;
  double done = 0;
};
LmAblationProgress lm_ablation_progress(const LmResults& results, std::size_t samples);

// A frame's work for the scene (advance_lm in app/app_state.h): while playing, one more
// generated token every kLmPlaySeconds; and kLmAblationBudgetMs of the ablation table.
inline constexpr double kLmPlaySeconds = 0.15;
inline constexpr double kLmAblationBudgetMs = 12.0;

// While playing, one more generated token every kLmPlaySeconds (results.played_at keeps when
// the last showed); playing stops at `tokens`. True if `settings` changed.
bool advance_lm_play(LmSettings& settings, LmResults& results, double now_seconds);

// The app's door (the settings are the state's keys "lm.*": app/state_schema.h): the figures
// tests and the page read. The figures: the model's facts when one is loaded (`scene` not null), and what `results`
// hold when the language scene is `shown` (the state adds the model view's "thumbnails" and
// "sinkShare").
nlohmann::json lm_figures_json(const LmScene* scene, const LmResults& results, bool shown);

// How a token reads in a label: spaces and line breaks made visible.
std::string lm_token_label(const lm::Vocabulary& vocabulary, int token);

}  // namespace attn
