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

void write_settings_later(std::function<void(QSettings&)> write) {
  writer()->start([write = std::move(write)] {
    QSettings settings;
    write(settings);
  });
}

void wait_for_settings_writes() { writer()->waitForDone(); }

}  // namespace ks::gui
