#include "core/lm/text_trainer.h"

#include "core/lm/lm_messages.h"

#include <algorithm>
#include <string>

namespace attn::lm {

const TextPreset* find_text_preset(std::string_view name) {
  for (const TextPreset& p : kTextPresets)
    if (name == p.name) return &p;
  return nullptr;
}

Status text_train_config(const TextTrainOptions& o, LmTrainConfig& out) {
  const TextPreset* p = find_text_preset(o.preset);
  if (!p) {
    std::string names;
    for (const TextPreset& q : kTextPresets) names += std::string(names.empty() ? "" : ", ") + q.name;
    return Status::error(msg::lm_preset_unknown, o.preset, names);
  }
  LmTrainConfig c;
  c.layers = o.layers > 0 ? o.layers : p->layers;
  c.heads = o.heads > 0 ? o.heads : p->heads;
  c.d_model = o.d_model > 0 ? o.d_model : p->d_model;
  c.d_mlp = o.d_model > 0 ? 4 * o.d_model : p->d_mlp;
  c.context = o.context > 0 ? o.context : p->context;
  c.steps = o.steps > 0 ? o.steps : p->steps;
  c.batch = p->batch;
  c.learning_rate = p->learning_rate;
  c.warmup = std::min(p->warmup, c.steps);
  c.min_count = p->min_count;
  c.eval_every = p->eval_every;
  c.seed = o.seed;
  c.slices = 1;
  c.threads = 1;
  if (Status st = validate_lm_train_config(c); !st.ok) return st;
  // The shape alone (heads dividing d_model, the caps): the text's vocabulary is not known yet.
  train::ModelConfig shape;
  shape.vocab = kSpecialTokens + 1;
  shape.context = c.context;
  shape.layers = c.layers;
  shape.heads = c.heads;
  shape.d_model = c.d_model;
  shape.d_mlp = c.d_mlp;
  if (Status st = train::validate_model_config(shape, kLanguageModelLimits); !st.ok) return st;
  out = c;
  return Status::success();
}

Status inspect_text(std::string_view text, const TextTrainOptions& options, TextSummary& out) {
  LmTrainConfig config;
  if (Status st = text_train_config(options, config); !st.ok) return st;
  CorpusFile corpus;
  TextSummary s;
  if (Status st = split_plain_text("text", text, options.held_out_fraction, corpus, s.split); !st.ok) return st;
  std::vector<const std::string*> parts;
  for (const std::string& e : corpus.train) parts.push_back(&e);
  Vocabulary v;
  if (Status st = Vocabulary::build(parts, config.min_count, v); !st.ok) return st;
  s.bytes = static_cast<long long>(text.size());
  s.vocabulary = v.size();
  s.rare = static_cast<int>(v.unknown_classes()) - 1;
  s.distinct = v.size() - kSpecialTokens + s.rare;
  Bigram bigram;
  bigram.train(code_point_stream(corpus.train));
  s.bigram_bits = bigram.score(code_point_stream(corpus.held_out)).per_character();
  out = s;
  return Status::success();
}

Status TextTrainer::reset(std::string_view text, const TextTrainOptions& options) {
  LmTrainConfig config;
  if (Status st = text_train_config(options, config); !st.ok) return st;
  CorpusFile corpus;
  TextSplit split;
  if (Status st = split_plain_text("text", text, options.held_out_fraction, corpus, split); !st.ok) return st;
  LmTrainer trainer;
  if (Status st = trainer.reset(config, {corpus}); !st.ok) return st;
  trainer_ = std::move(trainer);
  corpus_ = std::move(corpus);
  split_ = split;
  preset_ = options.preset;
  text_bytes_ = static_cast<long long>(text.size());
  bigram_ = Bigram{};
  bigram_.train(code_point_stream(corpus_.train));
  return Status::success();
}

Status TextTrainer::step(int k, TextStepResult& out) {
  if (!ready()) return Status::error(msg::lm_no_model);
  const int before = trainer_.steps();
  const double bits_before = trainer_.train_bits_sum();
  const std::size_t points = trainer_.model().curve.size();
  if (Status st = trainer_.run_until(before + std::max(0, k)); !st.ok) return st;
  out = TextStepResult{};
  out.step = trainer_.steps();
  const int ran = trainer_.steps() - before;
  out.train_bits = ran > 0 ? (trainer_.train_bits_sum() - bits_before) / ran : 0.0;
  const std::vector<CurvePoint>& curve = trainer_.model().curve;
  if (curve.size() > points) {
    out.evaluated = true;
    const CurvePoint& p = curve.back();
    out.held_out_bits = corpus_.language == TextLanguage::English ? p.held_out_english : p.held_out_chinese;
  }
  return Status::success();
}

TextEvaluation TextTrainer::evaluate() const {
  TextEvaluation e;
  if (!ready()) return e;
  const LanguageModel m = model();
  const Bits bits = score_tokens(m, entry_stream(m.vocabulary, corpus_.held_out), RunOptions{});
  e.held_out_bits = bits.per_character();
  e.tokens = bits.scored;
  e.bigram_bits = bigram_.score(code_point_stream(corpus_.held_out)).per_character();
  return e;
}

LanguageModel TextTrainer::model() const {
  LanguageModel m = trainer_.model();
  round_parameters_to_half(m.parameters);
  // Plain concatenation, not printf: the math module would carry printf's formatter for it.
  const auto n = [](long long v) { return std::to_string(v); };
  m.notes = "Trained in Attention Lab on a text of " + n(split_.characters) + " characters (" + n(text_bytes_) +
            " bytes of UTF-8): the first " + n(split_.train_characters) + " for training, the last " +
            n(split_.held_out_characters) + " held out. Preset " + preset_ + ", seed " +
            std::to_string(trainer_.config().seed) + ", " + n(trainer_.steps()) + " of " + n(trainer_.config().steps) +
            " steps. The text was the user's own; this file holds no copy of it, only weights learned from it and a "
            "vocabulary of " + n(m.vocabulary.size() - kSpecialTokens) + " characters.";
  return m;  // the trainer's model carries no held-out samples: no copy of the text
}

std::vector<std::uint8_t> TextTrainer::save() const {
  return serialize_language_model(model());
}

}  // namespace attn::lm
