// What the app shell needs from the platform it runs on: Dear ImGui's platform and renderer
// backends, the framebuffer's size and a clock. The platform layer implements it
// (platform/imgui_host.h: GLFW with OpenGL 3.3 or WebGL2); App calls it at fixed points of
// init, frame and shutdown, and so never names the window system or a backend itself.
#pragma once

#include <string>

struct ImDrawData;

namespace attn::ui {

class AppHost {
 public:
  virtual ~AppHost() = default;

  // Both ImGui backends, for the current ImGui context. Key presses reach the app from here
  // on (App::press_key).
  virtual bool start(std::string& error) = 0;
  // The platform backend (the renderer is stopped before, by App::release_gl).
  virtual void stop() = 0;
  // The renderer alone, for WebGL context loss: stopped while the context is lost, started
  // again on the restored one.
  virtual void stop_renderer() = 0;
  virtual bool restart_renderer(std::string& error) = 0;
  // The font atlas was rebuilt: its texture is made again.
  virtual void upload_fonts() = 0;

  // Input, display size and time into ImGui's io, before ImGui::NewFrame.
  virtual void new_frame() = 0;
  // ImGui's draw lists into the bound framebuffer, after ImGui::Render.
  virtual void render(ImDrawData* draw_data) = 0;
  virtual void framebuffer_size(int& width, int& height) const = 0;
  // Seconds since the platform started (the training slices' clock).
  virtual double seconds() const = 0;
};

}  // namespace attn::ui
