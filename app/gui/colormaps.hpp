// Colour maps for the field view: anchor colours of a few standard maps, resampled into
// a table that the shaders look up (GL_TEXTURE_1D). The mapping of values to colours is
// done on the GPU; these tables are only the lookup data.
#pragma once

#include <QString>
#include <QStringList>
#include <array>
#include <vector>

namespace ks::gui {

// The maps on offer, first the default: {"viridis", "inferno", "coolwarm", "grey"}.
QStringList colormap_names();

// `n` RGB colours (components in [0, 1]) evenly spaced from the low to the high end of the
// map, linearly interpolated between its anchors. An unknown name gives viridis.
std::vector<std::array<float, 3>> colormap_table(const QString& name, int n = 256);

}  // namespace ks::gui
