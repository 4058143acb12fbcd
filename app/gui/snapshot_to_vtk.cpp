#include "snapshot_to_vtk.hpp"

#include <algorithm>
#include <string>

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDataSet.h>
#include <vtkDoubleArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

#include "core/errors.hpp"

namespace ks::gui {

namespace {

// The field's values as a VTK array of `count` tuples (copied: the snapshot owns its data).
vtkSmartPointer<vtkDoubleArray> values_array(const FieldData& field, vtkIdType count) {
  const int components = field.desc.components;
  if (components < 1 || field.values.size() != std::size_t(count) * std::size_t(components)) {
    const std::string what = std::to_string(field.values.size()) + " values for " + std::to_string(count) + " cells or particles of " +
                             std::to_string(components) + " component(s)";
    throw bad_input("field '" + field.desc.name + "'", what);
  }
  auto array = vtkSmartPointer<vtkDoubleArray>::New();
  array->SetName(field.desc.name.c_str());
  array->SetNumberOfComponents(components);
  array->SetNumberOfTuples(count);
  std::copy(field.values.begin(), field.values.end(), array->GetPointer(0));
  return array;
}

vtkSmartPointer<vtkDataSet> image_to_vtk(const FieldData& field) {
  const Grid& g = field.grid;
  auto image = vtkSmartPointer<vtkImageData>::New();
  image->SetDimensions(g.cells[0] + 1, g.cells[1] + 1, g.cells[2] + 1);
  image->SetOrigin(g.origin.data());
  image->SetSpacing(g.spacing.data());
  image->GetCellData()->SetScalars(values_array(field, g.count()));
  return image;
}

vtkSmartPointer<vtkDataSet> particles_to_vtk(const FieldData& field) {
  const auto count = vtkIdType(field.positions.size());
  if (count != field.grid.count()) {
    throw bad_input("field '" + field.desc.name + "'",
                    std::to_string(count) + " positions for " + std::to_string(field.grid.count()) + " particles");
  }
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(count);
  vtkNew<vtkCellArray> vertices;
  vertices->AllocateExact(count, count);
  for (vtkIdType k = 0; k < count; ++k) {
    points->SetPoint(k, field.positions[std::size_t(k)].data());
    vertices->InsertNextCell(1, &k);
  }
  auto cloud = vtkSmartPointer<vtkPolyData>::New();
  cloud->SetPoints(points);
  cloud->SetVerts(vertices);
  cloud->GetPointData()->SetScalars(values_array(field, count));
  return cloud;
}

}  // namespace

vtkSmartPointer<vtkDataSet> to_vtk(const FieldData& field) {
  return field.grid.kind == Grid::Kind::Image ? image_to_vtk(field) : particles_to_vtk(field);
}

}  // namespace ks::gui
