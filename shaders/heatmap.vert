// A quad covering the heatmap's rectangle; the fragment shader finds the cell.
// Built from gl_VertexID, so no vertex buffer is needed.
uniform vec4 u_rect;  // x0, y0, x1, y1 in clip space
out vec2 v_uv;        // (0, 0) top-left of the matrix, (1, 1) bottom-right

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  v_uv = corner;
  vec2 pos = mix(u_rect.xy, u_rect.zw, corner);
  gl_Position = vec4(pos, 0.0, 1.0);
}
