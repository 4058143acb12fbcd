// The Dear ImGui overlay of a FieldView: a translucent status window above the field (frame rate,
// simulation rate, host uploads and zero-copy device copies; the value under the cursor, else how
// far the plotted series is from its reference). The quick parameters' sliders are Qt widgets
// beside the view (quick_sliders.hpp). The text is in notation, in text_font.hpp's
// font (Greek letters, sub- and superscripts). Each
// overlay has its own ImGui context; ImGui's OpenGL 3 backend draws it into the widget's
// framebuffer after the field.
#pragma once

#include <QElapsedTimer>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <vector>

#include "imgui_qt_input.hpp"

class QEvent;

namespace ks::gui {

// What the status window shows.
struct OverlayStatus {
  double frames_per_s = 0.0;
  double iterations_per_s = 0.0;
  double work_per_s = 0.0;
  QString work_unit;   // "events", "cell updates"...; empty: no work rate is shown
  QString hover;       // the value under the cursor; empty: none
  QString comparison;  // the plotted series against its reference ("d_g: 1.2 % from sectional"); empty: none
  int host_uploads = 0;
  int device_copies = 0;  // zero-copy path; shown when there were any
};

class ImGuiOverlay {
 public:
  // Who handles an input event: the view alone (not input), both, or the overlay alone.
  enum class InputUse { NotInput, Shared, Taken };

  ImGuiOverlay();  // creates the ImGui context; needs no OpenGL
  ~ImGuiOverlay();
  ImGuiOverlay(const ImGuiOverlay&) = delete;
  ImGuiOverlay& operator=(const ImGuiOverlay&) = delete;

  // With the widget's OpenGL context current: ImGui's GL objects. False when the backend fails.
  bool initializeGL();
  void cleanupGL();

  // Records any input event for the next frame. Taken: a press on an overlay window and the
  // drag that follows, the wheel over a window, keys while the overlay takes typed text; the view
  // must not pan, zoom or run shortcuts with those.
  InputUse handleInput(const QEvent& event);

  // With the widget's context current and its framebuffer bound: one ImGui frame over
  // `size` (logical pixels, `dpr` framebuffer pixels each).
  void draw(const OverlayStatus& status, QSizeF size, double dpr);
  // The last frame showed a tap (press and release between two paints): draw once more.
  bool needsAnotherFrame() const { return tap_shown_; }

 private:
  void makeCurrent() const;
  float secondsSinceLastFrame();
  void buildWindows(const OverlayStatus& status, QSizeF size);
  void buildStatusWindow(const OverlayStatus& status, QSizeF size);  // wrapped short of the colour bar
  void recordWindow();             // the current window's rectangle, and whether it is stale (window_stale_)
  bool covers(QPointF pos) const;  // an overlay window lies at pos (logical pixels)

  ImGuiContext* context_ = nullptr;
  ImGuiQtInput input_;
  QElapsedTimer frame_clock_;
  std::vector<QRectF> window_rects_;  // the overlay's windows in the last frame, logical pixels
  bool window_stale_ = false;         // a window was new, or outgrown by its contents, in the frame being built
  bool gl_ready_ = false;
  bool mouse_taken_ = false;  // a press landed on a window: the drag is the overlay's until release
  bool text_input_ = false;   // the overlay takes typed text (ImGui's io.WantTextInput)
  bool tap_shown_ = false;
};

}  // namespace ks::gui
