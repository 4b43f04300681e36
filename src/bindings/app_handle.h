// The page's handle on the running app (web only): the Embind functions behind
// window.attnlab (web/app.js) reach the app through the pointer the web entry point
// (platform/main_web.cpp) hands over here, with the two things the page may ask of its main
// loop. Declared and defined in the bindings: the entry point includes this, and the
// bindings include nothing of the platform.
#pragma once

#include "core/base/types.h"

#include <string>
#include <utility>

namespace attn::ui {
class App;
}

namespace attn::bindings {

// What the page may ask of the main loop: stop it (the page's stop(): the loop ends, the app's
// GL objects and GLFW's listeners are released, as for an embed that scrolled away); wake it
// (a call changed the state: the loop, which runs the app on a slow timer while it is idle,
// runs it on every animation frame again); whether it idles (the page's own per-frame poll
// slows down too); and, as a test hook (tests/browser/crash_screen.test.mjs), execute a trap
// instruction in the next frame, as a bug inside the frame would. Null: nothing to do.
struct LoopControls {
  void (*stop)() = nullptr;
  void (*wake)() = nullptr;
  bool (*idle)() = nullptr;
  void (*trap_next_frame)() = nullptr;
};

// Wakes the loop (LoopControls::wake), for the bindings that change the state.
void wake_loop();
// A binding that wakes the loop before it runs, registered as
// emscripten::function("name", waking<&f>): the calls that change what the app shows.
template <auto F>
struct Waking;
template <typename R, typename... A, R (*F)(A...)>
struct Waking<F> {
  static R call(A... args) {
    wake_loop();
    return F(std::forward<A>(args)...);
  }
};
template <auto F>
constexpr auto waking = &Waking<F>::call;

// The running app and its loop's controls (null and none once it stopped).
void expose_app(ui::App* app, const LoopControls& loop = {});
// The app given to expose_app (null before), for binding files other than app_bindings.cpp.
ui::App* exposed_app();

// A binding's answer to the page: "" when st is ok, else its English message (what scripts
// read). A refusal is kept until the next one, and refusalText() gives it in the UI's
// language for the page to show (import bar, notice line).
std::string refused(const Status& st);

}  // namespace attn::bindings
