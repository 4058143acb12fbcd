// Qt input for Dear ImGui 1.86, which has no Qt backend: the widget records its mouse and
// keyboard events here, and the overlay writes the recorded state into ImGuiIO before each
// ImGui frame. ImGui 1.86 polls that state once per frame (io.MousePos, io.MouseDown,
// io.KeysDown), so a click or a key tap that begins and ends between two paints is latched
// and shown to one frame as held.
#pragma once

#include <QByteArray>
#include <QEvent>
#include <array>
#include <cfloat>
#include <cstddef>

#include <imgui.h>

namespace ks::gui {

class ImGuiQtInput {
 public:
  // Maps ImGui's named keys (Tab, arrows, Enter, Ctrl+A/C/V/X/Y/Z...) to io.KeysDown[].
  static void configureKeyMap(ImGuiIO& io);

  // Records a mouse, wheel, key, leave or focus-out event; other events are ignored.
  void record(const QEvent& event);
  // Writes what was recorded into io for the frame about to start. True when that frame shows
  // a tap (pressed and already released): one more frame must follow to show the release.
  bool applyTo(ImGuiIO& io);
  bool anyButtonHeld() const;

 private:
  // Buttons or keys: held now, or pressed since the last frame.
  template <std::size_t N>
  struct Latched {
    std::array<bool, N> held{}, pressed{};
    void set(int index, bool down);
    bool applyTo(bool* io_down);  // io_down[i] = held or pressed; true when a tap is shown
  };

  void recordMouse(const QEvent& event);
  void recordKey(const QEvent& event);

  ImVec2 pos_{-FLT_MAX, -FLT_MAX};  // ImGui's "no mouse"
  Latched<ImGuiMouseButton_COUNT> buttons_;
  Latched<ImGuiKey_COUNT> keys_;  // io.KeyMap[k] == k: the named keys index io.KeysDown[]
  float wheel_ = 0.0f;            // notches since the last frame
  Qt::KeyboardModifiers modifiers_;  // of the latest mouse or key event
  QByteArray text_;  // typed since the last frame, UTF-8
};

}  // namespace ks::gui
