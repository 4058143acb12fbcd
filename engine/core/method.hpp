// The one interface every physics method implements. The Runner owns a method on
// its worker thread; the GUI, the CLI and the tests never call it concurrently.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend.hpp"
#include "field.hpp"
#include "memory.hpp"
#include "param.hpp"

namespace ks {

struct MethodInfo {
  std::string id;      // "aerosol.coagulation"
  std::string title;   // "Aerosol coagulation (inverse Monte Carlo)"
  std::string paper;   // file name in shared/papers
  std::string folder;  // engine/methods/<folder>: its code and README.md, the notes the app's Help opens
  std::vector<ParamSpec> params;
  std::vector<FieldDesc> fields;
  std::vector<std::string> series;  // names of the series a snapshot carries
  // How ranks share a run under MPI (ExecutionContext::comm), for the user and summary.json; "" where
  // the method runs on one rank only.
  std::string decomposition;
};

struct Progress {
  std::int64_t iteration = 0;  // completed iterations since setup
  double sim_time = 0.0;       // in the method's time unit (see time_unit)
  std::string time_unit;       // e.g. "s", "tau_char", "steps"
  double residual = 0.0;       // method-defined convergence measure (0 when not meaningful)
  double fraction_done = 0.0;  // 0..1 towards the method's end condition
  std::string end_condition;   // which end fraction_done follows ("t_end", "steady state (residual 1e-07)")
  double work_done = 0.0;      // method-defined work units (events, cell updates, rays) since setup
  std::string work_unit;       // "events", "cell updates", ...
  // True only when the method's convergence tolerance was met (not when t_end, an iteration
  // limit or the ray count ended the run); methods without a tolerance never set it.
  bool converged = false;
};

// A complete, immutable picture of the state after an iteration.
struct Snapshot {
  Progress progress;
  std::vector<FieldData> fields;
  std::vector<Series> series;
  nlohmann::json diagnostics = nlohmann::json::object();
};

// Under MPI (ExecutionContext::comm of more than one rank) setup(), advance(), set_live() and snapshot()
// may be collectives: every rank calls them in the same order (the Runner takes snapshots only where
// every rank does), and everything else reads what this rank holds. A snapshot that gathers the ranks'
// parts is complete on rank 0, which writes the outputs.
class Method {
 public:
  virtual ~Method() = default;

  virtual const MethodInfo& info() const = 0;

  // The host and device memory that setup(params, ctx) would allocate, computed from the
  // parameters alone (nothing allocated, no file read beyond its header) in checked arithmetic;
  // the Runner refuses a set-up that does not fit before calling setup().
  virtual MemoryEstimate estimate_memory(const ParamSet& params, const ExecutionContext& ctx) const = 0;
  // What one iteration of setup(params) costs, in units of the method's own choosing that grow as its
  // time does on one device (lattice updates, phase-space updates, ray-cell crossings): a time
  // estimate divides it by a rate measured on this machine. 0 where the method gives none.
  virtual double iteration_cost(const ParamSet& params) const {
    (void)params;
    return 0.0;
  }
  // Allocates and initialises the state for `params` on `ctx`; may be called again (reset).
  virtual void setup(const ParamSet& params, const ExecutionContext& ctx) = 0;
  // One iteration; throws ks::Error (RunFailed) when the state is no longer physical.
  virtual void advance() = 0;
  virtual bool finished() const = 0;
  // Applies a live parameter (spec.live == true) between iterations.
  virtual void set_live(const std::string& key, const ParamValue& value) = 0;

  virtual Progress progress() const = 0;
  virtual Snapshot snapshot() const = 0;
  // What files take where it differs from snapshot(): the fields at the solver's own cells where
  // snapshot() resamples them for the app's views (the DVM's stretched grid as a rectilinear one);
  // none otherwise. snapshot_for_files() picks.
  virtual std::optional<Snapshot> file_snapshot() const { return std::nullopt; }
  virtual const ParamSet& params() const = 0;

  // Zero-copy views (CUDA backend): writes field `name` for display into device memory
  // `device_dst` and returns the bytes written; with device_dst == nullptr returns the bytes
  // needed; 0 when the method or backend cannot. `component`: -1 for the scalar or a vector's
  // magnitude, else that component (core/display_value.hpp). Layout: Particles, float4
  // (x, y, z, value) per particle in m and the field's unit; Image, one float per cell, as the
  // snapshot's grid. Called on the worker after snapshot(), of the same state; the device work may
  // still run when it returns (on the default stream; the caller synchronises).
  virtual std::size_t write_display_field(const std::string& name, int component, void* device_dst, std::size_t capacity) const {
    (void)name, (void)component, (void)device_dst, (void)capacity;
    return 0;
  }

  // Full state, bit-exact: a restart continues as if never stopped.
  virtual void save_state(std::ostream& out) const = 0;
  // Every count and index read is validated against the set-up (a crafted state is bad input, never
  // an out-of-range access); a refused state leaves the method as it was.
  virtual void load_state(std::istream& in) = 0;
};

// The snapshot files are written from: file_snapshot() where the method has one, else snapshot().
inline Snapshot snapshot_for_files(const Method& m) {
  std::optional<Snapshot> files = m.file_snapshot();
  return files ? std::move(*files) : m.snapshot();
}

}  // namespace ks
