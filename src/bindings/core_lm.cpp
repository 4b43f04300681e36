// Embind bindings of the language model (src/core/lm/), behind web/attnlab-core-lm.mjs,
// which checks the JavaScript types and turns an `error` field into a thrown error:
//   LanguageModelHandle  load(bytes), info(), encode(text), generate(prompt, options, run),
//                        evaluate(text, run), attention(text, run)
// `run` is the math's switches (core/lm/runner.h): {scale, causal, largeNegativeFill, half,
// attentionTemperature, ablate: Uint8Array (layers * heads, 1 = off)}. Results go back as
// fresh typed arrays that own their memory.
#include "core/base/rng.h"
#include "core/base/utf8.h"
#include "core/lm/evaluate.h"
#include "core/lm/generate.h"
#include "core/lm/head_labels.h"
#include "core/lm/language_model.h"
#include "core/lm/runner.h"
#include "core/lm/lm_messages.h"
#include "bindings/core_limits.h"
#include "bindings/js_interop.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

using emscripten::val;
using attn::bindings::ArgumentCheck;
using attn::bindings::error_result;
using attn::bindings::float32_copy;
namespace lm = attn::lm;

namespace {

// The longest text evaluate() scores (a sliding window reads any length; this bounds the time
// of one synchronous call).
constexpr int kMaxEvaluateCharacters = 1 << 20;

val token_texts(const lm::LanguageModel& m, const std::vector<int>& tokens) {
  val out = val::array();
  for (int t : tokens) out.call<void>("push", m.vocabulary.token_text(t));
  return out;
}

val top_list(const lm::LanguageModel& m, const std::vector<std::pair<int, float>>& top) {
  val out = val::array();
  for (const auto& [t, p] : top) {
    val e = val::object();
    e.set("token", m.vocabulary.token_text(t));
    e.set("id", t);
    e.set("p", p);
    out.call<void>("push", e);
  }
  return out;
}

class LanguageModelHandle {
 public:
  val load(const val& bytes) {
    const std::vector<std::uint8_t> b = emscripten::convertJSArrayToNumberVector<std::uint8_t>(bytes);
    lm::LanguageModel m;
    if (attn::Status st = lm::parse_language_model(b.data(), b.size(), m); !st.ok) return error_result(st.message);
    model_ = std::move(m);
    return info();
  }

  val info() const {
    if (model_.empty()) return error_result(attn::msg::lm_no_model.english);
    val o = val::object();
    const attn::train::ModelConfig& c = model_.config;
    o.set("vocab", c.vocab);
    o.set("context", c.context);
    o.set("layers", c.layers);
    o.set("heads", c.heads);
    o.set("dModel", c.d_model);
    o.set("dMlp", c.d_mlp);
    o.set("parameters", static_cast<double>(model_.parameters.size()));
    o.set("steps", static_cast<double>(model_.steps));
    o.set("notes", model_.notes);
    std::string chars;
    for (std::uint32_t cp : model_.vocabulary.characters()) chars += attn::encode_utf8(cp);
    o.set("characters", chars);
    o.set("unknownClasses", model_.vocabulary.unknown_classes());
    val curve = val::array();
    for (const lm::CurvePoint& p : model_.curve) {
      val e = val::object();
      e.set("step", p.step);
      e.set("trainBits", p.train_bits);
      e.set("heldOutEnglish", p.held_out_english);
      e.set("heldOutChinese", p.held_out_chinese);
      curve.call<void>("push", e);
    }
    o.set("curve", curve);
    val samples = val::array();
    for (const lm::HeldOutSample& h : model_.samples) {
      val e = val::object();
      e.set("language", std::string(h.language == 0 ? "english" : "chinese"));
      e.set("text", h.text);
      samples.call<void>("push", e);
    }
    o.set("samples", samples);
    return o;
  }

  val encode(const std::string& text) const {
    if (model_.empty()) return error_result(attn::msg::lm_no_model.english);
    lm::Encoded e;
    if (attn::Status st = model_.vocabulary.encode(text, e); !st.ok) return error_result(st.message);
    val o = val::object();
    o.set("tokens", val::global("Int32Array").new_(emscripten::typed_memory_view(e.tokens.size(), e.tokens.data())));
    val list = val::array();
    for (std::uint32_t cp : e.unknown) list.call<void>("push", attn::encode_utf8(cp));
    o.set("unknown", list);
    return o;
  }

  val generate(const std::string& prompt, const val& options, const val& run) const {
    lm::RunOptions r;
    lm::GenerateOptions g;
    ArgumentCheck check;
    g.tokens = check.whole_int("tokens", options["tokens"], 1, lm::kMaxGeneratedTokens);
    g.sample.temperature = static_cast<float>(check.number("temperature", options["temperature"], 0, lm::kMaxTemperature));
    g.sample.top_k = check.whole_int("topK", options["topK"], 0, model_.empty() ? 0 : model_.config.vocab);
    g.sample.seed = static_cast<std::uint64_t>(check.whole("seed", options["seed"], 0, 9007199254740991.0));
    if (check.refused()) return error_result(check.message());
    if (val e = read_run(run, r); !e.isUndefined()) return e;
    std::vector<lm::GeneratedToken> out;
    if (attn::Status st = lm::generate(model_, prompt, r, g, out); !st.ok) return error_result(st.message);
    val steps = val::array();
    for (const lm::GeneratedToken& t : out) {
      val s = val::object();
      s.set("token", model_.vocabulary.token_text(t.token));
      s.set("id", t.token);
      s.set("top", top_list(model_, t.top));
      s.set("cacheBytes", static_cast<double>(t.cache_bytes));
      s.set("keys", t.keys);
      val heads = val::array();
      for (const std::vector<float>& row : t.attention) heads.call<void>("push", float32_copy(row.data(), row.size()));
      s.set("attention", heads);
      steps.call<void>("push", s);
    }
    val o = val::object();
    o.set("steps", steps);
    return o;
  }

  val evaluate(const std::string& text, const val& run) const {
    if (model_.empty()) return error_result(attn::msg::lm_no_model.english);
    lm::RunOptions r;
    if (val e = read_run(run, r); !e.isUndefined()) return e;
    lm::Encoded enc;
    if (attn::Status st = model_.vocabulary.encode(text, enc); !st.ok) return error_result(st.message);
    if (enc.tokens.empty()) return error_result(attn::msg::lm_text_empty.english);
    if (enc.tokens.size() > static_cast<std::size_t>(kMaxEvaluateCharacters))
      return error_result(attn::Status::error(attn::msg::lm_text_too_long, enc.tokens.size(), kMaxEvaluateCharacters).message);
    std::vector<int> tokens(1, lm::kStartToken);
    tokens.insert(tokens.end(), enc.tokens.begin(), enc.tokens.end());
    const lm::Bits b = lm::score_tokens(model_, tokens, r);
    val o = val::object();
    o.set("bitsPerToken", b.per_character());
    o.set("tokens", static_cast<double>(b.scored));
    return o;
  }

  val attention(const std::string& text, const val& run) const {
    lm::RunOptions r;
    if (val e = read_run(run, r); !e.isUndefined()) return e;
    lm::TextAttention t;
    if (attn::Status st = lm::text_attention(model_, text, r, t); !st.ok) return error_result(st.message);
    val o = val::object();
    o.set("tokens", token_texts(model_, t.tokens));
    o.set("ids", val::global("Int32Array").new_(emscripten::typed_memory_view(t.tokens.size(), t.tokens.data())));
    o.set("layers", model_.config.layers);
    o.set("heads", model_.config.heads);
    val weights = val::array();
    for (const attn::Mat& w : t.trace.weights) weights.call<void>("push", float32_copy(w.data(), w.size()));
    o.set("weights", weights);
    val labels = val::array();
    for (const lm::HeadLabel& h : lm::label_heads(t.encoded.characters, t.trace.weights, model_.config.layers,
                                                 model_.config.heads)) {
      val e = val::object();
      e.set("layer", h.layer);
      e.set("head", h.head);
      e.set("label", std::string(lm::head_kind_name(h.label)));
      e.set("score", h.label_score);
      val scores = val::object();
      for (int k = 0; k < lm::kHeadKinds; ++k)
        if (h.counted[k] > 0) scores.set(lm::head_kind_name(static_cast<lm::HeadKind>(k)), h.scores[k]);
      e.set("scores", scores);
      labels.call<void>("push", e);
    }
    o.set("labels", labels);
    // The next token after the text: the model's 10 most probable.
    attn::Rng rng(1);
    const lm::TokenChoice c = lm::choose_token(t.logits.row(t.logits.rows() - 1).data(), model_.config.vocab,
                                               lm::SampleOptions{}, rng);
    o.set("next", top_list(model_, c.top));
    val unknown = val::array();
    for (std::uint32_t cp : t.encoded.unknown) unknown.call<void>("push", attn::encode_utf8(cp));
    o.set("unknown", unknown);
    return o;
  }

 private:
  // The switches; undefined when they are valid, else {error}.
  val read_run(const val& run, lm::RunOptions& r) const {
    if (model_.empty()) return error_result(attn::msg::lm_no_model.english);
    r.scale = run["scale"].as<bool>();
    r.causal = run["causal"].as<bool>();
    r.large_negative_fill = run["largeNegativeFill"].as<bool>();
    r.half_precision = run["half"].as<bool>();
    r.attention_temperature = run["attentionTemperature"].as<float>();
    const val ablate = run["ablate"];
    if (!ablate.isUndefined() && !ablate.isNull()) r.ablated = emscripten::convertJSArrayToNumberVector<std::uint8_t>(ablate);
    if (attn::Status st = lm::check_options(model_, r); !st.ok) return error_result(st.message);
    return val::undefined();
  }

  lm::LanguageModel model_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_core_lm) {
  emscripten::class_<LanguageModelHandle>("LanguageModelHandle")
      .constructor<>()
      .function("load", &LanguageModelHandle::load)
      .function("info", &LanguageModelHandle::info)
      .function("encode", &LanguageModelHandle::encode)
      .function("generate", &LanguageModelHandle::generate)
      .function("evaluate", &LanguageModelHandle::evaluate)
      .function("attention", &LanguageModelHandle::attention);
}
