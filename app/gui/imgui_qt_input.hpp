// Qt input for Dear ImGui, which has no Qt backend: the widget records its mouse and keyboard
// events here, and the overlay hands them to ImGuiIO before each ImGui frame.
// - ImGui 1.86 (Debian 12) polls state once per frame (io.MousePos, io.MouseDown, io.KeysDown),
//   so a click or a key tap that begins and ends between two paints is latched and shown to one
//   frame as held.
// - ImGui 1.87 and later (Ubuntu 24.04 has 1.90.1) take a queue of events (io.AddKeyEvent,
//   io.AddMouseButtonEvent, ...) and spread a press and its release over frames themselves; the
//   old io.KeyMap / io.KeysDown input is gone there.
#pragma once

#include <QByteArray>
#include <QEvent>
#include <array>
#include <cfloat>
#include <cstddef>
#include <vector>

#include <imgui.h>

namespace ks::gui {

class ImGuiQtInput {
 public:
  // 1.86: maps ImGui's named keys (Tab, arrows, Enter, Ctrl+A/C/V/X/Y/Z...) to io.KeysDown[];
  // 1.87+: nothing to do (keys are sent as ImGuiKey events).
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
  void setKey(int key, bool down);
  void setButton(int button, bool down);

  ImVec2 pos_{-FLT_MAX, -FLT_MAX};  // ImGui's "no mouse"
  Latched<ImGuiMouseButton_COUNT> buttons_;
  float wheel_ = 0.0f;               // notches since the last frame
  Qt::KeyboardModifiers modifiers_;  // of the latest mouse or key event
  QByteArray text_;                  // typed since the last frame, UTF-8
#if IMGUI_VERSION_NUM >= 18700
  // Key and button changes in the order they happened, sent as events at the next frame.
  struct Change {
    bool is_key;
    int index;  // ImGuiKey or ImGuiMouseButton
    bool down;
  };
  std::vector<Change> changes_;
  std::vector<int> keys_held_;  // released on focus-out
#else
  Latched<ImGuiKey_COUNT> keys_;  // io.KeyMap[k] == k: the named keys index io.KeysDown[]
#endif
};

}  // namespace ks::gui
