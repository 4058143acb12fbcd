#include "time_series.hpp"

#include <cstdio>
#include <sstream>

#include "output_file.hpp"
#include "vtk_xml_writer.hpp"

namespace ks {

std::string TimeSeriesWriter::numbered(const std::string& name, std::int64_t iteration) {
  char digits[24];
  std::snprintf(digits, sizeof digits, "%08lld", static_cast<long long>(iteration));
  return name + "_" + digits;
}

std::vector<std::string> TimeSeriesWriter::write(const std::vector<FieldData>& fields, std::int64_t iteration, double time) {
  std::vector<std::string> written;
  for (const Dataset& d : datasets_of(fields)) {
    const std::string path = write_dataset_vtk(d, dir_ + "/" + numbered(d.name, iteration), encoding_, time);
    written.push_back(path);
    add(d.name, path.substr(dir_.size() + 1), iteration, time);
  }
  return written;
}

std::string TimeSeriesWriter::add(const std::string& name, const std::string& file, std::int64_t iteration, double time) {
  std::vector<Entry>& list = entries_[name];
  if (!list.empty() && list.back().iteration == iteration) list.pop_back();  // the same output written again
  list.push_back({iteration, time, file});
  std::ostringstream out;
  out.precision(17);
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n  <Collection>\n";
  for (const Entry& e : list) out << "    <DataSet timestep=\"" << e.time << "\" part=\"0\" file=\"" << xml_escaped(e.file) << "\"/>\n";
  out << "  </Collection>\n</VTKFile>\n";
  const std::string path = dir_ + "/" + name + ".pvd";
  write_file_atomically(path, out.str(), "time series");
  return path;
}

std::vector<std::string> TimeSeriesWriter::collections() const {
  std::vector<std::string> out;
  for (const auto& [name, list] : entries_) out.push_back(dir_ + "/" + name + ".pvd");
  return out;
}

}  // namespace ks
