// Embind functions behind the page's window.attnlab handle (web/app.js wraps them in
// promises). They reach the one running app through expose_app().
#include "app/app_state.h"
#include "platform/web_handle.h"
#include "ui/app.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

using emscripten::val;

namespace {
attn::ui::App* g_app = nullptr;

std::string get_state() { return g_app ? attn::state_to_json(g_app->state()) : "{}"; }

// Returns "" on success, else the reason (and the state is unchanged).
std::string set_state(const std::string& json) {
  if (!g_app) return "the app is not running";
  const attn::Status st = attn::apply_state_json(g_app->state(), json);
  return st.ok ? "" : st.message;
}

double frames_drawn() { return g_app ? static_cast<double>(g_app->frames_drawn()) : 0.0; }

val layout() {
  val out = val::object();
  if (!g_app) return out;
  const attn::ui::Layout& l = g_app->layout();
  val hm = val::object();
  hm.set("x", l.heatmap_x);
  hm.set("y", l.heatmap_y);
  hm.set("w", l.heatmap_w);
  hm.set("h", l.heatmap_h);
  out.set("heatmap", hm);
  out.set("framebufferWidth", l.framebuffer_w);
  out.set("framebufferHeight", l.framebuffer_h);
  return out;
}

// getMatrix(name) -> {rows, cols, data: Float32Array} for the current results.
val get_matrix(const std::string& name) {
  if (!g_app || !g_app->state().has_results) return val::null();
  const attn::AppState& s = g_app->state();
  const attn::Mat* m = nullptr;
  if (name == "q") m = &s.q;
  else if (name == "k") m = &s.k;
  else if (name == "v") m = &s.v;
  else if (name == "rawScores") m = &s.result.raw_scores;
  else if (name == "scores") m = &s.result.scores;
  else if (name == "weights") m = &s.result.weights;
  else if (name == "output") m = &s.result.output;
  if (!m) return val::null();
  val out = val::object();
  out.set("rows", static_cast<int>(m->rows()));
  out.set("cols", static_cast<int>(m->cols()));
  out.set("data", val::global("Float32Array").new_(emscripten::typed_memory_view(m->size(), m->data())));
  return out;
}

}  // namespace

namespace attn::platform {
void expose_app(ui::App* app) { g_app = app; }
}  // namespace attn::platform

EMSCRIPTEN_BINDINGS(attnlab_app) {
  emscripten::function("getStateJson", &get_state);
  emscripten::function("setStateJson", &set_state);
  emscripten::function("framesDrawn", &frames_drawn);
  emscripten::function("layout", &layout);
  emscripten::function("getMatrix", &get_matrix);
}
