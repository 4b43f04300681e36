// Dear ImGui on a GLFW window, for the desktop (OpenGL 3.3 core) and the browser (WebGL2
// through Emscripten's GLFW): ImGui's GLFW and OpenGL 3 backends, the window's key presses
// for the app, its framebuffer size and GLFW's clock. The app shell sees it as its
// ui::AppHost; main_desktop.cpp and main_web.cpp each make one for their window.
#pragma once

#include "ui/app_host.h"

struct GLFWwindow;

namespace attn::ui {
class App;
}

namespace attn::platform {

class ImGuiHost final : public ui::AppHost {
 public:
  // Key presses in `window` go to `app`. The host becomes the window's user pointer.
  ImGuiHost(GLFWwindow* window, ui::App& app) : window_(window), app_(app) {}
  ImGuiHost(const ImGuiHost&) = delete;
  ImGuiHost& operator=(const ImGuiHost&) = delete;

  // The host of a window it started (null before), for GLFW's callbacks.
  static ImGuiHost* of(GLFWwindow* window);
  GLFWwindow* window() const { return window_; }
  ui::App& app() const { return app_; }

  bool start(std::string& error) override;
  void stop() override;
  void stop_renderer() override;
  bool restart_renderer(std::string& error) override;
  void upload_fonts() override;
  void new_frame() override;
  void render(ImDrawData* draw_data) override;
  void framebuffer_size(int& width, int& height) const override;
  double seconds() const override;

 private:
  static void key_callback(GLFWwindow* window, int key, int scancode, int action, int mods);

  GLFWwindow* window_;
  ui::App& app_;
};

}  // namespace attn::platform
