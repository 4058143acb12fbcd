#include "field_writer.hpp"

#include <cstdio>
#include <fstream>

#include "core/errors.hpp"

namespace ks {

namespace {

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw bad_input(path, "cannot write the file", "a writable path");
  out.precision(17);
  return out;
}

void check_written(std::ofstream& out, const std::string& path) {
  out.flush();
  if (!out) throw bad_input(path, "writing the file failed (disk full?)");
}

}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

std::string file_safe(const std::string& name) {
  std::string out = name;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) c = '_';
  }
  return out;
}

void write_field_csv(const FieldData& f, const std::string& path) {
  std::ofstream out = open_for_writing(path);
  out << "x,y,z";
  for (int c = 0; c < f.desc.components; ++c)
    out << ',' << csv_field(f.desc.name + (f.desc.components > 1 ? "_" + std::to_string(c) : std::string()));
  out << '\n';
  const std::int64_t n = f.grid.count();
  const auto& g = f.grid;
  for (std::int64_t i = 0; i < n; ++i) {
    if (g.kind == Grid::Kind::Particles) {
      const auto& p = f.positions.at(i);
      out << p[0] << ',' << p[1] << ',' << p[2];
    } else {
      const std::int64_t ix = i % g.cells[0], iy = (i / g.cells[0]) % g.cells[1], iz = i / (std::int64_t(g.cells[0]) * g.cells[1]);
      out << g.centre(0, ix) << ',' << g.centre(1, iy) << ',' << g.centre(2, iz);
    }
    for (int c = 0; c < f.desc.components; ++c) out << ',' << f.values[i * f.desc.components + c];
    out << '\n';
  }
  check_written(out, path);
}

void write_series_csv(const Series& s, const std::string& path) {
  std::ofstream out = open_for_writing(path);
  const bool err = s.y_err.size() == s.y.size() && !s.y.empty();
  out << csv_field(s.x_label) << ',' << csv_field(s.y_label) << (err ? "," + csv_field(s.y_label + "_stderr") : std::string())
      << '\n';
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    out << s.x[i] << ',' << s.y[i];
    if (err) out << ',' << s.y_err[i];
    out << '\n';
  }
  check_written(out, path);
}

}  // namespace ks
