// The page's handle on the running app (web only): the Embind functions behind
// window.attnlab (web/app.js) reach the app through this pointer.
#pragma once

namespace attn::ui {
class App;
}

namespace attn::platform {

void expose_app(ui::App* app);

}  // namespace attn::platform
