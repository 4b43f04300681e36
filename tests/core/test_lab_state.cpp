#include "app/app_state.h"
#include "app/lab_state.h"

#include <catch2/catch.hpp>

#include <cmath>

TEST_CASE("lab: figures are computed once, then only what a changed setting needs", "[lab]") {
  attn::LabSettings s;
  attn::LabResults r;
  REQUIRE(attn::update_lab(s, nullptr, r));
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
  const attn::LabSettings same = s;
  REQUIRE_FALSE(attn::update_lab(s, &same, r));
  const auto entropy_before = r.example_entropy;
  attn::LabSettings hotter = s;
  hotter.temperature = 10.0f;
  REQUIRE(attn::update_lab(hotter, &s, r));
  for (int i = 0; i < 3; ++i) REQUIRE(r.example_entropy[i] > entropy_before[i]);
}

TEST_CASE("lab: softmax steps and stability figures", "[lab]") {
  attn::LabSettings s;
  s.row = {12.0f, 3.0f, 1.0f, -2.0f};
  attn::LabResults r;
  attn::update_lab(s, nullptr, r);
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
  REQUIRE(state.lab.walk.raw_scores(0, 0) == 2.0f);  // q0 = (1, 0), k0 = (2, 1)
  for (const char* bad : {R"({"lab":{"dk":0}})", R"({"lab":{"q":[1]}})", R"({"lab":{"row":[]}})",
                          R"({"lab":{"wq":[1,2,3]}})", R"({"lab":{"temperature":0}})", R"({"lab":{"magic":1}})"}) {
    INFO(bad);
    REQUIRE_FALSE(attn::apply_state_json(state, bad).ok);
  }
  REQUIRE(state.settings.lab.dk == 128);
}
