#include "field_writer.hpp"

#include <sstream>

#include "core/errors.hpp"
#include "output_file.hpp"

namespace ks {

namespace {

constexpr std::size_t kChunkBytes = 1 << 20;  // formatted rows handed to the file at a time

// Rows formatted at 17 significant digits into `put` a chunk at a time; written to a temporary and
// renamed over the file (output_file.hpp): never through a planted link, never a file cut mid-row.
class CsvRows {
 public:
  explicit CsvRows(const ByteSink& put) : put_(put) { out_.precision(17); }
  std::ostringstream& out() { return out_; }
  void end_row() {
    out_ << '\n';
    if (out_.tellp() >= std::streamoff(kChunkBytes)) flush();
  }
  void flush() {
    put_(out_.view());
    out_.str({});
  }

 private:
  const ByteSink& put_;
  std::ostringstream out_;
};

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
  write_file_atomically(
      path,
      [&f](const ByteSink& put) {
        CsvRows rows(put);
        auto& out = rows.out();
        out << "x,y,z";
        for (int c = 0; c < f.desc.components; ++c)
          out << ',' << csv_field(f.desc.components > 1 ? f.desc.name + '_' + std::to_string(c) : f.desc.name);
        rows.end_row();
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
          rows.end_row();
        }
        rows.flush();
      },
      "CSV file");
}

void write_series_csv(const Series& s, const std::string& path) {
  write_file_atomically(
      path,
      [&s](const ByteSink& put) {
        CsvRows rows(put);
        auto& out = rows.out();
        const bool err = s.y_err.size() == s.y.size() && !s.y.empty();
        out << csv_field(s.x_label) << ',' << csv_field(s.y_label);
        if (err) out << ',' << csv_field(s.y_label + "_stderr");
        rows.end_row();
        for (std::size_t i = 0; i < s.x.size(); ++i) {
          out << s.x[i] << ',' << s.y[i];
          if (err) out << ',' << s.y_err[i];
          rows.end_row();
        }
        rows.flush();
      },
      "CSV file");
}

}  // namespace ks
