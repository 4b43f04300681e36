// Where the last frame put things, as JSON text: each heatmap's rectangle, view and colour
// range, each panel tab's rectangle, what the pointer hovers, the framebuffer's size and a
// few counters. Tests use it to find cells in a picture of the app. One writer for both
// readers: the page's attnlab.layout() (src/bindings/app_bindings.cpp parses it into an
// object) and the desktop's OUT.png.json beside a --screenshot.
//
//   {"heatmaps": {id: {x, y, w, h, rows, cols, viewX0, viewY0, viewW, viewH, rangeLo, rangeHi}},
//    "tabs": {panel: {x, y, w, h}}, "hover": {heatmap, row, col, derivation},
//    "framebufferWidth", "framebufferHeight", "playing", "missingGlyphs", "cjkFont", "textures"}
//
// Rectangles are in ImGui's display pixels, from the top-left of the canvas or window.
#pragma once

#include <string>

namespace attn::ui {

class App;

std::string layout_json(const App& app);

}  // namespace attn::ui
