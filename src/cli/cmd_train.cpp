// attnlab-cli commands on training the tiny Transformer (src/core/train_*.h):
//   train               train on a synthetic task, print progress, write the model file,
//                       end with one JSON line (task, steps, final loss, held-out accuracy)
//   model-info          read a model file: its config, held-out accuracy and head scores
//   scaling-experiment  the tutorial's "forgot to scale" experiment over several seeds: the same
//                       runs with and without 1/sqrt(d_k), at d_k = 64 and a smaller d_k
// The JSON line is the result, on stdout; progress, each run and the tables go to stderr.
//
// Sections: 1 shared option parsing and file I/O  2 train  3 model-info  4 scaling-experiment
#include "cli/cli_common.h"
#include "core/train/config.h"
#include "core/train/experiment.h"
#include "core/train/model_file.h"
#include "core/train/heads.h"
#include "core/train/trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

namespace attn::cli {
namespace {

using json = nlohmann::json;
using train::TrainConfig;

// ---------------------------------------------------------------------------------------
// 1 shared: model options, reading and writing model files
// ---------------------------------------------------------------------------------------

const std::set<std::string> kModelOptions = {"--task", "--layers", "--heads", "--d-model", "--d-mlp", "--seed",
                                             "--init", "--batch", "--lr"};

// An option read into an int field, within [lo, hi].
struct IntOption {
  const char* name;
  long long lo, hi;
  int* field;
};

// The options both commands share: --task, whole-number fields, --init and --lr.
Outcome read_shared_options(const Options& o, train::TrainTask& task, std::initializer_list<IntOption> ints,
                            train::InitScheme& init, float& learning_rate) {
  if (o.has("--task") && !train::parse_task(o.get("--task"), task))
    return Outcome::usage("--task must be copy, reverse, sort, previous or induction, got '" + o.get("--task") + "'");
  for (const IntOption& io : ints)
    if (Outcome r = o.whole(io.name, io.lo, io.hi, *io.field); !r.ok()) return r;
  if (Outcome r = read_init(o, init); !r.ok()) return r;
  if (o.has("--lr") && (!parse_float(o.get("--lr"), learning_rate) || !(learning_rate > 0.0f) || learning_rate > 1.0f))
    return Outcome::usage("--lr needs a number in (0, 1], got '" + o.get("--lr") + "'");
  return {};
}

// The run's config from --task, --layers, ... on top of the defaults.
Outcome parse_train_config(const Options& o, TrainConfig& c) {
  if (Outcome r = read_shared_options(o, c.task,
                                      {IntOption{"--layers", 1, train::kMaxLayers, &c.layers},
                                       IntOption{"--heads", 1, train::kMaxHeads, &c.heads},
                                       IntOption{"--d-model", 1, train::kMaxDModel, &c.d_model},
                                       IntOption{"--d-mlp", 1, train::kMaxDMlp, &c.d_mlp},
                                       IntOption{"--batch", 1, train::kMaxBatch, &c.batch}},
                                      c.init, c.learning_rate);
      !r.ok())
    return r;
  long long seed = static_cast<long long>(c.seed);
  if (Outcome r = o.whole("--seed", 0, static_cast<long long>(train::kMaxSeed), seed); !r.ok()) return r;
  c.seed = static_cast<std::uint64_t>(seed);
  if (o.flag("--no-scale")) c.scale_scores = false;
  if (c.d_model % c.heads != 0)
    return Status::error("--d-model " + std::to_string(c.d_model) + " is not divisible by --heads " +
                         std::to_string(c.heads));
  return train::validate_train_config(c);
}

Status load_model(const std::string& path, train::Trainer& trainer) {
  std::vector<std::uint8_t> bytes;
  if (Status st = read_file(path, bytes); !st.ok) return st;
  if (Status st = trainer.load(bytes.data(), bytes.size()); !st.ok) return Status::error(path + ": " + st.message);
  return Status::success();
}


const char* init_name(train::InitScheme init) { return init == train::InitScheme::Small ? "small" : "unit"; }

json config_json(const train::Trainer& t) {
  const TrainConfig& c = t.config();
  return {{"task", t.task().name},
          {"layers", c.layers},
          {"heads", c.heads},
          {"dModel", c.d_model},
          {"dMlp", t.model().d_mlp},
          {"dK", c.d_model / c.heads},
          {"scale", c.scale_scores},
          {"init", init_name(c.init)},
          {"batch", c.batch},
          {"lr", c.learning_rate},
          {"seed", c.seed},
          {"parameters", train::parameter_count(t.model())}};
}

json evaluation_json(const train::Evaluation& e) {
  return {{"sequences", e.sequences}, {"loss", e.loss}, {"tokenAccuracy", e.token_accuracy},
          {"sequenceAccuracy", e.sequence_accuracy}};
}

json heads_json(const std::vector<train::HeadScore>& scores) {
  json out = json::array();
  for (const train::HeadScore& s : scores)
    out.push_back({{"layer", s.layer}, {"head", s.head}, {"previousToken", s.previous_token},
                   {"induction", s.induction}, {"diagonal", s.diagonal}, {"label", s.label}});
  return out;
}

// ---------------------------------------------------------------------------------------
// 2 train
// ---------------------------------------------------------------------------------------

// The options of a run, checked before any file is read: everything here is a usage error.
Outcome read_train_options(const Options& o, long long& steps, long long& log_every, long long& eval) {
  if (!o.has("--out")) return Outcome::usage("train needs --out FILE");
  if (!o.has("--task") && !o.has("--resume")) return Outcome::usage("train needs --task (or --resume FILE)");
  for (Outcome r : {o.whole("--steps", 0, train::kMaxStepsPerCall, steps),
                    o.whole("--log-every", 1, train::kMaxStepsPerCall, log_every),
                    o.whole("--eval", 1, train::kMaxEvalSequences, eval)})
    if (!r.ok()) return r;
  if (!o.has("--resume")) return {};
  for (const std::string& name : kModelOptions)
    if (o.has(name)) return Outcome::usage(name + " cannot be combined with --resume (the file holds the config)");
  if (o.flag("--no-scale")) return Outcome::usage("--no-scale cannot be combined with --resume");
  if (!o.has("--steps")) return Outcome::usage("train --resume needs --steps (how many more)");
  return {};
}

Outcome run_train(const Args& args) {
  Options o;
  std::set<std::string> values = kModelOptions;
  values.insert({"--steps", "--out", "--resume", "--log-every", "--eval"});
  if (Outcome r = Options::parse(args, values, {"--no-scale", "--curve", "--weights-only", "--quiet"}, o); !r.ok())
    return r;
  long long steps = 0, log_every = 0, eval = 1000;
  if (Outcome r = read_train_options(o, steps, log_every, eval); !r.ok()) return r;

  train::Trainer trainer;
  if (o.has("--resume")) {
    if (Status st = load_model(o.get("--resume"), trainer); !st.ok) return st;
  } else {
    TrainConfig c;
    if (Outcome r = parse_train_config(o, c); !r.ok()) return r;
    if (!o.has("--steps")) steps = train::default_steps(c.task);
    if (Status st = trainer.reset(c); !st.ok) return st;
  }
  // The output folder must exist before an hour of training, not after.
  const std::filesystem::path out_path(o.get("--out"));
  std::error_code ec;
  const std::filesystem::path parent = out_path.has_parent_path() ? out_path.parent_path() : ".";
  if (!std::filesystem::is_directory(parent, ec)) return Status::error(o.get("--out") + ": the folder does not exist");

  const bool quiet = o.flag("--quiet");
  if (!o.has("--log-every")) log_every = std::max<long long>(1, steps / 10);
  if (!quiet)
    std::fprintf(stderr, "training %s: %d layers, %d heads, d_model %d (d_k %d), %s, %zu parameters, %lld steps\n",
                trainer.task().name, trainer.config().layers, trainer.config().heads, trainer.config().d_model,
                trainer.config().d_model / trainer.config().heads,
                trainer.config().scale_scores ? "scaled by 1/sqrt(d_k)" : "NOT scaled",
                train::parameter_count(trainer.model()), steps);
  const std::int64_t first = trainer.steps();
  double train_seconds = 0.0;
  for (long long done = 0; done < steps;) {
    const int slice = static_cast<int>(std::min(log_every, steps - done));
    const auto t0 = std::chrono::steady_clock::now();
    const Status st = trainer.step(slice);
    train_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!st.ok) return st;
    done += slice;
    if (!quiet) {
      const train::Evaluation e = trainer.evaluate(256);
      std::fprintf(stderr, "step %6lld  loss %.4f  batch accuracy %.3f  held-out accuracy %.3f  %.0f steps/s\n",
                  static_cast<long long>(trainer.steps()), trainer.loss_history().back(),
                  trainer.accuracy_history().back(), e.token_accuracy, (trainer.steps() - first) / train_seconds);
    }
  }
  if (Status st = write_file_atomic(o.get("--out"), trainer.save(!o.flag("--weights-only"))); !st.ok) return st;

  const train::Evaluation held_out = trainer.evaluate(static_cast<int>(eval));
  json out = {{"task", trainer.task().name},
              {"steps", trainer.steps()},
              {"finalLoss", trainer.loss_history().empty() ? json(nullptr) : json(trainer.loss_history().back())},
              {"heldOut", evaluation_json(held_out)},
              {"heldOutAccuracy", held_out.token_accuracy},
              {"seconds", train_seconds},
              {"stepsPerSecond", train_seconds > 0 ? (trainer.steps() - first) / train_seconds : 0.0},
              {"heads", heads_json(trainer.head_scores())},
              {"config", config_json(trainer)},
              {"out", o.get("--out")}};
  if (o.flag("--curve")) {
    out["lossCurve"] = trainer.loss_history();
    out["accuracyCurve"] = trainer.accuracy_history();
  }
  std::printf("%s\n", json_text(out).c_str());
  return Status::success();
}

// ---------------------------------------------------------------------------------------
// 3 model-info
// ---------------------------------------------------------------------------------------

Outcome run_model_info(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--in", "--eval"}, {"--curve"}, o); !r.ok()) return r;
  if (Outcome r = o.require("model-info", {"--in"}); !r.ok()) return r;
  long long eval = 1000;
  if (Outcome r = o.whole("--eval", 1, train::kMaxEvalSequences, eval); !r.ok()) return r;
  train::Trainer trainer;
  if (Status st = load_model(o.get("--in"), trainer); !st.ok) return st;
  json out = {{"task", trainer.task().name},
              {"steps", trainer.steps()},
              {"finalLoss", trainer.loss_history().empty() ? json(nullptr) : json(trainer.loss_history().back())},
              {"heldOut", evaluation_json(trainer.evaluate(static_cast<int>(eval)))},
              {"heads", heads_json(trainer.head_scores())},
              {"config", config_json(trainer)}};
  if (o.flag("--curve")) out["lossCurve"] = trainer.loss_history();
  std::printf("%s\n", json_text(out).c_str());
  return Status::success();
}

// ---------------------------------------------------------------------------------------
// 4 scaling-experiment
// ---------------------------------------------------------------------------------------

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The experiment's settings from the options, checked before any run starts.
Outcome read_scaling_settings(const Options& o, train::ScalingSettings& s) {
  if (Outcome r = read_shared_options(o, s.task,
                                      {IntOption{"--layers", 1, train::kMaxLayers, &s.layers},
                                       IntOption{"--d-model", 1, train::kMaxDModel, &s.d_model},
                                       IntOption{"--heads", 1, train::kMaxHeads, &s.heads},
                                       IntOption{"--control-heads", 1, train::kMaxHeads, &s.control_heads},
                                       IntOption{"--batch", 1, train::kMaxBatch, &s.batch},
                                       IntOption{"--steps", 1, train::kMaxStepsPerCall, &s.steps},
                                       IntOption{"--window", 1, 10000, &s.window}},
                                      s.init, s.learning_rate);
      !r.ok())
    return r;
  long long seeds = 5, first_seed = 1;
  if (Outcome r = o.whole("--seeds", 1, 100, seeds); !r.ok()) return r;
  if (Outcome r = o.whole("--first-seed", 0, 1000000000, first_seed); !r.ok()) return r;
  s.seeds.clear();
  for (long long i = 0; i < seeds; ++i) s.seeds.push_back(static_cast<std::uint64_t>(first_seed + i));
  if (o.has("--target-loss") && (!parse_float(o.get("--target-loss"), s.target_loss) || !(s.target_loss > 0.0f)))
    return Outcome::usage("--target-loss needs a number > 0, got '" + o.get("--target-loss") + "'");
  for (const char* name : {"--heads", "--control-heads"}) {
    const int h = std::string(name) == "--heads" ? s.heads : s.control_heads;
    if (s.d_model % h != 0)
      return Status::error("--d-model " + std::to_string(s.d_model) + " is not divisible by " + name + " " +
                           std::to_string(h));
  }
  if (s.window > s.steps) return Outcome::usage("--window must not exceed --steps");
  return train::validate_scaling_settings(s);
}

void print_scaling_header(const train::ScalingSettings& s) {
  std::fprintf(stderr, "scaling experiment: task %s, %d layers, d_model %d, d_k %d vs %d, init %s, %d steps, %zu seeds;\n"
              "steps to loss: first step where the mean loss of the last %d steps <= %g\n",
              train::task_spec(s.task).name, s.layers, s.d_model, s.d_model / s.heads, s.d_model / s.control_heads,
              init_name(s.init), s.steps, s.seeds.size(), s.window, s.target_loss);
}

void print_scaling_run(const train::ScalingRun& r) {
  std::fprintf(stderr, "d_k %3d  seed %3llu  %-9s  steps to loss: %6s  final loss %.4f  late peak %.4f  held-out %.3f  (%.1f s)\n",
              r.d_k, static_cast<unsigned long long>(r.seed), r.scaled ? "scaled" : "unscaled",
              r.steps_to_target < 0 ? "never" : std::to_string(r.steps_to_target).c_str(), r.final_loss, r.late_peak,
              r.held_out_accuracy, r.seconds);
}

// Medians over the seeds for each d_k with and without scaling; a table unless quiet.
json summarise_scaling_runs(const train::ScalingSettings& s, const std::vector<train::ScalingRun>& runs, bool quiet) {
  json summary = json::array();
  if (!quiet) std::fprintf(stderr, "\n  d_k  scaling     median steps to loss  reached  median final loss  median late peak\n");
  for (int d_k : {s.d_model / s.heads, s.d_model / s.control_heads})
    for (bool scaled : {true, false}) {
      std::vector<int> steps;
      std::vector<double> finals, peaks;
      for (const train::ScalingRun& r : runs)
        if (r.d_k == d_k && r.scaled == scaled) {
          steps.push_back(r.steps_to_target);
          finals.push_back(r.final_loss);
          peaks.push_back(r.late_peak);
        }
      const double med = train::median_steps(steps);
      const long reached = std::count_if(steps.begin(), steps.end(), [](int x) { return x >= 0; });
      if (!quiet)
        std::fprintf(stderr, "  %3d  %-10s  %20s  %4ld/%zu  %17.4f  %16.4f\n", d_k, scaled ? "1/sqrt(d_k)" : "none",
                    med < 0 ? ("> " + std::to_string(s.steps)).c_str() : std::to_string(static_cast<long>(med)).c_str(),
                    reached, steps.size(), median(finals), median(peaks));
      summary.push_back({{"dK", d_k}, {"scaled", scaled}, {"medianStepsToTarget", med < 0 ? json(nullptr) : json(med)},
                         {"reached", reached}, {"runs", steps.size()}, {"medianFinalLoss", median(finals)},
                         {"medianLatePeak", median(peaks)}});
    }
  return summary;
}

// Every run's loss per step, one column per run.
void write_scaling_curves(std::ofstream& curves, const train::ScalingSettings& s, const std::vector<train::ScalingRun>& runs) {
  curves << "step";
  for (const train::ScalingRun& r : runs) curves << ",dk" << r.d_k << (r.scaled ? "_scaled" : "_unscaled") << "_seed" << r.seed;
  curves << "\n";
  for (int t = 0; t < s.steps; ++t) {
    curves << t + 1;
    for (const train::ScalingRun& r : runs) curves << "," << r.loss[t];
    curves << "\n";
  }
}

json scaling_result_json(const train::ScalingSettings& s, const json& summary, const std::vector<train::ScalingRun>& runs) {
  json jruns = json::array();
  for (const train::ScalingRun& r : runs)
    jruns.push_back({{"seed", r.seed}, {"dK", r.d_k}, {"scaled", r.scaled},
                     {"stepsToTarget", r.steps_to_target < 0 ? json(nullptr) : json(r.steps_to_target)},
                     {"finalLoss", r.final_loss}, {"latePeak", r.late_peak}, {"heldOutAccuracy", r.held_out_accuracy},
                     {"seconds", r.seconds}});
  return {{"task", train::task_spec(s.task).name},
          {"settings",
           {{"layers", s.layers}, {"dModel", s.d_model}, {"dK", s.d_model / s.heads},
            {"controlDK", s.d_model / s.control_heads}, {"init", init_name(s.init)},
            {"batch", s.batch}, {"lr", s.learning_rate}, {"steps", s.steps}, {"targetLoss", s.target_loss},
            {"window", s.window}, {"seeds", s.seeds}}},
          {"summary", summary},
          {"runs", jruns}};
}

Outcome run_scaling_experiment_command(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--task", "--layers", "--d-model", "--heads", "--control-heads", "--init",
                                        "--batch", "--lr", "--steps", "--target-loss", "--window", "--seeds",
                                        "--first-seed", "--curves"},
                                 {"--quiet"}, o);
      !r.ok())
    return r;
  train::ScalingSettings s;
  if (Outcome r = read_scaling_settings(o, s); !r.ok()) return r;
  std::ofstream curves;
  if (o.has("--curves")) {
    curves.open(o.get("--curves"), std::ios::trunc);
    if (!curves) return Status::error(o.get("--curves") + ": cannot write");
  }

  const bool quiet = o.flag("--quiet");
  if (!quiet) print_scaling_header(s);
  std::vector<train::ScalingRun> runs;
  const Status st = train::run_scaling_experiment(s, runs, [quiet](const train::ScalingRun& r) {
    if (!quiet) print_scaling_run(r);
  });
  if (!st.ok) return st;

  const json summary = summarise_scaling_runs(s, runs, quiet);
  if (curves.is_open()) {  // an ofstream never opened is not in a failed state: is_open tells
    write_scaling_curves(curves, s, runs);
    if (!curves) return Status::error(o.get("--curves") + ": write failed");
  }
  std::printf("%s\n", json_text(scaling_result_json(s, summary, runs)).c_str());
  return Status::success();
}

}  // namespace

ATTNLAB_CLI_COMMAND(train, "train",
                    "  train --task copy|reverse|sort|previous|induction [--layers L] [--heads H]\n"
                    "        [--d-model D] [--d-mlp F] [--steps N] [--seed S] [--no-scale] [--init unit|small]\n"
                    "        [--batch B] [--lr X] [--log-every K] [--eval N] [--curve] [--weights-only]\n"
                    "        [--quiet] --out FILE       trains, writes the model, ends with one JSON line\n"
                    "  train --resume FILE --steps N --out FILE   continues a saved run\n",
                    "  Trains the tiny Transformer on a synthetic task and writes the model file (.attnmodel).\n"
                    "  Defaults: --layers 2 --heads 2 --d-model 32 --d-mlp = d_model --batch 16 --lr 0.003 --seed 1\n"
                    "  --init unit; --steps the task's budget (copy, reverse 1000; sort 6000; previous 500; induction 3000).\n"
                    "  --no-scale leaves out 1/sqrt(d_k); --resume FILE continues a saved run for --steps more.\n"
                    "  Progress goes to stderr every --log-every steps (default a tenth of the run; --quiet: none);\n"
                    "  stdout gets one JSON line at the end: task, steps, final loss, held-out accuracy (--eval N\n"
                    "  sequences, default 1000), head scores (--curve adds the loss curve). --weights-only leaves out\n"
                    "  the optimizer's state (a third of the size; a resumed run starts fresh Adam moments).\n",
                    run_train);
ATTNLAB_CLI_COMMAND(model_info, "model-info",
                    "  model-info --in FILE [--eval N] [--curve]   a model file's config, held-out accuracy,\n"
                    "                                            head scores (JSON)\n",
                    "  Reads a model file: its config, steps, final loss, held-out accuracy on --eval N sequences\n"
                    "  (default 1000) and each head's scores, as one JSON line (--curve adds the loss curve).\n",
                    run_model_info);
ATTNLAB_CLI_COMMAND(scaling_experiment, "scaling-experiment",
                    "  scaling-experiment [--task T] [--layers L] [--d-model D] [--heads H] [--control-heads H]\n"
                    "        [--init unit|small] [--batch B] [--lr X] [--steps N] [--target-loss X] [--window W]\n"
                    "        [--seeds N] [--first-seed S] [--curves FILE.csv] [--quiet]\n"
                    "                                            with vs without 1/sqrt(d_k), d_k = 64 and a control;\n"
                    "                                            prints a table, ends with one JSON line\n",
                    "  The tutorial's \"forgot to scale\": the same runs with and without 1/sqrt(d_k), at d_k = d_model /\n"
                    "  --heads (default 64 / 1) and a control d_k = d_model / --control-heads (default 64 / 4), over\n"
                    "  --seeds N (default 5) from --first-seed (default 1), --steps 1000 each. Steps to loss: the first\n"
                    "  step where the mean loss of the last --window 20 steps is <= --target-loss 0.1.\n"
                    "  Each run and the summary table go to stderr (--quiet: none); stdout gets one JSON line.\n"
                    "  --curves FILE.csv writes every run's loss per step.\n",
                    run_scaling_experiment_command);

}  // namespace attn::cli
