// Field and series files for `kinetic-run --out DIR`.
#pragma once

#include <string>

#include "core/field.hpp"

namespace ks {

// CSV, header "x,y,z,<field>[_0,_1,...]", one row per cell (cell centres) or particle.
void write_field_csv(const FieldData& field, const std::string& path);
// CSV, header "<x_label>,<y_label>[,<y_label>_stderr]".
void write_series_csv(const Series& series, const std::string& path);
// A name safe for a file: letters, digits, '-', '_' and '.'; others become '_'.
std::string file_safe(const std::string& name);

}  // namespace ks
