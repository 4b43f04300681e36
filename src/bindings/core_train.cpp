// Embind bindings of training (src/core/train/), behind web/attnlab-core-train.mjs, which
// checks the JavaScript types (and the task and init names) and turns an `error` field or
// message into a thrown error. The sizes are checked here against the core's training caps
// (core/train: layers, heads, d_model, d_mlp, batch, seed, steps and sequences per call):
//   TrainerHandle   a training run driven a slice at a time (the app's training panel):
//                   reset, load, save, step, history, evaluate, headScores, probe, config
//   trainTask       a whole run in one call, returning the loss curve (the CLI's `train`)
//   trainingTasks   the task table and the head-score thresholds
// Results go back as fresh typed arrays that own their memory.
#include "core/train/config.h"
#include "core/train/heads.h"
#include "core/train/trainer.h"
#include "bindings/core_limits.h"
#include "bindings/js_interop.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

using emscripten::val;
using attn::bindings::ArgumentCheck;
using attn::bindings::error_result;
using attn::bindings::float32_copy;
namespace tr = attn::train;

namespace {

val int32_copy(const std::vector<int>& v) {
  return val::global("Int32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}

val uint8_copy(const std::uint8_t* data, std::size_t size) {
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(size, data));
}

// The wrapper passes every field, its type checked: task is an index, init 0 (unit) / 1
// (small); the sizes are checked here, in the order the options are documented.
tr::TrainConfig config_from(const val& o, ArgumentCheck& check) {
  tr::TrainConfig c;
  c.task = static_cast<tr::TrainTask>(check.whole_int("task", o["task"], 0, static_cast<int>(tr::all_tasks().size()) - 1));
  c.layers = check.whole_int("layers", o["layers"], 1, tr::kMaxLayers);
  c.heads = check.whole_int("heads", o["heads"], 1, tr::kMaxHeads);
  c.d_model = check.whole_int("dModel", o["dModel"], 1, tr::kMaxDModel);
  if (!check.refused() && c.d_model % c.heads != 0)
    check.refuse("dModel " + std::to_string(c.d_model) + " is not divisible by heads " + std::to_string(c.heads));
  c.d_mlp = check.whole_int("dMlp", o["dMlp"], 0, tr::kMaxDMlp);
  c.batch = check.whole_int("batch", o["batch"], 1, tr::kMaxBatch);
  const val lr = o["lr"];
  if (!check.refused()) {
    if (lr.isNumber() && lr.as<double>() > 0.0 && lr.as<double>() <= 1.0) c.learning_rate = lr.as<float>();
    else check.refuse("lr must be in (0, 1], got " + attn::bindings::js_text(lr));
  }
  c.seed = static_cast<std::uint64_t>(check.whole("seed", o["seed"], 0.0, static_cast<double>(tr::kMaxSeed)));
  c.scale_scores = o["scale"].as<bool>();
  c.init = o["init"].as<int>() == 1 ? tr::InitScheme::Small : tr::InitScheme::Unit;
  return c;
}

val config_to_js(const tr::Trainer& t) {
  const tr::TrainConfig& c = t.config();
  val out = val::object();
  out.set("task", std::string(t.task().name));
  out.set("layers", c.layers);
  out.set("heads", c.heads);
  out.set("dModel", c.d_model);
  out.set("dMlp", t.model().d_mlp);
  out.set("dK", c.d_model / c.heads);
  out.set("scale", c.scale_scores);
  out.set("appliedScale", tr::score_scale(t.model()));
  out.set("init", std::string(c.init == tr::InitScheme::Small ? "small" : "unit"));
  out.set("batch", c.batch);
  out.set("lr", c.learning_rate);
  out.set("seed", static_cast<double>(c.seed));
  out.set("vocab", t.model().vocab);
  out.set("context", t.model().context);
  out.set("parameters", static_cast<double>(tr::parameter_count(t.model())));
  return out;
}

val evaluation_to_js(const tr::Evaluation& e) {
  val out = val::object();
  out.set("sequences", e.sequences);
  out.set("loss", e.loss);
  out.set("tokenAccuracy", e.token_accuracy);
  out.set("sequenceAccuracy", e.sequence_accuracy);
  return out;
}

val heads_to_js(const std::vector<tr::HeadScore>& scores) {
  val out = val::array();
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const tr::HeadScore& s = scores[i];
    val h = val::object();
    h.set("layer", s.layer);
    h.set("head", s.head);
    h.set("previousToken", s.previous_token);
    h.set("induction", s.induction);
    h.set("diagonal", s.diagonal);
    h.set("label", s.label);
    out.set(i, h);
  }
  return out;
}

val history_slice(const std::vector<float>& v, double from) {
  const std::size_t start = static_cast<std::size_t>(std::min(from, static_cast<double>(v.size())));
  return float32_copy(v.data() + start, v.size() - start);
}

// A run the page owns: new TrainerHandle(), then reset or load; .delete() frees it.
class TrainerHandle {
 public:
  // "" or why the options are refused.
  std::string reset(val options) {
    ArgumentCheck check;
    const tr::TrainConfig config = config_from(options, check);
    if (check.refused()) return check.message();
    return trainer_.reset(config).message;
  }
  std::string load(val bytes) {
    const std::vector<std::uint8_t> b = emscripten::convertJSArrayToNumberVector<std::uint8_t>(bytes);
    return trainer_.load(b.data(), b.size()).message;
  }
  val save(bool with_optimizer) const {
    const std::vector<std::uint8_t> b = trainer_.save(with_optimizer);
    return uint8_copy(b.data(), b.size());
  }
  // {} after n steps; {error} if n is refused; {failure} if the loss stopped being finite.
  val step(val n_js) {
    ArgumentCheck check;
    const int n = check.whole_int("n", n_js, 0, tr::kMaxStepsPerCall);
    if (check.refused()) return check.error();
    val out = val::object();
    if (const attn::Status st = trainer_.step(n); !st.ok) out.set("failure", st.message);
    return out;
  }
  double steps() const { return static_cast<double>(trainer_.steps()); }
  // The entries from step `from` on (a Float32Array), or {error}.
  val loss_history(val from) const { return history(trainer_.loss_history(), from); }
  val accuracy_history(val from) const { return history(trainer_.accuracy_history(), from); }
  val evaluate(val sequences_js) const {
    ArgumentCheck check;
    const int sequences = check.whole_int("sequences", sequences_js, 1, tr::kMaxEvalSequences);
    if (check.refused()) return check.error();
    return evaluation_to_js(trainer_.evaluate(sequences));
  }
  val head_scores() const { return heads_to_js(trainer_.head_scores()); }
  val config() const { return config_to_js(trainer_); }
  val probe() const {
    const tr::ProbeView p = trainer_.probe();
    val out = val::object();
    out.set("context", p.context);
    out.set("tokens", int32_copy(p.tokens));
    out.set("targets", int32_copy(p.targets));
    out.set("predictions", int32_copy(p.predictions));
    out.set("scored", uint8_copy(p.scored.data(), p.scored.size()));
    out.set("layers", p.layers);
    out.set("heads", p.heads);
    val weights = val::array();
    for (std::size_t i = 0; i < p.weights.size(); ++i)
      weights.set(i, float32_copy(p.weights[i].data(), p.weights[i].size()));
    out.set("weights", weights);
    return out;
  }

 private:
  static val history(const std::vector<float>& v, const val& from_js) {
    ArgumentCheck check;
    const double from = check.whole("from", from_js, 0.0, attn::bindings::kMaxSafeInteger);
    if (check.refused()) return check.error();
    return history_slice(v, from);
  }

  tr::Trainer trainer_;
};

// trainTask(options, steps, evalSequences) -> {loss, accuracy, heldOut, heads, config, seconds} | {error}
val train_task_js(val options, val steps_js, val eval_sequences_js) {
  ArgumentCheck check;
  const tr::TrainConfig config = config_from(options, check);
  const int steps = check.whole_int("steps", steps_js, 0, tr::kMaxStepsPerCall);
  const int eval_sequences = check.whole_int("evalSequences", eval_sequences_js, 1, tr::kMaxEvalSequences);
  if (check.refused()) return check.error();
  tr::Trainer t;
  if (attn::Status st = t.reset(config); !st.ok) return error_result(st.message);
  const auto t0 = std::chrono::steady_clock::now();
  if (attn::Status st = t.step(steps); !st.ok) return error_result(st.message);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  val out = val::object();
  out.set("seconds", seconds);  // the training steps alone
  out.set("task", std::string(t.task().name));
  out.set("steps", static_cast<double>(t.steps()));
  out.set("loss", float32_copy(t.loss_history().data(), t.loss_history().size()));
  out.set("accuracy", float32_copy(t.accuracy_history().data(), t.accuracy_history().size()));
  out.set("heldOut", evaluation_to_js(t.evaluate(eval_sequences)));
  out.set("heads", heads_to_js(t.head_scores()));
  out.set("config", config_to_js(t));
  return out;
}

val training_tasks_js() {
  val tasks = val::array();
  const std::vector<tr::TaskSpec> all = tr::all_tasks();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const tr::TaskSpec& s = all[i];
    val t = val::object();
    t.set("name", std::string(s.name));
    t.set("symbols", s.symbols);
    t.set("vocab", s.vocab);
    t.set("length", s.length);
    t.set("context", s.context);
    t.set("special", s.special());
    t.set("scored", std::string(s.scored));
    t.set("defaultSteps", tr::default_steps(s.task));
    tasks.set(i, t);
  }
  val out = val::object();
  out.set("tasks", tasks);
  val thresholds = val::object();
  thresholds.set("previousToken", tr::kPreviousTokenThreshold);
  thresholds.set("induction", tr::kInductionThreshold);
  out.set("thresholds", thresholds);
  const tr::TrainConfig defaults;
  val d = val::object();
  d.set("layers", defaults.layers);
  d.set("heads", defaults.heads);
  d.set("dModel", defaults.d_model);
  d.set("batch", defaults.batch);
  d.set("lr", defaults.learning_rate);
  out.set("defaults", d);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_core_train) {
  emscripten::class_<TrainerHandle>("TrainerHandle")
      .constructor<>()
      .function("reset", &TrainerHandle::reset)
      .function("load", &TrainerHandle::load)
      .function("save", &TrainerHandle::save)
      .function("step", &TrainerHandle::step)
      .function("steps", &TrainerHandle::steps)
      .function("lossHistory", &TrainerHandle::loss_history)
      .function("accuracyHistory", &TrainerHandle::accuracy_history)
      .function("evaluate", &TrainerHandle::evaluate)
      .function("headScores", &TrainerHandle::head_scores)
      .function("config", &TrainerHandle::config)
      .function("probe", &TrainerHandle::probe);
  emscripten::function("trainTask", &train_task_js);
  emscripten::function("trainingTasks", &training_tasks_js);
}
