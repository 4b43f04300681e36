// Colours one matrix cell: fetch the value, map it to [0, 1] with the scale's range,
// look it up in the colormap. Values are in an R32F texture read with texelFetch
// (float filtering is optional in WebGL2), one texel per cell. The visible window of the
// matrix (zoom and pan) is u_view: first cell and cell count, in columns and rows.
uniform sampler2D u_values;    // (cols, rows) R32F
uniform sampler2D u_colormap;  // (256, colormaps) RGBA8, one colormap per row
uniform int u_colormap_row;
uniform vec2 u_range;          // value at the low and high end of the colour scale
uniform vec4 u_view;           // x0, y0 (first visible cell), w, h (visible cells)
uniform vec2 u_cell_px;        // size of one cell on screen, in pixels
uniform vec3 u_grid_color;
uniform vec3 u_stripe_a;       // -inf (masked) cells: diagonal stripes of two greys
uniform vec3 u_stripe_b;
in vec2 v_uv;
out vec4 frag_color;

void main() {
  ivec2 size = textureSize(u_values, 0);
  vec2 cell_f = u_view.xy + v_uv * u_view.zw;
  ivec2 cell = clamp(ivec2(floor(cell_f)), ivec2(0), size - 1);
  float value = texelFetch(u_values, cell, 0).r;
  vec3 color;
  if (isinf(value) && value < 0.0) {
    float stripe = mod(gl_FragCoord.x + gl_FragCoord.y, 8.0);
    color = stripe < 4.0 ? u_stripe_a : u_stripe_b;
  } else {
    float t = clamp((value - u_range.x) / (u_range.y - u_range.x), 0.0, 1.0);
    int index = int(floor(t * 255.0 + 0.5));
    color = texelFetch(u_colormap, ivec2(index, u_colormap_row), 0).rgb;
  }
  // A thin border between cells once they are big enough to show one.
  vec2 in_cell = fract(cell_f) * u_cell_px;
  if (min(u_cell_px.x, u_cell_px.y) >= 12.0 && (in_cell.x < 1.0 || in_cell.y < 1.0))
    color = mix(color, u_grid_color, 0.5);
  frag_color = vec4(color, 1.0);
}
