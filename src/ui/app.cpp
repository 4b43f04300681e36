#include "ui/app.h"

#include "platform/gl.h"
#include "ui/panels.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

namespace attn::ui {

bool App::init(GLFWwindow* window, const char* glsl_version, float content_scale, std::string& error) {
  window_ = window;
  content_scale_ = content_scale > 0.0f ? content_scale : 1.0f;
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout is ours, not a file's (the web has no file system)
  ImGui::StyleColorsDark();
  if (!ImGui_ImplGlfw_InitForOpenGL(window, true)) {
    error = "ImGui GLFW backend failed to start";
    return false;
  }
  if (!ImGui_ImplOpenGL3_Init(glsl_version)) {
    error = "ImGui OpenGL backend failed to start";
    return false;
  }
  if (!heatmap_.init(error)) return false;
  rebuild_fonts();
  update_results(state_);
  return true;
}

void App::set_content_scale(float scale) {
  if (scale > 0.0f) content_scale_ = scale;
}

void App::rebuild_fonts() {
  // Fonts are rasterised at the device's pixel density so text stays crisp at DPR 2;
  // the style is scaled to match from a fresh copy, so repeated changes do not compound.
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.SizePixels = 13.0f * content_scale_;
  io.Fonts->AddFontDefault(&config);
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.ScaleAllSizes(content_scale_);
  ImGui::GetStyle() = style;
  fonts_built_for_ = content_scale_;
}

void App::frame() {
  if (fonts_built_for_ != content_scale_) rebuild_fonts();

  // Compute only when something changed; the upload follows the results' revision.
  update_results(state_);
  if (state_.has_results && state_.result.status.ok) {
    const Mat& w = state_.result.weights;
    heatmap_.upload(w.data(), static_cast<int>(w.rows()), static_cast<int>(w.cols()), state_.revision);
  }

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();

  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float panel_w = 330.0f * content_scale_;
  const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(ImVec2(panel_w, vp->WorkSize.y));
  ImGui::Begin("Attention Lab", nullptr, fixed);
  draw_controls_panel(state_);
  ImGui::End();

  ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + panel_w, vp->WorkPos.y));
  ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x - panel_w, vp->WorkSize.y));
  ImGui::Begin("Weights", nullptr, fixed);
  draw_weights_panel(state_, heatmap_, weights_draw_, layout_);
  ImGui::End();

  ImGui::Render();
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(window_, &fb_w, &fb_h);
  layout_.framebuffer_w = fb_w;
  layout_.framebuffer_h = fb_h;
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(0.08f, 0.08f, 0.10f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ++frames_drawn_;
}

void App::shutdown() {
  heatmap_.shutdown();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace attn::ui
