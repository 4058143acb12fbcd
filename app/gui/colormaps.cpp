#include "colormaps.hpp"

#include <algorithm>
#include <cstdint>
#include <span>

namespace ks::gui {

namespace {

// Anchors are 0xRRGGBB colours, evenly spaced over [0, 1].

// matplotlib's viridis (van der Walt & Smith, CC0), sampled at 9 evenly spaced points.
constexpr std::uint32_t kViridis[] = {0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21908C, 0x27AD81, 0x5DC863, 0xAADC32, 0xFDE725};

// matplotlib's inferno (van der Walt & Smith, CC0), sampled at 9 evenly spaced points.
constexpr std::uint32_t kInferno[] = {0x000004, 0x210C4A, 0x56106E, 0x89226A, 0xBB3754, 0xE35932, 0xF98C0A, 0xF9C932, 0xFCFFA4};

// Moreland's cool-warm diverging map ("Diverging Color Maps for Scientific Visualization",
// 2009; the table matplotlib's coolwarm is built from), every second entry of its 33.
constexpr std::uint32_t kCoolwarm[] = {0x3B4CC0, 0x4D68D7, 0x6282EA, 0x779AF7, 0x8DB0FE, 0xA3C2FF, 0xB8D0F9, 0xCCD9EE, 0xDDDDDD,
                                       0xECD3C5, 0xF5C4AD, 0xF7B194, 0xF49A7B, 0xEC7F63, 0xDE604D, 0xCB3E38, 0xB40426};

constexpr std::uint32_t kGrey[] = {0x000000, 0xFFFFFF};

std::span<const std::uint32_t> anchors(const QString& name) {
  if (name == QLatin1String("inferno")) return kInferno;
  if (name == QLatin1String("coolwarm")) return kCoolwarm;
  if (name == QLatin1String("grey")) return kGrey;
  return kViridis;
}

std::array<float, 3> rgb(std::uint32_t hex) {
  return {float((hex >> 16) & 0xFF) / 255.0f, float((hex >> 8) & 0xFF) / 255.0f, float(hex & 0xFF) / 255.0f};
}

// The map at t in [0, 1], linear between the two anchors around t.
std::array<float, 3> interpolate(std::span<const std::uint32_t> anchors, double t) {
  const double x = std::clamp(t, 0.0, 1.0) * double(anchors.size() - 1);
  const std::size_t i = std::min(std::size_t(x), anchors.size() - 2);
  const float w = float(x - double(i));
  const std::array<float, 3> a = rgb(anchors[i]);
  const std::array<float, 3> b = rgb(anchors[i + 1]);
  return {a[0] + w * (b[0] - a[0]), a[1] + w * (b[1] - a[1]), a[2] + w * (b[2] - a[2])};
}

}  // namespace

QStringList colormap_names() { return {"viridis", "inferno", "coolwarm", "grey"}; }

std::vector<std::array<float, 3>> colormap_table(const QString& name, int n) {
  const std::span<const std::uint32_t> a = anchors(name);
  std::vector<std::array<float, 3>> table;
  table.reserve(std::size_t(std::max(n, 0)));
  for (int k = 0; k < n; ++k) table.push_back(interpolate(a, n > 1 ? double(k) / (n - 1) : 0.0));
  return table;
}

}  // namespace ks::gui
