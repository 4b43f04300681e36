// Embind functions behind the page's window.attnlab handle (web/app.js wraps them in
// promises). They reach the one running app through expose_app().
#include "app/app_messages.h"
#include "app/app_state.h"
#include "app/exercise_grading.h"
#include "app/messages.h"
#include "app/state_schema.h"
#include "app/tour.h"
#include "app/url_state.h"
#include "bindings/app_handle.h"
#include "bindings/js_interop.h"
#include "core/lm/language_model.h"
#include "files/json_text.h"
#include "ui/app.h"
#include "ui/figure_text.h"
#include "ui/font_coverage.h"
#include "ui/key_bindings.h"
#include "ui/layout_json.h"
#include "ui/message_strings.h"
#include "ui/panel_views.h"
#include "ui/strings.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <vector>

using emscripten::val;

namespace {
attn::ui::App* g_app = nullptr;
attn::bindings::LoopControls g_loop;  // given with g_app by the web entry point
attn::Status g_refusal;  // the last refusal a binding gave the page

attn::ui::Language ui_language() {
  return g_app && g_app->state().settings.language == attn::UiLanguage::Chinese ? attn::ui::Language::Chinese
                                                                                : attn::ui::Language::English;
}
// The last refusal (or the state's notice, for a link) in the state's language; `label` (a
// file's name, or "") goes before it as the page's messages name the file.
std::string refusal_text(const std::string& label) {
  return attn::ui::status_text(label.empty() ? g_refusal : g_refusal.within(label), ui_language());
}
std::string notice_text() { return g_app ? attn::ui::status_text(g_app->state().notice, ui_language()) : ""; }

std::string get_state() { return g_app ? attn::state_to_json(g_app->state()) : "{}"; }

// Returns "" on success, else the reason (and the state is unchanged).
std::string set_state(const std::string& json) {
  if (!g_app) return "the app is not running";
  const attn::Status st = attn::apply_state_json(g_app->state(), json);
  // Computed now, not at the next frame: a lab out of view gets no frames, and its
  // getState() must show the change.
  if (st.ok) {
    const auto started = std::chrono::steady_clock::now();
    // A tour step or an exercise opens its panel and settings now too (the state of a lab out
    // of view is saved as it is when it is released).
    attn::update_tour(g_app->state());
    attn::update_exercise(g_app->state());
    attn::update_results(g_app->state());
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
    g_app->add_compute_ms(took.count());
  }
  return attn::bindings::refused(st);
}

// What the soak test watches for leaks: bytes malloc has handed out and not taken back
// (wasm memory itself never shrinks, so its size alone would hide a leak) and that size.
val heap_stats() {
  const struct mallinfo info = mallinfo();
  val out = val::object();
  out.set("liveBytes", static_cast<double>(info.uordblks));
  out.set("wasmBytes", static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0);
  return out;
}

double frames_drawn() { return g_app ? static_cast<double>(g_app->frames_drawn()) : 0.0; }
double frame_ms() { return g_app ? g_app->ui().frame_ms : 0.0; }

val frame_timings_of(const attn::ui::FrameTimings& t) {
  val out = val::object();
  out.set("computeMs", t.compute_ms);
  out.set("uiMs", t.ui_ms);
  out.set("uploadMs", t.upload_ms);
  out.set("drawMs", t.draw_ms);
  out.set("totalMs", t.total_ms);
  out.set("frame", static_cast<double>(t.frame));
  return out;
}

// {last, lastRecompute, unchangedFrames}: the split of the last frame and of the last that
// recomputed; how many frames had the picture already shown, so drew nothing.
val frame_timings() {
  if (!g_app) return val::null();
  val out = val::object();
  out.set("last", frame_timings_of(g_app->ui().timings));
  out.set("lastRecompute", frame_timings_of(g_app->ui().last_recompute));
  out.set("unchangedFrames", static_cast<double>(g_app->frames_unchanged()));
  return out;
}

// Where each heatmap and each panel tab landed last frame (canvas pixels), what is hovered,
// glyph coverage: ui/layout_json.h's text, as the object the page reads.
val layout() {
  if (!g_app) return val::object();
  return val::global("JSON").call<val>("parse", attn::ui::layout_json(*g_app));
}

val matrix_to_val(const attn::Mat& m) {
  val out = val::object();
  out.set("rows", static_cast<int>(m.rows()));
  out.set("cols", static_cast<int>(m.cols()));
  out.set("data", attn::bindings::float32_copy(m.data(), m.size()));
  return out;
}

// getMatrix(name, head) -> {rows, cols, data} of a stage of side A; "b:name" for side B;
// or a matrix of the mask, scoring and variant panels (attn::variant_matrix names) or of the
// modern-attention panels (attn::modern_matrix names).
val get_matrix(const std::string& name, int head) {
  if (!g_app || !g_app->state().has_results) return val::null();
  const attn::AppState& s = g_app->state();
  if (const attn::Mat* panel_matrix = attn::variant_matrix(s.variants, name)) return matrix_to_val(*panel_matrix);
  if (const attn::Mat* panel_matrix = attn::modern_matrix(s.modern, name)) return matrix_to_val(*panel_matrix);
  const bool side_b = name.rfind("b:", 0) == 0;
  const std::string stage = side_b ? name.substr(2) : name;
  const attn::PipelineTrace& t = side_b ? s.compare_trace : s.trace;
  const attn::Mat* m = attn::trace_matrix(t, stage, head);
  return m ? matrix_to_val(*m) : val::null();
}

// The UI font's bytes (fonts/ui.ttf), fetched beside the wasm and given before the first frame.
void load_ui_font(val bytes) {
  if (!g_app) return;
  g_app->set_ui_font(emscripten::convertJSArrayToNumberVector<unsigned char>(bytes));
}

// CJK glyphs: before the first frame the small subset of the Chinese UI strings
// (fonts/ui-zh.ttf), after it the large font (fonts/cjk.ttf) when the figure needs it.
void load_cjk_font(val bytes) {
  if (!g_app) return;
  g_app->set_cjk_font(emscripten::convertJSArrayToNumberVector<unsigned char>(bytes), 0);
}

// Whether the figure draws characters only the CJK font has (ui/font_coverage.h): the page
// fetches the font only then.
bool needs_cjk_font() { return g_app && attn::ui::needs_cjk_font(g_app->state(), g_app->controls_shown()); }

// ---- course pages: links, sessions, embeds, messages, text alternatives ----

std::string settings_json() { return g_app ? attn::settings_to_json(g_app->state().settings) : "{}"; }
std::string fragment() { return g_app ? attn::settings_to_fragment(g_app->state().settings) : ""; }

// A link's state (the URL hash): "" if it applied, else why it was ignored (the settings
// are then the defaults and the state's notice says so).
std::string load_fragment(const std::string& text) {
  if (!g_app) return "the app is not running";
  const attn::Status st = attn::load_fragment(g_app->state(), text);
  attn::update_results(g_app->state());
  attn::bindings::refused(st.ok ? st : g_app->state().notice);  // "The link's state was ignored: ..."
  return st.ok ? "" : st.message;
}

// A whole saved state (session file, stored session): "" if it applied, else why not
// (the state is then unchanged).
std::string load_settings(const std::string& json) {
  if (!g_app) return "the app is not running";
  const attn::Status st = attn::load_settings_json(g_app->state(), json);
  if (st.ok) {
    const auto started = std::chrono::steady_clock::now();
    // A tour step or an exercise opens its panel and settings now too (the state of a lab out
    // of view is saved as it is when it is released).
    attn::update_tour(g_app->state());
    attn::update_exercise(g_app->state());
    attn::update_results(g_app->state());
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
    g_app->add_compute_ms(took.count());
  }
  return attn::bindings::refused(st);
}

std::string schema() { return attn::state_schema_json(); }
std::string panels() { return attn::ui::panels_json(); }
std::string parse_message(const std::string& text) { return attn::message_to_json(attn::parse_message(text)); }
std::string describe() { return g_app ? attn::ui::describe_figure(g_app->state()) : ""; }
// In the state's language (the UI's is set at the next frame, and the page asks before it).
std::string ui_string(const std::string& name) {
  if (g_app) attn::ui::set_language(ui_language());
  return attn::ui::tr_by_name(name);
}
// Every key the lab and the page handle, in the state's language (ui/key_bindings.h).
std::string keys_json() {
  if (g_app) attn::ui::set_language(ui_language());
  return attn::ui::keys_json();
}
// Whether a text field of the app has the keyboard: the page's own keys are typed there.
bool typing_in_field() { return g_app && g_app->typing_in_field(); }
int cursor() { return g_app ? g_app->state().settings.cursor : -1; }
std::string cursor_token() {
  if (!g_app) return "";
  const attn::AppState& s = g_app->state();
  const int c = s.settings.cursor;
  return c >= 0 && c < static_cast<int>(s.tokens.size()) ? s.tokens[c] : "";
}
double preferred_height() { return g_app ? g_app->preferred_height() : 0.0; }
void set_chrome(bool controls, bool tabs, bool sentence_in_page) {
  if (!g_app) return;
  g_app->set_chrome(controls, tabs);
  g_app->set_sentence_in_page(sentence_in_page);
}

// The tour's steps: [{panel, patch, highlight}] as JSON (app/tour.h), for tests and pages.
std::string tour_steps() {
  nlohmann::json steps = nlohmann::json::array();
  for (int k = 1; k <= attn::kTourSteps; ++k) {
    const attn::TourStep& s = attn::tour_step(k);
    nlohmann::json patch;
    (void)attn::parse_json(s.patch, attn::kMaxStateDepth, attn::msg::app_state_not_json, patch);  // the tour's own text
    steps.push_back({{"panel", s.panel}, {"patch", patch}, {"highlight", s.highlight}});
  }
  return attn::json_text(steps);
}

// Tests: the next frame records the text it draws; drawnText() returns the last record.
void capture_drawn_text() {
  if (g_app) g_app->capture_drawn_text();
}
std::string drawn_text() { return g_app ? g_app->drawn_text() : ""; }

// An embed that shows one step of the tour: its card without Back and Next.
void set_tour_navigation(bool on) {
  if (g_app) g_app->set_tour_navigation(on);
}

// ---- the training lab (web/train-ui.mjs) ----------------------------------------------------

std::vector<std::uint8_t> bytes_of(const val& array) {
  return emscripten::convertJSArrayToNumberVector<std::uint8_t>(array);
}

val uint8_copy(const std::vector<std::uint8_t>& bytes) {
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
}

// "training" or "scaling": back to step 0, paused.
std::string train_reset(const std::string& which) {
  if (!g_app) return "the app is not running";
  attn::TrainState& t = g_app->state().train;
  attn::update_training(t);
  if (which == "training") attn::train_reset(t);
  else if (which == "scaling") attn::scaling_reset(t);
  else return "trainReset takes \"training\" or \"scaling\"";
  return "";
}

// The live run as a weight file (with the optimizer state).
val train_save() {
  if (!g_app) return val::null();
  attn::update_training(g_app->state().train);
  return uint8_copy(attn::train_save(g_app->state().train));
}

// Loads a weight file into the live run; "" or the reason (the run is then unchanged).
// `held_out_json` (a JSON array of {step, accuracy, loss}, or "") restores a saved session's curve.
std::string train_load(val bytes, const std::string& held_out_json) {
  if (!g_app) return "the app is not running";
  std::vector<attn::HeldOutPoint> held;
  nlohmann::json j;
  // A saved session's text: [{step, accuracy, loss}, ...], two levels deep.
  if (held_out_json.size() > static_cast<std::size_t>(attn::kMaxStateBytes))
    return attn::bindings::refused(attn::Status::error(attn::msg::app_state_too_long, held_out_json.size(), attn::kMaxStateBytes));
  if (attn::Status st = attn::parse_json(held_out_json.empty() ? "[]" : held_out_json, 2, attn::msg::app_state_not_json, j);
      !st.ok)
    return attn::bindings::refused(st);
  // Built without exceptions: check every type before reading (json::value would throw).
  const auto number = [](const nlohmann::json& p, const char* key) {
    return p.contains(key) && p[key].is_number() ? p[key].get<double>() : -1.0;
  };
  if (j.is_array())
    for (const nlohmann::json& p : j)
      if (p.is_object() && number(p, "step") >= 0 && number(p, "accuracy") >= 0 && number(p, "loss") >= 0)
        held.push_back({static_cast<std::int64_t>(number(p, "step")), static_cast<float>(number(p, "accuracy")),
                        static_cast<float>(number(p, "loss"))});
  const std::vector<std::uint8_t> data = bytes_of(bytes);
  const attn::Status st = attn::train_load(g_app->state().train, data.data(), data.size(), held.empty() ? nullptr : &held);
  return attn::bindings::refused(st);
}

// The held-out curve, for the page's saved session.
std::string train_held_out_json() {
  if (!g_app) return "[]";
  nlohmann::json a = nlohmann::json::array();
  for (const attn::HeldOutPoint& p : g_app->state().train.run.held_out)
    a.push_back({{"step", p.step}, {"accuracy", p.accuracy}, {"loss", p.loss}});
  return attn::json_text(a);
}

double train_revision() { return g_app ? static_cast<double>(g_app->state().train.run.revision) : 0.0; }

// Per-step loss and batch accuracy of the live run; "scaled"/"unscaled" loss of the experiment.
val train_curves() {
  val out = val::object();
  if (!g_app) return out;
  const attn::TrainState& t = g_app->state().train;
  const auto put = [&](const char* name, const std::vector<float>& v) { out.set(name, attn::bindings::float32_copy(v.data(), v.size())); };
  put("loss", t.run.trainer.loss_history());
  put("accuracy", t.run.trainer.accuracy_history());
  put("scaled", t.experiment.scaled.loss_history());
  put("unscaled", t.experiment.unscaled.loss_history());
  return out;
}

// One head's attention on the probe sequence, as last refreshed.
val train_probe(int layer, int head) {
  if (!g_app) return val::null();
  const attn::train::ProbeView& p = g_app->state().train.run.probe;
  if (layer < 0 || layer >= p.layers || head < 0 || head >= p.heads) return val::null();
  const attn::Mat& m = p.weights[static_cast<std::size_t>(layer) * p.heads + head];
  val out = val::object();
  out.set("rows", static_cast<int>(m.rows()));
  out.set("cols", static_cast<int>(m.cols()));
  out.set("data", attn::bindings::float32_copy(m.data(), m.size()));
  out.set("step", static_cast<double>(g_app->state().train.run.probe_step));
  return out;
}

// The explorer's trained scene (the shipped model, fetched by the page).
std::string load_trained_model(val bytes, const std::string& name) {
  if (!g_app) return "the app is not running";
  const std::vector<std::uint8_t> data = bytes_of(bytes);
  const attn::Status st = attn::load_trained_scene(g_app->state().train, data.data(), data.size(), name);
  return attn::bindings::refused(st);
}

// The explorer's language-model scene (the shipped model, fetched by the page when the scene
// is first asked for). On success the scene the user asked for opens.
std::string load_language_model(val bytes, const std::string& name) {
  if (!g_app) return "the app is not running";
  const std::vector<std::uint8_t> data = bytes_of(bytes);
  attn::AppState& state = g_app->state();
  const attn::Status st = attn::load_lm_scene(state.lm_scene, data.data(), data.size(), name);
  if (st.ok) attn::enter_wanted_lm_scene(state);
  return attn::bindings::refused(st);
}

// True when `bytes` begin as a language model file does (its magic, core/lm/language_model.h):
// Load model gives such a file to loadLanguageModel, any other to trainLoad.
bool is_language_model_file(val bytes) {
  const std::vector<std::uint8_t> head = bytes_of(bytes.call<val>("subarray", 0, 8));
  return head.size() == 8 && std::equal(head.begin(), head.end(), std::begin(attn::lm::kLanguageModelMagic));
}

// The page has no model to give (the offline single-file pages carry none): the tour's steps
// and the exercises that want the scene say so instead of waiting.
void language_model_unavailable() {
  if (!g_app) return;
  attn::AppState& state = g_app->state();
  state.lm_unavailable = true;
  if (state.lm_wanted) state.notice = attn::Status::error(attn::msg::app_lm_unavailable);  // not "loading"
}

// True once the scene was asked for and its model is not here yet (the page then fetches it).
bool language_model_wanted() { return g_app && g_app->state().lm_wanted && !g_app->state().lm_scene; }

// Test hook (tests/browser/crash_screen.test.mjs): ends the module the ways a bug would, so the
// page's crash screen can be tested. 'abort' calls abort() (a failed check, out of memory);
// 'trap' makes the next frame trap (main_web.cpp); 'stack' recurses until the engine's stack
// overflows (a RangeError out of this call). Anything else does nothing.
int (*volatile g_recurse)(int) = nullptr;  // called through a pointer: never turned into a loop
int recurse(int depth) { return g_recurse(depth + 1) + 1; }
void debug_crash(const std::string& kind) {
  if (kind == "abort") std::abort();
  if (kind == "trap" && g_loop.trap_next_frame) g_loop.trap_next_frame();
  if (kind == "stack") {
    g_recurse = &recurse;
    recurse(0);
  }
}

// The page's stop(): the loop's own, while the app runs.
void stop_app() {
  if (g_loop.stop) g_loop.stop();
}
// Whether the loop idles on its slow timer (platform/main_web.cpp): the handle's poll
// (web/api.mjs) then waits on a timer too, so an idle page asks for no animation frames.
bool loop_idle() { return g_loop.idle && g_loop.idle(); }

}  // namespace

namespace attn::bindings {
void expose_app(ui::App* app, const LoopControls& loop) {
  g_app = app;
  g_loop = loop;
}
std::string refused(const Status& st) {
  if (st.ok) return "";
  g_refusal = st;
  return st.message;
}
ui::App* exposed_app() { return g_app; }
void wake_loop() {
  if (g_loop.wake) g_loop.wake();
}
}  // namespace attn::bindings

EMSCRIPTEN_BINDINGS(attnlab_app) {
  emscripten::function("getStateJson", &get_state);
  emscripten::function("setStateJson", attn::bindings::waking<&set_state>);
  emscripten::function("framesDrawn", &frames_drawn);
  emscripten::function("loopIdle", &loop_idle);
  emscripten::function("labWake", &attn::bindings::wake_loop);
  emscripten::function("heapStats", &heap_stats);
  emscripten::function("frameMs", &frame_ms);
  emscripten::function("frameTimings", &frame_timings);
  emscripten::function("layout", &layout);
  emscripten::function("getMatrix", &get_matrix);
  emscripten::function("loadUiFont", attn::bindings::waking<&load_ui_font>);
  emscripten::function("loadCjkFont", attn::bindings::waking<&load_cjk_font>);
  emscripten::function("needsCjkFont", &needs_cjk_font);
  emscripten::function("settingsJson", &settings_json);
  emscripten::function("fragment", &fragment);
  emscripten::function("loadFragment", attn::bindings::waking<&load_fragment>);
  emscripten::function("loadSettings", attn::bindings::waking<&load_settings>);
  emscripten::function("schema", &schema);
  emscripten::function("panels", &panels);
  emscripten::function("parseMessage", &parse_message);
  emscripten::function("describe", &describe);
  emscripten::function("uiString", &ui_string);
  emscripten::function("keysJson", &keys_json);
  emscripten::function("typingInField", &typing_in_field);
  emscripten::function("refusalText", &refusal_text);
  emscripten::function("noticeText", &notice_text);
  emscripten::function("cursor", &cursor);
  emscripten::function("cursorToken", &cursor_token);
  emscripten::function("preferredHeight", &preferred_height);
  emscripten::function("setChrome", attn::bindings::waking<&set_chrome>);
  emscripten::function("setTourNavigation", attn::bindings::waking<&set_tour_navigation>);
  emscripten::function("tourSteps", &tour_steps);
  emscripten::function("captureDrawnText", attn::bindings::waking<&capture_drawn_text>);
  emscripten::function("drawnText", &drawn_text);
  emscripten::function("stop", &stop_app);
  emscripten::function("trainReset", attn::bindings::waking<&train_reset>);
  emscripten::function("trainSave", &train_save);
  emscripten::function("trainLoad", attn::bindings::waking<&train_load>);
  emscripten::function("trainHeldOutJson", &train_held_out_json);
  emscripten::function("trainRevision", &train_revision);
  emscripten::function("trainCurves", &train_curves);
  emscripten::function("trainProbe", &train_probe);
  emscripten::function("loadTrainedModel", attn::bindings::waking<&load_trained_model>);
  emscripten::function("loadLanguageModel", attn::bindings::waking<&load_language_model>);
  emscripten::function("isLanguageModelFile", &is_language_model_file);
  emscripten::function("languageModelWanted", &language_model_wanted);
  emscripten::function("languageModelUnavailable", &language_model_unavailable);
  emscripten::function("debugCrash", &debug_crash);  // test hook
}
