#include "imgui_qt_input.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>

namespace ks::gui {

namespace {

constexpr float kWheelUnitsPerNotch = 120.0f;  // Qt's angleDelta per wheel notch; ImGui counts notches

// ImGui's index of a Qt mouse button; -1 for buttons ImGui does not know.
int buttonIndex(Qt::MouseButton button) {
  switch (button) {
    case Qt::LeftButton: return ImGuiMouseButton_Left;
    case Qt::RightButton: return ImGuiMouseButton_Right;
    case Qt::MiddleButton: return ImGuiMouseButton_Middle;
    case Qt::BackButton: return 3;
    case Qt::ForwardButton: return 4;
    default: return -1;
  }
}

// ImGui's named key for a Qt key; -1 for keys not needed (letters and digits other than the
// editing shortcuts arrive as text).
int keyIndex(int qt_key) {
  switch (qt_key) {
    case Qt::Key_Tab: return ImGuiKey_Tab;
    case Qt::Key_Left: return ImGuiKey_LeftArrow;
    case Qt::Key_Right: return ImGuiKey_RightArrow;
    case Qt::Key_Up: return ImGuiKey_UpArrow;
    case Qt::Key_Down: return ImGuiKey_DownArrow;
    case Qt::Key_PageUp: return ImGuiKey_PageUp;
    case Qt::Key_PageDown: return ImGuiKey_PageDown;
    case Qt::Key_Home: return ImGuiKey_Home;
    case Qt::Key_End: return ImGuiKey_End;
    case Qt::Key_Insert: return ImGuiKey_Insert;
    case Qt::Key_Delete: return ImGuiKey_Delete;
    case Qt::Key_Backspace: return ImGuiKey_Backspace;
    case Qt::Key_Space: return ImGuiKey_Space;
    case Qt::Key_Return: return ImGuiKey_Enter;
    case Qt::Key_Escape: return ImGuiKey_Escape;
#if IMGUI_VERSION_NUM >= 18700
    case Qt::Key_Enter: return ImGuiKey_KeypadEnter;  // renamed in 1.87
#else
    case Qt::Key_Enter: return ImGuiKey_KeyPadEnter;
#endif
    case Qt::Key_A: return ImGuiKey_A;
    case Qt::Key_C: return ImGuiKey_C;
    case Qt::Key_V: return ImGuiKey_V;
    case Qt::Key_X: return ImGuiKey_X;
    case Qt::Key_Y: return ImGuiKey_Y;
    case Qt::Key_Z: return ImGuiKey_Z;
    default: return -1;
  }
}

// Printable text only: Ctrl+letter and the editing keys carry control characters.
bool isPrintable(const QString& text) {
  return !text.isEmpty() && std::all_of(text.begin(), text.end(), [](QChar c) { return c.isPrint(); });
}

}  // namespace

template <std::size_t N>
void ImGuiQtInput::Latched<N>::set(int index, bool down) {
  if (index < 0 || index >= int(N)) return;
  held[index] = down;
  if (down) pressed[index] = true;
}

template <std::size_t N>
bool ImGuiQtInput::Latched<N>::applyTo(bool* io_down) {
  bool tap = false;
  for (std::size_t i = 0; i < N; ++i) {
    io_down[i] = held[i] || pressed[i];
    tap = tap || (pressed[i] && !held[i]);
    pressed[i] = false;
  }
  return tap;
}

#if IMGUI_VERSION_NUM >= 18700
void ImGuiQtInput::configureKeyMap(ImGuiIO&) {}

void ImGuiQtInput::setKey(int key, bool down) {
  if (key < 0) return;
  changes_.push_back({true, key, down});
  if (down) keys_held_.push_back(key);
  else keys_held_.erase(std::remove(keys_held_.begin(), keys_held_.end(), key), keys_held_.end());
}

void ImGuiQtInput::setButton(int button, bool down) {
  if (button < 0) return;
  changes_.push_back({false, button, down});
  buttons_.set(button, down);
}
#else
void ImGuiQtInput::configureKeyMap(ImGuiIO& io) {
  for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;
}

void ImGuiQtInput::setKey(int key, bool down) { keys_.set(key, down); }
void ImGuiQtInput::setButton(int button, bool down) { buttons_.set(button, down); }
#endif

void ImGuiQtInput::record(const QEvent& event) {
  switch (event.type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:  // the second press of a double click
    case QEvent::MouseButtonRelease:
    case QEvent::MouseMove:
    case QEvent::Wheel: recordMouse(event); break;
    case QEvent::KeyPress:
    case QEvent::KeyRelease: recordKey(event); break;
    case QEvent::Leave: pos_ = ImVec2(-FLT_MAX, -FLT_MAX); break;
    case QEvent::FocusOut:  // key releases now go elsewhere: none may stay held
#if IMGUI_VERSION_NUM >= 18700
      for (const int key : std::vector<int>(keys_held_)) setKey(key, false);
#else
      keys_.held.fill(false);
#endif
      break;
    default: break;
  }
}

void ImGuiQtInput::recordMouse(const QEvent& event) {
  const auto& e = static_cast<const QSinglePointEvent&>(event);
  pos_ = ImVec2(float(e.position().x()), float(e.position().y()));
  modifiers_ = e.modifiers();  // Ctrl+click on a slider: type its value
  if (event.type() == QEvent::Wheel) {
    wheel_ += float(static_cast<const QWheelEvent&>(event).angleDelta().y()) / kWheelUnitsPerNotch;
  } else if (event.type() != QEvent::MouseMove) {
    setButton(buttonIndex(e.button()), event.type() != QEvent::MouseButtonRelease);
  }
}

void ImGuiQtInput::recordKey(const QEvent& event) {
  const auto& e = static_cast<const QKeyEvent&>(event);
  const bool down = event.type() == QEvent::KeyPress;
  modifiers_ = e.modifiers();
  // Qt repeats a held key as release/press pairs; ImGui repeats held keys itself.
  if (!e.isAutoRepeat()) setKey(keyIndex(e.key()), down);
  if (down && isPrintable(e.text())) text_ += e.text().toUtf8();
}

#if IMGUI_VERSION_NUM >= 18700
bool ImGuiQtInput::applyTo(ImGuiIO& io) {
  io.AddMousePosEvent(pos_.x, pos_.y);
#if IMGUI_VERSION_NUM >= 18900
  const ImGuiKey ctrl = ImGuiMod_Ctrl, shift = ImGuiMod_Shift, alt = ImGuiMod_Alt, super = ImGuiMod_Super;
#else
  const ImGuiKey ctrl = ImGuiKey_ModCtrl, shift = ImGuiKey_ModShift, alt = ImGuiKey_ModAlt, super = ImGuiKey_ModSuper;
#endif
  io.AddKeyEvent(ctrl, modifiers_.testFlag(Qt::ControlModifier));
  io.AddKeyEvent(shift, modifiers_.testFlag(Qt::ShiftModifier));
  io.AddKeyEvent(alt, modifiers_.testFlag(Qt::AltModifier));
  io.AddKeyEvent(super, modifiers_.testFlag(Qt::MetaModifier));
  // ImGui applies one change of a key or button per frame: a press and its release sent together
  // need one more frame to show the release.
  bool tap = false;
  for (const Change& c : changes_) {
    if (c.is_key) io.AddKeyEvent(static_cast<ImGuiKey>(c.index), c.down);
    else io.AddMouseButtonEvent(c.index, c.down);
    tap = tap || !c.down;
  }
  changes_.clear();
  for (auto& pressed : buttons_.pressed) pressed = false;
  if (wheel_ != 0.0f) io.AddMouseWheelEvent(0.0f, wheel_);
  wheel_ = 0.0f;
  if (!text_.isEmpty()) io.AddInputCharactersUTF8(text_.constData());
  text_.clear();
  return tap;
}
#else
bool ImGuiQtInput::applyTo(ImGuiIO& io) {
  io.MousePos = pos_;
  io.MouseWheel = wheel_;
  wheel_ = 0.0f;
  io.KeyCtrl = modifiers_.testFlag(Qt::ControlModifier);
  io.KeyShift = modifiers_.testFlag(Qt::ShiftModifier);
  io.KeyAlt = modifiers_.testFlag(Qt::AltModifier);
  io.KeySuper = modifiers_.testFlag(Qt::MetaModifier);
  if (!text_.isEmpty()) io.AddInputCharactersUTF8(text_.constData());
  text_.clear();
  const bool button_tap = buttons_.applyTo(io.MouseDown);
  const bool key_tap = keys_.applyTo(io.KeysDown);
  return button_tap || key_tap;
}
#endif

bool ImGuiQtInput::anyButtonHeld() const {
  return std::any_of(buttons_.held.begin(), buttons_.held.end(), [](bool b) { return b; });
}

}  // namespace ks::gui
