// Draws matrices as heatmaps with the shaders in shaders/heatmap.*.
//
// One HeatmapProgram (program, colormap table) serves every heatmap; each matrix lives in a
// MatrixTexture, uploaded when its owner (the heatmap widget's cache, ui/heatmap_widget.cpp)
// finds the matrix changed. draw() issues one quad and is meant to run inside Dear ImGui's
// render pass through an ImDrawList callback, so heatmaps sit in ImGui windows like other
// widgets. The caller owns the data; nothing here decides what to draw.
#pragma once

#include "files/colormap.h"
#include "gfx/gl.h"

#include <cstdint>
#include <string>

namespace attn::gfx {

// How many times this process has written a texture (matrix textures, the colormap table,
// and whatever else calls note_texture_upload(): the font atlas). A picture that reads
// textures is the picture drawn before only if none was written in between.
std::uint64_t texture_uploads();
void note_texture_upload();

struct HeatmapStyle {
  float range_lo = 0.0f, range_hi = 1.0f;
  Colormap colormap = Colormap::Sequential;
  Rgb8 grid = {20, 20, 26};
};

// The visible part of the matrix: first cell (x0 = column, y0 = row) and how many cells.
struct HeatmapView {
  float x0 = 0, y0 = 0, w = 0, h = 0;  // w = 0: not set yet (the whole matrix)
};

class MatrixTexture {
 public:
  MatrixTexture() = default;
  MatrixTexture(const MatrixTexture&) = delete;  // owns a GL name
  MatrixTexture& operator=(const MatrixTexture&) = delete;
  ~MatrixTexture();
  // Uploads (rows, cols) row-major values.
  void upload(const float* values, int rows, int cols);
  GLuint id() const { return texture_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }

 private:
  GLuint texture_ = 0;
  int rows_ = 0, cols_ = 0;
};

class HeatmapProgram {
 public:
  bool init(std::string& error);
  void shutdown();
  // Draws into the framebuffer rectangle (x, y, w, h) in pixels, origin bottom-left.
  void draw(const MatrixTexture& values, int fb_width, int fb_height, float x, float y, float w, float h,
            const HeatmapView& view, const HeatmapStyle& style) const;

 private:
  GLuint program_ = 0, vao_ = 0, colormap_tex_ = 0;
  GLint loc_rect_ = -1, loc_values_ = -1, loc_colormap_ = -1, loc_colormap_row_ = -1, loc_range_ = -1,
        loc_view_ = -1, loc_cell_px_ = -1, loc_grid_ = -1, loc_stripe_a_ = -1, loc_stripe_b_ = -1;
};

}  // namespace attn::gfx
