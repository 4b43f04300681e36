// The trainer (src/core/train/trainer.h) and head scores (train_heads.h): determinism,
// slices, exact resume after save/load, a short run that really learns, and head scores on
// hand-built attention patterns with known answers.
#include "core/base/rng.h"
#include "core/train/experiment.h"
#include "core/train/heads.h"
#include "core/train/trainer.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

namespace tr = attn::train;

namespace {

tr::TrainConfig tiny(tr::TrainTask task) {
  tr::TrainConfig c;
  c.task = task;
  c.layers = 1;
  c.heads = 2;
  c.d_model = 16;
  c.batch = 8;
  c.seed = 3;
  return c;
}

// A repeat probe of context 12 (m = 6, no padding) and one (12, 12) weight matrix per sequence.
struct Pattern {
  tr::Batch batch;
  std::vector<float> weights;
};

Pattern make_pattern(int sequences) {
  Pattern p;
  attn::Rng rng(1);
  tr::generate_repeat_probe(12, 16, rng, sequences, p.batch);
  p.weights.assign(static_cast<std::size_t>(sequences) * 144, 0.0f);
  return p;
}

}  // namespace

TEST_CASE("head scores: hand-built patterns give the known scores", "[train][heads]") {
  const int T = 12, m = 6, sequences = 3;
  SECTION("previous-token") {
    Pattern p = make_pattern(sequences);
    for (int b = 0; b < sequences; ++b)
      for (int i = 0; i < T; ++i) p.weights[b * 144 + i * T + (i == 0 ? 0 : i - 1)] = 1.0f;
    const tr::HeadScore s = tr::score_head(p.weights.data(), 144, p.batch);
    REQUIRE(s.previous_token == 1.0f);
    REQUIRE(s.induction == 0.0f);
    REQUIRE(std::fabs(s.diagonal - 1.0f / 12.0f) < 1e-7f);  // only query 0 looks at itself
    REQUIRE(s.label == "previous-token");
  }
  SECTION("induction") {
    Pattern p = make_pattern(sequences);
    for (int b = 0; b < sequences; ++b)
      for (int i = 0; i < T; ++i) p.weights[b * 144 + i * T + (i < m ? i : i - m + 1)] = 1.0f;
    const tr::HeadScore s = tr::score_head(p.weights.data(), 144, p.batch);
    REQUIRE(s.induction == 1.0f);
    REQUIRE(s.previous_token == 0.0f);
    REQUIRE(std::fabs(s.diagonal - 0.5f) < 1e-7f);  // the first half looks at itself
    REQUIRE(s.label == "induction");
  }
  SECTION("uniform causal attention scores low on everything") {
    Pattern p = make_pattern(sequences);
    for (int b = 0; b < sequences; ++b)
      for (int i = 0; i < T; ++i)
        for (int j = 0; j <= i; ++j) p.weights[b * 144 + i * T + j] = 1.0f / (i + 1);
    double prev = 0, induction = 0, diagonal = 0;
    for (int i = 0; i < T; ++i) diagonal += 1.0 / (i + 1) / T;
    for (int i = 1; i < T; ++i) prev += 1.0 / (i + 1) / (T - 1);
    for (int i = m; i < T; ++i) induction += 1.0 / (i + 1) / m;
    const tr::HeadScore s = tr::score_head(p.weights.data(), 144, p.batch);
    REQUIRE(std::fabs(s.previous_token - prev) < 1e-6);
    REQUIRE(std::fabs(s.induction - induction) < 1e-6);
    REQUIRE(std::fabs(s.diagonal - diagonal) < 1e-6);
    REQUIRE(s.label.empty());
  }
  REQUIRE(tr::head_label(0.9f, 0.2f) == "previous-token");
  REQUIRE(tr::head_label(0.2f, 0.5f) == "induction");
  REQUIRE(tr::head_label(0.49f, 0.49f).empty());
}

TEST_CASE("trainer: configs are checked and the message names the field", "[train]") {
  tr::Trainer t;
  REQUIRE(!t.ready());
  REQUIRE(t.step(1).message == "the trainer has no model yet (reset or load first)");
  tr::TrainConfig c = tiny(tr::TrainTask::Copy);
  c.heads = 3;
  REQUIRE(t.reset(c).message == "d_model 16 is not divisible by 3 heads");
  c = tiny(tr::TrainTask::Copy);
  c.layers = 3;
  REQUIRE(t.reset(c).message == "layers must be from 1 to 2, got 3");
  c = tiny(tr::TrainTask::Copy);
  c.d_model = 256;
  c.heads = 1;
  REQUIRE(t.reset(c).message == "d_model must be from 1 to 128, got 256");
  c = tiny(tr::TrainTask::Copy);
  c.batch = 0;
  REQUIRE(t.reset(c).message == "batch must be from 1 to 256, got 0");
  c = tiny(tr::TrainTask::Copy);
  c.learning_rate = std::nanf("");
  REQUIRE(t.reset(c).message == "learning rate must be in (0, 1]");
  REQUIRE(!t.ready());
  REQUIRE(t.reset(tiny(tr::TrainTask::Copy)).ok);
  REQUIRE(t.step(-1).message == "steps per call must be from 0 to 1000000");
}

TEST_CASE("trainer: same config, same run; slices change nothing", "[train]") {
  tr::Trainer a, b, c;
  REQUIRE(a.reset(tiny(tr::TrainTask::Reverse)).ok);
  REQUIRE(b.reset(tiny(tr::TrainTask::Reverse)).ok);
  REQUIRE(c.reset(tiny(tr::TrainTask::Reverse)).ok);
  REQUIRE(a.step(12).ok);
  REQUIRE(b.step(12).ok);
  for (int n : {1, 4, 0, 7}) REQUIRE(c.step(n).ok);
  REQUIRE(a.steps() == 12);
  REQUIRE(c.steps() == 12);
  REQUIRE(a.loss_history().size() == 12);
  REQUIRE(a.loss_history() == b.loss_history());
  REQUIRE(a.loss_history() == c.loss_history());
  REQUIRE(a.parameters() == c.parameters());
  // A different seed is a different run.
  tr::TrainConfig other = tiny(tr::TrainTask::Reverse);
  other.seed = 4;
  tr::Trainer d;
  REQUIRE(d.reset(other).ok);
  REQUIRE(d.step(12).ok);
  REQUIRE(d.loss_history() != a.loss_history());
}

TEST_CASE("trainer: with and without scaling start from the same weights", "[train]") {
  tr::TrainConfig scaled = tiny(tr::TrainTask::Copy), unscaled = scaled;
  unscaled.scale_scores = false;
  tr::Trainer a, b;
  REQUIRE(a.reset(scaled).ok);
  REQUIRE(b.reset(unscaled).ok);
  REQUIRE(a.parameters() == b.parameters());
  REQUIRE(tr::score_scale(a.model()) == 1.0f / std::sqrt(8.0f));  // d_k = 16 / 2
  REQUIRE(tr::score_scale(b.model()) == 1.0f);
  REQUIRE(a.step(1).ok);
  REQUIRE(b.step(1).ok);
  REQUIRE(a.loss_history()[0] != b.loss_history()[0]);  // the same data, a different model
}

TEST_CASE("trainer: a saved run resumes exactly where it stopped", "[train]") {
  tr::Trainer straight, first;
  REQUIRE(straight.reset(tiny(tr::TrainTask::Induction)).ok);
  REQUIRE(straight.step(16).ok);
  REQUIRE(first.reset(tiny(tr::TrainTask::Induction)).ok);
  REQUIRE(first.step(9).ok);
  const std::vector<std::uint8_t> bytes = first.save();
  tr::Trainer resumed;
  REQUIRE(resumed.load(bytes.data(), bytes.size()).ok);
  REQUIRE(resumed.step(7).ok);
  REQUIRE(resumed.steps() == 16);
  REQUIRE(resumed.loss_history() == straight.loss_history());
  REQUIRE(resumed.parameters() == straight.parameters());
}

TEST_CASE("trainer: a short run learns the previous-token task with a previous-token head", "[train]") {
  tr::TrainConfig c = tiny(tr::TrainTask::PreviousToken);
  c.heads = 1;
  tr::Trainer t;
  REQUIRE(t.reset(c).ok);
  const tr::Evaluation before = t.evaluate(128);
  for (const tr::HeadScore& s : t.head_scores()) REQUIRE(s.previous_token < 0.5f);
  REQUIRE(t.step(400).ok);
  const tr::Evaluation after = t.evaluate(128);
  INFO("held-out accuracy " << before.token_accuracy << " -> " << after.token_accuracy << ", loss " << before.loss
                            << " -> " << after.loss);
  REQUIRE(before.token_accuracy < 0.2);  // chance is 1/16
  REQUIRE(after.token_accuracy > 0.95);
  REQUIRE(after.loss < 0.5 * before.loss);
  const std::vector<tr::HeadScore> heads = t.head_scores();
  REQUIRE(heads.size() == 1);
  INFO("previous-token score " << heads[0].previous_token);
  REQUIRE(heads[0].label == "previous-token");
  // Evaluation is on a fixed held-out set: the same numbers every time.
  const tr::Evaluation again = t.evaluate(128);
  REQUIRE(again.loss == after.loss);
  REQUIRE(again.token_accuracy == after.token_accuracy);
}

TEST_CASE("trainer: the probe view is the task's fixed sequence and each head's weights", "[train]") {
  tr::Trainer t;
  tr::TrainConfig c = tiny(tr::TrainTask::Copy);
  c.layers = 2;
  REQUIRE(t.reset(c).ok);
  const tr::ProbeView v = t.probe();
  REQUIRE(v.context == 33);
  REQUIRE(v.tokens.size() == 33);
  REQUIRE(v.predictions.size() == 33);
  REQUIRE(v.weights.size() == 4);  // 2 layers x 2 heads
  REQUIRE(v.tokens[16] == t.task().special());
  for (int i = 0; i < 16; ++i) REQUIRE(v.tokens[17 + i] == v.tokens[i]);  // a copy sequence
  for (const attn::Mat& w : v.weights) {
    REQUIRE(w.rows() == 33);
    REQUIRE(w.cols() == 33);
    for (int i = 0; i < 33; ++i) {
      double sum = 0.0;
      for (int j = 0; j < 33; ++j) {
        if (j > i) REQUIRE(w(i, j) == 0.0f);
        sum += w(i, j);
      }
      REQUIRE(std::fabs(sum - 1.0) < 1e-5);
    }
  }
  // The same sequence after training: only the weights move.
  REQUIRE(t.step(3).ok);
  const tr::ProbeView later = t.probe();
  REQUIRE(later.tokens == v.tokens);
  REQUIRE(later.weights[0] != v.weights[0]);
}

TEST_CASE("scaling experiment: its measures on known curves, and its runs", "[train][scaling]") {
  // steps to target: the first step where the mean of the last `window` losses is <= target
  const std::vector<float> curve = {4, 3, 2, 1, 0.5f, 0.2f, 0.1f, 0.1f, 0.05f, 0.3f};
  REQUIRE(tr::steps_to_reach(curve, 0.1f, 1) == 7);
  REQUIRE(tr::steps_to_reach(curve, 0.1f, 2) == 8);  // (0.1 + 0.1) / 2
  REQUIRE(tr::steps_to_reach(curve, 0.01f, 1) == -1);
  REQUIRE(tr::window_mean(curve, 10, 2) == Approx(0.175));
  REQUIRE(tr::late_peak(curve) == 0.3f);  // the largest of the second half
  // medians count never-reached runs as slowest
  REQUIRE(tr::median_steps({5, 3, -1}) == 5.0);
  REQUIRE(tr::median_steps({5, -1, -1}) == -1.0);
  REQUIRE(tr::median_steps({4, 2, 8, 6}) == 5.0);

  tr::ScalingSettings s;
  s.d_model = 8;
  s.heads = 1;
  s.control_heads = 2;
  s.steps = 6;
  s.window = 2;
  s.seeds = {1, 2};
  s.eval_sequences = 8;
  std::vector<tr::ScalingRun> runs;
  int reported = 0;
  REQUIRE(tr::run_scaling_experiment(s, runs, [&](const tr::ScalingRun&) { ++reported; }).ok);
  REQUIRE(runs.size() == 8);  // 2 d_k x 2 seeds x scaled / unscaled
  REQUIRE(reported == 8);
  REQUIRE(runs[0].d_k == 8);
  REQUIRE(runs[0].scaled);
  REQUIRE(!runs[1].scaled);
  REQUIRE(runs[4].d_k == 4);
  for (const tr::ScalingRun& r : runs) REQUIRE(r.loss.size() == 6);
  // the same seed with and without scaling: same start, same data, different models
  REQUIRE(runs[0].loss[0] != runs[1].loss[0]);
  s.control_heads = 3;
  REQUIRE(tr::run_scaling_experiment(s, runs, nullptr).message == "d_model 8 is not divisible by 3 heads");
}
