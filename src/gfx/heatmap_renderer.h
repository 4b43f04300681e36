// Draws a matrix as a heatmap with the shaders in shaders/heatmap.*.
//
// The caller owns the data; upload() copies it into a float texture when it changed
// (the caller says so with a revision number), draw() only issues the quad. draw() is
// meant to run inside Dear ImGui's render pass through an ImDrawList callback, so the
// heatmap sits in an ImGui window like any other widget.
#pragma once

#include "app/colormap.h"
#include "platform/gl.h"

#include <cstdint>
#include <string>

namespace attn::gfx {

struct HeatmapStyle {
  float range_lo = 0.0f, range_hi = 1.0f;
  Colormap colormap = Colormap::Sequential;
};

class HeatmapRenderer {
 public:
  // Creates the program and textures; false (with the reason) if the GL side failed.
  bool init(std::string& error);
  void shutdown();

  // Uploads (rows, cols) row-major values if `revision` differs from the last upload.
  void upload(const float* values, int rows, int cols, std::uint64_t revision);

  // Draws into the framebuffer rectangle (x, y, w, h) in pixels, origin bottom-left.
  void draw(int fb_width, int fb_height, float x, float y, float w, float h,
            const HeatmapStyle& style) const;

  int rows() const { return rows_; }
  int cols() const { return cols_; }

 private:
  GLuint program_ = 0, vao_ = 0, values_tex_ = 0, colormap_tex_ = 0;
  GLint loc_rect_ = -1, loc_values_ = -1, loc_colormap_ = -1, loc_range_ = -1,
        loc_cell_px_ = -1, loc_neg_inf_ = -1;
  int rows_ = 0, cols_ = 0;
  std::uint64_t uploaded_revision_ = ~0ull;
};

}  // namespace attn::gfx
