// Colours one matrix cell: fetch the value, map it to [0, 1] with the scale's range,
// look it up in the colormap. Values are in an R32F texture read with texelFetch
// (float filtering is optional in WebGL2), one texel per cell.
uniform sampler2D u_values;    // (cols, rows) R32F
uniform sampler2D u_colormap;  // (256, 1) RGBA8
uniform vec2 u_range;          // value at the low and high end of the colour scale
uniform vec2 u_cell_px;        // size of one cell on screen, in pixels
uniform vec4 u_neg_inf_color;  // how a -inf (masked) score is drawn
in vec2 v_uv;
out vec4 frag_color;

void main() {
  ivec2 size = textureSize(u_values, 0);
  ivec2 cell = clamp(ivec2(v_uv * vec2(size)), ivec2(0), size - 1);
  float value = texelFetch(u_values, cell, 0).r;
  if (isinf(value) && value < 0.0) {
    frag_color = u_neg_inf_color;
    return;
  }
  float t = clamp((value - u_range.x) / (u_range.y - u_range.x), 0.0, 1.0);
  int index = int(floor(t * 255.0 + 0.5));
  vec3 color = texelFetch(u_colormap, ivec2(index, 0), 0).rgb;
  // A thin darker border between cells once they are big enough to show one.
  vec2 in_cell = fract(v_uv * vec2(size)) * u_cell_px;
  if (min(u_cell_px.x, u_cell_px.y) >= 12.0 && (in_cell.x < 1.0 || in_cell.y < 1.0))
    color *= 0.6;
  frag_color = vec4(color, 1.0);
}
