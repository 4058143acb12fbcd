// QSettings writes off the GUI thread. A QSettings syncs its file when it goes (fdatasync under a
// lock file), which froze the window 70-330 ms on a virtual machine's disk while a run recorded its
// iteration time (perf's sched_switch stacks, 2026-11-30). Writes run on one thread of their own,
// in the order given; the application waits for them when it ends. Reads stay where they are and
// may see a value a moment before it is written.
#pragma once

#include <QSettings>
#include <functional>

namespace ks::gui {

// `then`, where given, runs on `context`'s thread once the write is done (not at all if `context` is
// gone by then).
void write_settings_later(std::function<void(QSettings&)> write, QObject* context = nullptr, std::function<void()> then = {});
// Until every write asked for so far is done (tests that read the settings back).
void wait_for_settings_writes();

}  // namespace ks::gui
