// A run's outputs as a time series ParaView plays as an animation: each output's datasets numbered by
// iteration (DIR/fields_00000120.vti) and, per dataset, DIR/NAME.pvd listing them with their simulation
// times (for .hdf files, which a .pvd cannot list, DIR/NAME.hdf.series: ParaView's file series in
// JSON). These are rewritten (atomically) after every output, so the series opens while the run goes
// on and stays whole when it stops.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/field.hpp"
#include "vtk_data_arrays.hpp"

namespace ks {

class TimeSeriesWriter {
 public:
  TimeSeriesWriter(std::string dir, VtkEncoding encoding) : dir_(std::move(dir)), encoding_(encoding) {}

  // Writes every dataset of `fields` (datasets_of) for this output and updates their .pvd files;
  // returns the dataset files written. Grid fields that are a rank's piece are left to add().
  std::vector<std::string> write(const std::vector<FieldData>& fields, std::int64_t iteration, double time);
  // Lists a file written elsewhere (a .pvti or .pvtr over the ranks' pieces, a .hdf; relative to the
  // folder) as dataset `name`'s output at `iteration` and rewrites its .pvd (.hdf.series); returns its path.
  std::string add(const std::string& name, const std::string& file, std::int64_t iteration, double time);

  // The stem of the dataset `name`'s file at `iteration`: "fields_00000120".
  static std::string numbered(const std::string& name, std::int64_t iteration);
  // The .pvd and .hdf.series files written so far.
  std::vector<std::string> collections() const;

 private:
  struct Entry {
    std::int64_t iteration;
    double time;
    std::string file;  // relative to the folder
  };
  std::string collection(const std::string& name) const;  // the file listing dataset `name`'s outputs

  std::string dir_;
  VtkEncoding encoding_;
  std::map<std::string, std::vector<Entry>> entries_;  // per dataset name, in output order
};

}  // namespace ks
