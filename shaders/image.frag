#version 330 core
// Colour-maps one scalar per cell (GL_R32F texture) through a 1D colour map.
// The value-to-colour functions are the same in points.frag: change both together.

in vec2 v_uv;

uniform sampler2D u_field;     // one scalar per cell, row 0 = lowest y
uniform sampler1D u_colormap;  // RGB, low end first
uniform float u_lo;            // value shown with the low end (> 0 when u_log)
uniform float u_hi;            // value shown with the high end (> u_lo)
uniform bool u_log;            // map log10(value); values <= 0 show as u_lo
uniform bool u_ramp;           // colour bar: the position v_uv.y is the mapped value

out vec4 frag_colour;

const vec3 kNanColour = vec3(0.78);  // cells whose value is not a number, or masked (colour_bar.hpp kMaskColour)

// The value's place in [lo, hi], as a fraction in [0, 1].
float fraction(float value) {
  if (u_log) {
    // log() instead of log10(): the ratio of logarithms is the same in any base.
    return clamp(log(max(value, u_lo) / u_lo) / log(u_hi / u_lo), 0.0, 1.0);
  }
  return clamp((value - u_lo) / (u_hi - u_lo), 0.0, 1.0);
}

// The colour map at t in [0, 1]: texel centres span the ends exactly.
vec3 colourAt(float t) {
  float n = float(textureSize(u_colormap, 0));
  return texture(u_colormap, (t * (n - 1.0) + 0.5) / n).rgb;
}

void main() {
  if (u_ramp) {
    frag_colour = vec4(colourAt(v_uv.y), 1.0);
    return;
  }
  float value = texture(u_field, v_uv).r;
  frag_colour = vec4(isnan(value) ? kNanColour : colourAt(fraction(value)), 1.0);
}
