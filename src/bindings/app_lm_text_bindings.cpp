// Embind functions behind "Train on your text" (web/lm-text-ui.mjs, the page's Worker): the
// page gives the text to be checked and reports the run; the panel draws what it was told
// (app/lm_text_run.h).
//   lmTextAvailable()                    this page trains on a text (the panel offers it)
//   lmTextPresetsJson()                  [{name, layers, heads, dModel, context, steps, seconds,
//                                        default}] of core/lm/text_trainer.h's table (seconds: the
//                                        time it took in the page on the project's machines)
//   lmTextCheck(bytes, name, preset)     "" or why the text is refused (UTF-8 bytes: a file that
//                                        is not UTF-8 is refused here, naming the byte); the run
//                                        and the model are kept on a refusal
//   lmTextReport(json)                   "" or why the report is refused (update_lm_text_run)
// A refusal's text in the UI's language is refusalText(), as for every binding.
#include "app/lm_text_run.h"
#include "bindings/app_handle.h"
#include "files/json_text.h"
#include "ui/app.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>

#include <string>

namespace {

using attn::bindings::exposed_app;
using emscripten::val;

void lm_text_available() {
  if (attn::ui::App* app = exposed_app()) app->state().lm_text.available = true;
}

std::string lm_text_presets_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const attn::lm::TextPreset& p : attn::lm::kTextPresets)
    out.push_back({{"name", p.name}, {"layers", p.layers}, {"heads", p.heads}, {"dModel", p.d_model},
                   {"context", p.context}, {"steps", p.steps}, {"seconds", p.page_seconds},
                   {"default", std::string(p.name) == attn::lm::kDefaultTextPreset}});
  return attn::json_text(out);
}

std::string lm_text_check(const val& bytes, const std::string& name, const std::string& preset) {
  attn::ui::App* app = exposed_app();
  if (!app) return "the app is not running";
  // Copied in one pass onto the string's memory (a text may be megabytes).
  std::string text(bytes["length"].as<std::size_t>(), '\0');
  val(emscripten::typed_memory_view(text.size(), reinterpret_cast<unsigned char*>(text.data()))).call<void>("set", bytes);
  return attn::bindings::refused(attn::check_lm_text(app->state().lm_text, text, name, preset));
}

std::string lm_text_report(const std::string& json) {
  attn::ui::App* app = exposed_app();
  if (!app) return "the app is not running";
  return attn::bindings::refused(attn::update_lm_text_run(app->state().lm_text, json));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_lm_text) {
  emscripten::function("lmTextAvailable", &lm_text_available);
  emscripten::function("lmTextPresetsJson", &lm_text_presets_json);
  emscripten::function("lmTextCheck", &lm_text_check);
  emscripten::function("lmTextReport", attn::bindings::waking<&lm_text_report>);
}
