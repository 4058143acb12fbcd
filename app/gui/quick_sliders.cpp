#include "quick_sliders.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "notation.hpp"

namespace ks::gui {

namespace {

constexpr double kLogRangeRatio = 1e3;  // ranges spanning this factor or more move logarithmically
constexpr int kSliderWidthPx = 160;

bool logarithmic(const ParamSpec& spec) { return spec.log_scale || (spec.min > 0.0 && spec.max >= kLogRangeRatio * spec.min); }

// Moves only when its handle is dragged: a press beside the handle (a click that meant something
// else, or landed late) changes nothing. Keys still step it while it has the focus.
class HandleSlider : public QSlider {
 public:
  HandleSlider() : QSlider(Qt::Horizontal) {}

 protected:
  void mousePressEvent(QMouseEvent* event) override {
    QStyleOptionSlider option;
    initStyleOption(&option);
    const QRect handle = style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, this);
    if (!handle.contains(event->position().toPoint())) {
      event->accept();
      return;
    }
    QSlider::mousePressEvent(event);
  }
};

QString text_of(const ParamValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return QString::number(*i);
  return QString::number(std::get<double>(v), 'g', 4);
}

}  // namespace

int slider_position(const ParamSpec& spec, const ParamValue& value) {
  const double v = std::holds_alternative<std::int64_t>(value) ? double(std::get<std::int64_t>(value)) : std::get<double>(value);
  double t = 0.0;
  if (spec.max > spec.min)
    t = logarithmic(spec) ? std::log(v / spec.min) / std::log(spec.max / spec.min) : (v - spec.min) / (spec.max - spec.min);
  return int(std::lround(std::clamp(t, 0.0, 1.0) * kSliderSteps));
}

ParamValue slider_value(const ParamSpec& spec, int position) {
  const double t = double(std::clamp(position, 0, kSliderSteps)) / kSliderSteps;
  double v = logarithmic(spec) ? spec.min * std::pow(spec.max / spec.min, t) : spec.min + t * (spec.max - spec.min);
  v = std::clamp(v, spec.min, spec.max);
  if (spec.type == ParamType::Int) return std::int64_t(std::llround(v));
  return v;
}

QuickSliders::QuickSliders(QWidget* parent) : QWidget(parent), row_(new QHBoxLayout(this)) {
  row_->setContentsMargins(6, 2, 6, 2);
  row_->addStretch(1);
  setVisible(false);
}

void QuickSliders::clear() {
  for (Quick& q : quick_) delete q.slider->parentWidget();
  quick_.clear();
  setVisible(false);
}

void QuickSliders::setParameters(const std::vector<ParamSpec>& specs, const ParamSet& values) {
  clear();
  for (const ParamSpec& spec : specs) {
    const bool numeric = spec.type == ParamType::Int || spec.type == ParamType::Real;
    const std::string choice = values.has(spec.when_key) ? values.get_choice(spec.when_key) : std::string();
    if (!spec.quick || !spec.live || !numeric || !values.has(spec.key) || !acts_when(spec, choice)) continue;
    add(spec, spec.type == ParamType::Int ? ParamValue(values.get_int(spec.key)) : ParamValue(values.get_real(spec.key)));
  }
  setVisible(!quick_.empty());
}

// A column: the label in full over the slider and its value box.
void QuickSliders::add(const ParamSpec& spec, const ParamValue& value) {
  auto* cell = new QWidget(this);
  auto* column = new QVBoxLayout(cell);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(1);
  const std::string unit = spec.unit != "1" ? spec.unit : std::string();  // "1" marks counts
  auto* label = new QLabel(unicode_axis_title(spec.label, unit), cell);
  label->setToolTip(QString::fromStdString(spec.help));
  auto* slider = new HandleSlider;
  slider->setRange(0, kSliderSteps);
  slider->setFixedWidth(kSliderWidthPx);
  slider->setToolTip(QString::fromStdString(spec.help) + "\n(drag the handle; or type a value and press Enter)");
  auto* entry = new QLineEdit(cell);
  entry->setFixedWidth(70);
  auto* controls = new QHBoxLayout;
  controls->addWidget(slider);
  controls->addWidget(entry);
  column->addWidget(label);
  column->addLayout(controls);
  row_->insertWidget(row_->count() - 1, cell);
  quick_.push_back({spec, slider, entry, value});
  display(quick_.back(), value);

  const std::size_t i = quick_.size() - 1;
  connect(slider, &QSlider::sliderMoved, this,
          [this, i](int position) { quick_[i].entry->setText(text_of(slider_value(quick_[i].spec, position))); });
  connect(slider, &QSlider::sliderReleased, this, [this, i] { send(quick_[i], slider_value(quick_[i].spec, quick_[i].slider->value())); });
  connect(entry, &QLineEdit::returnPressed, this, [this, i] {
    Quick& q = quick_[i];
    try {
      send(q, parse_value(q.spec, q.entry->text().trimmed().toStdString(), q.spec.key));
      q.entry->setStyleSheet({});
    } catch (const Error& e) {
      q.entry->setStyleSheet("QLineEdit { border: 2px solid #c0392b; }");
      emit parameterRefused(QString::fromStdString(q.spec.key), q.entry->text(), QString::fromStdString(e.what()));
      display(q, q.shown);
    }
    emit editingDone();
  });
}

void QuickSliders::display(Quick& q, const ParamValue& value) {
  q.shown = value;
  const QSignalBlocker block(q.slider);
  q.slider->setValue(slider_position(q.spec, value));
  if (!q.entry->hasFocus()) q.entry->setText(text_of(value));
}

void QuickSliders::send(Quick& q, const ParamValue& value) {
  display(q, value);
  emit parameterChanged(QString::fromStdString(q.spec.key), value);
}

void QuickSliders::showValues(const ParamSet& values) {
  for (Quick& q : quick_) {
    if (q.slider->isSliderDown() || !values.has(q.spec.key)) continue;
    const ParamValue v = q.spec.type == ParamType::Int ? ParamValue(values.get_int(q.spec.key)) : ParamValue(values.get_real(q.spec.key));
    if (v != q.shown) display(q, v);
  }
}

}  // namespace ks::gui
