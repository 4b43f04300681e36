// The figures of the mask, scoring-function and efficient-attention panels, and the cost
// chart measured a slice per frame. No GL, no ImGui.
//
// Inputs: the focused head's Q, K, V of the explorer's scene (the same Q and K for every
// scoring function, the same Q, K, V for a variant and exact attention). Everything here is
// recomputed only when its inputs change (the scene's revision, the head, the settings
// below); the cost chart advances only while it runs.
//
// Sections: 1 settings  2 results  3 the cost chart run  4 operations  5 the app's door
#pragma once

#include "app/scene.h"
#include "core/efficient/attention.h"
#include "core/efficient/cost.h"
#include "core/attention/pipeline.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// ---- 1 settings -------------------------------------------------------------------------

struct VariantSettings {
  EfficientKind kind = EfficientKind::Window;
  int window = 2, stride = 3, block = 4, features = 16, rank = 4;
  bool causal = false;
  std::uint64_t seed = 1;
  int cost_chart_request = 0;  // raised by the panel's button (or the state JSON) to start a run
  bool paint_allow = false;    // the mask editor's brush: allow (true) or block (false)
  bool operator==(const VariantSettings&) const = default;
};

// The variant panel's EfficientConfig.
EfficientConfig efficient_config(const VariantSettings& v);

// ---- 2 results --------------------------------------------------------------------------

// One scoring function on the scene's Q and K: its weights and their difference from
// scaled dot-product weights.
struct ScoringResult {
  const char* name = "";  // "dot", "scaled-dot", "cosine", "additive"
  float scale = 1.0f;     // the multiplier applied to the raw scores
  Mat raw_scores;         // (n, n)
  Mat weights;            // (n, n)
  Mat difference;         // (n, n) weights - scaled-dot weights
};

struct VariantResults {
  // inputs the figures were computed for
  std::uint64_t scene_revision = ~0ull;
  int head = -1;
  VariantSettings settings;
  bool has_scoring = false, has_variant = false;
  std::uint64_t version = 0;  // bumped on every recompute, so the GL side knows to re-upload

  // scoring panel: dot, scaled dot, cosine, additive on the same Q and K (and mask)
  std::vector<ScoringResult> scoring;
  Mat additive_wq, additive_wk, additive_v;  // the additive scorer's parameters (d_k, d_k), (d_k, d_k), (1, d_k)

  // mask panel: the scene's composed mask as 0/1 (side A), for display and painting
  Mat mask_allowed;
  std::uint64_t mask_revision = ~0ull;

  // variant panel
  EfficientReport report;  // output, exact output, relative error, pattern, weights, error heatmap
  Mat pattern;             // (n, n) the report's pattern as 0/1 for display
  EfficientCost cost, exact_cost;
  double seconds = 0.0, exact_seconds = 0.0;  // measured medians (the real algorithms)
  Status status;
};

// ---- 3 the cost chart run ---------------------------------------------------------------

// Defaults of the in-app chart: n = 64 ... 8192, d_k = d_v = 32, w = 32, s = 8, b = 64,
// m = 64, r = 64; each sample the median of 3 measurements of at least 4 ms each.
CostChartConfig app_cost_chart_config();

inline constexpr int kMaxRunsPerMeasurement = 100000;

struct CostChartRun {
  int request = 0;  // the VariantSettings::cost_chart_request this run served
  bool running = false;
  CostChartConfig config;
  CostChart chart;       // series with the samples measured so far, slopes when done
  int frames = 0;        // frames the run has spanned
  double seconds = 0.0;  // time spent measuring (wall clock, all slices)

  // The plan: (kind index, n, recorded?) in order; a first unrecorded pass at the
  // smallest n lets the engine warm up every kind.
  struct Task {
    int series = 0, n = 0;
    bool record = true;
  };
  std::vector<Task> tasks;
  size_t task = 0;

  // The sample in progress. A run of exact attention is split into pieces of query rows
  // (rows are independent), timed one at a time, so no slice lasts long; a run of any
  // other kind is one piece.
  bool prepared = false, warmed = false;
  Mat q, k, v, out;
  EfficientParams params;
  EfficientWorkspace workspace;
  int piece_rows = 0, pieces = 1, piece = 0, runs = 1;
  int retries = 0;                    // measurements taken again for being too short
  double run_seconds = 0.0;           // the pieces of the current measurement so far
  std::vector<double> measurements;   // seconds per run

  int samples_done() const;
  int samples_total() const;
};

// ---- 4 operations -----------------------------------------------------------------------

// Recomputes the scoring and variant figures when their inputs changed. `trace` is the
// scene's side A; `weights` its projection parameters (for the additive scorer).
// Returns true if anything was recomputed.
bool update_variant_results(const PipelineTrace& trace, const ProjectionWeights& weights, std::uint64_t revision,
                            int head, const VariantSettings& settings, VariantResults& out);

// Starts a run (forgetting any previous chart).
void start_cost_chart(CostChartRun& run, const CostChartConfig& config, int request);

// Measures for about `budget_seconds` (at least one step: one piece of one run), then
// returns. Finishes the chart (slopes) after the last sample.
void step_cost_chart(CostChartRun& run, double budget_seconds);

// ---- 5 the app's door -------------------------------------------------------------------

// Once per frame, after update_results(): the scoring figures when the scoring panel is
// shown, the variant figures when the variants panel is, each only if its inputs changed;
// starts a cost chart when its request was raised, and advances a running one by about
// `chart_budget_seconds`. The state hands over the scene (app/scene.h) from
// app_state_features.cpp.
void update_variant_panels(const SceneView& scene, const VariantSettings& settings, VariantResults& results,
                           CostChartRun& chart, double chart_budget_seconds);

// The read-only figures ("figures.variants"; the state adds the mask editor's undo and redo
// counts, "maskHistory"). The panel's settings are the state's keys "variants.*"
// (app/state_schema.h): links and sessions carry them.
nlohmann::json variant_figures_json(const VariantResults& results, const CostChartRun& chart);

// A matrix of the panels by name, for the page's getMatrix(): "maskAllowed",
// "scoring/<dot|scaled-dot|cosine|additive>/<rawScores|weights|difference>",
// "scoring/additive/<wq|wk|v>",
// "variant/<pattern|weights|exactWeights|weightError|output|exactOutput>". Null if absent.
const Mat* variant_matrix(const VariantResults& results, const std::string& name);

}  // namespace attn
