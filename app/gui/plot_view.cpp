#include "plot_view.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QWheelEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <vtkAxis.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkContextScene.h>
#include <vtkContextView.h>
#include <vtkDoubleArray.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkPen.h>
#include <vtkPlotLine.h>
#include <vtkPlotPoints.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTable.h>
#include <vtkTooltipItem.h>

#include "core/errors.hpp"
#include "decade_axis.hpp"
#include "io/reference.hpp"
#include "notation.hpp"
#include "plot_zoom.hpp"
#include "text_font.hpp"
#include "vtk_gl_widget.hpp"

namespace ks::gui {

namespace {
constexpr double kZoomPerNotch = 1.25;  // the wheel shrinks both axes by this factor per notch
constexpr double kWheelNotch = 120.0;   // QWheelEvent::angleDelta units per notch

// Titles, tick labels, legend and tooltips in the font that has the labels' Greek letters and symbols.
void useTextFont(vtkChartXY* chart) {
  for (int location : {vtkAxis::LEFT, vtkAxis::BOTTOM, vtkAxis::RIGHT, vtkAxis::TOP}) {
    use_text_font(chart->GetAxis(location)->GetTitleProperties());
    use_text_font(chart->GetAxis(location)->GetLabelProperties());
  }
  use_text_font(chart->GetLegend()->GetLabelProperties());
  use_text_font(chart->GetTitleProperties());
  use_text_font(chart->GetTooltip()->GetTextProperties());
}

// Gives a linear axis the whole real line back. VTK 9.1's vtkAxis, once its range is set while
// on a log scale, keeps 0 as the lower limit for the linear scale after it (UpdateLogScaleActive
// saves the limit it clamped as the linear one): negative values would stay hidden.
void allowAnyRange(vtkAxis* axis) {
  axis->SetUnscaledMinimumLimit(std::numeric_limits<double>::lowest());
  axis->SetUnscaledMaximumLimit(std::numeric_limits<double>::max());
}
}  // namespace

// The chart in its OpenGL widget (see vtk_gl_widget.hpp for the embedding of VTK in Qt 6), with
// the mouse: the wheel zooms about the cursor, a left drag pans, a double click shows all data.
// While zoomed the axes keep the user's window as new data arrive.
class ChartCanvas final : public VtkGlWidget {
 public:
  explicit ChartCanvas(QWidget* parent) : VtkGlWidget(parent) {
    // SetAxis takes over the reference New() returns: the chart deletes its axes (VTK 9.1).
    for (int location : {vtkAxis::BOTTOM, vtkAxis::LEFT}) chart_->SetAxis(location, DecadeAxis::New());
    view_->SetRenderWindow(renderWindow());
    view_->GetRenderer()->SetBackground(1.0, 1.0, 1.0);
    view_->GetScene()->AddItem(chart_);
  }

  vtkChartXY* chart() const { return chart_; }
  bool zoomed() const { return zoomed_; }
  // Called when the user asks for all the data again (the plot redraws with automatic ranges).
  void onZoomReset(std::function<void()> f) { on_reset_ = std::move(f); }

  // Zooms both axes by `factor` about the point at (fx, fy), fractions of the plot area from its
  // lower left corner.
  void zoomAt(double fx, double fy, double factor) {
    change(vtkAxis::BOTTOM, [&](const AxisWindow& w, bool log) { return w.zoomed(fx, factor, log); });
    change(vtkAxis::LEFT, [&](const AxisWindow& w, bool log) { return w.zoomed(fy, factor, log); });
  }
  void panBy(double fx, double fy) {
    change(vtkAxis::BOTTOM, [&](const AxisWindow& w, bool log) { return w.panned(fx, log); });
    change(vtkAxis::LEFT, [&](const AxisWindow& w, bool log) { return w.panned(fy, log); });
  }
  void resetZoom() {
    zoomed_ = false;
    for (int location : {vtkAxis::BOTTOM, vtkAxis::LEFT}) chart_->GetAxis(location)->SetBehavior(vtkAxis::AUTO);
  }

 protected:
  void wheelEvent(QWheelEvent* event) override {
    const double notches = event->angleDelta().y() / kWheelNotch;
    if (notches == 0.0) return;
    const QPointF f = plotFraction(event->position());
    zoomAt(f.x(), f.y(), std::pow(kZoomPerNotch, -notches));
    event->accept();
  }
  void mousePressEvent(QMouseEvent* event) override { last_drag_ = event->position(); }
  void mouseMoveEvent(QMouseEvent* event) override {
    if (!(event->buttons() & Qt::LeftButton)) return;
    const QPointF from = plotFraction(last_drag_), to = plotFraction(event->position());
    last_drag_ = event->position();
    panBy(from.x() - to.x(), from.y() - to.y());  // the data follow the mouse
  }
  void mouseDoubleClickEvent(QMouseEvent*) override {
    resetZoom();
    if (on_reset_) on_reset_();
  }

 private:
  // A widget position as fractions of the plot area (VTK's scene counts device pixels from the bottom).
  QPointF plotFraction(const QPointF& pos) const {
    const double dpr = devicePixelRatioF();
    const int* p1 = chart_->GetPoint1();  // lower left corner of the plot area
    const int* p2 = chart_->GetPoint2();  // upper right
    const double x = pos.x() * dpr, y = (height() - pos.y()) * dpr;
    return {(x - p1[0]) / std::max(1, p2[0] - p1[0]), (y - p1[1]) / std::max(1, p2[1] - p1[1])};
  }

  template <typename Change>
  void change(int location, Change how) {
    vtkAxis* axis = chart_->GetAxis(location);
    const bool log = axis->GetLogScale();
    const AxisWindow now{axis->GetUnscaledMinimum(), axis->GetUnscaledMaximum()};
    const AxisWindow next = how(now, log);
    if (!next.valid(log)) return;
    axis->SetBehavior(vtkAxis::FIXED);
    axis->SetUnscaledRange(next.lo, next.hi);
    zoomed_ = true;
    update();
  }

  vtkNew<vtkContextView> view_;
  vtkNew<vtkChartXY> chart_;
  bool zoomed_ = false;
  QPointF last_drag_;
  std::function<void()> on_reset_;
};

namespace {

constexpr int kRedrawIntervalMs = 100;  // at most 10 redraws per second

struct Rgba {
  unsigned char r, g, b, a;
};
constexpr Rgba kSeriesColour{31, 119, 180, 255};  // blue
constexpr Rgba kErrorColour{31, 119, 180, 110};   // the series colour, light
// Companions, dashed: red, green, purple, then again.
constexpr Rgba kCompanionColours[] = {{214, 39, 40, 255}, {44, 160, 44, 255}, {148, 103, 189, 255}};
constexpr Rgba kReferenceColour{30, 30, 30, 255};  // near black symbols

enum class LineStyle { Solid, Dashed, Thin };

// What a pair of axes can show: on a log axis only positive values.
struct AxisScales {
  bool log_x = false;
  bool log_y = false;
  bool shows(double x, double y) const { return std::isfinite(x) && std::isfinite(y) && (!log_x || x > 0.0) && (!log_y || y > 0.0); }
};

struct Points {
  std::vector<double> x, y;
};

// A table of equally long columns, in the order given.
vtkSmartPointer<vtkTable> makeTable(const std::vector<std::pair<const char*, const std::vector<double>*>>& columns) {
  auto table = vtkSmartPointer<vtkTable>::New();
  for (const auto& [name, values] : columns) {
    vtkNew<vtkDoubleArray> column;
    column->SetName(name);
    column->SetNumberOfValues(vtkIdType(values->size()));
    for (std::size_t i = 0; i < values->size(); ++i) column->SetValue(vtkIdType(i), (*values)[i]);
    table->AddColumn(column);
  }
  return table;
}

// Fills a cleared chart with one picture's plots, keeping only the points the axes can
// show, then sets the axes. It gives the axes the data's range itself: vtkChartXY builds
// a plot's points before it fits the axes to them, so the first frame after an axis turns
// logarithmic (or in a tab never shown) would otherwise put linear points on a log axis.
class ChartBuilder {
 public:
  // keep_ranges: the user has zoomed; the axes keep their windows.
  ChartBuilder(vtkChartXY* chart, AxisScales scales, bool keep_ranges) : chart_(chart), scales_(scales), keep_ranges_(keep_ranges) {
    chart_->ClearPlots();
  }

  // A line through (x, y); an empty label keeps it out of the legend.
  void addLine(const std::vector<double>& x, const std::vector<double>& y, const std::string& label, Rgba colour, LineStyle style) {
    const Points p = visible(x, y);
    if (p.x.size() < 2) return;
    vtkNew<vtkPlotLine> line;
    line->SetInputData(makeTable({{"x", &p.x}, {"y", &p.y}}), "x", "y");
    line->SetLabel(unicode_notation(label).toStdString());
    line->SetLegendVisibility(!label.empty());
    legend_entries_ += !label.empty();
    line->SetColor(colour.r, colour.g, colour.b, colour.a);
    line->SetWidth(style == LineStyle::Thin ? 1.0 : 2.0);
    if (style == LineStyle::Dashed) line->GetPen()->SetLineType(vtkPen::DASH_LINE);
    chart_->AddPlot(line);
  }

  void addSymbols(const std::vector<double>& x, const std::vector<double>& y, const std::string& label, Rgba colour) {
    const Points p = visible(x, y);
    if (p.x.empty()) return;
    vtkNew<vtkPlotPoints> symbols;
    symbols->SetInputData(makeTable({{"x", &p.x}, {"y", &p.y}}), "x", "y");
    symbols->SetLabel(label);
    ++legend_entries_;
    symbols->SetColor(colour.r, colour.g, colour.b, colour.a);
    symbols->SetMarkerStyle(vtkPlotPoints::CIRCLE);
    symbols->SetMarkerSize(7.0);
    chart_->AddPlot(symbols);
  }

  // Titles, scales and ranges of the axes; the legend goes to the corner its box covers the fewest
  // points in, the right-hand ones first (where time series end), and where it would still cover
  // some, the y axis makes room for it above or below the data.
  void finish(const std::string& x_title, const std::string& y_title) {
    placeLegend();
    setAxis(vtkAxis::BOTTOM, x_title, scales_.log_x, x_range_);
    setAxis(vtkAxis::LEFT, y_title, scales_.log_y, y_range_);
    if (!keep_ranges_) chart_->RecalculateBounds();
  }

 private:
  // The legend's box, as fractions of the plot's width and height: a line of text an entry.
  static constexpr double kLegendWidth = 0.5, kLegendLine = 0.045;

  void placeLegend() {
    if (points_.empty() || legend_entries_ == 0) return;
    const double legend_height = std::min(0.5, kLegendLine * (legend_entries_ + 1));
    struct Corner {
      bool right, top;
    };
    constexpr Corner corners[] = {{true, true}, {true, false}, {false, true}, {false, false}};
    const double x0 = scaled(x_range_.lo, scales_.log_x), x1 = scaled(x_range_.hi, scales_.log_x);
    const double y0 = scaled(y_range_.lo, scales_.log_y), y1 = scaled(y_range_.hi, scales_.log_y);
    auto covered = [&](Corner c) {
      int n = 0;
      for (const auto& [x, y] : points_) {
        const double fx = x1 > x0 ? (scaled(x, scales_.log_x) - x0) / (x1 - x0) : 0.5;
        const double fy = y1 > y0 ? (scaled(y, scales_.log_y) - y0) / (y1 - y0) : 0.5;
        n += (c.right ? fx >= 1.0 - kLegendWidth : fx <= kLegendWidth) && (c.top ? fy >= 1.0 - legend_height : fy <= legend_height);
      }
      return n;
    };
    Corner best = corners[0];
    int fewest = covered(best);
    for (const Corner& c : corners) {
      const int n = covered(c);
      if (n < fewest) best = c, fewest = n;
    }
    chart_->GetLegend()->SetHorizontalAlignment(best.right ? vtkChartLegend::RIGHT : vtkChartLegend::LEFT);
    chart_->GetLegend()->SetVerticalAlignment(best.top ? vtkChartLegend::TOP : vtkChartLegend::BOTTOM);
    if (fewest > 0 && y1 > y0) {
      const double room = (y1 - y0) * legend_height / (1.0 - legend_height);
      const double end = best.top ? y1 + room : y0 - room;
      const double y = scales_.log_y ? std::pow(10.0, end) : end;
      (best.top ? y_range_.hi : y_range_.lo) = y;
      // The axis takes its range from the plots (auto): an unmarked point there widens it.
      vtkNew<vtkPlotPoints> room_mark;
      const std::vector<double> mx{x_range_.lo}, my{y};
      room_mark->SetInputData(makeTable({{"x", &mx}, {"y", &my}}), "x", "y");
      room_mark->SetMarkerStyle(vtkPlotPoints::NONE);
      room_mark->SetLegendVisibility(false);
      chart_->AddPlot(room_mark);
    }
  }

  struct Range {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  };

  static double scaled(double v, bool log) { return log ? std::log10(v) : v; }

  Points visible(const std::vector<double>& x, const std::vector<double>& y) {
    Points p;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
      if (!scales_.shows(x[i], y[i])) continue;
      p.x.push_back(x[i]);
      p.y.push_back(y[i]);
      x_range_.add(x[i]);
      y_range_.add(y[i]);
      points_.emplace_back(x[i], y[i]);
    }
    return p;
  }

  void setAxis(int location, const std::string& title, bool log, const Range& range) {
    vtkAxis* axis = chart_->GetAxis(location);
    axis->SetTitle(unicode_notation(title).toStdString());  // UTF-8: Greek letters, ₋, ³ in text_font.hpp's font
    axis->SetLogScale(log);
    if (!log) allowAnyRange(axis);
    if (keep_ranges_) return;
    const Window w = window(log, range);
    if (w.lo < w.hi) axis->SetUnscaledRange(w.lo, w.hi);  // the chart still rounds it (auto)
  }

  // The axis range for the points' `range`: the range itself; around one value (a preset's t = 0),
  // a window, as VTK 9.1 draws no symbol on an empty range; with nothing to show yet (a series
  // before its first output), a plain range instead of the last series'; else none (lo = hi = 0).
  struct Window {
    double lo = 0.0, hi = 0.0;
  };
  Window window(bool log, const Range& range) const {
    if (range.lo < range.hi) return {range.lo, range.hi};
    if (range.lo == range.hi) {
      const double v = range.lo, half = v != 0.0 ? std::abs(v) / 2 : 1.0;
      return log ? Window{v / 2, v * 2} : Window{v - half, v + half};
    }
    if (points_.empty()) return log ? Window{1.0, 10.0} : Window{0.0, 1.0};
    return {};
  }

  vtkChartXY* chart_;
  AxisScales scales_;
  bool keep_ranges_;
  Range x_range_, y_range_;
  std::vector<std::pair<double, double>> points_;  // every point drawn, for the legend's corner
  int legend_entries_ = 0;
};

// y ± y_err as two thin light lines, one legend entry. (A vtkPlotArea band would look nicer,
// but VTK 9.1's vtkPlotArea reports unscaled bounds on a log axis, which the chart reads as
// log10 values: the axis range runs away to 1e308.)
void addErrorLines(ChartBuilder& chart, const Series& s) {
  if (s.y_err.size() != s.y.size()) return;
  std::vector<double> lo(s.y.size()), hi(s.y.size());
  for (std::size_t i = 0; i < s.y.size(); ++i) {
    lo[i] = s.y[i] - s.y_err[i];
    hi[i] = s.y[i] + s.y_err[i];
  }
  chart.addLine(s.x, hi, "± standard error", kErrorColour, LineStyle::Thin);
  chart.addLine(s.x, lo, "", kErrorColour, LineStyle::Thin);
}

// "reference: paper Fig. 5 (mean rel. error 1.23 %)"; the error is left out where the
// reference does not overlap the series. Long sources are cut at their first ':' or at
// kLegendSourceChars so the legend never covers the chart.
constexpr std::size_t kLegendSourceChars = 40;
std::string referenceLabel(const Reference& ref, double mean_rel_error) {
  std::string source = ref.source.empty() ? ref.analytic_id : ref.source;
  source = source.substr(0, source.find(':'));
  if (source.size() > kLegendSourceChars) source = source.substr(0, kLegendSourceChars) + "…";
  std::string label = "reference: " + source;
  if (std::isfinite(mean_rel_error)) {
    label += QString(" (mean rel. error %1 %)").arg(100.0 * mean_rel_error, 0, 'f', 2).toStdString();
  }
  return label;
}

// The series' mean relative distance from a companion sampled at the same x (the sectional
// solution at the ensemble's outputs); NaN where they are sampled apart.
double companionError(const Series& s, const Series& companion) {
  if (companion.x != s.x || s.y.empty()) return std::numeric_limits<double>::quiet_NaN();
  return mean_relative_error(s.y, companion.y);
}

// "sectional (d_g off by 1.23 % on average)", or just "sectional" without an error.
std::string companionLabel(const std::string& what, const Series& s, double error) {
  if (!std::isfinite(error)) return what;
  return what + QString(" (%1 off by %2 % on average)").arg(QString::fromStdString(s.name)).arg(100.0 * error, 0, 'f', 2).toStdString();
}

// "d_g: 1.23 % from sectional" for the field view's overlay.
QString comparisonText(const Series& s, const std::string& what, double error) {
  return QString("%1: %2 % from %3").arg(unicode_notation(s.name)).arg(100.0 * error, 0, 'f', 2).arg(unicode_notation(what));
}

// The reference evaluated at the series' x, as symbols (NaN where it does not exist); returns
// the series' mean relative error against it (NaN where they do not overlap).
double addReference(ChartBuilder& chart, const Reference& ref, const Series& s) {
  std::vector<double> ref_y;
  try {
    ref_y = evaluate_reference(ref, s.x);
  } catch (const Error&) {
    return std::numeric_limits<double>::quiet_NaN();  // an unknown analytic id was already reported at loading
  }
  const double error = mean_relative_error(s.y, ref_y);
  chart.addSymbols(s.x, ref_y, referenceLabel(ref, error), kReferenceColour);
  return error;
}

}  // namespace

PlotView::PlotView(QWidget* parent)
    : QWidget(parent),
      series_box_(new QComboBox(this)),
      log_x_(new QCheckBox("log x", this)),
      log_y_(new QCheckBox("log y", this)),
      canvas_(new ChartCanvas(this)),
      snapshots_(kRedrawIntervalMs, [this] {
        updateSeriesBox();
        redraw();
      }) {
  series_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel("Series", this));
  controls->addWidget(series_box_);
  controls->addWidget(log_x_);
  controls->addWidget(log_y_);
  controls->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(canvas_, 1);

  vtkChartXY* chart = canvas_->chart();
  chart->SetShowLegend(true);
  chart->SetRenderEmpty(true);  // axes even without data:
  chart->SetAutoAxes(false);    // (automatic axes hide when no plot uses them)
  chart->GetLegend()->SetHorizontalAlignment(vtkChartLegend::RIGHT);
  useTextFont(chart);

  connect(series_box_, &QComboBox::textActivated, this, &PlotView::setSeries);
  // A new scale or series starts from all of its data.
  for (QCheckBox* box : {log_x_, log_y_}) connect(box, &QCheckBox::toggled, this, [this] { resetZoom(); });
  canvas_->onZoomReset([this] { redraw(); });
}

PlotView::~PlotView() = default;

void PlotView::showSnapshot(std::shared_ptr<const ks::Snapshot> snapshot) { snapshots_.offer(std::move(snapshot)); }

void PlotView::resetForPreset() {
  snapshots_.clear();
  reference_ = {};
  wanted_.clear();
  scaled_for_.clear();  // the next series' own choice of log axes
  {
    const QSignalBlocker block_x(log_x_), block_y(log_y_);
    log_x_->setChecked(false);
    log_y_->setChecked(false);
  }
  canvas_->resetZoom();
  updateSeriesBox();
  redraw();  // empty axes; comparisonChanged("") when a comparison was shown
}

void PlotView::setReference(const ks::Reference& ref) {
  reference_ = ref;
  redraw();
}

void PlotView::setSeries(const QString& name) {
  if (name == wanted_) return;
  wanted_ = name;
  updateSeriesBox();
  resetZoom();
  emit seriesChanged(name);
}

QString PlotView::series() const {
  const Series* s = shownSeries();
  return s ? QString::fromStdString(s->name) : wanted_;
}

void PlotView::zoomAt(double fx, double fy, double factor) { canvas_->zoomAt(fx, fy, factor); }

void PlotView::resetZoom() {
  canvas_->resetZoom();
  redraw();
}

bool PlotView::zoomed() const { return canvas_->zoomed(); }

std::array<double, 4> PlotView::axisRanges() const {
  vtkAxis* x = canvas_->chart()->GetAxis(vtkAxis::BOTTOM);
  vtkAxis* y = canvas_->chart()->GetAxis(vtkAxis::LEFT);
  return {x->GetUnscaledMinimum(), x->GetUnscaledMaximum(), y->GetUnscaledMinimum(), y->GetUnscaledMaximum()};
}

bool PlotView::saveScreenshot(const QString& png_path) {
  snapshots_.flush();  // the picture shows the newest data, not the one 100 ms old
  return canvas_->savePng(png_path);
}

// Lists the snapshot's series in its order (rebuilt only when the names change) and selects the shown one.
void PlotView::updateSeriesBox() {
  QStringList names;
  if (snapshots_.current()) {
    for (const Series& s : snapshots_.current()->series) names << QString::fromStdString(s.name);
  }
  const QSignalBlocker block(series_box_);
  QStringList listed;
  for (int i = 0; i < series_box_->count(); ++i) listed << series_box_->itemText(i);
  if (listed != names) {
    series_box_->clear();
    series_box_->addItems(names);
  }
  series_box_->setCurrentIndex(names.indexOf(series()));
}

const Series* PlotView::findSeries(const std::string& name) const {
  if (!snapshots_.current()) return nullptr;
  for (const Series& s : snapshots_.current()->series) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// The wanted series, or the snapshot's first one while the wanted one is absent.
const Series* PlotView::shownSeries() const {
  if (const Series* s = findSeries(wanted_.toStdString())) return s;
  return snapshots_.current() && !snapshots_.current()->series.empty() ? &snapshots_.current()->series.front() : nullptr;
}

// The series' own choice of log axes (log-spaced times, size spectra). The user's choice then
// stands until another series is shown.
void PlotView::applyDefaultScale(const Series& s) {
  const QString name = QString::fromStdString(s.name);
  if (name == scaled_for_) return;
  scaled_for_ = name;
  const QSignalBlocker block_x(log_x_), block_y(log_y_);
  log_x_->setChecked(s.log_x);
  log_y_->setChecked(s.log_y);
}

void PlotView::redraw() {
  const Series* s = shownSeries();
  if (s) applyDefaultScale(*s);
  ChartBuilder chart(canvas_->chart(), {log_x_->isChecked(), log_y_->isChecked()}, canvas_->zoomed());
  QString comparison;  // the shown series against its reference or a companion
  if (s) {
    chart.addLine(s->x, s->y, s->name, kSeriesColour, LineStyle::Solid);
    addErrorLines(chart, *s);
    // Companions named "<series> <what>" (the sectional solution, the Rankine-Hugoniot states)
    // are drawn dashed with <what> in the legend, and how far the series is from them.
    const std::string prefix = s->name + " ";
    std::size_t companions = 0;
    for (const Series& other : snapshots_.current()->series) {
      if (other.name.rfind(prefix, 0) != 0) continue;
      const std::string what = other.name.substr(prefix.size());
      const double error = companionError(*s, other);
      if (std::isfinite(error) && comparison.isEmpty()) comparison = comparisonText(*s, what, error);
      const Rgba colour = kCompanionColours[companions++ % std::size(kCompanionColours)];
      if (other.x.size() == 1) chart.addSymbols(other.x, other.y, what, colour);  // a monodisperse start
      else chart.addLine(other.x, other.y, companionLabel(what, *s, error), colour, LineStyle::Dashed);
    }
    if (!reference_.empty() && reference_.series == s->name) {
      const double error = addReference(chart, reference_, *s);
      if (std::isfinite(error)) comparison = comparisonText(*s, "the reference", error);  // the preset's own first
    }
  }
  if (comparison != comparison_) {
    comparison_ = comparison;
    emit comparisonChanged(comparison_);
  }
  chart.finish(s ? s->x_label : std::string(), s ? s->y_label : std::string());
  canvas_->update();
}

}  // namespace ks::gui
