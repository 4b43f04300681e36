// Browser entry point: Emscripten's GLFW on a WebGL2 canvas, driven by the browser's
// animation frames. Everything above this file is shared with the desktop build.
#include "bindings/app_handle.h"
#include "platform/glfw.h"
#include "platform/imgui_host.h"
#include "ui/app.h"

#include <backends/imgui_impl_glfw.h>
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

namespace {

GLFWwindow* g_window = nullptr;
attn::ui::App g_app;
std::unique_ptr<attn::platform::ImGuiHost> g_host;  // the ImGui backends on g_window

// This GLFW has no HiDPI support: keep the canvas's backing store at its CSS size times
// the device pixel ratio, so the picture is crisp at DPR 2, and tell the app the ratio.
bool fit_canvas_to_page() {
  // This module's own canvas (not a selector): a page may hold more than one lab.
  const double css_w = EM_ASM_DOUBLE({ return Module.canvas.getBoundingClientRect().width; });
  const double css_h = EM_ASM_DOUBLE({ return Module.canvas.getBoundingClientRect().height; });
  const double dpr = emscripten_get_device_pixel_ratio();
  const int want_w = static_cast<int>(std::lround(css_w * dpr));
  const int want_h = static_cast<int>(std::lround(css_h * dpr));
  int have_w = 0, have_h = 0;
  glfwGetWindowSize(g_window, &have_w, &have_h);
  // Not glfwSetWindowSize: this GLFW treats a size equal to the screen's as a request for
  // fullscreen. Browser.setCanvasSize sets the backing store and tells GLFW through its
  // resize listener.
  const bool resized = want_w > 0 && want_h > 0 && (want_w != have_w || want_h != have_h);
  if (resized) EM_ASM({ Browser.setCanvasSize($0, $1); }, want_w, want_h);
  g_app.set_content_scale(static_cast<float>(dpr));
  return resized;
}

// This GLFW passes the browser's wheel deltaY in pixels with the page's sign (positive =
// scroll down), where desktop GLFW passes notches with positive = up. Convert to notches.
void web_scroll(GLFWwindow* window, double dx, double dy) {
  ImGui_ImplGlfw_ScrollCallback(window, -dx / 100.0, -dy / 100.0);
}

// This GLFW hears keys on the whole window: a lab takes them only while its own canvas
// has the focus (several labs on one page; the page's text fields).
bool canvas_focused() { return EM_ASM_INT({ return document.activeElement === Module.canvas ? 1 : 0; }) != 0; }
void web_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
  if (canvas_focused() || action == GLFW_RELEASE) ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}
void web_char(GLFWwindow* window, unsigned int c) {
  if (canvas_focused()) ImGui_ImplGlfw_CharCallback(window, c);
}

// WebGL context loss (a GPU reset, too many contexts on the page, WEBGL_lose_context): the
// listeners below keep Module.glContextLost current and prevent the default, which is what
// lets the browser restore the context. While it is lost nothing is drawn; when it comes
// back the app creates its GL objects again.
void watch_context_loss() {
  EM_ASM({
    Module.glContextLost = false;
    Module.canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();
      Module.glContextLost = true;
    });
    Module.canvas.addEventListener('webglcontextrestored', () => { Module.glContextLost = false; });
  });
}

bool g_gl_released = false;

// True when the frame may draw: handles the lost -> restored transitions.
bool gl_ready() {
  const bool lost = EM_ASM_INT({ return Module.glContextLost ? 1 : 0; }) != 0;
  if (lost && !g_gl_released) {
    g_app.release_gl();
    g_gl_released = true;
  }
  if (!lost && g_gl_released) {
    std::string error;
    if (!g_app.restore_gl(error)) {  // say so once and stop, rather than fail every frame
      error = "The WebGL context came back but could not be used again: " + error + ". Reload the page.";
      EM_ASM({ if (Module.onFatal) Module.onFatal(UTF8ToString($0)); }, error.c_str());
      emscripten_cancel_main_loop();
      return false;
    }
    g_gl_released = false;
  }
  return !lost;
}

bool g_trap_next_frame = false;  // test hook: trap_next_frame()

// Idle frames. The browser calls frame() on each of its animation frames (60 a second on most
// screens). A frame whose picture is the one shown draws nothing, but an idle lab still cost
// about a sixth of a CPU core (headless Chromium, 5 s idle: 0.84 CPU-s; 0.27 on the timer
// below; a page that only asks for animation frames, 0.32; one that asks for none, 0.02).
// Once kIdleAfterFrames frames in a row were idle (App::last_frame_idle: nothing new drawn or
// computed) the loop asks for no more animation frames and runs the app on a timer, every
// kIdleIntervalMs, which keeps ImGui's clock and the pointer's hover current. An input event
// on the canvas or the page, a binding that changes the state (wake()) or a resize brings the
// animation frames back at once, and so does a frame that draws or computes.
constexpr int kIdleAfterFrames = 30;
constexpr int kIdleIntervalMs = 100;
int g_idle_frames = 0;
bool g_on_timer = false;  // the loop runs on kIdleIntervalMs timeouts, not animation frames

bool g_in_frame = false;
void wake() {
  g_idle_frames = 0;
  if (!g_on_timer || !g_window) return;
  g_on_timer = false;
  if (g_in_frame) {  // the loop schedules its next run itself, now on an animation frame
    emscripten_set_main_loop_timing(EM_TIMING_RAF, 1);
    return;
  }
  // From outside the loop (an event, a binding): the timeout already set would run the next
  // frame up to kIdleIntervalMs late. Pausing drops it; resuming asks for an animation frame.
  emscripten_pause_main_loop();
  emscripten_set_main_loop_timing(EM_TIMING_RAF, 1);
  emscripten_resume_main_loop();
}
bool loop_idle() { return g_on_timer; }

// Input events wake the loop at once (Module.labWake, the binding of wake(), once it exists)
// and set Module.labInput, which the next frame takes.
void watch_input() {
  EM_ASM({
    Module.labInput = false;
    const mark = () => {
      Module.labInput = true;
      if (Module.labWake) Module.labWake();
    };
    // (One string each, split here: a comma outside parentheses would end EM_ASM's argument.)
    const canvasEvents = "pointerdown pointerup pointermove pointerleave wheel touchstart touchmove touchend";
    for (const type of canvasEvents.split(" ")) Module.canvas.addEventListener(type, mark, { passive: true });
    for (const type of "keydown keyup focus blur".split(" ")) window.addEventListener(type, mark, { passive: true, capture: true });
  });
}
bool take_input() { return EM_ASM_INT({ const v = Module.labInput; Module.labInput = false; return v ? 1 : 0; }) != 0; }
// A hidden page gives no animation frames; on the timer the loop skips its frames there too.
bool page_hidden() { return EM_ASM_INT({ return document.hidden ? 1 : 0; }) != 0; }

void frame() {
  if (g_trap_next_frame) __builtin_trap();
  if (g_on_timer && page_hidden()) return;
  g_in_frame = true;
  const bool resized = fit_canvas_to_page();
  if (take_input() || resized) wake();
  glfwPollEvents();
  if (!gl_ready()) {
    g_in_frame = false;
    return;
  }
  g_app.frame();
  if (!g_app.last_frame_idle()) {
    wake();
  } else if (++g_idle_frames >= kIdleAfterFrames && !g_on_timer) {
    g_on_timer = true;
    emscripten_set_main_loop_timing(EM_TIMING_SETTIMEOUT, kIdleIntervalMs);
  }
  g_in_frame = false;
}

// The page's stop() (bindings/app_handle.h): the loop ends and everything it holds is released.
void stop_app() {
  if (!g_window) return;
  emscripten_cancel_main_loop();
  attn::bindings::expose_app(nullptr);
  g_app.shutdown();
  glfwDestroyWindow(g_window);
  glfwTerminate();
  g_host.reset();
  g_window = nullptr;
}
void trap_next_frame() { g_trap_next_frame = true; }

}  // namespace

int main() {
  if (!glfwInit()) {
    std::fprintf(stderr, "attnlab: GLFW failed to start\n");
    return 1;
  }
  // MIN and MAX WebGL version 2 are set at link time; GLFW asks for the same here.
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // ImGui and the heatmaps use neither a depth nor a stencil buffer. web/app.js creates the
  // context early with these same attributes (alpha, no depth, no stencil, no antialias);
  // a canvas has one context, so the one GLFW receives here is that one.
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  // The window takes the canvas's size as the page left it (web/app.js sizes it to the
  // page before creating the context), so the drawing buffer is not resized right away.
  int width = EM_ASM_INT({ return Module.canvas.width; });
  int height = EM_ASM_INT({ return Module.canvas.height; });
  if (width < 16 || height < 16) width = 800, height = 600;
  g_window = glfwCreateWindow(width, height, "Attention Lab", nullptr, nullptr);
  if (!g_window) {
    EM_ASM(if (Module.onFatal) Module.onFatal('WebGL2 is not available in this browser.'););
    return 1;
  }
  glfwMakeContextCurrent(g_window);
  const float dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  std::string error;
  attn::ui::AppOptions options;
  options.controls.sentence_in_html_field = true;  // IMEs and paste need a real text field
  options.controls.model_files_in_page = true;     // download button and file picker (web/train-ui.mjs)
  options.skip_unchanged_frames = true;            // the canvas keeps its last picture (ui/frame_picture.h)
  g_host = std::make_unique<attn::platform::ImGuiHost>(g_window, g_app);
  if (!g_app.init(*g_host, dpr, options, error)) {
    std::fprintf(stderr, "attnlab: %s\n", error.c_str());
    EM_ASM({ if (Module.onFatal) Module.onFatal(UTF8ToString($0)); }, error.c_str());
    return 1;
  }
  glfwSetScrollCallback(g_window, web_scroll);  // replaces ImGui's, which web_scroll calls
  glfwSetKeyCallback(g_window, web_key);        // likewise; ImGui's then calls the host's
  glfwSetCharCallback(g_window, web_char);
  watch_context_loss();
  watch_input();
  attn::bindings::expose_app(&g_app, {&stop_app, &wake, &loop_idle, &trap_next_frame});
  emscripten_set_main_loop(frame, 0, false);
  return 0;
}
