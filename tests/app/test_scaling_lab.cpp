#include "app/app_state.h"
#include "app/scaling_lab.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

TEST_CASE("lab: figures are computed once, then only what a changed setting needs", "[lab]") {
  attn::ScalingLabSettings s;
  attn::ScalingLabResults r;
  REQUIRE(attn::update_scaling_lab(s, nullptr, r));
  REQUIRE(r.variance.size() == 11);  // d_k = 1 ... 1024
  for (const auto& p : r.variance) {
    INFO("d_k " << p.dk);
    REQUIRE(std::fabs(p.raw / p.dk - 1.0) < 0.15);  // 4000 samples per point
    REQUIRE(std::fabs(p.scaled - 1.0) < 0.15);
  }
  REQUIRE(std::fabs(r.var_raw_at_dk / 64 - 1.0) < 0.05);
  REQUIRE(r.dot_qk == Approx(4.5f));
  REQUIRE(r.dot_q_long == Approx(7.5f));
  REQUIRE(r.cos_qk > r.cos_q_long);
  // The worked example by default.
  REQUIRE(r.walk.weights(0, 1) == Approx(0.6698f).margin(1e-4));
  const attn::ScalingLabSettings same = s;
  REQUIRE_FALSE(attn::update_scaling_lab(s, &same, r));
  REQUIRE(r.has_variance_for(s));
  REQUIRE(r.has_saturation());
  const auto entropy_before = r.example_entropy;
  attn::ScalingLabSettings hotter = s;
  hotter.temperature = 10.0f;
  REQUIRE(attn::update_scaling_lab(hotter, &s, r));
  for (int i = 0; i < 3; ++i) REQUIRE(r.example_entropy[i] > entropy_before[i]);
}

TEST_CASE("lab: softmax steps and stability figures", "[lab]") {
  attn::ScalingLabSettings s;
  s.row = {12.0f, 3.0f, 1.0f, -2.0f};
  attn::ScalingLabResults r;
  attn::update_scaling_lab(s, nullptr, r);
  REQUIRE(r.row_max == 12.0f);
  REQUIRE(r.exps[0] == 1.0f);
  float total = 0;
  for (float w : r.weights) total += w;
  REQUIRE(total == Approx(1.0f).margin(1e-6));
  REQUIRE(r.naive16_overflow);
  REQUIRE_FALSE(r.stable16_overflow);
  REQUIRE_FALSE(r.naive32_overflow);
  REQUIRE(r.fully_inf_flag);
  for (float w : r.fully_inf) REQUIRE(w == 0.0f);
  for (float w : r.fully_finite) REQUIRE(w == Approx(0.25f).margin(1e-6));
  REQUIRE(r.masked_inf[3] == 0.0f);
}

TEST_CASE("lab settings in the state JSON are validated", "[lab][state]") {
  attn::AppState state;
  REQUIRE(attn::apply_state_json(state, R"({"panel":"walkthrough","lab":{"wq":[1,0,0,1],"dk":128}})").ok);
  attn::update_results(state);
  REQUIRE(state.scaling_lab.walk.raw_scores(0, 0) == 2.0f);  // q0 = (1, 0), k0 = (2, 1)
  for (const char* bad : {R"({"lab":{"dk":0}})", R"({"lab":{"q":[1]}})", R"({"lab":{"row":[]}})",
                          R"({"lab":{"wq":[1,2,3]}})", R"({"lab":{"temperature":0}})", R"({"lab":{"magic":1}})"}) {
    INFO(bad);
    REQUIRE_FALSE(attn::apply_state_json(state, bad).ok);
  }
  REQUIRE(state.settings.scaling_lab.dk == 128);
}

namespace {
nlohmann::json figures_of(const attn::AppState& state) { return nlohmann::json::parse(attn::state_to_json(state))["figures"]; }
}  // namespace

TEST_CASE("lab: figures only while a lab panel is shown, each panel's samples only for that panel", "[lab][state]") {
  attn::AppState state;
  attn::update_results(state);  // the pipeline: no lab figures at all
  REQUIRE_FALSE(state.has_scaling_lab);
  REQUIRE_FALSE(figures_of(state).contains("lab"));

  REQUIRE(attn::apply_state_json(state, R"({"panel":"softmax","lab":{"row":[1,2,3]}})").ok);
  attn::update_results(state);  // softmax: the cheap figures, no sampling
  REQUIRE(state.has_scaling_lab);
  REQUIRE(state.scaling_lab.weights.size() == 3);
  REQUIRE(state.scaling_lab.variance.empty());
  REQUIRE(state.scaling_lab.hist_raw.counts.empty());
  REQUIRE_FALSE(figures_of(state)["lab"].contains("variance"));

  REQUIRE(attn::apply_state_json(state, R"({"panel":"variance","lab":{"dk":16}})").ok);
  attn::update_results(state);
  REQUIRE(state.scaling_lab.has_variance_for(state.settings.scaling_lab));
  REQUIRE_FALSE(state.scaling_lab.has_saturation());  // the saturation panel's own samples wait for it
  REQUIRE(state.scaling_lab.variance.size() == 11);
  REQUIRE(std::fabs(state.scaling_lab.var_raw_at_dk / 16 - 1.0) < 0.05);
  REQUIRE(figures_of(state)["lab"]["variance"]["dk"] == 16);
  REQUIRE(figures_of(state)["lab"]["saturation"]["unscaled"].empty());

  REQUIRE(attn::apply_state_json(state, R"({"panel":"saturation"})").ok);
  attn::update_results(state);
  REQUIRE(state.scaling_lab.has_saturation());
  REQUIRE(state.scaling_lab.saturation_raw.size() == 9);  // d_k = 4 ... 1024
  REQUIRE(figures_of(state)["lab"]["saturation"]["unscaled"].size() == 9);

  // A lab setting changed on another panel: the figures are stale until a lab panel shows.
  REQUIRE(attn::apply_state_json(state, R"({"panel":"pipeline","lab":{"row":[4,4]}})").ok);
  attn::update_results(state);
  REQUIRE(state.scaling_lab.weights.size() == 3);
  REQUIRE_FALSE(figures_of(state).contains("lab"));
  REQUIRE(attn::apply_state_json(state, R"({"panel":"stability"})").ok);
  attn::update_results(state);
  REQUIRE(state.scaling_lab.weights.size() == 2);
  REQUIRE(figures_of(state)["lab"]["softmax"]["weights"][0] == Approx(0.5));
}

TEST_CASE("lab: one draw gives the raw and scaled dot products, as two separate draws would", "[statistics]") {
  for (int d_k : {1, 7, 64}) {
    const attn::DotProductPair pair = attn::sample_dot_product_pair(d_k, 500, 99, true);
    const attn::DotProductSample raw = attn::sample_dot_products(d_k, 500, 99, false, true);
    const attn::DotProductSample scaled = attn::sample_dot_products(d_k, 500, 99, true, true);
    INFO("d_k " << d_k);
    REQUIRE(pair.raw.variance == raw.variance);
    REQUIRE(pair.scaled.variance == scaled.variance);
    REQUIRE(pair.raw.values == raw.values);
    REQUIRE(pair.scaled.values == scaled.values);
    REQUIRE(pair.scaled.variance == Approx(pair.raw.variance / d_k).epsilon(1e-9));
  }
}

TEST_CASE("scaling lab: refusals name the schema's bounds as a person writes them", "[lab]") {
  attn::AppState state;
  auto refusal = [&](const char* patch) { return attn::apply_state_json(state, patch).message; };
  REQUIRE(refusal(R"({"lab": {"q": [11, 0]}})") == "'q' in 'lab' must be [x, y] with |x|, |y| <= 10");
  REQUIRE(refusal(R"({"lab": {"k": [1]}})") == "'k' in 'lab' must be [x, y] with |x|, |y| <= 10");
  REQUIRE(refusal(R"({"lab": {"wq": [1, 2, 3]}})") == "'wq' in 'lab' must hold 4 numbers (a 2 x 2 matrix, row by row)");
  REQUIRE(refusal(R"({"lab": {"wv": [1, 2, 3, -11]}})") == "'wv' in 'lab' must hold numbers in [-10, 10]");
  REQUIRE(refusal(R"({"lab": {"row": [1, 20000]}})") == "'row' in 'lab' must hold numbers in [-1e4, 1e4]");
  REQUIRE(refusal(R"({"scale": 101})") == "'scale' must be \"default\", \"none\" or a number in [-100, 100]");
  REQUIRE(refusal(R"({"maskFill": 1})") == "'maskFill' must be \"-inf\" or a number from -1e30 to 0");
  REQUIRE(state.settings.scaling_lab.q == attn::ScalingLabSettings{}.q);  // nothing changed
}
