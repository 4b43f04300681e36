#include "gfx/heatmap_gl.h"

#include "gfx/shader.h"
#include "shaders_embedded.h"

#include <vector>

namespace attn::gfx {

namespace {
std::uint64_t g_texture_uploads = 0;
}  // namespace

std::uint64_t texture_uploads() { return g_texture_uploads; }
void note_texture_upload() { ++g_texture_uploads; }

MatrixTexture::~MatrixTexture() {
  if (texture_) glDeleteTextures(1, &texture_);
}

void MatrixTexture::upload(const float* values, int rows, int cols) {
  if (!texture_) {
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, values);
  glBindTexture(GL_TEXTURE_2D, 0);
  note_texture_upload();
  rows_ = rows;
  cols_ = cols;
}

bool HeatmapProgram::init(std::string& error) {
  program_ = build_program(shaders::heatmap_vert, shaders::heatmap_frag, error);
  if (!program_) return false;
  loc_rect_ = glGetUniformLocation(program_, "u_rect");
  loc_values_ = glGetUniformLocation(program_, "u_values");
  loc_colormap_ = glGetUniformLocation(program_, "u_colormap");
  loc_colormap_row_ = glGetUniformLocation(program_, "u_colormap_row");
  loc_range_ = glGetUniformLocation(program_, "u_range");
  loc_view_ = glGetUniformLocation(program_, "u_view");
  loc_cell_px_ = glGetUniformLocation(program_, "u_cell_px");
  loc_grid_ = glGetUniformLocation(program_, "u_grid_color");
  loc_stripe_a_ = glGetUniformLocation(program_, "u_stripe_a");
  loc_stripe_b_ = glGetUniformLocation(program_, "u_stripe_b");
  glGenVertexArrays(1, &vao_);  // core profile needs a bound VAO even without attributes

  // One row per colormap.
  std::vector<std::uint8_t> lut;
  for (int m = 0; m < kColormapCount; ++m) {
    const std::vector<std::uint8_t> row = colormap_lut_rgba(static_cast<Colormap>(m));
    lut.insert(lut.end(), row.begin(), row.end());
  }
  glGenTextures(1, &colormap_tex_);
  glBindTexture(GL_TEXTURE_2D, colormap_tex_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kLutSize, kColormapCount, 0, GL_RGBA, GL_UNSIGNED_BYTE, lut.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  note_texture_upload();
  return true;
}

void HeatmapProgram::shutdown() {
  if (program_) glDeleteProgram(program_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (colormap_tex_) glDeleteTextures(1, &colormap_tex_);
  program_ = vao_ = colormap_tex_ = 0;
}

void HeatmapProgram::draw(const MatrixTexture& values, int fb_width, int fb_height, float x, float y, float w,
                          float h, const HeatmapView& view, const HeatmapStyle& style) const {
  if (!program_ || values.rows() == 0 || values.cols() == 0 || fb_width <= 0 || fb_height <= 0) return;
  // Pixel rectangle -> clip space; the matrix's row 0 is at the top.
  const float x0 = 2.0f * x / fb_width - 1.0f, x1 = 2.0f * (x + w) / fb_width - 1.0f;
  const float y_top = 2.0f * (y + h) / fb_height - 1.0f, y_bottom = 2.0f * y / fb_height - 1.0f;
  auto rgb = [](GLint loc, Rgb8 c) { glUniform3f(loc, c.r / 255.0f, c.g / 255.0f, c.b / 255.0f); };
  glUseProgram(program_);
  glUniform4f(loc_rect_, x0, y_top, x1, y_bottom);
  glUniform2f(loc_range_, style.range_lo, style.range_hi);
  glUniform4f(loc_view_, view.x0, view.y0, view.w, view.h);
  glUniform2f(loc_cell_px_, w / view.w, h / view.h);
  glUniform1i(loc_colormap_row_, static_cast<int>(style.colormap));
  rgb(loc_grid_, style.grid);
  rgb(loc_stripe_a_, kMaskedStripeA);
  rgb(loc_stripe_b_, kMaskedStripeB);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, values.id());
  glUniform1i(loc_values_, 0);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, colormap_tex_);
  glUniform1i(loc_colormap_, 1);
  glDisable(GL_BLEND);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glActiveTexture(GL_TEXTURE0);
}

}  // namespace attn::gfx
