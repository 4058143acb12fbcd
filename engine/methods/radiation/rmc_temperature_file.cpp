#include "rmc_temperature_file.hpp"

#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/input_file.hpp"

namespace ks::rmc {

const GridFileSpec& temperature_file_spec() {
  static const GridFileSpec spec{.value = "T",
                                 .unit = "K",
                                 .quantity = "temperature",
                                 .value_param = "temperature",
                                 .max_value = kMaxTemperature,
                                 .max_cells_per_axis = kMaxCellsPerAxis,
                                 .cells_param = "nx, ny, nz",
                                 .min_length = kMinLength,
                                 .max_length = kMaxLength,
                                 .length_param = "length",
                                 .file_param = "temperature_file",
                                 .max_bytes = kMaxTemperatureFileBytes};
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
