// The plot view: one series of the latest snapshot as a VTK chart, with its
// companions ("<series> sectional", "<series> Rankine-Hugoniot"), its ± standard error and
// the preset's reference. Mouse: wheel zooms about the cursor, left drag pans, double click
// shows all the data again.
#pragma once

#include <QString>
#include <QTimer>
#include <QWidget>
#include <array>
#include <memory>
#include <string>

#include "core/method.hpp"
#include "snapshot_throttle.hpp"
#include "io/preset.hpp"

class QCheckBox;
class QComboBox;

namespace ks::gui {

class ChartCanvas;  // the OpenGL widget that hosts the VTK chart (plot_view.cpp)

class PlotView : public QWidget {
  Q_OBJECT
 public:
  explicit PlotView(QWidget* parent = nullptr);
  ~PlotView() override;

  // Latest snapshot; redraws at most every 100 ms (keep the newest, drop intermediate ones)
  // so a fast simulation never floods the GUI thread.
  void showSnapshot(std::shared_ptr<const ks::Snapshot> snapshot);
  // Back to a new view's state for another preset: no snapshot, reference or wanted series,
  // linear axes (the next series chooses its own log axes), no zoom. The plot is empty until the
  // next snapshot.
  void resetForPreset();
  // The preset's reference (may be empty: ref.series empty). Drawn as symbols on its series;
  // the legend entry shows its mean relative error vs the series.
  void setReference(const ks::Reference& ref);
  // Which series to show. A name the snapshot lacks is kept as the wish (the first series
  // is shown meanwhile), so a preset's default view can be set before its first snapshot.
  void setSeries(const QString& name);
  QString series() const;
  // Zooms by `factor` (< 1: in) about the point at fractions (fx, fy) of the plot area, as the
  // mouse wheel does; the window then stays as new snapshots arrive, until resetZoom (a double
  // click, another series or scale).
  void zoomAt(double fx, double fy, double factor);
  void resetZoom();
  bool zoomed() const;
  std::array<double, 4> axisRanges() const;  // x min, x max, y min, y max as the axes show them
  // Renders the chart with vtkWindowToImageFilter + vtkPNGWriter; false when the chart was
  // never shown (no OpenGL context yet) or the file cannot be written.
  bool saveScreenshot(const QString& png_path);

 signals:
  void seriesChanged(const QString& name);
  // How far the shown series is from its reference or companion now ("d_g: 1.23 % from
  // sectional"); empty when it has neither.
  void comparisonChanged(const QString& text);

 private:
  void updateSeriesBox();
  const ks::Series* shownSeries() const;
  const ks::Series* findSeries(const std::string& name) const;
  void applyDefaultScale(const ks::Series& s);
  void redraw();

  QComboBox* series_box_;
  QCheckBox* log_x_;
  QCheckBox* log_y_;
  ChartCanvas* canvas_;

  SnapshotThrottle snapshots_;
  ks::Reference reference_;
  QString wanted_;      // the series asked for (setSeries or the combo box)
  QString scaled_for_;  // the series the default log-axes choice was last made for
  QString comparison_;  // the last comparisonChanged text
};

}  // namespace ks::gui
