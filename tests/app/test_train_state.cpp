// The training lab's app state (src/app/train_state.h): slices that respect their budget
// and stop when paused, reset, save/load with the previous run kept on a bad file, the
// settings' JSON door, and the trained scene whose explorer trace reproduces the model's
// own attention; the runs built only for their panels or a started run.
#include "app/app_state.h"
#include "app/train_state.h"
#include "core/attention/rollout.h"
#include "support/matrix_compare.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <vector>

using attn::TrainState;

namespace {

// A small, fast live run: previous-token task, 1 layer, d_model 16.
TrainState small_state() {
  TrainState t;
  t.settings.task = attn::train::TrainTask::PreviousToken;
  t.settings.layers = 1;
  t.settings.heads = 2;
  t.settings.d_model = 16;
  t.settings.seed = 4;
  attn::update_training(t);
  return t;
}

}  // namespace

TEST_CASE("the training lab's runs are built for their panels or a started run, not for every page", "[train][app]") {
  attn::AppState s;
  attn::update_results(s);  // the first panel, the pipeline, draws no run
  REQUIRE_FALSE(s.train.run.trainer.ready());
  REQUIRE_FALSE(s.train.experiment.scaled.ready());
  attn::train_tick(s.train, 5.0, 0.0);  // nor does a frame's slice build one
  REQUIRE_FALSE(s.train.run.trainer.ready());
  const nlohmann::json before = attn::training_figures_json(s.train);
  REQUIRE(before["steps"] == 0);
  REQUIRE(before["probeStep"] == -1);  // nothing computed yet, and the figures say so
  REQUIRE(before["heads"].empty());

  // The live run's panel builds both runs, at step 0 with their probe and held-out point.
  REQUIRE(attn::apply_state_json(s, R"({"panel": "training"})").ok);
  attn::update_results(s);
  REQUIRE(s.train.run.trainer.ready());
  REQUIRE(s.train.experiment.scaled.ready());
  REQUIRE(s.train.run.probe_step == 0);
  REQUIRE(s.train.run.held_out.size() == 1);
  REQUIRE(attn::training_figures_json(s.train)["heads"].size() == 4);  // 2 layers x 2 heads
  // Another panel keeps them as they are.
  REQUIRE(attn::apply_state_json(s, R"({"panel": "pipeline"})").ok);
  attn::update_results(s);
  REQUIRE(s.train.run.trainer.ready());

  // The experiment's panel, and a run started from any panel, build them too.
  attn::AppState e;
  REQUIRE(attn::apply_state_json(e, R"({"panel": "scaling-run"})").ok);
  attn::update_results(e);
  REQUIRE(e.train.experiment.scaled.ready());
  REQUIRE(e.train.experiment.unscaled.ready());
  attn::AppState r;
  REQUIRE(attn::apply_state_json(r, R"({"scalingRun": {"running": true}})").ok);
  attn::update_results(r);
  REQUIRE(r.train.experiment.scaled.ready());
  REQUIRE(r.train.scaling.running);  // and it goes
  attn::train_tick(r.train, 0.0, 0.0);
  REQUIRE(r.train.experiment.scaled.steps() == 1);
}

TEST_CASE("training slices: running steps, paused does nothing, reset returns to 0", "[train][app]") {
  TrainState t = small_state();
  REQUIRE(t.run.trainer.steps() == 0);
  REQUIRE(t.run.probe.layers == 1);
  REQUIRE(t.run.held_out.size() == 1);  // the untrained model's accuracy at step 0

  attn::train_tick(t, 5.0, 0.0);  // paused: nothing
  REQUIRE(t.run.trainer.steps() == 0);

  t.settings.running = true;
  attn::train_tick(t, 0.0, 0.0);  // a zero budget still makes one step
  REQUIRE(t.run.trainer.steps() == 1);
  for (int i = 0; i < 60; ++i) attn::train_tick(t, 0.0, 0.01 * i);
  REQUIRE(t.run.trainer.steps() == 61);
  REQUIRE(t.run.probe_step == 60);  // refreshed every kProbeEvery steps
  REQUIRE(t.run.loss_plot.step.size() == 61);
  REQUIRE(t.run.steps_per_second > 0);

  t.settings.running = false;
  attn::train_tick(t, 5.0, 1.0);
  REQUIRE(t.run.trainer.steps() == 61);

  attn::train_reset(t);
  REQUIRE(t.run.trainer.steps() == 0);
  REQUIRE(t.run.loss_plot.step.empty());
  REQUIRE(t.run.held_out.size() == 1);
}

TEST_CASE("training: a changed setting starts a new run; curves are downsampled", "[train][app]") {
  TrainState t = small_state();
  t.settings.running = true;
  for (int i = 0; i < 5; ++i) attn::train_tick(t, 0.0, 0.0);
  t.settings.seed = 5;
  attn::train_tick(t, 0.0, 0.0);
  REQUIRE(t.run.trainer.config().seed == 5);
  REQUIRE(t.run.trainer.steps() == 1);  // the new run, one step in
  REQUIRE(t.settings.running);
  // Past kCurvePoints steps the plotted curve holds bucket means.
  REQUIRE(t.run.trainer.step(attn::kCurvePoints * 2).ok);
  t.settings.running = true;
  attn::train_tick(t, 0.0, 0.0);
  const std::size_t steps = static_cast<std::size_t>(t.run.trainer.steps());
  REQUIRE(t.run.loss_plot.step.size() == static_cast<std::size_t>(attn::kCurvePoints));
  const std::vector<float>& loss = t.run.trainer.loss_history();
  double first_bucket = 0;
  const std::size_t per = steps / attn::kCurvePoints;
  for (std::size_t i = 0; i < per; ++i) first_bucket += loss[i];
  REQUIRE(std::fabs(t.run.loss_plot.value[0] - first_bucket / per) < 1e-5 * std::fabs(first_bucket / per));
}

TEST_CASE("training: save and load round-trip; a corrupt file keeps the run", "[train][app]") {
  TrainState t = small_state();
  t.settings.running = true;
  for (int i = 0; i < 25; ++i) attn::train_tick(t, 0.0, 0.0);
  t.settings.running = false;
  const std::vector<std::uint8_t> bytes = attn::train_save(t);

  TrainState other;
  attn::update_training(other);  // the default run (induction, 2 layers)
  REQUIRE(attn::train_load(other, bytes.data(), bytes.size()).ok);
  REQUIRE(other.run.trainer.steps() == 25);
  REQUIRE(other.settings.task == attn::train::TrainTask::PreviousToken);
  REQUIRE(other.settings.d_model == 16);
  REQUIRE_FALSE(other.settings.running);
  REQUIRE(other.run.probe_step == 25);
  attn::update_training(other);  // the loaded settings match the run: no reset
  REQUIRE(other.run.trainer.steps() == 25);
  // The probe attention of the loaded run is the saved run's, once both are refreshed at 25.
  attn::train_reset(t);
  REQUIRE(attn::train_load(t, bytes.data(), bytes.size()).ok);
  for (std::size_t i = 0; i < t.run.probe.weights.size(); ++i)
    REQUIRE(attn::test::describe_difference(t.run.probe.weights[i], other.run.probe.weights[i], 0.0f).empty());

  std::vector<std::uint8_t> corrupt = bytes;
  corrupt[corrupt.size() / 2] ^= 0x40;
  const attn::Status bad = attn::train_load(other, corrupt.data(), corrupt.size());
  REQUIRE_FALSE(bad.ok);
  REQUIRE(bad.message.find("checksum") != std::string::npos);
  REQUIRE(other.run.error.message == bad.message);
  REQUIRE(other.run.trainer.steps() == 25);  // unchanged
  const attn::Status cut = attn::train_load(other, bytes.data(), bytes.size() / 3);
  REQUIRE_FALSE(cut.ok);
  REQUIRE(cut.message.find("truncated") != std::string::npos);
  REQUIRE(other.run.trainer.steps() == 25);

  // A saved session's held-out curve comes back with it.
  const std::vector<attn::HeldOutPoint> held = {{0, 0.1f, 2.0f}, {20, 0.5f, 1.0f}, {99, 0.9f, 0.1f}};
  REQUIRE(attn::train_load(other, bytes.data(), bytes.size(), &held).ok);
  REQUIRE(other.run.held_out.size() == 2);  // the point past the run's 25 steps is dropped
  REQUIRE(other.run.held_out[1].step == 20);
}

TEST_CASE("scaling experiment: two runs in step, same data, different scaling", "[train][app]") {
  TrainState t;
  t.scaling.d_k = 16;
  attn::update_training(t);
  t.scaling.running = true;
  for (int i = 0; i < 3; ++i) attn::train_tick(t, 0.0, 0.0);
  REQUIRE(t.experiment.scaled.steps() == 3);
  REQUIRE(t.experiment.unscaled.steps() == 3);
  REQUIRE(t.experiment.scaled.model().scale_scores);
  REQUIRE_FALSE(t.experiment.unscaled.model().scale_scores);
  REQUIRE(t.experiment.scaled.model().d_model == 16);
  // The same initial weights: the runs differ only in the factor on the scores.
  attn::train::Trainer a, b;
  REQUIRE(a.reset(t.experiment.scaled.config()).ok);
  REQUIRE(b.reset(t.experiment.unscaled.config()).ok);
  REQUIRE(a.parameters() == b.parameters());
  REQUIRE(t.experiment.scaled.loss_history() != t.experiment.unscaled.loss_history());
  attn::scaling_reset(t);
  REQUIRE(t.experiment.scaled.steps() == 0);
  REQUIRE_FALSE(t.scaling.running);
}

TEST_CASE("training settings through the state's JSON door", "[train][app]") {
  attn::AppState s;
  REQUIRE(attn::apply_state_json(s, R"({"training": {"task": "copy", "layers": 1, "heads": 4, "dModel": 32, "running": true}})").ok);
  REQUIRE(s.train.settings.task == attn::train::TrainTask::Copy);
  REQUIRE(s.train.settings.heads == 4);
  REQUIRE(s.train.settings.running);
  const attn::TrainSettings before = s.train.settings;
  for (const char* bad : {R"({"training": {"task": "juggle"}})", R"({"training": {"heads": 3, "dModel": 32}})",
                          R"({"training": {"layers": 3}})", R"({"training": {"speed": 1}})", R"({"training": 5})",
                          R"({"scalingRun": {"init": "large"}})", R"({"scalingRun": {"dk": 1000}})",
                          R"({"training": {"seed": 1}, "panel": "nowhere"})"}) {
    INFO(bad);
    REQUIRE_FALSE(attn::apply_state_json(s, bad).ok);
    REQUIRE(s.train.settings.task == before.task);
    REQUIRE(s.train.settings.seed == before.seed);
  }
  REQUIRE(attn::apply_state_json(s, R"({"panel": "scaling-run", "scalingRun": {"dk": 32, "init": "small"}})").ok);
  REQUIRE(s.settings.panel == attn::Panel::ScalingRun);
  REQUIRE(s.train.scaling.d_k == 32);
  const nlohmann::json j = nlohmann::json::parse(attn::state_to_json(s));
  REQUIRE(j["training"]["task"] == "copy");
  REQUIRE(j["scalingRun"]["init"] == "small");
  REQUIRE(j["panel"] == "scaling-run");
  // The trained scene cannot be chosen before a model is loaded.
  REQUIRE_FALSE(attn::apply_state_json(s, R"({"source": "trained"})").ok);
}

namespace {

// A 2-layer, 2-head induction model after `steps` steps from `seed`, and its file.
std::vector<std::uint8_t> small_induction_model(attn::train::Trainer& trainer, std::uint64_t seed, int steps) {
  attn::train::TrainConfig c;
  c.task = attn::train::TrainTask::Induction;
  c.layers = 2;
  c.heads = 2;
  c.d_model = 16;
  c.seed = seed;
  REQUIRE(trainer.reset(c).ok);
  REQUIRE(trainer.step(steps).ok);
  return trainer.save(false);
}

}  // namespace

TEST_CASE("trained scene: the explorer's trace of a layer is the model's own attention", "[train][app]") {
  attn::train::Trainer trainer;
  const std::vector<std::uint8_t> bytes = small_induction_model(trainer, 9, 30);

  attn::AppState s;
  REQUIRE(attn::load_trained_scene(s.train, bytes.data(), bytes.size(), "test.attnmodel").ok);
  REQUIRE(attn::apply_state_json(s, R"({"source": "trained", "layer": 1, "dModel": 64, "heads": 1})").ok);
  attn::update_results(s);
  REQUIRE(s.settings.d_model == 16);  // the model's, whatever was asked
  REQUIRE(s.settings.heads == 2);
  REQUIRE(s.settings.math.mask.causal);
  REQUIRE(s.trace.status.ok);
  REQUIRE(s.trace.heads.size() == 2);
  const attn::train::ProbeView probe = trainer.probe();
  const int n = static_cast<int>(s.tokens.size());
  REQUIRE(n >= 17);  // an induction probe: m >= 8 symbols twice, padding cut
  REQUIRE(n < probe.context);
  for (int h = 0; h < 2; ++h) {
    const attn::Mat model_weights = probe.weights[2 + h].topLeftCorner(n, n);
    INFO("head " << h);
    REQUIRE(attn::test::describe_difference(s.trace.heads[h].weights, model_weights, 1e-5f).empty());
  }
  // Layer 0 is another trace.
  REQUIRE(attn::apply_state_json(s, R"({"layer": 0})").ok);
  REQUIRE(attn::update_results(s));
  REQUIRE(attn::test::describe_difference(s.trace.heads[1].weights, probe.weights[1].topLeftCorner(n, n), 1e-5f).empty());
  // A bad file is refused and the scene stays.
  std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + 100);
  const attn::Status st = attn::load_trained_scene(s.train, cut.data(), cut.size(), "cut.attnmodel");
  REQUIRE_FALSE(st.ok);
  REQUIRE(st.message.find("cut.attnmodel") == 0);
  REQUIRE(s.train.trained->name == "test.attnmodel");
}

TEST_CASE("trained scene in the model view: every head, and rollout over its layers", "[train][app][rollout]") {
  attn::train::Trainer trainer;
  const std::vector<std::uint8_t> bytes = small_induction_model(trainer, 5, 20);
  attn::AppState s;
  REQUIRE(attn::load_trained_scene(s.train, bytes.data(), bytes.size(), "test.attnmodel").ok);
  REQUIRE(attn::apply_state_json(s, R"({"source": "trained", "panel": "model", "layer": 1})").ok);
  attn::update_results(s);
  const attn::ModelGridShape shape = attn::model_grid_shape(s);
  REQUIRE(shape.layers == 2);
  REQUIRE(shape.heads == 2);
  REQUIRE(s.thumbnails.size() == 4);
  REQUIRE(s.sink_share.size() == 2);
  const attn::train::ProbeView probe = trainer.probe();
  const int n = static_cast<int>(s.tokens.size());
  const std::vector<attn::Mat> weights = attn::trained_scene_weights(*s.train.trained);
  REQUIRE(weights.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    INFO("head " << i);
    REQUIRE(weights[i].rows() == n);
    REQUIRE(attn::test::describe_difference(weights[i], probe.weights[i].topLeftCorner(n, n), 1e-6f).empty());
  }
  REQUIRE(s.sink_share[1] == Approx(weights[3].col(0).mean()));
  // Rollout of the model's own heads, as the core computes it.
  REQUIRE(attn::apply_state_json(s, R"({"acrossLayers": "rollout", "rolloutResidual": 0.5})").ok);
  attn::update_results(s);
  REQUIRE(s.across.status.ok);
  REQUIRE(s.across.layers.size() == 2);
  std::vector<attn::Mat> want;
  REQUIRE(attn::attention_rollout({{weights[0], weights[1]}, {weights[2], weights[3]}}, attn::HeadPool::Mean, 0.5, want).ok);
  REQUIRE(attn::test::describe_difference(s.across.layers[1], want[1], 1e-6f).empty());
  for (Eigen::Index i = 0; i < want[1].rows(); ++i) REQUIRE(s.across.layers[1].row(i).sum() == Approx(1.0f).margin(1e-5));
}
