#include "platform/imgui_host.h"

#include "platform/glfw.h"
#include "ui/app.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

namespace attn::platform {

ImGuiHost* ImGuiHost::of(GLFWwindow* window) { return static_cast<ImGuiHost*>(glfwGetWindowUserPointer(window)); }

bool ImGuiHost::start(std::string& error) {
  // Installed before ImGui's backend, which keeps it and calls it from its own callback.
  glfwSetWindowUserPointer(window_, this);
  glfwSetKeyCallback(window_, &ImGuiHost::key_callback);
  if (!ImGui_ImplGlfw_InitForOpenGL(window_, true)) {
    error = "ImGui GLFW backend failed to start";
    return false;
  }
  if (!ImGui_ImplOpenGL3_Init(gfx::glsl_version())) {
    error = "ImGui OpenGL backend failed to start";
    return false;
  }
  return true;
}

void ImGuiHost::stop() { ImGui_ImplGlfw_Shutdown(); }

void ImGuiHost::stop_renderer() { ImGui_ImplOpenGL3_Shutdown(); }

bool ImGuiHost::restart_renderer(std::string& error) {
  if (ImGui_ImplOpenGL3_Init(gfx::glsl_version())) return true;
  error = "ImGui OpenGL backend failed to start again";
  return false;
}

void ImGuiHost::upload_fonts() {
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void ImGuiHost::new_frame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
}

void ImGuiHost::render(ImDrawData* draw_data) { ImGui_ImplOpenGL3_RenderDrawData(draw_data); }

void ImGuiHost::framebuffer_size(int& width, int& height) const { glfwGetFramebufferSize(window_, &width, &height); }

double ImGuiHost::seconds() const { return glfwGetTime(); }

// Only presses and repeats reach the app; a release changes nothing there.
void ImGuiHost::key_callback(GLFWwindow* window, int key, int, int action, int mods) {
  ImGuiHost* host = of(window);
  if (host && (action == GLFW_PRESS || action == GLFW_REPEAT)) host->app_.press_key(key, (mods & GLFW_MOD_CONTROL) != 0);
}

}  // namespace attn::platform
