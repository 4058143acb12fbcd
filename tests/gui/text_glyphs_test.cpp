// Greek letters and symbols reach VTK and the ImGui overlay whole (issue 48: "y /" for "y / δ",
// "?_g" for "σ_g"). For every shipped preset, each label the views write for its series, fields and
// quick parameters holds no '?' or U+FFFD, has a glyph for every character in text_font.hpp's font,
// and lies inside the glyph ranges of the overlay's font atlas.
#include <gtest/gtest.h>

#include <QRawFont>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "io/preset.hpp"
#include "notation.hpp"
#include "text_font.hpp"

namespace {

namespace fs = std::filesystem;

// A set-up that would need more host memory than this is made smaller first: labels do not depend
// on the resolution.
constexpr std::uint64_t kSetupBudgetBytes = std::uint64_t(256) << 20;
const char* const kResolutionKeys[] = {"nx", "ny", "nz", "nv", "body_cells"};

// Halves the grid and velocity cells (down to their minimum); false when none could shrink.
bool halve_resolution(ks::ParamSet& params) {
  bool halved = false;
  for (const char* key : kResolutionKeys) {
    if (!params.has(key)) continue;
    const std::int64_t now = params.get_int(key), half = std::max(std::int64_t(params.spec(key).min), now / 2);
    halved = halved || half < now;
    params.set(key, half);
  }
  return halved;
}

// A field's labels: the scene's colour bar title, its grid's axes in the overlay's hover text.
void add_field_labels(QStringList& labels, const ks::FieldDesc& desc, const ks::Grid& grid) {
  labels << ks::gui::unicode_axis_title(desc.name, desc.unit);
  for (const ks::GridAxis& axis : grid.axes) labels << ks::gui::unicode_notation(axis.name) << ks::gui::unicode_notation(axis.unit);
}

// A series' labels: its legend entry (and the overlay's comparison) and the plot's axis titles.
void add_series_labels(QStringList& labels, const std::string& name, const std::string& x_label, const std::string& y_label) {
  labels << ks::gui::unicode_notation(name) << ks::gui::unicode_notation(x_label) << ks::gui::unicode_notation(y_label);
}

// The labels of what the preset shows right after its set-up on the CPU, at a resolution within
// kSetupBudgetBytes. Where the method refuses the smaller set-up (a packed bed whose spheres no
// longer fit), the fields and series its method declares.
QStringList shown_labels(const ks::Preset& preset) {
  auto method = ks::builtin_registry().create(preset.method);
  const ks::ExecutionContext cpu = ks::resolve_backend(ks::BackendRequest::Cpu);
  ks::ParamSet params = preset.params;
  bool reduced = false;
  while (method->estimate_memory(params, cpu).host_bytes > kSetupBudgetBytes && halve_resolution(params)) reduced = true;
  QStringList labels;
  try {
    method->setup(params, cpu);
  } catch (const ks::Error& e) {
    if (!reduced || e.kind() != ks::ErrorKind::BadInput) throw;
    for (const ks::FieldDesc& f : method->info().fields) add_field_labels(labels, f, ks::Grid());
    for (const std::string& s : method->info().series) add_series_labels(labels, s, "", "");
    return labels;
  }
  const ks::Snapshot snap = method->snapshot();
  for (const ks::FieldData& f : snap.fields) add_field_labels(labels, f.desc, f.grid);
  for (const ks::Series& s : snap.series) add_series_labels(labels, s.name, s.x_label, s.y_label);
  labels << QString::fromStdString(method->progress().work_unit);  // the overlay's rate line
  return labels;
}

// The overlay's slider labels.
QStringList quick_parameter_labels(const ks::Preset& preset) {
  QStringList labels;
  for (const ks::ParamSpec& spec : preset.params.specs())
    if (spec.quick) labels << ks::gui::unicode_axis_title(spec.label, spec.unit);
  return labels;
}

bool in_overlay_ranges(char32_t c) {
  const auto& r = ks::gui::kOverlayGlyphRanges;
  for (std::size_t i = 0; i + 1 < r.size() && r[i] != 0; i += 2)
    if (c >= r[i] && c <= r[i + 1]) return true;
  return false;
}

// What keeps `label` from being drawn whole; empty when nothing does.
std::string glyph_problems(const QString& label, const QRawFont& font) {
  std::string problems;
  for (const uint c : label.toUcs4()) {
    const std::string at = QString("U+%1 ").arg(c, 4, 16, QChar('0')).toUpper().toStdString();
    if (c == U'?' || c == 0xFFFD) problems += at + "stands for a lost character; ";
    else if (!font.supportsCharacter(c)) problems += at + "has no glyph in the font; ";
    else if (!in_overlay_ranges(char32_t(c))) problems += at + "is outside the overlay's glyph ranges; ";
  }
  return problems;
}

TEST(TextGlyphs, EveryPresetsLabelsHaveGlyphsInTheFontAndTheOverlay) {
  const QRawFont font(QString(ks::gui::kTextFontFile), 12.0);
  ASSERT_TRUE(font.isValid()) << ks::gui::kTextFontFile << " could not be read: install fonts-dejavu-core";
  int presets = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(KS_SOURCE_DIR) / "presets")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    const ks::Preset preset = ks::load_preset(entry.path().string(), ks::builtin_registry());
    ++presets;
    QStringList labels;
    EXPECT_NO_THROW(labels = shown_labels(preset) + quick_parameter_labels(preset));
    for (const QString& label : labels) EXPECT_EQ(glyph_problems(label, font), "") << "in \"" << label.toStdString() << "\"";
  }
  EXPECT_GE(presets, 30) << "expected every shipped preset under " << KS_SOURCE_DIR << "/presets";
}

// Before, each byte of a UTF-8 character became a Latin-1 one: "Â± standard error".
TEST(TextGlyphs, Utf8InALabelIsKeptWhole) {
  EXPECT_EQ(ks::gui::unicode_notation("± standard error"), QString("± standard error"));
  EXPECT_EQ(ks::gui::unicode_notation("sigma_g … 2 µm"), QString("σ_g … 2 µm"));
  EXPECT_EQ(ks::gui::unicode_axis_title("End time", "tau_char"), QString("End time [τ_char]"));
}

}  // namespace
