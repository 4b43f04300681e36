// Embind bindings of the language model's trainer on a plain text (core/lm/text_trainer.h),
// behind createLanguageModelTrainer in web/attnlab-core-lm.mjs, which checks the JavaScript
// types and turns an `error` field into a thrown error:
//   LanguageModelTrainerHandle  reset(text, options), step(k), evaluate(), save()
// options: {seed, heldOutFraction, preset, layers, heads, dModel, context, steps} (0 or absent:
// the preset's). One thread: the math module's builds have no pthreads, and the trainer's
// bits do not depend on the threads.
#include "core/lm/corpus.h"
#include "core/lm/text_trainer.h"
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
namespace lm = attn::lm;

namespace {

class LanguageModelTrainerHandle {
 public:
  val reset(const std::string& text, const val& options) {
    lm::TextTrainOptions o;
    ArgumentCheck check;
    o.seed = static_cast<std::uint64_t>(check.whole("seed", options["seed"], 0, 9007199254740991.0));
    o.held_out_fraction = check.number("heldOutFraction", options["heldOutFraction"], 1e-9, 0.5);
    o.layers = check.whole_int("layers", options["layers"], 0, lm::kLanguageModelLimits.layers);
    o.heads = check.whole_int("heads", options["heads"], 0, lm::kLanguageModelLimits.heads);
    o.d_model = check.whole_int("dModel", options["dModel"], 0, lm::kLanguageModelLimits.d_model);
    o.context = check.whole_int("context", options["context"], 0, lm::kLanguageModelLimits.context);
    o.steps = check.whole_int("steps", options["steps"], 0, 1000000);
    if (check.refused()) return error_result(check.message());
    o.preset = options["preset"].as<std::string>();
    if (attn::Status st = trainer_.reset(text, o); !st.ok) return error_result(st.message);
    return info();
  }

  val info() const {
    if (!trainer_.ready()) return error_result(attn::msg::lm_no_model.english);
    const lm::TextSplit& s = trainer_.split();
    const lm::LmTrainConfig& c = trainer_.config();
    val o = val::object();
    o.set("steps", c.steps);
    o.set("step", trainer_.steps_done());
    o.set("preset", trainer_.preset());
    o.set("characters", static_cast<double>(s.characters));
    o.set("trainCharacters", static_cast<double>(s.train_characters));
    o.set("heldOutCharacters", static_cast<double>(s.held_out_characters));
    o.set("language", std::string(s.language == lm::TextLanguage::English ? "english" : "chinese"));
    o.set("vocab", trainer_.model().vocabulary.size());
    o.set("layers", c.layers);
    o.set("heads", c.heads);
    o.set("dModel", c.d_model);
    o.set("context", c.context);
    o.set("batch", c.batch);
    o.set("evalEvery", c.eval_every);
    return o;
  }

  val step(int k) {
    lm::TextStepResult r;
    if (attn::Status st = trainer_.step(k, r); !st.ok) return error_result(st.message);
    val o = val::object();
    o.set("step", r.step);
    o.set("trainBits", r.train_bits);
    if (r.evaluated) o.set("heldOutBits", r.held_out_bits);
    return o;
  }

  val evaluate() const {
    if (!trainer_.ready()) return error_result(attn::msg::lm_no_model.english);
    const lm::TextEvaluation e = trainer_.evaluate();
    val o = val::object();
    o.set("heldOutBits", e.held_out_bits);
    o.set("bigramBits", e.bigram_bits);
    o.set("tokens", static_cast<double>(e.tokens));
    return o;
  }

  val save() const {
    if (!trainer_.ready()) return error_result(attn::msg::lm_no_model.english);
    const std::vector<std::uint8_t> bytes = trainer_.save();
    return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
  }

 private:
  lm::TextTrainer trainer_;
};

// The presets' names and shapes, from the core's table (the module's checks and the page's
// menu read them).
val text_presets() {
  val list = val::array();
  for (const lm::TextPreset& p : lm::kTextPresets) {
    val e = val::object();
    e.set("name", std::string(p.name));
    e.set("layers", p.layers);
    e.set("heads", p.heads);
    e.set("dModel", p.d_model);
    e.set("context", p.context);
    e.set("steps", p.steps);
    e.set("default", std::string(p.name) == lm::kDefaultTextPreset);
    list.call<void>("push", e);
  }
  return list;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_core_lm_train) {
  emscripten::class_<LanguageModelTrainerHandle>("LanguageModelTrainerHandle")
      .constructor<>()
      .function("reset", &LanguageModelTrainerHandle::reset)
      .function("info", &LanguageModelTrainerHandle::info)
      .function("step", &LanguageModelTrainerHandle::step)
      .function("evaluate", &LanguageModelTrainerHandle::evaluate)
      .function("save", &LanguageModelTrainerHandle::save);
  emscripten::function("languageModelTextPresets", &text_presets);
}
