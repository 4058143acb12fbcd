#include "imgui_overlay.hpp"

#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <array>

#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // a window's contents' extent (ImGuiWindow::DC), in 1.86 and 1.90 alike

#include "colour_bar.hpp"
#include "notation.hpp"
#include "text_font.hpp"

namespace ks::gui {

namespace {

constexpr float kMarginPx = float(kViewMargin);  // from the view's edges, as the field view's layout
constexpr float kBackgroundAlpha = 0.6f;         // translucent: the field shows through
constexpr float kFontPx = 13.0f;                 // as ImGui's built-in font: two status lines fit the view's top strip
constexpr float kTooltipWidthEm = 30.0f;         // help text wraps at about 30 characters' width
constexpr float kMinFrameSeconds = 1e-4f;        // ImGui needs a positive step; a grab may paint twice at once

// Fixed in place and sized to their contents; nothing saved, no keyboard navigation.
constexpr ImGuiWindowFlags kPinnedWindow = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                           ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;

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

// kOverlayGlyphRanges as ImWchar, which the font atlas reads until it is built.
const ImWchar* glyphRanges() {
  static const auto ranges = [] {
    std::array<ImWchar, kOverlayGlyphRanges.size()> r{};
    std::copy(kOverlayGlyphRanges.begin(), kOverlayGlyphRanges.end(), r.begin());
    return r;
  }();
  return ranges.data();
}

// text_font.hpp's font with the glyphs of kOverlayGlyphRanges; without its file the atlas keeps
// ImGui's built-in font (Latin only), which it adds itself when built.
void loadFont(ImFontAtlas& fonts) {
  if (text_font_available()) fonts.AddFontFromFileTTF(kTextFontFile, kFontPx, nullptr, glyphRanges());
}

// An auto-resized window takes its size from the contents of the frame before: whether the
// current window's contents reach past it in this frame (a longer line), so that
// they would be cut.
bool contentsOutgrowWindow() {
  constexpr float kSlackPx = 1.0f;  // ImGui floors the measured contents
  const ImGuiWindow* w = ImGui::GetCurrentWindowRead();
  return !w->Collapsed && (w->DC.CursorMaxPos.x > w->WorkRect.Max.x + kSlackPx || w->DC.CursorMaxPos.y > w->WorkRect.Max.y + kSlackPx);
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
  loadFont(*io.Fonts);                                   // before the backend builds the atlas (its first frame)
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

// --- input -----------------------------------------------------------------------------------

ImGuiOverlay::InputUse ImGuiOverlay::handleInput(const QEvent& event) {
  input_.record(event);
  switch (event.type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
      mouse_taken_ = mouse_taken_ || covers(static_cast<const QMouseEvent&>(event).position());
      return mouse_taken_ ? InputUse::Taken : InputUse::Shared;
    case QEvent::MouseMove: return mouse_taken_ ? InputUse::Taken : InputUse::Shared;
    case QEvent::MouseButtonRelease: {
      const bool taken = mouse_taken_;
      mouse_taken_ = mouse_taken_ && input_.anyButtonHeld();
      return taken ? InputUse::Taken : InputUse::Shared;
    }
    case QEvent::Wheel: return covers(static_cast<const QWheelEvent&>(event).position()) ? InputUse::Taken : InputUse::Shared;
    case QEvent::KeyPress:
    case QEvent::KeyRelease:
    case QEvent::ShortcutOverride:  // taken: the window's shortcuts (Space, S, R) become typed text
      return text_input_ ? InputUse::Taken : InputUse::Shared;
    case QEvent::Leave:
    case QEvent::FocusOut: return InputUse::Shared;
    default: return InputUse::NotInput;
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

void ImGuiOverlay::draw(const OverlayStatus& status, QSizeF size, double dpr) {
  if (!gl_ready_) return;
  makeCurrent();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(size.width()), float(size.height()));
  io.DisplayFramebufferScale = ImVec2(float(dpr), float(dpr));
  io.DeltaTime = secondsSinceLastFrame();
  tap_shown_ = input_.applyTo(io);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  buildWindows(status, size);
  if (window_stale_) {
    // ImGui hides a new auto-sized window in the frame that measures it, and sizes a window to
    // the contents of the frame before: build the frame again, so that this image (a
    // screenshot, say) already shows every window whole.
    ImGui::EndFrame();
    io.DeltaTime = kMinFrameSeconds;  // the same moment
    ImGui::NewFrame();
    buildWindows(status, size);
  }
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  text_input_ = io.WantTextInput;
}

void ImGuiOverlay::buildWindows(const OverlayStatus& status, QSizeF size) {
  window_rects_.clear();
  window_stale_ = false;
  buildStatusWindow(status, size);
}

// In the strip above the field (colour_bar.hpp's layout): the rates on one line; on a second, the
// value under the cursor while there is one, else the plotted series' distance from its reference.
void ImGuiOverlay::buildStatusWindow(const OverlayStatus& s, QSizeF size) {
  ImGui::SetNextWindowPos(ImVec2(kMarginPx, kMarginPx));
  ImGui::SetNextWindowBgAlpha(kBackgroundAlpha);
  ImGui::Begin("##status", nullptr, kPinnedWindow | ImGuiWindowFlags_NoDecoration);
  // Wrapped short of the colour bar's title at the right.
  ImGui::PushTextWrapPos(std::max(float(colour_bar_strip_left(size)) - kMarginPx - ImGui::GetWindowPos().x, 100.0f));
  QString line = QString("%1 fps | %2 | %3 host uploads").arg(s.frames_per_s, 0, 'f', 0).arg(rateText(s)).arg(s.host_uploads);
  if (s.device_copies > 0) line += QString(" | %1 zero-copy device copies").arg(s.device_copies);
  text(line);
  if (!s.hover.isEmpty()) text(s.hover);
  else if (!s.comparison.isEmpty()) text(s.comparison);
  ImGui::PopTextWrapPos();
  recordWindow();
  ImGui::End();
}

void ImGuiOverlay::recordWindow() {
  const ImVec2 pos = ImGui::GetWindowPos(), extent = ImGui::GetWindowSize();
  window_rects_.emplace_back(pos.x, pos.y, extent.x, extent.y);
  window_stale_ = window_stale_ || ImGui::IsWindowAppearing() || contentsOutgrowWindow();
}

}  // namespace ks::gui
