#include "imgui_overlay.hpp"

#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cstdint>
#include <variant>

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include "colour_bar.hpp"

namespace ks::gui {

namespace {

constexpr float kMarginPx = float(kViewMargin);  // from the view's edges, as the field view's layout
constexpr float kBackgroundAlpha = 0.6f;  // translucent: the field shows through
constexpr float kSliderWidthPx = 180.0f;
constexpr float kTooltipWidthEm = 30.0f;  // help text wraps at about 30 characters' width
constexpr double kSendIntervalS = 0.2;    // a dragged slider sends at most every 200 ms
constexpr float kMinFrameSeconds = 1e-4f;  // ImGui needs a positive step; a grab may paint twice at once
// Ranges spanning this factor or more move logarithmically: a linear slider of a few hundred
// pixels could not reach the low decades (End time in [1e-3, 1e6] tau_char).
constexpr double kLogRangeRatio = 1e3;

// Fixed in place and sized to their contents; nothing saved, no keyboard navigation.
constexpr ImGuiWindowFlags kPinnedWindow = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                                           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                           ImGuiWindowFlags_NoNav;

void text(const QString& s) {
  const QByteArray utf8 = s.toUtf8();
  ImGui::TextUnformatted(utf8.constData(), utf8.constData() + utf8.size());
}

// "12.3 it/s | 4.56e+06 events/s"
QString rateText(const OverlayStatus& s) {
  QString rate = QString("%1 it/s").arg(s.iterations_per_s, 0, 'g', 3);
  if (!s.work_unit.isEmpty()) rate += QString(" | %1 %2/s").arg(s.work_per_s, 0, 'g', 3).arg(s.work_unit);
  return rate;
}

// The label with its unit, as the parameter panel writes it: "End time [tau_char]".
std::string labelFor(const ks::ParamSpec& spec) {
  const bool unit_shown = !spec.unit.empty() && spec.unit != "1";  // "1" marks counts
  return unit_shown ? spec.label + " [" + spec.unit + "]" : spec.label;
}

// An Int parameter's value as int64, a Real one's as double: the types the sliders edit.
ks::ParamValue numericValue(const ks::ParamSpec& spec, const ks::ParamSet& values) {
  if (spec.type == ks::ParamType::Int) return values.get_int(spec.key);
  return values.get_real(spec.key);
}

bool logarithmic(const ks::ParamSpec& spec) {
  return spec.log_scale || (spec.min > 0.0 && spec.max >= kLogRangeRatio * spec.min);
}

// A slider over [min, max] in the value's own type (int64 or double): nothing is narrowed.
// Ctrl+click types a value; AlwaysClamp keeps typed values in range too.
void slider(const char* label, const ks::ParamSpec& spec, ks::ParamValue& value) {
  const ImGuiSliderFlags flags =
      ImGuiSliderFlags_AlwaysClamp | (logarithmic(spec) ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
  if (auto* real = std::get_if<double>(&value)) {
    const double lo = spec.min, hi = spec.max;
    ImGui::SliderScalar(label, ImGuiDataType_Double, real, &lo, &hi, "%.4g", flags);
  } else if (auto* integer = std::get_if<std::int64_t>(&value)) {
    const std::int64_t lo = std::int64_t(spec.min), hi = std::int64_t(spec.max);
    ImGui::SliderScalar(label, ImGuiDataType_S64, integer, &lo, &hi, nullptr, flags);
  }
}

void helpTooltip(const std::string& help) {
  if (help.empty() || !ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * kTooltipWidthEm);
  ImGui::TextUnformatted(help.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

ImGuiOverlay::ImGuiOverlay() {
  IMGUI_CHECKVERSION();  // the headers match the library's struct layouts
  context_ = ImGui::CreateContext();
  makeCurrent();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is fixed in code: no imgui.ini in the working directory
  io.LogFilename = nullptr;
  ImGuiQtInput::configureKeyMap(io);
  ImGui::GetStyle().WindowPadding = ImVec2(6.0f, 3.0f);  // two status lines fit the view's top strip
  frame_clock_.start();
}

ImGuiOverlay::~ImGuiOverlay() { ImGui::DestroyContext(context_); }

void ImGuiOverlay::makeCurrent() const { ImGui::SetCurrentContext(context_); }

bool ImGuiOverlay::initializeGL() {
  makeCurrent();
  gl_ready_ = ImGui_ImplOpenGL3_Init("#version 330");  // OpenGL 3.3 core, as the field shaders
  return gl_ready_;
}

void ImGuiOverlay::cleanupGL() {
  if (!gl_ready_) return;
  makeCurrent();
  ImGui_ImplOpenGL3_Shutdown();
  gl_ready_ = false;
}

// --- quick parameters ----------------------------------------------------------------------

void ImGuiOverlay::setQuickParameters(const std::vector<ks::ParamSpec>& specs, const ks::ParamSet& values) {
  quick_.clear();
  for (const ks::ParamSpec& spec : specs) {
    const bool numeric = spec.type == ks::ParamType::Int || spec.type == ks::ParamType::Real;
    const std::string choice = values.has(spec.when_key) ? values.get_choice(spec.when_key) : std::string();
    if (!spec.quick || !spec.live || !numeric || !values.has(spec.key) || !ks::acts_when(spec, choice)) continue;
    const ks::ParamValue v = numericValue(spec, values);
    quick_.push_back({spec, labelFor(spec), v, v, v, v});
  }
}

bool ImGuiOverlay::showValues(const ks::ParamSet& values) {
  bool changed = false;
  for (QuickParam& q : quick_) {
    if (!values.has(q.spec.key)) continue;
    const ks::ParamValue v = numericValue(q.spec, values);
    // Only a change of the simulation's value is shown: until a sent value is applied, the
    // simulation still reports the old one, and the slider keeps what the user set.
    if (v == q.simulated) continue;
    q.simulated = q.value = v;
    changed = true;
  }
  return changed;
}

void ImGuiOverlay::quickSlider(QuickParam& q, std::vector<QuickChange>& changes) {
  if (!q.held) q.edit = q.value;
  ImGui::PushID(q.spec.key.c_str());
  slider(q.label.c_str(), q.spec, q.edit);
  const double now = ImGui::GetTime();
  if (ImGui::IsItemActivated()) {  // a new hold: its first change is sent at once
    q.sent = q.value;
    q.sent_at = now - kSendIntervalS;
  }
  const bool released = ImGui::IsItemDeactivated();
  q.held = ImGui::IsItemActive();
  helpTooltip(q.spec.help);
  ImGui::PopID();

  // Typed text (Ctrl+click) is sent when entered, not digit by digit.
  const bool typing = ImGui::GetIO().WantTextInput;
  const bool due = released || (q.held && !typing && now - q.sent_at >= kSendIntervalS);
  if (!due || q.edit == q.sent) return;
  changes.push_back({QString::fromStdString(q.spec.key), q.edit});
  q.sent = q.value = q.edit;
  q.sent_at = now;
}

// --- input -----------------------------------------------------------------------------------

ImGuiOverlay::InputUse ImGuiOverlay::handleInput(const QEvent& event) {
  input_.record(event);
  switch (event.type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
      mouse_taken_ = mouse_taken_ || covers(static_cast<const QMouseEvent&>(event).position());
      return mouse_taken_ ? InputUse::Taken : InputUse::Shared;
    case QEvent::MouseMove:
      return mouse_taken_ ? InputUse::Taken : InputUse::Shared;
    case QEvent::MouseButtonRelease: {
      const bool taken = mouse_taken_;
      mouse_taken_ = mouse_taken_ && input_.anyButtonHeld();
      return taken ? InputUse::Taken : InputUse::Shared;
    }
    case QEvent::Wheel:
      return covers(static_cast<const QWheelEvent&>(event).position()) ? InputUse::Taken : InputUse::Shared;
    case QEvent::KeyPress:
    case QEvent::KeyRelease:
    case QEvent::ShortcutOverride:  // taken: the window's shortcuts (Space, S, R) become typed text
      return text_input_ ? InputUse::Taken : InputUse::Shared;
    case QEvent::Leave:
    case QEvent::FocusOut:
      return InputUse::Shared;
    default:
      return InputUse::NotInput;
  }
}

// The windows' rectangles are those of the last frame: a press that comes before the next
// frame is judged where the windows are drawn now.
bool ImGuiOverlay::covers(QPointF pos) const {
  return std::any_of(window_rects_.begin(), window_rects_.end(), [pos](const QRectF& r) { return r.contains(pos); });
}

// --- frame -----------------------------------------------------------------------------------

float ImGuiOverlay::secondsSinceLastFrame() {
  const double seconds = double(frame_clock_.nsecsElapsed()) * 1e-9;
  frame_clock_.restart();
  return std::max(float(seconds), kMinFrameSeconds);
}

std::vector<QuickChange> ImGuiOverlay::draw(const OverlayStatus& status, QSizeF size, double dpr) {
  std::vector<QuickChange> changes;
  if (!gl_ready_) return changes;
  makeCurrent();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(size.width()), float(size.height()));
  io.DisplayFramebufferScale = ImVec2(float(dpr), float(dpr));
  io.DeltaTime = secondsSinceLastFrame();
  tap_shown_ = input_.applyTo(io);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  buildWindows(status, size, changes);
  if (window_appeared_) {
    // ImGui hides a new auto-sized window in the frame that measures it: build the frame
    // again, so that this image (a screenshot, say) already shows the window.
    ImGui::EndFrame();
    ImGui::NewFrame();
    buildWindows(status, size, changes);
  }
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  text_input_ = io.WantTextInput;
  return changes;
}

void ImGuiOverlay::buildWindows(const OverlayStatus& status, QSizeF size, std::vector<QuickChange>& changes) {
  window_rects_.clear();
  window_appeared_ = false;
  buildStatusWindow(status, size);
  if (!quick_.empty()) buildQuickWindow(size, changes);
}

// In the strip above the field (colour_bar.hpp's layout): the rates on one line; on a second, the
// value under the cursor while there is one, else the plotted series' distance from its reference.
void ImGuiOverlay::buildStatusWindow(const OverlayStatus& s, QSizeF size) {
  ImGui::SetNextWindowPos(ImVec2(kMarginPx, kMarginPx));
  ImGui::SetNextWindowBgAlpha(kBackgroundAlpha);
  ImGui::Begin("##status", nullptr, kPinnedWindow | ImGuiWindowFlags_NoDecoration);
  // Wrapped short of the colour bar's title at the right.
  ImGui::PushTextWrapPos(
      std::max(float(colour_bar_strip_left(size)) - kMarginPx - ImGui::GetWindowPos().x, 100.0f));
  QString line = QString("%1 fps | %2 | %3 host uploads").arg(s.frames_per_s, 0, 'f', 0).arg(rateText(s)).arg(s.host_uploads);
  if (s.device_copies > 0) line += QString(" | %1 zero-copy device copies").arg(s.device_copies);
  text(line);
  if (!s.hover.isEmpty()) text(s.hover);
  else if (!s.comparison.isEmpty()) text(s.comparison);
  ImGui::PopTextWrapPos();
  recordWindow();
  ImGui::End();
}

// Bottom right, under the colour bar, folded at first: the field stays clear until the user opens
// it (it then opens leftwards over the field).
void ImGuiOverlay::buildQuickWindow(QSizeF size, std::vector<QuickChange>& changes) {
  ImGui::SetNextWindowPos(ImVec2(float(size.width()) - kMarginPx, float(size.height()) - kMarginPx), ImGuiCond_Always,
                          ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_Once);
  ImGui::SetNextWindowBgAlpha(kBackgroundAlpha);
  if (ImGui::Begin("Sliders", nullptr, kPinnedWindow)) {
    ImGui::PushItemWidth(kSliderWidthPx);
    for (QuickParam& q : quick_) quickSlider(q, changes);
    ImGui::PopItemWidth();
  }
  recordWindow();
  ImGui::End();
}

void ImGuiOverlay::recordWindow() {
  const ImVec2 pos = ImGui::GetWindowPos(), extent = ImGui::GetWindowSize();
  window_rects_.emplace_back(pos.x, pos.y, extent.x, extent.y);
  window_appeared_ = window_appeared_ || ImGui::IsWindowAppearing();
}

}  // namespace ks::gui
