#include "vtk_grid_file.hpp"

#include <vtkCellData.h>
#include <vtkCommand.h>
#include <vtkDataArray.h>
#include <vtkDataSet.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPointDataToCellData.h>
#include <vtkSmartPointer.h>
#include <vtkExecutive.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLRectilinearGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/grid_file_checks.hpp"
#include "vtk_file_checks.hpp"

namespace ks::vtk_io {

using namespace grid_file;

namespace {

// VTK reports a reader's errors as events (and on its output window), not as exceptions: this keeps
// the first one's text for the message and keeps it off stderr.
class ErrorCatcher : public vtkCommand {
 public:
  static ErrorCatcher* New() { return new ErrorCatcher; }
  void Execute(vtkObject*, unsigned long, void* data) override {
    if (message.empty() && data) message = static_cast<const char*>(data);
  }
  std::string message;
};

std::string allowed(const GridFileSpec& spec) {
  return "a VTK XML .vti, .vtr or .vtu file of a uniform grid with a one-component array " + spec.value +
         " (ParaView: File > Save Data), or a .csv";
}

// The array named spec.value in the cell data, then the point data; else the first one-component one.
vtkDataArray* pick(vtkDataSet* data, const GridFileSpec& spec, bool& points) {
  vtkDataSetAttributes* sets[2] = {data->GetCellData(), data->GetPointData()};
  for (int round = 0; round < 2; ++round)
    for (int s = 0; s < 2; ++s)
      for (int i = 0; i < sets[s]->GetNumberOfArrays(); ++i) {
        vtkDataArray* a = sets[s]->GetArray(i);
        if (!a || (round == 0 ? spec.value != (a->GetName() ? a->GetName() : "") : a->GetNumberOfComponents() != 1)) continue;
        points = s == 1;
        return a;
      }
  return nullptr;
}

// The reader of the file's kind, by its ending.
vtkSmartPointer<vtkXMLReader> reader_for(const std::string& path) {
  if (has_ending(path, ".vtr")) return vtkSmartPointer<vtkXMLRectilinearGridReader>::New();
  if (has_ending(path, ".vtu")) return vtkSmartPointer<vtkXMLUnstructuredGridReader>::New();
  return vtkSmartPointer<vtkXMLImageDataReader>::New();
}

}  // namespace

GridField read_grid_file(const std::string& path, const std::string& text, const GridFileSpec& spec) {
  // VTK reads the text checked here, not the file again.
  check_before_vtk(path, text, spec);
  vtkSmartPointer<vtkXMLReader> reader = reader_for(path);
  vtkNew<ErrorCatcher> errors;
  reader->SetReaderErrorObserver(errors);
  reader->SetParserErrorObserver(errors);
  reader->AddObserver(vtkCommand::ErrorEvent, errors);
  reader->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, errors);
  reader->ReadFromInputStringOn();
  reader->SetInputString(text);
  reader->Update();
  vtkDataSet* data = vtkDataSet::SafeDownCast(reader->GetOutputDataObject(0));
  if (!errors->message.empty() || !data)
    throw bad_input(path, "VTK could not read it" + (errors->message.empty() ? std::string(" as a dataset") : ": " + cut(errors->message, 300)),
                    allowed(spec));
  check_vtk_output(path, data);
  const vtkIdType cells = data->GetNumberOfCells();
  if (cells == 0) throw bad_input(path, "holds no cells", allowed(spec));
  if (cells > max_cells(spec))
    throw bad_input(path, "holds " + std::to_string(cells) + " cells", "at most " + std::to_string(max_cells(spec)) + " (the range of " + spec.cells_param + ")");
  bool points = false;
  vtkDataArray* values = pick(data, spec, points);
  if (!values) throw bad_input(path, "has no " + spec.quantity + " array (no cell or point array named " + spec.value + " or of one component)", allowed(spec));
  const std::string name = values->GetName() ? values->GetName() : "";
  if (values->GetNumberOfComponents() != 1)
    throw bad_input(path + ": array '" + name + "'", "has " + std::to_string(values->GetNumberOfComponents()) + " components", "a one-component (scalar) array");
  const vtkIdType tuples = points ? data->GetNumberOfPoints() : cells;
  if (values->GetNumberOfTuples() != tuples)
    throw bad_input(path + ": array '" + name + "'", "VTK read " + std::to_string(values->GetNumberOfTuples()) + " values of it",
                    std::to_string(tuples) + ": one per " + (points ? "point" : "cell"));
  vtkNew<vtkPointDataToCellData> to_cells;
  if (points) {
    to_cells->SetInputData(data);
    to_cells->Update();
    values = vtkDataSet::SafeDownCast(to_cells->GetOutput())->GetCellData()->GetArray(name.c_str());
  }
  GridField f;
  f.file = path;
  f.row_name = "file cell";
  std::vector<GridRow> rows(cells);
  std::vector<double> coords[3];
  for (vtkIdType c = 0; c < cells; ++c) {
    double b[6];
    data->GetCellBounds(c, b);  // an axis-aligned cell's centre is its box's
    for (int a = 0; a < 3; ++a) coords[a].push_back(0.5 * (b[2 * a] + b[2 * a + 1]));
    rows[c].value = values->GetTuple1(c);
    rows[c].line = int(c + 1);
    check_value(rows[c].value, path + ": file cell " + std::to_string(c + 1) + " (array '" + name + "'" + (points ? ", the mean of its points)" : ")"), spec);
  }
  grid_from_centres(f, rows, coords, spec, "the centres of its cells");
  return f;
}

void install() { install_vtk_grid_file_reader(&read_grid_file); }

}  // namespace ks::vtk_io
