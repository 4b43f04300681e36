// attnlab-cli commands on the character-level language model (src/core/lm):
//   lm-train     train it on the fortune files Debian ships, write the model file and a report
//   lm-eval      bits per character of a text (or the held-out split), with the math broken
//                as asked; optionally every head ablated in turn, ranked
//   lm-generate  write N tokens after a prompt, one JSON line per token
//   lm-heads     each head's scores and label on a text
//
// Sections: 1 shared  2 lm-train  3 lm-eval  4 lm-generate  5 lm-heads
#include "cli/cli_common.h"
#include "core/base/rng.h"
#include "core/base/utf8.h"
#include "core/lm/corpus.h"
#include "core/lm/evaluate.h"
#include "core/lm/generate.h"
#include "core/lm/head_labels.h"
#include "core/lm/language_model.h"
#include "core/lm/runner.h"
#include "core/lm/text_trainer.h"
#include "core/lm/trainer.h"
#include "core/train/config.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace attn::cli {
namespace {

using json = nlohmann::json;

// ---------------------------------------------------------------------------------------
// 1 shared
// ---------------------------------------------------------------------------------------

// Where Debian's fortunes, fortunes-min and fortunes-zh put their files.
const char* const kFortuneDir = "/usr/share/games/fortunes";

// The corpus: every top-level fortune file of those packages, except pictures (ascii-art)
// and the collections of jokes about groups of people, drugs and politics, which are not for
// every classroom (the packages' offensive collections, fortunes-off, are never read). The
// two small poetry files appear four times in the training stream so that regulated verse
// is not drowned by prose.
const char* const kLeftOut[] = {"ascii-art", "ethnic", "men-women", "drugs", "politics"};
struct Repeat {
  const char* name;
  int times;
};
const Repeat kRepeats[] = {{"tang300", 4}, {"song100", 4}};

// fortunes-zh's files are Chinese; every other file is English.
const char* const kChineseFiles[] = {"chinese", "tang300", "song100"};
lm::TextLanguage language_of(const std::string& name) {
  return std::find_if(std::begin(kChineseFiles), std::end(kChineseFiles),
                      [&](const char* c) { return name == c; }) != std::end(kChineseFiles)
             ? lm::TextLanguage::Chinese
             : lm::TextLanguage::English;
}

Status read_text(const std::string& path, std::string& text) {
  std::vector<std::uint8_t> bytes;
  if (Status st = read_file(path, bytes); !st.ok) return st;
  text.assign(bytes.begin(), bytes.end());
  return Status::success();
}

// The corpus files in name order: `names` if given (comma-separated), else every file of the
// folder that is not left out. A file with a '.' in its name (the .dat indexes, the .u8
// links) is not a fortune file.
Status read_corpus(const std::string& dir, const std::string& names, std::vector<lm::CorpusFile>& out) {
  std::vector<std::string> list;
  if (!names.empty()) {
    std::size_t pos = 0;
    while (pos <= names.size()) {
      const std::size_t comma = std::min(names.find(',', pos), names.size());
      if (comma > pos) list.push_back(names.substr(pos, comma - pos));
      pos = comma + 1;
    }
  } else {
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec);
    if (ec) return Status::error(dir + ": cannot read the folder (" + ec.message() +
                                 "; scripts/setup.sh lm installs fortunes, fortunes-min and fortunes-zh)");
    for (const auto& e : it) {
      const std::string name = e.path().filename().string();
      if (!e.is_regular_file() || name.find('.') != std::string::npos) continue;
      if (std::find(std::begin(kLeftOut), std::end(kLeftOut), name) != std::end(kLeftOut)) continue;
      list.push_back(name);
    }
    std::sort(list.begin(), list.end());
  }
  if (list.empty()) return Status::error(dir + ": no fortune files");
  for (const std::string& name : list) {
    std::string text;
    if (Status st = read_text(dir + "/" + name, text); !st.ok) return st;
    int repeat = 1;
    for (const Repeat& r : kRepeats)
      if (name == r.name) repeat = r.times;
    out.push_back(lm::split_fortune_file(name, language_of(name), repeat, text));
  }
  return Status::success();
}

// --seed, 1 by default.
Outcome read_seed(const Options& o, std::uint64_t& seed) {
  long long v = 1;
  if (Outcome r = o.whole("--seed", 0, static_cast<long long>(train::kMaxSeed), v); !r.ok()) return r;
  seed = static_cast<std::uint64_t>(v);
  return {};
}

json curve_json(const lm::CurvePoint& p) {
  return {{"step", p.step}, {"trainBits", p.train_bits}, {"heldOutEnglish", p.held_out_english},
          {"heldOutChinese", p.held_out_chinese}};
}

// ---------------------------------------------------------------------------------------
// 2 lm-train
// ---------------------------------------------------------------------------------------

const std::string kLicenceNotes = std::string(lm::kFortuneNotesStart) +
    " of Debian's packages fortunes and fortunes-min "
    "(BSD-4-clause, from BSD fortune; the quotations' authors keep their rights) and fortunes-zh "
    "(GPL-3+, Chinese: the Three Hundred Tang Poems, a hundred Song poems and modern prose). "
    "Left out: ascii-art, ethnic, men-women, drugs, politics, and the offensive collections (fortunes-off). "
    "The weights are a statistical summary learned from that text; because the GPL-3+ covers the Chinese "
    "text they were trained on, the project ships and treats the model file under GPL-3+ as well, with this "
    "note as its notice. docs/LANGUAGE-MODEL.md tells the data, the split and the command.";

// The held-out text the file carries for the lab to score: the first English held-out
// entries up to 1,500 characters, and the first held-out Tang poems (any Chinese held-out
// text when there are none) up to 600.
std::vector<lm::HeldOutSample> held_out_samples(const std::vector<lm::CorpusFile>& corpus) {
  std::vector<lm::HeldOutSample> out;
  auto take = [&](std::uint32_t language, auto wanted, std::size_t characters) {
    lm::HeldOutSample s;
    s.language = language;
    std::size_t n = 0;
    for (const lm::CorpusFile& f : corpus) {
      if (!wanted(f)) continue;
      for (const std::string& e : f.held_out) {
        if (n >= characters) break;
        if (!s.text.empty()) s.text += "\n\n";
        s.text += e;
        n += decode_utf8(e).size();
      }
    }
    if (!s.text.empty()) out.push_back(std::move(s));
  };
  take(0, [](const lm::CorpusFile& f) { return f.language == lm::TextLanguage::English; }, 1500);
  const bool poems = std::any_of(corpus.begin(), corpus.end(), [](const lm::CorpusFile& f) {
    return f.name == "tang300" && !f.held_out.empty();
  });
  take(1, [&](const lm::CorpusFile& f) { return f.language == lm::TextLanguage::Chinese && (!poems || f.name == "tang300"); }, 600);
  return out;
}

// Held-out bits per character of the model and of the bigram (trained on the training
// stream), per file and per language (the sums of its files'), into the report and stderr.
void held_out_report(const lm::LanguageModel& model, const std::vector<lm::CorpusFile>& corpus, json& report) {
  std::vector<std::string> all_train;
  for (const lm::CorpusFile& f : corpus)
    for (int r = 0; r < f.repeat; ++r) all_train.insert(all_train.end(), f.train.begin(), f.train.end());
  lm::Bigram bigram;
  bigram.train(lm::code_point_stream(all_train));
  lm::Bits model_sum[2], bigram_sum[2];
  json files = json::object();
  for (const lm::CorpusFile& f : corpus) {
    if (f.held_out.empty()) continue;
    const lm::Bits m = lm::score_tokens(model, lm::entry_stream(model.vocabulary, f.held_out), lm::RunOptions{});
    const lm::Bits b = bigram.score(lm::code_point_stream(f.held_out));
    const int lang = f.language == lm::TextLanguage::English ? 0 : 1;
    model_sum[lang].add(m);
    bigram_sum[lang].add(b);
    files[f.name] = {{"model", m.per_character()}, {"bigram", b.per_character()}, {"characters", m.scored}};
  }
  report["heldOutFiles"] = files;
  for (int lang = 0; lang < 2; ++lang) {
    const char* name = lang == 0 ? "english" : "chinese";
    report[std::string("heldOut_") + name] = {{"model", model_sum[lang].per_character()},
                                              {"bigram", bigram_sum[lang].per_character()},
                                              {"characters", model_sum[lang].scored}};
    std::fprintf(stderr, "lm-train: held-out %s: model %.4f bits/char, bigram %.4f (%lld characters)\n", name,
                 model_sum[lang].per_character(), bigram_sum[lang].per_character(), model_sum[lang].scored);
  }
}

// The options of lm-train --text, checked before the text is read.
Outcome read_text_train_options(const Options& o, lm::TextTrainOptions& options) {
  for (const char* fortune_only : {"--data-dir", "--files", "--threads", "--slices", "--d-mlp", "--batch", "--lr",
                                   "--min-count", "--eval-every", "--eval-characters", "--init", "--characters"})
    if (o.has(fortune_only))
      return Outcome::usage(std::string(fortune_only) + " is for training on the fortune files; with --text the preset sets it");
  if (o.has("--preset")) options.preset = o.get("--preset");
  if (Outcome r = read_seed(o, options.seed); !r.ok()) return r;
  if (o.has("--held-out-fraction")) {
    const std::string& t = o.get("--held-out-fraction");
    char* end = nullptr;
    options.held_out_fraction = std::strtod(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size() || !(options.held_out_fraction > 0.0 && options.held_out_fraction <= 0.5))
      return Outcome::usage("--held-out-fraction needs a number more than 0 and at most 0.5, got '" + t + "'");
  }
  for (Outcome r : {o.whole("--steps", 1, 1000000, options.steps), o.whole("--context", 2, 256, options.context),
                    o.whole("--layers", 1, 4, options.layers), o.whole("--heads", 1, 8, options.heads),
                    o.whole("--d-model", 1, 256, options.d_model)})
    if (!r.ok()) return r;
  return {};
}

// lm-train --text FILE: the model trained on one plain text with a preset (core/lm/text_trainer.h),
// as the page trains it: the same text, seed, preset and steps write the same bytes.
Outcome run_lm_train_text(const Options& o) {
  lm::TextTrainOptions options;
  if (Outcome r = read_text_train_options(o, options); !r.ok()) return r;
  std::string text;
  if (Status st = read_text(o.get("--text"), text); !st.ok) return st;
  lm::TextTrainer trainer;
  if (Status st = trainer.reset(text, options); !st.ok) return st.within(o.get("--text"));
  const lm::TextSplit& split = trainer.split();
  std::fprintf(stderr, "lm-train: %s: %lld characters (%lld training, %lld held out), vocabulary %d, preset %s, %d steps\n",
               o.get("--text").c_str(), split.characters, split.train_characters, split.held_out_characters,
               trainer.model().vocabulary.size(), trainer.preset().c_str(), trainer.steps_planned());
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  json curve = json::array();
  while (trainer.steps_done() < trainer.steps_planned()) {
    lm::TextStepResult r;
    if (Status st = trainer.step(trainer.config().eval_every, r); !st.ok) return st;
    std::fprintf(stderr, "lm-train: step %d/%d  train %.3f bits/token  held-out %.3f bits/char  %.0f s\n", r.step,
                 trainer.steps_planned(), r.train_bits, r.held_out_bits, seconds());
    curve.push_back({{"step", r.step}, {"trainBits", r.train_bits}, {"heldOutBits", r.held_out_bits}});
  }
  const double train_seconds = seconds();
  const lm::TextEvaluation e = trainer.evaluate();
  const std::vector<std::uint8_t> bytes = trainer.save();
  if (Status st = write_file_atomic(o.get("--out"), bytes); !st.ok) return st;
  std::fprintf(stderr, "lm-train: held-out: model %.4f bits/char, bigram %.4f (%lld characters)\n", e.held_out_bits,
               e.bigram_bits, e.tokens);
  json report = {{"preset", trainer.preset()}, {"seed", options.seed}, {"steps", trainer.steps_done()},
                 {"trainSeconds", train_seconds}, {"characters", split.characters},
                 {"trainCharacters", split.train_characters}, {"heldOutCharacters", split.held_out_characters},
                 {"vocabulary", trainer.model().config.vocab}, {"parameters", trainer.model().parameters.size()},
                 {"context", trainer.config().context}, {"batch", trainer.config().batch},
                 {"heldOut", {{"model", e.held_out_bits}, {"bigram", e.bigram_bits}, {"characters", e.tokens}}},
                 {"curve", curve}, {"fileBytes", bytes.size()}};
  if (o.has("--report")) {
    const std::string t = json_text(report, 2) + "\n";
    if (Status st = write_file_atomic(o.get("--report"), std::vector<std::uint8_t>(t.begin(), t.end())); !st.ok) return st;
  }
  std::printf("%s\n", json_text(report).c_str());
  return Status::success();
}

// The options of lm-train on the fortune files, checked before any file is read.
Outcome read_lm_train_config(const Options& o, lm::LmTrainConfig& c) {
  if (Outcome r = read_seed(o, c.seed); !r.ok()) return r;
  for (Outcome r : {o.whole("--steps", 1, 10000000, c.steps), o.whole("--threads", 1, 16, c.threads),
                    o.whole("--slices", 1, 16, c.slices), o.whole("--context", 2, 256, c.context),
                    o.whole("--layers", 1, 4, c.layers), o.whole("--heads", 1, 8, c.heads),
                    o.whole("--d-model", 1, 256, c.d_model), o.whole("--d-mlp", 1, 1024, c.d_mlp),
                    o.whole("--batch", 1, 256, c.batch), o.whole("--min-count", 1, 1000000, c.min_count),
                    o.whole("--eval-every", 1, 10000000, c.eval_every),
                    o.whole("--eval-characters", 2, 100000000, c.eval_characters),
                    o.number("--lr", 1e-6f, 1.0f, c.learning_rate), read_init(o, c.init)})
    if (!r.ok()) return r;
  c.warmup = std::min(c.warmup, c.steps);
  return {};
}

Outcome run_lm_train(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args,
                                 {"--out", "--data-dir", "--files", "--steps", "--seed", "--threads", "--context",
                                  "--layers", "--heads", "--d-model", "--d-mlp", "--batch", "--lr", "--min-count",
                                  "--eval-every", "--eval-characters", "--report", "--slices", "--init", "--characters",
                                  "--text", "--preset", "--held-out-fraction"},
                                 {}, o);
      !r.ok())
    return r;
  if (!o.has("--out")) return Outcome::usage("lm-train needs --out FILE");
  if (o.has("--text")) return run_lm_train_text(o);
  if (o.has("--preset") || o.has("--held-out-fraction"))
    return Outcome::usage("--preset and --held-out-fraction are for training on a text: give it with --text FILE");
  lm::LmTrainConfig c;
  if (Outcome r = read_lm_train_config(o, c); !r.ok()) return r;
  std::vector<lm::CorpusFile> corpus;
  const std::string dir = o.has("--data-dir") ? o.get("--data-dir") : kFortuneDir;
  if (Status st = read_corpus(dir, o.has("--files") ? o.get("--files") : "", corpus); !st.ok) return st;

  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  lm::LmTrainer trainer;
  if (Status st = trainer.reset(c, corpus); !st.ok) return st;
  std::fprintf(stderr, "lm-train: %zu files, %lld training tokens, vocabulary %d, %zu parameters, %d steps\n",
               corpus.size(), trainer.training_tokens(), trainer.model().config.vocab,
               trainer.model().parameters.size(), c.steps);
  while (trainer.steps() < c.steps) {
    if (Status st = trainer.run_until(trainer.steps() + c.eval_every); !st.ok) return st;
    const lm::CurvePoint& p = trainer.model().curve.back();
    std::fprintf(stderr, "lm-train: step %d/%d  train %.3f bits/token  held-out sample en %.3f zh %.3f  %.0f s\n",
                 trainer.steps(), c.steps, p.train_bits, p.held_out_english, p.held_out_chinese, seconds());
  }
  const double train_seconds = seconds();
  // The file keeps float16 weights: everything below is measured on them.
  lm::LanguageModel& model = trainer.model();
  lm::round_parameters_to_half(model.parameters);
  model.notes = kLicenceNotes;
  json report = {{"steps", c.steps}, {"trainSeconds", train_seconds}, {"vocabulary", model.config.vocab},
                 {"parameters", model.parameters.size()}, {"trainingTokens", trainer.training_tokens()},
                 {"unknownClasses", model.vocabulary.unknown_classes()}};
  json curve = json::array();
  for (const lm::CurvePoint& p : model.curve) curve.push_back(curve_json(p));
  report["curve"] = curve;
  model.samples = held_out_samples(corpus);
  held_out_report(model, corpus, report);
  const std::vector<std::uint8_t> bytes = lm::serialize_language_model(model);
  if (Status st = write_file_atomic(o.get("--out"), bytes); !st.ok) return st;
  report["fileBytes"] = bytes.size();
  if (o.has("--characters")) {
    // The vocabulary as text: what the page's CJK font must carry (CMakeLists.txt).
    std::string chars;
    for (std::uint32_t cp : model.vocabulary.characters())
      if (cp > 0xFF) chars += encode_utf8(cp);
    chars += "\n";
    if (Status st = write_file_atomic(o.get("--characters"), std::vector<std::uint8_t>(chars.begin(), chars.end())); !st.ok)
      return st;
  }
  report["seconds"] = seconds();
  if (o.has("--report")) {
    const std::string text = json_text(report, 2) + "\n";
    if (Status st = write_file_atomic(o.get("--report"), std::vector<std::uint8_t>(text.begin(), text.end())); !st.ok)
      return st;
  }
  std::printf("%s\n", json_text(report).c_str());
  return Status::success();
}

// ---------------------------------------------------------------------------------------
// 3 lm-eval
// ---------------------------------------------------------------------------------------

// --ablate L.H (a head) or --ablate L (every head of layer L), comma-separated.
Outcome read_ablations(const std::string& text, const lm::LanguageModel& m, std::vector<std::uint8_t>& ablated) {
  const int L = m.config.layers, H = m.config.heads;
  ablated.assign(static_cast<std::size_t>(L) * H, 0);
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const std::size_t dot = item.find('.');
    long long layer = 0, head = -1;
    const bool ok = parse_long(item.substr(0, dot), 0, L - 1, layer) &&
                    (dot == std::string::npos || parse_long(item.substr(dot + 1), 0, H - 1, head));
    if (!ok)
      return Outcome::usage("--ablate needs LAYER.HEAD or LAYER (counted from 0; the model has " + std::to_string(L) +
                           " layers of " + std::to_string(H) + " heads), got '" + item + "'");
    for (int h = 0; h < H; ++h)
      if (head < 0 || h == head) ablated[static_cast<std::size_t>(layer) * H + h] = 1;
    pos = comma + 1;
  }
  return Status::success();
}

Outcome read_run_options(const Options& o, const lm::LanguageModel& m, lm::RunOptions& r) {
  r.scale = !o.flag("--no-scale");
  r.causal = !o.flag("--no-causal");
  r.large_negative_fill = o.flag("--fill-1e9");
  r.half_precision = o.flag("--half");
  if (Outcome out = o.number("--attention-temperature", lm::kMinAttentionTemperature, lm::kMaxAttentionTemperature,
                             r.attention_temperature);
      !out.ok())
    return out;
  if (o.has("--ablate"))
    if (Outcome out = read_ablations(o.get("--ablate"), m, r.ablated); !out.ok()) return out;
  return lm::check_options(m, r);
}

const std::set<std::string> kRunFlags = {"--no-scale", "--no-causal", "--fill-1e9", "--half"};

Outcome run_lm_eval(const Args& args) {
  Options o;
  std::set<std::string> flags = kRunFlags;
  flags.insert("--rank-heads");
  flags.insert("--bigram");
  if (Outcome r = Options::parse(args, {"--model", "--text", "--held-out", "--data-dir", "--ablate",
                                        "--attention-temperature", "--max-characters"},
                                 flags, o);
      !r.ok())
    return r;
  if (!o.has("--model")) return Outcome::usage("lm-eval needs --model FILE");
  if (o.has("--text") == o.has("--held-out")) return Outcome::usage("lm-eval needs one of --text FILE or --held-out english|chinese");
  if (o.has("--held-out") && o.get("--held-out") != "english" && o.get("--held-out") != "chinese")
    return Outcome::usage("--held-out must be english or chinese");
  int max_chars = 0;
  if (Outcome r = o.whole("--max-characters", 2, 1000000000, max_chars); !r.ok()) return r;
  lm::LanguageModel model;
  if (Status st = load_language_model(o.get("--model"), model); !st.ok) return st;
  lm::RunOptions run;
  if (Outcome r = read_run_options(o, model, run); !r.ok()) return r;
  std::vector<int> tokens;
  std::vector<std::uint32_t> code_points;  // the same characters, for the bigram
  if (o.has("--text")) {
    std::string text;
    if (Status st = read_text(o.get("--text"), text); !st.ok) return st;
    lm::Encoded e;
    if (Status st = model.vocabulary.encode(text, e); !st.ok) return Status::error(o.get("--text") + ": " + st.message);
    if (e.tokens.empty()) return Status::error(o.get("--text") + ": the text is empty");
    tokens.push_back(lm::kStartToken);
    tokens.insert(tokens.end(), e.tokens.begin(), e.tokens.end());
    code_points = lm::code_point_stream({text});
  } else {
    const std::string which = o.get("--held-out");
    std::vector<lm::CorpusFile> corpus;
    if (Status st = read_corpus(o.has("--data-dir") ? o.get("--data-dir") : kFortuneDir, "", corpus); !st.ok) return st;
    const lm::TextLanguage want = which == "english" ? lm::TextLanguage::English : lm::TextLanguage::Chinese;
    std::vector<std::string> held;
    for (const lm::CorpusFile& f : corpus)
      if (f.language == want) held.insert(held.end(), f.held_out.begin(), f.held_out.end());
    tokens = lm::entry_stream(model.vocabulary, held);
    code_points = lm::code_point_stream(held);
  }
  if (max_chars > 0 && tokens.size() > static_cast<std::size_t>(max_chars)) {
    tokens.resize(static_cast<std::size_t>(max_chars));
    code_points.resize(static_cast<std::size_t>(max_chars));
  }
  const lm::Bits bits = lm::score_tokens(model, tokens, run);
  json line = {{"bitsPerToken", bits.per_character()}, {"tokens", bits.scored}};
  if (o.flag("--bigram")) {
    // The baseline on the same characters: the interpolated bigram of the corpus's training split.
    std::vector<lm::CorpusFile> corpus;
    if (Status st = read_corpus(o.has("--data-dir") ? o.get("--data-dir") : kFortuneDir, "", corpus); !st.ok) return st;
    std::vector<std::string> all_train;
    for (const lm::CorpusFile& f : corpus)
      for (int r = 0; r < f.repeat; ++r) all_train.insert(all_train.end(), f.train.begin(), f.train.end());
    lm::Bigram bigram;
    bigram.train(lm::code_point_stream(all_train));
    line["bigramBitsPerToken"] = bigram.score(code_points).per_character();
  }
  if (o.flag("--rank-heads")) {
    // Each head ablated alone (on top of the options given), ranked by the rise in bits.
    json rows = json::array();
    for (int l = 0; l < model.config.layers; ++l)
      for (int h = 0; h < model.config.heads; ++h) {
        lm::RunOptions one = run;
        one.ablated.assign(static_cast<std::size_t>(model.config.layers) * model.config.heads, 0);
        for (std::size_t i = 0; i < run.ablated.size(); ++i) one.ablated[i] = run.ablated[i];
        one.ablated[static_cast<std::size_t>(l) * model.config.heads + h] = 1;
        const double b = lm::score_tokens(model, tokens, one).per_character();
        rows.push_back({{"layer", l}, {"head", h}, {"bitsPerToken", b}, {"rise", b - bits.per_character()}});
      }
    std::stable_sort(rows.begin(), rows.end(), [](const json& a, const json& b) { return a["rise"] > b["rise"]; });
    line["ablation"] = rows;
  }
  std::printf("%s\n", json_text(line).c_str());
  return Status::success();
}

// ---------------------------------------------------------------------------------------
// 4 lm-generate
// ---------------------------------------------------------------------------------------

Outcome run_lm_generate(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--model", "--prompt", "--tokens", "--temperature", "--top-k", "--seed",
                                        "--ablate", "--attention-temperature"},
                                 kRunFlags, o);
      !r.ok())
    return r;
  if (!o.has("--model") || !o.has("--prompt")) return Outcome::usage("lm-generate needs --model FILE and --prompt TEXT");
  lm::GenerateOptions g;
  for (Outcome r : {o.whole("--tokens", 1, lm::kMaxGeneratedTokens, g.tokens),
                    o.number("--temperature", 0.0f, lm::kMaxTemperature, g.sample.temperature),
                    read_seed(o, g.sample.seed)})
    if (!r.ok()) return r;
  lm::LanguageModel model;
  if (Status st = load_language_model(o.get("--model"), model); !st.ok) return st;
  lm::RunOptions run;
  if (Outcome r = read_run_options(o, model, run); !r.ok()) return r;
  if (Outcome r = o.whole("--top-k", 0, model.config.vocab, g.sample.top_k); !r.ok()) return r;
  std::vector<lm::GeneratedToken> out;
  if (Status st = lm::generate(model, o.get("--prompt"), run, g, out); !st.ok) return st;
  for (std::size_t i = 0; i < out.size(); ++i) {
    json top = json::array();
    for (const auto& [t, p] : out[i].top) top.push_back({{"token", model.vocabulary.token_text(t)}, {"id", t}, {"p", p}});
    std::printf("%s\n", json_text(json({{"step", i}, {"token", model.vocabulary.token_text(out[i].token)}, {"id", out[i].token},
                              {"top", top}, {"cacheBytes", out[i].cache_bytes}})).c_str());
  }
  return Status::success();
}

// ---------------------------------------------------------------------------------------
// 5 lm-heads
// ---------------------------------------------------------------------------------------

Outcome run_lm_heads(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--model", "--text"}, {}, o); !r.ok()) return r;
  if (!o.has("--model") || !o.has("--text")) return Outcome::usage("lm-heads needs --model FILE and --text FILE");
  lm::LanguageModel model;
  if (Status st = load_language_model(o.get("--model"), model); !st.ok) return st;
  std::string text;
  if (Status st = read_text(o.get("--text"), text); !st.ok) return st;
  lm::TextAttention ta;
  if (Status st = lm::text_attention(model, text, lm::RunOptions{}, ta); !st.ok)
    return Status::error(o.get("--text") + ": " + st.message);
  for (const lm::HeadLabel& h : lm::label_heads(ta.encoded.characters, ta.trace.weights, model.config.layers,
                                                 model.config.heads)) {
    json scores;
    for (int k = 0; k < lm::kHeadKinds; ++k)
      if (h.counted[k] > 0) scores[lm::head_kind_name(static_cast<lm::HeadKind>(k))] = h.scores[k];
    std::printf("%s\n", json_text(json({{"layer", h.layer}, {"head", h.head}, {"label", lm::head_kind_name(h.label)},
                              {"score", h.label_score}, {"scores", scores}})).c_str());
  }
  return Status::success();
}

}  // namespace

ATTNLAB_CLI_COMMAND(lm_train, "lm-train",
                    "  lm-train --out FILE [--data-dir DIR] [--files A,B] [--steps N] [--seed S] [--threads T] [--slices S]\n"
                    "           [--context T] [--layers L] [--heads H] [--d-model D] [--d-mlp F] [--batch B]\n"
                    "           [--lr R] [--min-count C] [--eval-every N] [--eval-characters N] [--init unit|small]\n"
                    "           [--report FILE] [--characters FILE]\n"
                    "  lm-train --text FILE --out FILE [--preset NAME] [--seed S] [--steps N]\n"
                    "           [--held-out-fraction F] [--layers L] [--heads H] [--d-model D] [--context T] [--report FILE]\n",
                    "  Trains the character-level language model. Without --text, on Debian's fortune files\n"
                    "  (/usr/share/games/fortunes, or --data-dir; --files picks some); the defaults are the shipped\n"
                    "  model's (--steps 3000 --context 128 --layers 2 --heads 4 --d-model 96 --d-mlp 384 --batch 16).\n"
                    "  With --text FILE, on that text with a --preset (default page) as the page trains it;\n"
                    "  --held-out-fraction F (default 0.1) is kept back for scoring.\n"
                    "  Progress and notes go to stderr; stdout gets the report as one JSON line (--report FILE: also\n"
                    "  to a file). Writes the model file to --out.\n",
                    run_lm_train);
ATTNLAB_CLI_COMMAND(lm_eval, "lm-eval",
                    "  lm-eval --model FILE (--text FILE | --held-out english|chinese) [--no-scale] [--no-causal]\n"
                    "          [--ablate L.H,L] [--attention-temperature T] [--fill-1e9] [--half] [--rank-heads]\n"
                    "          [--bigram [--data-dir DIR]]\n",
                    "  Bits per character of a text (--text FILE) or of the fortune files' held-out split, with the\n"
                    "  math changed as asked: --no-scale, --no-causal, --fill-1e9 (mask with -1e9, not -inf), --half\n"
                    "  (float16), --attention-temperature T, --ablate L.H,L (heads or whole layers, from 0).\n"
                    "  --rank-heads ablates each head in turn and ranks them; --bigram adds the bigram baseline.\n"
                    "  --max-characters N scores only the first N. One JSON line.\n",
                    run_lm_eval);
ATTNLAB_CLI_COMMAND(lm_generate, "lm-generate",
                    "  lm-generate --model FILE --prompt TEXT [--tokens N] [--temperature T] [--top-k K] [--seed S]\n",
                    "  Writes --tokens N (default 20) tokens after the prompt, one JSON line per token with the top\n"
                    "  candidates and the KV cache's size. --temperature 0 (the default) is greedy; --top-k K (0 =\n"
                    "  every token); --seed S (default 1). Takes lm-eval's options that change the math.\n",
                    run_lm_generate);
ATTNLAB_CLI_COMMAND(lm_heads, "lm-heads", "  lm-heads --model FILE --text FILE\n",
                    "  Each head's scores (previous token, induction, ...) and its label on the text, one JSON line per\n"
                    "  head.\n", run_lm_heads);

}  // namespace attn::cli
