// The application shell shared by browser and desktop: owns the state, the GL renderers
// and the ImGui context, and draws one frame. The platform layer creates the window and
// GL context, then calls init() once and frame() each time the display wants a picture.
#pragma once

#include "app/app_state.h"
#include "gfx/heatmap_renderer.h"

#include <cstdint>
#include <string>

struct GLFWwindow;

namespace attn::ui {

// Where the last frame put things, in framebuffer pixels from the top-left; tests and the
// page's handle read this to find cells on screen.
struct Layout {
  float heatmap_x = 0, heatmap_y = 0, heatmap_w = 0, heatmap_h = 0;
  int framebuffer_w = 0, framebuffer_h = 0;
};

// A heatmap queued for drawing inside ImGui's render pass (see panels.cpp). It must
// outlive the frame's draw data, so the App keeps it.
struct HeatmapDraw {
  const gfx::HeatmapRenderer* renderer = nullptr;
  gfx::HeatmapStyle style;
  float x = 0, y = 0, w = 0, h = 0;  // ImGui display coordinates
};

class App {
 public:
  // `content_scale` is the device pixel ratio (web) or monitor scale (desktop).
  bool init(GLFWwindow* window, const char* glsl_version, float content_scale, std::string& error);
  void frame();
  void shutdown();

  AppState& state() { return state_; }
  const Layout& layout() const { return layout_; }
  std::uint64_t frames_drawn() const { return frames_drawn_; }
  void set_content_scale(float scale);

 private:
  void rebuild_fonts();

  GLFWwindow* window_ = nullptr;
  AppState state_;
  gfx::HeatmapRenderer heatmap_;
  Layout layout_;
  HeatmapDraw weights_draw_;
  float content_scale_ = 1.0f;
  float fonts_built_for_ = 0.0f;
  std::uint64_t frames_drawn_ = 0;
};

}  // namespace attn::ui
