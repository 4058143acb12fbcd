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

#include <filesystem>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/text.hpp"
#include "io/grid_file_checks.hpp"
#include "io/input_file.hpp"
#include "io/xml_tags.hpp"
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
  return "a VTK XML .vti, .pvti, .vtr or .vtu file of a uniform grid with a one-component array " + spec.value +
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

namespace {

constexpr std::size_t kMaxPieces = 4096;  // a .pvti's pieces: one a rank of a large job

// The cells of one dataset file (checked, read by VTK from `text`): their centres into `coords` and
// values into `rows`.
void add_cells(const std::string& path, const std::string& text, const GridFileSpec& spec, std::vector<GridRow>& rows,
               std::vector<double> coords[3]) {
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
    throw bad_input(path,
                    "VTK could not read it" + (errors->message.empty() ? std::string(" as a dataset") : ": " + cut(errors->message, 300)),
                    allowed(spec));
  check_vtk_output(path, data);
  const vtkIdType cells = data->GetNumberOfCells();
  if (cells == 0) throw bad_input(path, "holds no cells", allowed(spec));
  if (std::int64_t(rows.size()) + cells > max_cells(spec))
    throw bad_input(path, "holds " + std::to_string(std::int64_t(rows.size()) + cells) + " cells",
                    "at most " + std::to_string(max_cells(spec)) + " (the range of " + spec.cells_param + ")");
  bool points = false;
  vtkDataArray* values = pick(data, spec, points);
  if (!values)
    throw bad_input(path, "has no " + spec.quantity + " array (no cell or point array named " + spec.value + " or of one component)",
                    allowed(spec));
  const std::string name = values->GetName() ? values->GetName() : "";
  if (values->GetNumberOfComponents() != 1)
    throw bad_input(path + ": array '" + name + "'", "has " + std::to_string(values->GetNumberOfComponents()) + " components",
                    "a one-component (scalar) array");
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
  for (vtkIdType c = 0; c < cells; ++c) {
    double b[6];
    data->GetCellBounds(c, b);  // an axis-aligned cell's centre is its box's
    for (int a = 0; a < 3; ++a) coords[a].push_back(0.5 * (b[2 * a] + b[2 * a + 1]));
    GridRow row{};
    row.value = values->GetTuple1(c);
    row.line = int(rows.size() + 1);
    check_value(row.value,
                path + ": file cell " + std::to_string(c + 1) + " (array '" + name + "'" + (points ? ", the mean of its points)" : ")"),
                spec);
    rows.push_back(row);
  }
}

// A .pvti's pieces (ParaView's parallel ImageData): each piece's .vti, named relative to the .pvti,
// read and checked as a file of its own; the bytes of all within spec.max_bytes.
void add_pieces(const std::string& path, const std::string& text, const GridFileSpec& spec, std::vector<GridRow>& rows,
                std::vector<double> coords[3]) {
  xml::Cursor c(text, path);
  xml::Tag t;
  bool typed = false;
  std::vector<std::string> sources;
  while (xml::next_tag(c, t)) {
    if (t.closing) continue;
    const std::string at = path + ": line " + std::to_string(t.line);
    if (t.name == "VTKFile") {
      const std::string type = t.attrs.count("type") ? t.attrs.at("type") : "";
      if (type != "PImageData")
        throw bad_input(at + " <VTKFile>", "has type=\"" + cut(type, 40) + "\"", "PImageData in a file ending in .pvti");
      typed = true;
    } else if (t.name == "Piece") {
      const std::string source = t.attrs.count("Source") ? t.attrs.at("Source") : "";
      if (!has_ending(source, ".vti"))
        throw bad_input(at + " <Piece>", "has Source=\"" + cut(source, 80) + "\"", "the piece's .vti file, relative to the .pvti");
      if (sources.size() == kMaxPieces)
        throw bad_input(at + " <Piece>", "is piece " + std::to_string(kMaxPieces + 1), "at most " + std::to_string(kMaxPieces) + " pieces");
      sources.push_back(source);
    }
  }
  if (!typed) throw bad_input(path, "has no <VTKFile type=\"PImageData\">", "a .pvti written by VTK or ParaView");
  if (sources.empty()) throw bad_input(path, "lists no <Piece Source=...>", "a .pvti with its pieces' .vti files");
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::uint64_t bytes = text.size();
  for (const std::string& source : sources) {
    const std::string piece = (folder / source).string();
    if (bytes >= spec.max_bytes)
      throw bad_input(path, "its pieces hold more than " + format_bytes(spec.max_bytes), "at most that, the limit of one file");
    const std::string piece_text = read_input_file(piece, spec.quantity + " file's piece", spec.max_bytes - bytes);
    bytes += piece_text.size();
    add_cells(piece, piece_text, spec, rows, coords);
  }
}

}  // namespace

GridField read_grid_file(const std::string& path, const std::string& text, const GridFileSpec& spec) {
  // VTK reads the text checked here, not the file again.
  std::vector<GridRow> rows;
  std::vector<double> coords[3];
  if (has_ending(path, ".pvti")) add_pieces(path, text, spec, rows, coords);
  else add_cells(path, text, spec, rows, coords);
  GridField f;
  f.file = path;
  f.row_name = "file cell";
  grid_from_centres(f, rows, coords, spec, "the centres of its cells");
  return f;
}

void install() { install_vtk_grid_file_reader(&read_grid_file); }

}  // namespace ks::vtk_io
