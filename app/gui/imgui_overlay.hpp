// The Dear ImGui overlay of a FieldView: a translucent status window above the field (frame rate,
// simulation rate, host uploads and zero-copy device copies; the value under the cursor, else how
// far the plotted series is from its reference) and a
// "Sliders" window, folded under the colour bar at first, with one slider per parameter the
// method marks quick and live. Each
// overlay has its own ImGui context; ImGui's OpenGL 3 backend draws it into the widget's
// framebuffer after the field. The overlay is not a QObject: it returns what the user
// changed, and the widget emits it.
#pragma once

#include <QElapsedTimer>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <vector>

#include "core/param.hpp"
#include "imgui_qt_input.hpp"

class QEvent;

namespace ks::gui {

// What the status window shows.
struct OverlayStatus {
  double frames_per_s = 0.0;
  double iterations_per_s = 0.0;
  double work_per_s = 0.0;
  QString work_unit;  // "events", "cell updates"...; empty: no work rate is shown
  QString hover;      // the value under the cursor; empty: none
  QString comparison; // the plotted series against its reference ("d_g: 1.2 % from sectional"); empty: none
  int host_uploads = 0;
  int device_copies = 0;  // zero-copy path; shown when there were any
};

// A quick parameter the user set with its slider.
struct QuickChange {
  QString key;
  ks::ParamValue value;
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

  // The sliders: one per spec that is quick, live and Int or Real, at its value in `values`.
  void setQuickParameters(const std::vector<ks::ParamSpec>& specs, const ks::ParamSet& values);
  // The values the simulation runs with; true when a shown value changed.
  bool showValues(const ks::ParamSet& values);

  // Records any input event for the next frame. Taken: a press on an overlay window and the
  // drag that follows, the wheel over a window, keys while a slider takes typed text
  // (Ctrl+click); the view must not pan, zoom or run shortcuts with those.
  InputUse handleInput(const QEvent& event);

  // With the widget's context current and its framebuffer bound: one ImGui frame over
  // `size` (logical pixels, `dpr` framebuffer pixels each). Returns the quick parameters the
  // user changed: on release, and at most every 200 ms while a slider is dragged.
  std::vector<QuickChange> draw(const OverlayStatus& status, QSizeF size, double dpr);
  // The last frame showed a tap (press and release between two paints): draw once more.
  bool needsAnotherFrame() const { return tap_shown_; }

 private:
  struct QuickParam {
    ks::ParamSpec spec;
    std::string label;         // "End time [tau_char]"
    ks::ParamValue value;      // what the slider shows when not held: the simulation's or the last sent
    ks::ParamValue edit;       // the slider's value while the user holds it
    ks::ParamValue sent;       // the last value sent during the current hold
    ks::ParamValue simulated;  // the simulation's value at the last showValues()
    double sent_at = 0.0;      // ImGui time of the last send, in seconds
    bool held = false;         // the slider is being dragged or typed into
  };

  void makeCurrent() const;
  float secondsSinceLastFrame();
  void buildWindows(const OverlayStatus& status, QSizeF size, std::vector<QuickChange>& changes);
  void buildStatusWindow(const OverlayStatus& status, QSizeF size);  // wrapped short of the colour bar
  void buildQuickWindow(QSizeF size, std::vector<QuickChange>& changes);
  void quickSlider(QuickParam& q, std::vector<QuickChange>& changes);
  void recordWindow();  // the current window's rectangle, and whether it just appeared
  bool covers(QPointF pos) const;  // an overlay window lies at pos (logical pixels)

  ImGuiContext* context_ = nullptr;
  ImGuiQtInput input_;
  std::vector<QuickParam> quick_;
  QElapsedTimer frame_clock_;
  std::vector<QRectF> window_rects_;  // the overlay's windows in the last frame, logical pixels
  bool window_appeared_ = false;      // a window was new in the frame being built
  bool gl_ready_ = false;
  bool mouse_taken_ = false;  // a press landed on a window: the drag is the overlay's until release
  bool text_input_ = false;   // a slider takes typed text (ImGui's io.WantTextInput)
  bool tap_shown_ = false;
};

}  // namespace ks::gui
