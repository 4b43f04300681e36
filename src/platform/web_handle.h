// The page's handle on the running app (web only): the Embind functions behind
// window.attnlab (web/app.js) reach the app through this pointer.
#pragma once

#include "core/base/types.h"

#include <string>

namespace attn::ui {
class App;
}

namespace attn::platform {

void expose_app(ui::App* app);
// The app given to expose_app (null before), for binding files other than app_bindings.cpp.
ui::App* exposed_app();

// A binding's answer to the page: "" when st is ok, else its English message (what scripts
// read). A refusal is kept until the next one, and refusalText() gives it in the UI's
// language for the page to show (import bar, notice line).
std::string refused(const Status& st);

// Stops the main loop, releases the app's GL objects and GLFW's listeners (an embed that
// scrolled away; the page then drops the module and its WebGL context).
void stop_app();

// Test hook (tests/browser/crash_screen.test.mjs): the next frame executes a trap instruction,
// as a bug inside the frame would.
void trap_next_frame();

}  // namespace attn::platform
