// Embind functions behind the page's window.attnlab handle (web/app.js wraps them in
// promises). They reach the one running app through expose_app().
#include "app/app_state.h"
#include "bindings/js_interop.h"
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
double frame_ms() { return g_app ? g_app->ui().frame_ms : 0.0; }

// Where each heatmap landed last frame (canvas pixels), what is hovered, glyph coverage.
val layout() {
  val out = val::object();
  if (!g_app) return out;
  const attn::ui::UiContext& ui = g_app->ui();
  val heatmaps = val::object();
  for (const auto& [id, p] : ui.placements) {
    val h = val::object();
    h.set("x", p.x);
    h.set("y", p.y);
    h.set("w", p.w);
    h.set("h", p.h);
    h.set("rows", p.rows);
    h.set("cols", p.cols);
    h.set("viewX0", p.view.x0);
    h.set("viewY0", p.view.y0);
    h.set("viewW", p.view.w);
    h.set("viewH", p.view.h);
    h.set("rangeLo", p.range_lo);
    h.set("rangeHi", p.range_hi);
    heatmaps.set(id, h);
  }
  out.set("heatmaps", heatmaps);
  val hover = val::object();
  hover.set("heatmap", ui.hover.heatmap);
  hover.set("row", ui.hover.row);
  hover.set("col", ui.hover.col);
  hover.set("derivation", ui.hover.derivation);
  out.set("hover", hover);
  out.set("framebufferWidth", ui.framebuffer_w);
  out.set("framebufferHeight", ui.framebuffer_h);
  out.set("playing", ui.playing);
  out.set("missingGlyphs", g_app->missing_glyphs());
  out.set("cjkFont", g_app->has_cjk_font());
  out.set("textures", static_cast<int>(ui.program.texture_count()));
  return out;
}

// getMatrix(name, head) -> {rows, cols, data} of a stage of side A; "b:name" for side B.
val get_matrix(const std::string& name, int head) {
  if (!g_app || !g_app->state().has_results) return val::null();
  const attn::AppState& s = g_app->state();
  const bool side_b = name.rfind("b:", 0) == 0;
  const std::string stage = side_b ? name.substr(2) : name;
  const attn::PipelineTrace& t = side_b ? s.compare_trace : s.trace;
  if (!t.status.ok || head < 0 || head >= static_cast<int>(t.heads.size())) return val::null();
  const attn::HeadTrace& h = t.heads[head];
  const attn::Mat* m = nullptr;
  if (stage == "q") m = &h.q;
  else if (stage == "k") m = &h.k;
  else if (stage == "v") m = &h.v;
  else if (stage == "rawScores") m = &h.raw_scores;
  else if (stage == "scaledScores") m = &h.scaled_scores;
  else if (stage == "mask") m = &h.mask_add;
  else if (stage == "maskedScores") m = &h.masked_scores;
  else if (stage == "weights") m = &h.weights;
  else if (stage == "output") m = &h.output;
  else if (stage == "concat") m = &t.concat;
  else if (stage == "final") m = &t.output;
  if (!m) return val::null();
  val out = val::object();
  out.set("rows", static_cast<int>(m->rows()));
  out.set("cols", static_cast<int>(m->cols()));
  out.set("data", attn::bindings::float32_copy(m->data(), m->size()));
  return out;
}

// The CJK font's bytes, fetched by the page after the first frame.
void load_cjk_font(val bytes) {
  if (!g_app) return;
  g_app->set_cjk_font(emscripten::convertJSArrayToNumberVector<unsigned char>(bytes), 0);
}

}  // namespace

namespace attn::platform {
void expose_app(ui::App* app) { g_app = app; }
ui::App* exposed_app() { return g_app; }
}  // namespace attn::platform

EMSCRIPTEN_BINDINGS(attnlab_app) {
  emscripten::function("getStateJson", &get_state);
  emscripten::function("setStateJson", &set_state);
  emscripten::function("framesDrawn", &frames_drawn);
  emscripten::function("frameMs", &frame_ms);
  emscripten::function("layout", &layout);
  emscripten::function("getMatrix", &get_matrix);
  emscripten::function("loadCjkFont", &load_cjk_font);
}
