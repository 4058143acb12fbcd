#version 330 core
// A quad over the unit square of the data rectangle (cell grid, or colour bar), placed in
// clip space by the view's letterbox, pan and zoom (computed on the CPU).

layout(location = 0) in vec2 a_unit;  // corner of the unit square, (0,0) = lower left

uniform vec4 u_transform;  // unit square -> clip space: xy scale, zw offset

out vec2 v_uv;

void main() {
  v_uv = a_unit;
  gl_Position = vec4(a_unit * u_transform.xy + u_transform.zw, 0.0, 1.0);
}
