#include "gfx/heatmap_renderer.h"

#include "gfx/shader.h"
#include "shaders_embedded.h"

namespace attn::gfx {

bool HeatmapRenderer::init(std::string& error) {
  program_ = build_program(shaders::heatmap_vert, shaders::heatmap_frag, error);
  if (!program_) return false;
  loc_rect_ = glGetUniformLocation(program_, "u_rect");
  loc_values_ = glGetUniformLocation(program_, "u_values");
  loc_colormap_ = glGetUniformLocation(program_, "u_colormap");
  loc_range_ = glGetUniformLocation(program_, "u_range");
  loc_cell_px_ = glGetUniformLocation(program_, "u_cell_px");
  loc_neg_inf_ = glGetUniformLocation(program_, "u_neg_inf_color");
  glGenVertexArrays(1, &vao_);  // core profile needs a bound VAO even without attributes

  auto make_texture = [](GLuint& tex) {
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  };
  make_texture(values_tex_);
  make_texture(colormap_tex_);
  const std::vector<std::uint8_t> lut = colormap_lut_rgba(Colormap::Sequential);
  glBindTexture(GL_TEXTURE_2D, colormap_tex_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kLutSize, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, lut.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  return true;
}

void HeatmapRenderer::shutdown() {
  if (program_) glDeleteProgram(program_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (values_tex_) glDeleteTextures(1, &values_tex_);
  if (colormap_tex_) glDeleteTextures(1, &colormap_tex_);
  program_ = vao_ = values_tex_ = colormap_tex_ = 0;
}

void HeatmapRenderer::upload(const float* values, int rows, int cols, std::uint64_t revision) {
  if (revision == uploaded_revision_) return;
  glBindTexture(GL_TEXTURE_2D, values_tex_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, values);
  glBindTexture(GL_TEXTURE_2D, 0);
  rows_ = rows;
  cols_ = cols;
  uploaded_revision_ = revision;
}

void HeatmapRenderer::draw(int fb_width, int fb_height, float x, float y, float w, float h,
                           const HeatmapStyle& style) const {
  if (!program_ || rows_ == 0 || cols_ == 0 || fb_width <= 0 || fb_height <= 0) return;
  // Pixel rectangle -> clip space; the matrix's row 0 is at the top.
  const float x0 = 2.0f * x / fb_width - 1.0f, x1 = 2.0f * (x + w) / fb_width - 1.0f;
  const float y_top = 2.0f * (y + h) / fb_height - 1.0f, y_bottom = 2.0f * y / fb_height - 1.0f;
  glUseProgram(program_);
  glUniform4f(loc_rect_, x0, y_top, x1, y_bottom);
  glUniform2f(loc_range_, style.range_lo, style.range_hi);
  glUniform2f(loc_cell_px_, w / cols_, h / rows_);
  glUniform4f(loc_neg_inf_, 0.85f, 0.85f, 0.85f, 1.0f);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, values_tex_);
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
