// The page's handle on the running app (web only): the Embind functions behind
// window.attnlab (web/app.js) reach the app through this pointer.
#pragma once

namespace attn::ui {
class App;
}

namespace attn::platform {

void expose_app(ui::App* app);
// The app given to expose_app (null before), for binding files other than app_bindings.cpp.
ui::App* exposed_app();

// Stops the main loop, releases the app's GL objects and GLFW's listeners (an embed that
// scrolled away; the page then drops the module and its WebGL context).
void stop_app();

}  // namespace attn::platform
