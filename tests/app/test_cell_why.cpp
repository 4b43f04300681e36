// Why this cell (app/cell_why.h): the chosen cell's raw score as its terms over the head's
// dimensions, which sum to the score; the scale, mask and weight are the trace's; with RoPE
// the unrotated score is what the same scene without positions gives; scores that are not a
// dot product and a cell outside the scores say why.
#include "app/app_state.h"
#include "app/state_schema.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace attn;

TEST_CASE("cell why: the terms sum to the raw score, and the later steps are the trace's", "[app][cell]") {
  AppState state;
  REQUIRE(apply_state_json(state, R"({"sentence": "the cat sat on the mat", "dModel": 64, "heads": 2, "head": 1,
                                      "mask": {"causal": true}, "cursor": 4, "cursorKey": 2})").ok);
  update_results(state);
  const CellWhy& c = state.cell;
  REQUIRE(c.shown);
  REQUIRE(c.head == 1);
  const HeadTrace& h = state.trace.heads[1];
  REQUIRE(c.raw == h.raw_scores(4, 2));
  REQUIRE(std::abs(c.terms.sum - c.raw) <= 1e-5 * (1 + c.terms.abs_sum));
  REQUIRE(c.terms.top.size() == static_cast<std::size_t>(kCellTermsShown));
  REQUIRE(c.terms.rest_count == 32 - kCellTermsShown);
  double shown = c.terms.rest;
  for (std::size_t i = 0; i < c.terms.top.size(); ++i) {
    shown += c.terms.top[i].product;
    if (i > 0) REQUIRE(std::abs(c.terms.top[i].product) <= std::abs(c.terms.top[i - 1].product));
    const ScoreTerm& t = c.terms.top[i];
    REQUIRE(t.q == h.q(4, t.dim));
    REQUIRE(t.k == h.k(2, t.dim));
  }
  REQUIRE(std::abs(shown - c.terms.sum) < 1e-9);
  REQUIRE(c.scaled == h.scaled_scores(4, 2));
  REQUIRE(c.weight == h.weights(4, 2));
  REQUIRE(!c.rope);
  // A masked cell: the mask's fill is part of the story.
  REQUIRE(apply_state_json(state, R"({"cursor": 1, "cursorKey": 3})").ok);
  update_results(state);
  REQUIRE(state.cell.mask_add != 0.0f);
  REQUIRE(state.cell.weight == 0.0f);
  const nlohmann::json j = nlohmann::json::parse(state_to_json(state))["figures"]["cell"];
  REQUIRE(j["row"] == 1);
  REQUIRE(j["col"] == 3);
  REQUIRE(j["terms"].size() == static_cast<std::size_t>(kCellTermsShown));
  // No cell chosen: nothing.
  REQUIRE(apply_state_json(state, R"({"cursorKey": -1})").ok);
  update_results(state);
  REQUIRE(!state.cell.shown);
}

TEST_CASE("cell why with RoPE: the unrotated score is the same scene's without positions", "[app][cell]") {
  AppState rope, none;
  const char* scene = R"({"sentence": "the cat sat on the mat", "dModel": 32, "heads": 2, "head": 0, "cursor": 5, "cursorKey": 1,
                          "positional": "%s"})";
  char buf[256];
  std::snprintf(buf, sizeof buf, scene, "rope");
  REQUIRE(apply_state_json(rope, buf).ok);
  std::snprintf(buf, sizeof buf, scene, "none");
  REQUIRE(apply_state_json(none, buf).ok);
  update_results(rope);
  update_results(none);
  REQUIRE(rope.cell.rope);
  REQUIRE(rope.cell.raw_unrotated == Approx(none.cell.raw).margin(1e-5));
  REQUIRE(rope.cell.raw != Approx(none.cell.raw).margin(1e-3));  // the rotation changed it
}

TEST_CASE("cell why: other scores and cells outside say why", "[app][cell]") {
  AppState state;
  REQUIRE(apply_state_json(state, R"({"score": "cosine", "cursor": 1, "cursorKey": 0})").ok);
  update_results(state);
  REQUIRE(!state.cell.shown);
  REQUIRE(state.cell.status.message == "the score is cosine, not a dot product, so it has no terms over the head's dimensions");
}
