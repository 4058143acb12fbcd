// The one adapter from the engine's fields to VTK data sets: every VTK view (and a future
// in-app export) consumes it instead of converting a snapshot on its own.
#pragma once

#include <vtkSmartPointer.h>

#include "core/field.hpp"

class vtkDataSet;

namespace ks::gui {

// Image grids: vtkImageData with the grid's origin and spacing (m), one point per cell
// corner and the values as cell data, x fastest (the layout of the exported .vti files).
// Particles: vtkPolyData with one vertex per particle and the values as point data.
// The values become a double array named after the field, with the field's components,
// set as the active scalars. Throws ks::Error (bad input) when the values or positions do
// not match the grid.
vtkSmartPointer<vtkDataSet> to_vtk(const ks::FieldData& field);

}  // namespace ks::gui
