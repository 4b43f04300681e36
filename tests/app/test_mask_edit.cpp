// The mask editor's model (app/mask_edit.h) and the variant panels' figures
// (app/variants_state.h): painted cells, their text form, undo/redo, the state JSON door,
// and the cost chart measured in slices.
#include "app/app_state.h"
#include "app/mask_edit.h"
#include "app/variants_state.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

using attn::PaintedCell;

TEST_CASE("painted cells: normalized, text form round trip, the last paint of a cell wins", "[mask-edit]") {
  std::vector<PaintedCell> cells = {{3, 1, true}, {0, 2, false}, {3, 1, false}, {9, 9, true}};
  attn::normalize_painted(cells, 5);  // (9, 9) lies outside a 5 x 5 mask
  REQUIRE(cells == std::vector<PaintedCell>{{0, 2, false}, {3, 1, false}});
  REQUIRE(attn::encode_painted(cells) == "0:2- 3:1-");

  std::vector<PaintedCell> decoded;
  REQUIRE(attn::decode_painted("0:2- 3:1-", decoded).ok);
  REQUIRE(decoded == cells);
  REQUIRE(attn::decode_painted("", decoded).ok);
  REQUIRE(decoded.empty());
  REQUIRE(attn::decode_painted("4:4+ 1:0- 4:4-", decoded).ok);
  REQUIRE(decoded == std::vector<PaintedCell>{{1, 0, false}, {4, 4, false}});

  attn::paint_cell(decoded, 2, 7, true);
  attn::paint_cell(decoded, 1, 0, true);
  REQUIRE(attn::encode_painted(decoded) == "1:0+ 2:7+ 4:4-");
}

TEST_CASE("painted cells: malformed text is refused and the cells stay", "[mask-edit]") {
  const std::vector<PaintedCell> before = {{1, 1, true}};
  for (const char* bad : {"1:2", "1:2*", "a:b+", "-1:2+", "1:-2+", "1:2+  3:4-", " 1:2+", "1:2+ ", "1024:0+",
                          "0:99999+", "1,2+", "1:2+3:4-", "1:2+\n"}) {
    std::vector<PaintedCell> cells = before;
    const attn::Status st = attn::decode_painted(bad, cells);
    INFO(bad);
    REQUIRE_FALSE(st.ok);
    REQUIRE_FALSE(st.message.empty());
    REQUIRE(cells == before);
  }
}

TEST_CASE("paint_line leaves no gap between two cells of a drag", "[mask-edit]") {
  std::vector<PaintedCell> cells;
  attn::paint_line(cells, 0, 0, 3, 6, false);
  // Every column 0..6 is hit exactly once, rows rise from 0 to 3 one step at a time.
  REQUIRE(cells.size() == 7);
  for (size_t i = 0; i + 1 < cells.size(); ++i) {
    REQUIRE(std::abs(cells[i + 1].row - cells[i].row) <= 1);
    REQUIRE(std::abs(cells[i + 1].col - cells[i].col) <= 1);
  }
  REQUIRE(cells.front() == PaintedCell{0, 0, false});
  REQUIRE(cells.back() == PaintedCell{3, 6, false});
}

TEST_CASE("edit history: a stroke is one step; undo, redo, and a new edit clears redo", "[mask-edit]") {
  attn::EditHistory<attn::MaskSettings> history;
  attn::MaskSettings mask;
  history.observe(mask, false);
  // A drag painting three cells, observed every frame while the button is held.
  for (int c = 0; c < 3; ++c) {
    attn::paint_cell(mask.painted, 1, c, false);
    history.observe(mask, true);
  }
  REQUIRE(history.undo_steps() == 0);
  history.observe(mask, false);  // released
  REQUIRE(history.undo_steps() == 1);
  mask.causal = true;
  history.observe(mask, false);
  REQUIRE(history.undo_steps() == 2);

  REQUIRE(history.undo(mask));
  REQUIRE_FALSE(mask.causal);
  REQUIRE(mask.painted.size() == 3);
  REQUIRE(history.undo(mask));
  REQUIRE(mask.painted.empty());
  REQUIRE_FALSE(history.undo(mask));  // nothing left; unchanged
  REQUIRE(mask.painted.empty());
  history.observe(mask, false);  // an undo is not a new edit
  REQUIRE(history.redo_steps() == 2);

  REQUIRE(history.redo(mask));
  REQUIRE(mask.painted.size() == 3);
  REQUIRE_FALSE(mask.causal);
  mask.window = 2;  // a new edit: the undone causal step is gone
  history.observe(mask, false);
  REQUIRE(history.redo_steps() == 0);
  REQUIRE_FALSE(history.redo(mask));
  REQUIRE(mask.window == 2);

  // The history keeps at most kMaxSteps steps.
  for (int i = 0; i < 150; ++i) {
    mask.block = i + 1;
    history.observe(mask, false);
  }
  REQUIRE(history.undo_steps() == attn::EditHistory<attn::MaskSettings>::kMaxSteps);
}

TEST_CASE("painted cells reach the mask: allow overrides causal, block hides, a blocked row is fully masked", "[mask-edit][app]") {
  attn::AppState state;
  attn::update_results(state);
  const int n = static_cast<int>(state.tokens.size());
  REQUIRE(attn::apply_state_json(state, R"({"mask": {"causal": true, "painted": "0:5+ 2:0- 4:0- 4:1- 4:2- 4:3- 4:4-"}})").ok);
  attn::update_results(state);
  const attn::BoolMat& allowed = state.trace.allowed;
  REQUIRE(allowed(0, 5));         // allowed by hand above the causal diagonal
  REQUIRE_FALSE(allowed(0, 6));   // causal elsewhere
  REQUIRE_FALSE(allowed(2, 0));   // blocked by hand
  REQUIRE(allowed(2, 1));
  REQUIRE(state.trace.heads[0].fully_masked_rows[4] == 1);  // row 4 sees keys 0..4, all blocked
  REQUIRE(state.trace.heads[0].weights.row(4).sum() == 0.0f);
  REQUIRE(std::isinf(state.trace.heads[0].masked_scores(4, 0)));
  const nlohmann::json j = nlohmann::json::parse(attn::state_to_json(state));
  REQUIRE(j["mask"]["painted"] == "0:5+ 2:0- 4:0- 4:1- 4:2- 4:3- 4:4-");
  REQUIRE(j["figures"]["fullyMaskedRows"] == nlohmann::json::array({4}));

  // Round trip: the JSON applied to a fresh state gives the same mask.
  attn::AppState copy;
  REQUIRE(attn::apply_state_json(copy, attn::state_to_json(state)).ok);
  attn::update_results(copy);
  REQUIRE(copy.settings.math.mask == state.settings.math.mask);
  REQUIRE((copy.trace.allowed.array() == allowed.array()).all());

  // Cells past the sentence's end are dropped when the scene is computed.
  REQUIRE(attn::apply_state_json(state, R"({"mask": {"painted": "1:1- 20:3- 3:20+"}})").ok);
  attn::update_results(state);
  REQUIRE(n < 20);
  REQUIRE(attn::encode_painted(state.settings.math.mask.painted) == "1:1-");
}

TEST_CASE("state JSON: a malformed painted mask or variants value is refused and nothing changes", "[mask-edit][state]") {
  attn::AppState state;
  attn::update_results(state);
  REQUIRE(attn::apply_state_json(state, R"({"mask": {"painted": "1:1-"}, "variants": {"kind": "linear"}})").ok);
  attn::update_results(state);
  const std::string before = attn::state_to_json(state);
  for (const char* bad : {R"({"mask": {"painted": "1:1"}, "sentence": "changed"})",
                          R"({"mask": {"painted": ["1:1-"]}})",
                          R"({"mask": {"painted": 5}})",
                          R"({"mask": {"painted": "1:1- 9999:0+"}})",
                          R"({"compare": {"mask": {"painted": "x"}}})",
                          R"({"variants": {"kind": "exact"}})",
                          R"({"variants": {"kind": "fast"}})",
                          R"({"variants": {"window": 0}})",
                          R"({"variants": {"features": 1.5}})",
                          R"({"variants": {"causal": "yes"}})",
                          R"({"variants": {"colour": 1}})",
                          R"({"variants": []})"}) {
    INFO(bad);
    const attn::Status st = attn::apply_state_json(state, bad);
    REQUIRE_FALSE(st.ok);
    REQUIRE_FALSE(st.message.empty());
    attn::update_results(state);
    REQUIRE(attn::state_to_json(state) == before);
  }
}

TEST_CASE("variant figures: the panel's error is efficient_report's on the focused head's Q, K, V", "[mask-edit][variants]") {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, R"({"panel": "variants", "head": 1, "variants": {"kind": "window", "window": 1}})").ok);
  attn::update_results(state);
  attn::update_variant_panels(state, 0.0);
  REQUIRE(state.variants.has_variant);
  const attn::HeadTrace& h = state.trace.heads[1];
  attn::EfficientConfig c;
  c.kind = attn::EfficientKind::Window;
  c.window = 1;
  const attn::EfficientReport expected = attn::efficient_report(h.q, h.k, h.v, c, false);
  REQUIRE(expected.relative_error > 0.0);
  REQUIRE(state.variants.report.relative_error == expected.relative_error);
  REQUIRE(state.variants.report.nonzeros[0] == 2);  // row 0 sees keys 0 and 1
  REQUIRE(state.variants.seconds > 0.0);
  REQUIRE(state.variants.cost.multiply_adds < state.variants.exact_cost.multiply_adds);

  // Only a change of the inputs recomputes.
  const auto version = state.variants.version;
  attn::update_variant_panels(state, 0.0);
  REQUIRE(state.variants.version == version);
  state.settings.variants.window = 3;
  attn::update_variant_panels(state, 0.0);
  REQUIRE(state.variants.version == version + 1);
  REQUIRE(state.variants.report.nonzeros[0] == 4);
}

TEST_CASE("scoring figures: four functions on the same Q and K, differences from scaled dot", "[mask-edit][variants]") {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, R"({"panel": "scoring"})").ok);
  attn::update_results(state);
  attn::update_variant_panels(state, 0.0);
  const attn::VariantResults& r = state.variants;
  REQUIRE(r.scoring.size() == 4);
  const attn::HeadTrace& h = state.trace.heads[0];
  // Scaled dot equals the scene's own weights (dot, default scale, no mask, temperature 1).
  REQUIRE((r.scoring[1].weights - h.weights).cwiseAbs().maxCoeff() < 1e-6f);
  REQUIRE(r.scoring[0].scale == 1.0f);
  REQUIRE(r.scoring[1].scale == Approx(1.0 / std::sqrt(4.0)));
  REQUIRE(r.scoring[2].raw_scores.maxCoeff() <= 1.0f + 1e-5f);  // cosine in [-1, 1]
  REQUIRE(r.scoring[1].difference.cwiseAbs().maxCoeff() == 0.0f);
  REQUIRE(r.scoring[0].difference.cwiseAbs().maxCoeff() > 0.0f);
  REQUIRE(r.additive_wq.rows() == 4);
  REQUIRE(r.additive_v.cols() == 4);
}

TEST_CASE("cost chart run: measured in slices, exact attention in pieces of rows, slopes at the end", "[mask-edit][cost]") {
  attn::CostChartConfig config = attn::app_cost_chart_config();
  config.kinds = {attn::EfficientKind::Exact, attn::EfficientKind::Window};
  config.ns = {256, 512, 1024};
  config.timing.min_seconds = 0.0005;
  config.fit_min_n = 256;
  attn::CostChartRun run;
  attn::start_cost_chart(run, config, 1);
  REQUIRE(run.running);
  REQUIRE(run.samples_total() == 6);
  int calls = 0;
  while (run.running && calls < 100000) {
    attn::step_cost_chart(run, 0.0);  // one step per call, as a frame with no budget left
    ++calls;
  }
  REQUIRE_FALSE(run.running);
  REQUIRE(run.samples_done() == 6);
  REQUIRE(run.frames == calls);
  // A budget of 0 is one step per call: a warm-up and 3 measurements per sample (the
  // unrecorded warm-up pass included), except exact attention at n = 1024 with
  // d_k + d_v = 64, which runs in 2 pieces of 512 rows: 1 + 3 x 2 steps; and a measurement
  // too short after a slow warm-up is taken again.
  REQUIRE(calls == 2 * 4 + 2 * 2 * 4 + (1 + 3 * 2) + 4 + run.retries);
  for (const attn::CostSeries& s : run.chart.series) {
    REQUIRE(s.samples.size() == 3);
    REQUIRE(s.fit_points == 3);
    REQUIRE(std::isfinite(s.slope));
    for (const attn::CostSample& p : s.samples) REQUIRE(p.seconds > 0.0);
  }
  // Exact grows faster with n than the window: in the samples' counted work, which is
  // exact; the measured seconds are a benchmark's business (scripts/bench.sh), since a
  // shared machine under a sanitizer once timed the window slower at n = 1024.
  const std::vector<attn::CostSample>& exact = run.chart.series[0].samples;
  const std::vector<attn::CostSample>& window = run.chart.series[1].samples;
  REQUIRE(exact[2].multiply_adds / exact[1].multiply_adds == Approx(4.0));
  REQUIRE(window[2].multiply_adds / window[1].multiply_adds < 2.5);
  REQUIRE(exact[2].multiply_adds > window[2].multiply_adds);
}

TEST_CASE("cost chart run: after a warm-up that left one run, a measurement still fills a quarter of min_seconds", "[mask-edit][cost]") {
  attn::CostChartConfig config = attn::app_cost_chart_config();
  config.kinds = {attn::EfficientKind::Window};
  config.ns = {64, 128};
  config.timing.min_seconds = 0.004;
  config.fit_min_n = 64;
  attn::CostChartRun run;
  attn::start_cost_chart(run, config, 1);
  // As a slow warm-up would (the first run allocating, another process): one run per
  // measurement, where a window run at n = 64 takes microseconds.
  bool forced = false;
  for (int calls = 0; run.running && calls < 100000; ++calls) {
    attn::step_cost_chart(run, 0.0);
    if (!forced && run.warmed && run.measurements.empty() && run.piece == 0 && run.run_seconds == 0.0 &&
        run.tasks[run.task].record) {
      run.runs = 1;
      forced = true;
    }
  }
  REQUIRE(forced);
  REQUIRE_FALSE(run.running);
  REQUIRE(run.retries > 0);
  for (const attn::CostSample& p : run.chart.series[0].samples) {
    INFO("n " << p.n << ": " << p.seconds << " s x " << p.runs_per_measurement << " runs");
    REQUIRE(p.seconds > 0.0);
    REQUIRE(p.seconds * p.runs_per_measurement >= 0.25 * config.timing.min_seconds);
  }
}
