// A panel as a picture for print: App::capture_panel draws one frame into an offscreen
// framebuffer `scale` times the window's pixels (fonts and sizes scaled alike, so the
// layout is the one on screen) and reads the panel window's rectangle back. The window's
// own framebuffer is not touched, so the picture on screen does not flicker.
#include "app/app_messages.h"
#include "gfx/gl.h"
#include "ui/app.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace attn::ui {

bool App::capture_panel(int scale, std::vector<std::uint8_t>& rgba, int& width, int& height, Status& error) {
  if (scale < 1 || scale > 4) {
    error = Status::error(msg::app_capture_scale);
    return false;
  }
  int fb_w = 0, fb_h = 0;
  host_->framebuffer_size(fb_w, fb_h);
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (fb_w < 1 || fb_h < 1 || fb_w * scale > max_size || fb_h * scale > max_size) {
    error = Status::error(msg::app_capture_size, fb_w * scale, fb_h * scale, max_size);
    return false;
  }
  const int big_w = fb_w * scale, big_h = fb_h * scale;
  GLuint target = 0, framebuffer = 0;
  glGenRenderbuffers(1, &target);
  glBindRenderbuffer(GL_RENDERBUFFER, target);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, big_w, big_h);
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, target);
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  bool ok = false;
  if (!complete) {
    error = Status::error(msg::app_capture_framebuffer);
  } else {
    const float screen_scale = content_scale_;
    content_scale_ = screen_scale * static_cast<float>(scale);
    capture_scale_ = scale;
    frame();
    capture_scale_ = 0;
    content_scale_ = screen_scale;
    // The panel's rectangle in whole pixels at scale 1, then exactly `scale` times that.
    const ImVec2 fb_scale = ImGui::GetDrawData()->FramebufferScale;
    const int x = std::clamp(static_cast<int>(std::lround(panel_rect_[0] * fb_scale.x / scale)), 0, fb_w - 1);
    const int y = std::clamp(static_cast<int>(std::lround(panel_rect_[1] * fb_scale.y / scale)), 0, fb_h - 1);
    const int w = std::clamp(static_cast<int>(std::lround(panel_rect_[2] * fb_scale.x / scale)), 1, fb_w - x);
    const int h = std::clamp(static_cast<int>(std::lround(panel_rect_[3] * fb_scale.y / scale)), 1, fb_h - y);
    width = w * scale;
    height = h * scale;
    std::vector<std::uint8_t> bottom_up(static_cast<std::size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(x * scale, big_h - (y + h) * scale, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
    // GL's rows run bottom-up; a PNG's top-down. The window is opaque: alpha 255.
    const std::size_t stride = static_cast<std::size_t>(width) * 4;
    rgba.resize(bottom_up.size());
    for (int row = 0; row < height; ++row)
      std::copy_n(bottom_up.begin() + static_cast<std::ptrdiff_t>((height - 1 - row) * stride), stride,
                  rgba.begin() + static_cast<std::ptrdiff_t>(row * stride));
    for (std::size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
    ok = true;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &framebuffer);
  glDeleteRenderbuffers(1, &target);
  return ok;
}

}  // namespace attn::ui
