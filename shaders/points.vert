#version 330 core
// One particle: its position in the unit square of the particles' bounding box, and its
// value; placed in clip space by the view's letterbox, pan and zoom (computed on the CPU).

layout(location = 0) in vec3 a_particle;  // x, y in [0, 1]; value

uniform vec4 u_transform;   // unit square -> clip space: xy scale, zw offset
uniform float u_point_size; // diameter, device pixels

out float v_value;

void main() {
  v_value = a_particle.z;
  gl_Position = vec4(a_particle.xy * u_transform.xy + u_transform.zw, 0.0, 1.0);
  gl_PointSize = u_point_size;
}
