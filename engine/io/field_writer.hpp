// Field and series files for `kinetic-run --out DIR`.
#pragma once

#include <string>

#include "core/field.hpp"

namespace ks {

// CSV, header "x,y,z,<field>[_0,_1,...]", one row per cell (cell centres) or particle.
void write_field_csv(const FieldData& field, const std::string& path);
// CSV, header "<x_label>,<y_label>[,<y_label>_stderr]".
void write_series_csv(const Series& series, const std::string& path);
// One CSV field as RFC 4180 writes it: in double quotes, its quotes doubled, when it holds a comma,
// a double quote or a line break (the phase space "f(x, vx)"); as it is otherwise.
std::string csv_field(const std::string& text);
// A name safe for a file: letters, digits, '-', '_' and '.'; others become '_'.
std::string file_safe(const std::string& name);

}  // namespace ks
