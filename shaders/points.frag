#version 330 core
// Colour-maps one value per particle through a 1D colour map and draws it as a disc.
// The value-to-colour functions are the same in image.frag: change both together.

in float v_value;

uniform sampler1D u_colormap;  // RGB, low end first
uniform float u_lo;            // value shown with the low end (> 0 when u_log)
uniform float u_hi;            // value shown with the high end (> u_lo)
uniform bool u_log;            // map log10(value); values <= 0 show as u_lo

out vec4 frag_colour;

const vec3 kNanColour = vec3(0.5);  // particles whose value is not a number

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
  vec2 from_centre = gl_PointCoord - vec2(0.5);
  if (dot(from_centre, from_centre) > 0.25) discard;  // round points: outside the disc
  frag_colour = vec4(isnan(v_value) ? kNanColour : colourAt(fraction(v_value)), 1.0);
}
