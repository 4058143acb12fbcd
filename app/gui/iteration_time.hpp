// How long an iteration of a preset takes on this machine, before the user commits to it. A preset
// that has run here at about its size (a power of ten in cost) is timed from its own runs; any other
// from its method's cost model
// (Method::iteration_cost) over the rate, cost a second, that the method's runs and speed probes
// (speed_probe.hpp) measured here, those of the nearest size (a power of ten in cost) first. Kept in
// QSettings per device (ExecutionContext::device_name), so a laptop and a GPU machine each learn their
// own.
#pragma once

#include <QString>
#include <cstdint>
#include <functional>
#include <string>

class QObject;

namespace ks {
struct ExecutionContext;
class ParamSet;
}  // namespace ks

namespace ks::gui {

struct IterationTime {
  double seconds = 0.0;   // 0: nothing measured for the preset or its method on this device yet
  bool measured = false;  // from runs of this preset; else from the method's rate
  double scale = 1.0;     // this preset's cost over that of the runs the rate comes from
  // Estimated from runs of another size (3 times smaller or larger, or more): a lattice that fits in
  // a cache runs faster per cell, so such an estimate may be several times short.
  bool ofAnotherSize() const { return !measured && (scale >= 3.0 || scale <= 1.0 / 3.0); }
};

IterationTime iteration_time(const QString& path, const std::string& method, const ParamSet& params, const ExecutionContext& ctx);
// After a run of `params` (the preset at `path`, "" for a probe) spent `seconds` in `iterations` iterations.
void record_iteration_time(const QString& path, const std::string& method, const ParamSet& params, const ExecutionContext& ctx,
                           std::int64_t iterations, double seconds);
// The same, written later by write_settings_later (settings_writer.hpp), for the GUI thread; then
// `written` on `context`'s thread.
void record_iteration_time_in_background(const QString& path, const std::string& method, const ParamSet& params,
                                         const ExecutionContext& ctx, std::int64_t iterations, double seconds, QObject* context,
                                         std::function<void()> written);
// "about 3 s an iteration on CPU, 2 threads (measured)", or that it is not known yet.
QString iteration_time_text(const IterationTime& t, const ExecutionContext& ctx);

}  // namespace ks::gui
