#version 330 core
// One particle: its position and its value; placed in clip space by the view's letterbox,
// pan and zoom (computed on the CPU). Host uploads hold positions already in the unit square
// of the particles' bounding box; the zero-copy buffer holds them in metres.

layout(location = 0) in vec2 a_position;
layout(location = 1) in float a_value;

uniform vec4 u_data_box;    // the positions' box: lower corner xy, size zw (unit square: 0, 0, 1, 1)
uniform vec4 u_transform;   // unit square -> clip space: xy scale, zw offset
uniform float u_point_size; // diameter, device pixels

out float v_value;

void main() {
  v_value = a_value;
  vec2 unit = (a_position - u_data_box.xy) / u_data_box.zw;
  gl_Position = vec4(unit * u_transform.xy + u_transform.zw, 0.0, 1.0);
  gl_PointSize = u_point_size;
}
