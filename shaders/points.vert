#version 330 core
// One particle: its position and its value; placed in clip space by the view's letterbox,
// pan and zoom (computed on the CPU), and sized by its value (a larger diameter, a larger disc).
// Host uploads hold positions already in the unit square of the particles' bounding box; the
// zero-copy buffer holds them in the grid's units.

layout(location = 0) in vec2 a_position;
layout(location = 1) in float a_value;

uniform vec4 u_data_box;    // the positions' box: lower corner xy, size zw (unit square: 0, 0, 1, 1)
uniform vec4 u_transform;   // unit square -> clip space: xy scale, zw offset
uniform float u_point_size; // diameter of a mid-range value's disc, device pixels
uniform float u_lo;            // value at the low end of the colour map (> 0 when u_log)
uniform float u_hi;            // value at the high end (> u_lo)
uniform bool u_log;            // on a log scale

out float v_value;

void main() {
  v_value = a_value;
  vec2 unit = (a_position - u_data_box.xy) / u_data_box.zw;
  gl_Position = vec4(unit * u_transform.xy + u_transform.zw, 0.0, 1.0);
  // The value's place in [lo, hi], as points.frag colours it: half the size at the low end, 1.5 times at the high.
  float t = u_log ? log(max(a_value, u_lo) / u_lo) / log(u_hi / u_lo) : (a_value - u_lo) / (u_hi - u_lo);
  gl_PointSize = u_point_size * (0.5 + clamp(isnan(a_value) ? 0.5 : t, 0.0, 1.0));
}
