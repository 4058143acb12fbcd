#include "time_series.hpp"

#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

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

namespace {

bool is_hdf(const std::string& file) { return file.size() > 4 && file.compare(file.size() - 4, 4, ".hdf") == 0; }

}  // namespace

std::string TimeSeriesWriter::add(const std::string& name, const std::string& file, std::int64_t iteration, double time) {
  std::vector<Entry>& list = entries_[name];
  if (!list.empty() && list.back().iteration == iteration) list.pop_back();  // the same output written again
  list.push_back({iteration, time, file});
  const std::string path = collection(name);
  if (is_hdf(file)) {
    // ParaView's file series (a reader's files with their times), as ParaView 5.11 opens .hdf ones.
    nlohmann::json files = nlohmann::json::array();
    for (const Entry& e : list) files.push_back({{"name", e.file}, {"time", e.time}});
    const nlohmann::json series = {{"file-series-version", "1.0"}, {"files", files}};
    write_file_atomically(path, series.dump(2) + "\n", "time series");
    return path;
  }
  std::ostringstream out;
  out.precision(17);
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n  <Collection>\n";
  for (const Entry& e : list) out << "    <DataSet timestep=\"" << e.time << "\" part=\"0\" file=\"" << xml_escaped(e.file) << "\"/>\n";
  out << "  </Collection>\n</VTKFile>\n";
  write_file_atomically(path, out.str(), "time series");
  return path;
}

std::string TimeSeriesWriter::collection(const std::string& name) const {
  const auto it = entries_.find(name);
  const bool hdf = it != entries_.end() && !it->second.empty() && is_hdf(it->second.back().file);
  return dir_ + "/" + name + (hdf ? ".hdf.series" : ".pvd");
}

std::vector<std::string> TimeSeriesWriter::collections() const {
  std::vector<std::string> out;
  for (const auto& entry : entries_) out.push_back(collection(entry.first));
  return out;
}

}  // namespace ks
