// The GUI tests wait as a user does: the event loop runs (5 ms at a time) until what they wait for
// has happened or a bound has passed.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <functional>

namespace ks::gui::testing {

// Serves the event loop until `done` or `timeout_ms`; the milliseconds it took.
inline qint64 serve_until(const std::function<bool()>& done, qint64 timeout_ms) {
  QElapsedTimer t;
  t.start();
  while (!done() && t.elapsed() < timeout_ms) QApplication::processEvents(QEventLoop::AllEvents, 5);
  return t.elapsed();
}

inline void serve_for(qint64 ms) {
  serve_until([] { return false; }, ms);
}

}  // namespace ks::gui::testing
