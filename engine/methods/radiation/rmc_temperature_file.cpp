#include "rmc_temperature_file.hpp"

#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/input_file.hpp"

namespace ks::rmc {

const GridFileSpec& temperature_file_spec() {
  static const GridFileSpec spec = [] {
    GridFileSpec s;
    s.value = "T";
    s.unit = "K";
    s.quantity = "temperature";
    s.value_param = "temperature";
    s.max_value = kMaxTemperature;
    s.max_cells_per_axis = kMaxCellsPerAxis;
    s.cells_param = "nx, ny, nz";
    s.min_length = kMinLength;
    s.max_length = kMaxLength;
    s.length_param = "length";
    s.file_param = "temperature_file";
    s.max_bytes = kMaxTemperatureFileBytes;
    return s;
  }();
  return spec;
}

TemperatureField load_temperature_file(const std::string& path) { return read_grid_file(path, temperature_file_spec()); }

TemperatureFileEstimate estimate_temperature_file(const std::string& path) { return estimate_grid_file(path, temperature_file_spec()); }

void check_temperature_range(const TemperatureField& f, double lo, double hi, const std::string& tables) {
  for (std::size_t c = 0; c < f.values.size(); ++c)
    if (f.values[c] < lo || f.values[c] > hi)
      throw bad_input(f.file + ": " + f.source(c), "T = " + format_precise(f.values[c]) + " K is outside the " + tables + " tables",
                      "T in [" + format_precise(lo) + ", " + format_precise(hi) + "] K (the tables' range; the grey gas takes any T > 0)");
}

}  // namespace ks::rmc
