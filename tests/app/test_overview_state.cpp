// The long-input overview in the app (app/overview_state.h): a file of q and k without weights
// opens the overview (the scene stays); the pass run a slice a frame, or reported by the page's
// Worker, gives the core's overview; a clicked region's weights are the exact ones.
#include "app/app_state.h"
#include "app/overview_state.h"
#include "core/attention/overview.h"
#include "support/matrix_compare.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {

// One layer, two heads, n tokens of q and k (d = 8), no weights.
attn::ImportedAttention long_file(int n) {
  attn::ImportedAttention d;
  d.layers = 1;
  d.heads = 2;
  d.n_q = d.n_k = n;
  d.d_k = 8;
  std::vector<float> x(static_cast<std::size_t>(2 * n * 8));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * static_cast<float>(i)) * 2.0f;
  d.q = attn::NpyArray::from_float({1, 2, n, 8}, x.data());
  for (float& v : x) v = std::cos(v);
  d.k = attn::NpyArray::from_float({1, 2, n, 8}, x.data());
  d.has_qk = true;
  d.has_weights = false;
  for (int i = 0; i < n; ++i) d.query_tokens.push_back("t" + std::to_string(i));
  d.key_tokens = d.query_tokens;
  return d;
}

nlohmann::json overview_figures(const attn::AppState& state) {
  return nlohmann::json::parse(attn::state_to_json(state))["figures"]["overview"];
}

}  // namespace

TEST_CASE("overview: a weightless file opens it, the pass in frames is the core's, a region is exact", "[overview][state]") {
  attn::AppState state;
  attn::update_results(state);
  const std::string sentence = state.settings.sentence;
  REQUIRE(attn::set_imported(state, long_file(1500), "long.npz").ok);
  REQUIRE(state.settings.panel == attn::Panel::Overview);
  REQUIRE(state.settings.source == attn::SceneSource::Generated);  // the scene stays
  REQUIRE(!state.imported);
  REQUIRE(attn::apply_state_json(state, R"({"overview": {"head": 1, "pool": "max", "causal": true}})").ok);
  int frames = 0;
  while (!state.overview.done && frames < 10000) {
    attn::advance_overview_panel(state, 0.0);  // one slice of rows a frame
    ++frames;
  }
  REQUIRE(state.overview.done);
  REQUIRE(frames == (1500 + 31) / 32);  // 32 rows a slice: never the whole pass at once
  nlohmann::json f = overview_figures(state);
  REQUIRE(f["nq"] == 1500);
  REQUIRE(f["block"] == 3);  // the smallest block keeping the picture at 512 a side or less
  REQUIRE(f["rows"] == 500);
  REQUIRE(f["pool"] == "max");
  // The core's overview of head 1, computed at once.
  const attn::ImportedAttention file = long_file(1500);
  attn::OverviewOptions o;
  o.block = 3;
  o.pool = attn::BlockPool::Max;
  o.causal = true;
  const attn::OverviewResult want = attn::overview(file.head_q(0, 1), file.head_k(0, 1), o);
  REQUIRE(want.status.ok);
  REQUIRE(attn::test::describe_difference(state.overview.result.pooled, want.pooled, 1e-7f).empty());
  // Causal: each query's weights sum to 1, so the key totals sum to n.
  REQUIRE(f["keyTotalsSum"].get<double>() == Approx(1500.0).epsilon(1e-5));

  // A region: the exact weights of its rows (whole rows sum to 1; with causal, keys after the
  // query are 0).
  REQUIRE(attn::apply_state_json(state, R"({"overview": {"q0": 1000, "k0": 0, "side": 1024}})").ok);
  attn::advance_overview_panel(state, 2.0);
  REQUIRE(state.overview.region.rows() == 500);
  REQUIRE(state.overview.region.cols() == 1024);
  attn::Mat exact;
  REQUIRE(attn::region_weights(file.head_q(0, 1), file.head_k(0, 1), want.stats, 1000, 1500, 0, 1024, exact).ok);
  REQUIRE(attn::test::describe_difference(state.overview.region, exact, 1e-7f).empty());
  f = overview_figures(state);
  REQUIRE(f["region"]["q0"] == 1000);
  REQUIRE(f["region"]["rows"] == 500);
}

TEST_CASE("overview: the page's Worker runs the pass and reports it; stale and malformed reports change nothing", "[overview][state]") {
  attn::AppState state;
  state.overview.external = true;
  REQUIRE(attn::set_imported(state, long_file(700), "long.npz").ok);
  attn::advance_overview_panel(state, 2.0);
  REQUIRE(!state.overview.done);
  REQUIRE(!state.overview.job);  // nothing runs here
  const nlohmann::json pending = attn::overview_pending(state.overview);
  REQUIRE(pending["nq"] == 700);
  REQUIRE(pending["block"] == 2);
  REQUIRE(pending["pool"] == "mean");
  REQUIRE(attn::overview_pending(state.overview).is_null());  // sent once
  const std::uint64_t request = pending["request"];
  REQUIRE(attn::overview_report_progress(state.overview, request, 0.5).ok);
  REQUIRE(state.overview.progress == 0.5);
  REQUIRE_FALSE(attn::overview_report_progress(state.overview, request, 1.5).ok);
  // What the Worker computes: the core's overview of head 0.
  const attn::ImportedAttention file = long_file(700);
  attn::OverviewOptions o;
  o.block = 2;
  attn::OverviewResult r = attn::overview(file.head_q(0, 0), file.head_k(0, 0), o);
  attn::OverviewResult wrong = r;
  wrong.key_totals.resize(10);
  REQUIRE_FALSE(attn::overview_report_result(state.overview, request, wrong).ok);
  REQUIRE(!state.overview.done);
  REQUIRE(attn::overview_report_result(state.overview, request + 5, r).ok);  // another pass's: ignored
  REQUIRE(!state.overview.done);
  REQUIRE(attn::overview_report_result(state.overview, request, r).ok);
  REQUIRE(state.overview.done);
  REQUIRE(attn::test::describe_difference(state.overview.result.pooled, r.pooled, 0.0f).empty());
  // A new head is a new pass.
  REQUIRE(attn::apply_state_json(state, R"({"overview": {"head": 1}})").ok);
  attn::advance_overview_panel(state, 2.0);
  REQUIRE(!state.overview.done);
  REQUIRE(attn::overview_pending(state.overview)["request"].get<std::uint64_t>() == request + 1);
  REQUIRE_FALSE(attn::apply_state_json(state, R"({"overview": {"pool": "median"}})").ok);
}
