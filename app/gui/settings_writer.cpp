#include "settings_writer.hpp"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

namespace ks::gui {

namespace {

// One thread keeps the writes in order; as the application's child it is waited for at its end.
QThreadPool* writer() {
  static QPointer<QThreadPool> pool;
  if (!pool) {
    pool = new QThreadPool(QCoreApplication::instance());
    pool->setMaxThreadCount(1);
  }
  return pool;
}

}  // namespace

void write_settings_later(std::function<void(QSettings&)> write, QObject* context, std::function<void()> then) {
  writer()->start([write = std::move(write), context = QPointer<QObject>(context), then = std::move(then)] {
    {
      QSettings settings;
      write(settings);
    }  // synced here
    // Through the application (alive until the writes end) to the GUI thread, where `context` may go.
    if (then)
      QMetaObject::invokeMethod(
          QCoreApplication::instance(),
          [context, then] {
            if (context) then();
          },
          Qt::QueuedConnection);
  });
}

void wait_for_settings_writes() { writer()->waitForDone(); }

}  // namespace ks::gui
