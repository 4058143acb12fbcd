// A snapshot's fields can be hundreds of MB (a packed bed's node fields): freeing them took 30-40 ms
// of the GUI thread whenever a view let go of the last reference, at every new snapshot and at a
// preset switch. The window holds what it shows through freed_elsewhere: the last of its references
// hands the release to a pool thread.
#pragma once

#include <QThreadPool>
#include <memory>

namespace ks::gui {

template <class T>
std::shared_ptr<const T> freed_elsewhere(std::shared_ptr<const T> held) {
  if (!held) return held;
  const T* object = held.get();
  return std::shared_ptr<const T>(object, [held = std::move(held)](const T*) mutable {
    QThreadPool::globalInstance()->start([last = std::move(held)]() mutable { last.reset(); });
  });
}

}  // namespace ks::gui
