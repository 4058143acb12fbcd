#include "scene_renderer.hpp"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QThread>
#include <algorithm>
#include <mutex>
#include <array>
#include <cmath>
#include <string>
#include <utility>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <vtkActor.h>
#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkCellData.h>
#include <vtkCellDataToPointData.h>
#include <vtkColorTransferFunction.h>
#include <vtkCommand.h>
#include <vtkContourFilter.h>
#include <vtkCellArray.h>
#include <vtkDataArray.h>
#include <vtkDataSet.h>
#include <vtkDoubleArray.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkImageData.h>
#include <vtkImageDataGeometryFilter.h>
#include <vtkLineSource.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>
#include <vtkOutlineFilter.h>
#include <vtkPiecewiseFunction.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPointGaussianMapper.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkSmartPointer.h>
#include <vtkSmartVolumeMapper.h>
#include <vtkStreamTracer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkVolume.h>
#include <vtkVolumeProperty.h>

#include "colormaps.hpp"
#include "core/errors.hpp"
#include "notation.hpp"
#include "snapshot_to_vtk.hpp"
#include "text_font.hpp"
#include "vtk_gl_widget.hpp"  // vtk_render_mutex

namespace ks::gui {

namespace {

constexpr double kDegreesPerPixel = 0.4;       // trackball: a 900 px drag turns the scene once around
constexpr double kZoomPerNotch = 1.1;          // dolly factor per wheel notch
constexpr double kViewAzimuth = 30.0;          // degrees: 3D scenes are first seen from the front right
constexpr double kViewElevation = 20.0;        // and a little above
constexpr double kPointSizePx = 6.0;           // particle spheres, diameter on screen
constexpr double kVolumeOpacityPerCell = 0.3;  // volume rendering: opacity of one cell at the top of the range
constexpr int kLookupColours = 256;
constexpr int kBarFontPx = 14;        // colour bar title and labels
constexpr double kCornerSize = 0.25;  // orientation axes: fraction of the view's width and height
constexpr int kMessageFontPx = 24;
constexpr int kStreamlineSeeds = 24;                       // seeds on the plane's diagonal
constexpr double kObstacleColour[3] = {0.78, 0.78, 0.78};  // as the field view's solid cells
constexpr double kObstacleOpacity = 0.35;
const std::string kObstacleField = "sphere_diameter";  // lbm.binary's packed bed: centres, diameters as values
// A splat's fragment (vtkPointGaussianMapper): inside the unit disc, darker toward its rim as a lit
// sphere's surface turns away from the viewer.
constexpr const char* kSphereImpostor =
    "//VTK::Color::Impl\n"
    "float rim = dot(offsetVCVSOutput.xy, offsetVCVSOutput.xy);\n"
    "if (rim > 1.0) { discard; }\n"
    "float facing = sqrt(1.0 - rim);\n"
    "ambientColor *= facing;\n"
    "diffuseColor *= facing;\n";
constexpr double kStreamlineWidthPx = 1.5;
// The camera is reset when the data's bounds move by more than this fraction of the diagonal
// of the bounds it was last reset for.
constexpr double kReframeTolerance = 0.1;

using Rgb = std::array<double, 3>;
constexpr Rgb kBackgroundLow{0.10, 0.11, 0.14};  // a dark gradient, as in ParaView, for light text
constexpr Rgb kBackgroundHigh{0.30, 0.32, 0.40};
constexpr Rgb kOutlineColour{0.85, 0.85, 0.85};
constexpr Rgb kMessageColour{0.75, 0.75, 0.75};
constexpr Rgb kStreamlineColour{0.95, 0.95, 0.95};

// What the scene draws for the data it was given.
enum class Shape {
  None,       // no field: the message alone
  Particles,  // a point cloud
  Plane,      // an image one cell thick along some axis
  Volume,     // a 3D image
};

// Viridis, the default map of the field view, for every coloured part of the scene.
void fillLookupTable(vtkLookupTable* lut) {
  const auto table = colormap_table("viridis", kLookupColours);
  lut->SetNumberOfTableValues(vtkIdType(table.size()));
  for (std::size_t i = 0; i < table.size(); ++i) {
    lut->SetTableValue(vtkIdType(i), table[i][0], table[i][1], table[i][2]);
  }
  lut->SetVectorModeToMagnitude();  // vector fields are coloured by their length
  lut->Build();
}

// A mapper coloured through the scene's lookup table over the table's range; vectors by
// their length (the table's vector mode applies where no component is chosen).
void colourThrough(vtkMapper* mapper, vtkLookupTable* lut) {
  mapper->SetLookupTable(lut);
  mapper->UseLookupTableScalarRangeOn();
  mapper->SetArrayComponent(-1);
}

// The values to colour by: point scalars (particles) or cell scalars (images).
vtkDataArray* valuesOf(vtkDataSet* data) {
  vtkDataArray* values = data->GetPointData()->GetScalars();
  return values ? values : data->GetCellData()->GetScalars();
}

// Finite min and max (of the length for vectors), widened where all values are equal so
// that the colour bar keeps a scale.
std::array<double, 2> colourRange(vtkDataArray* values) {
  double r[2];
  values->GetFiniteRange(r, values->GetNumberOfComponents() == 1 ? 0 : -1);
  if (!(r[0] <= r[1])) return {0.0, 1.0};  // no finite value at all
  if (r[0] == r[1]) {
    const double pad = r[0] != 0.0 ? 0.01 * std::abs(r[0]) : 1.0;
    return {r[0] - pad, r[1] + pad};
  }
  return {r[0], r[1]};
}

// The mean of the finite values of a one-component array (0 when there is none).
double finiteMean(vtkDataArray* values) {
  double sum = 0.0;
  vtkIdType n = 0;
  for (vtkIdType i = 0; i < values->GetNumberOfTuples(); ++i) {
    const double v = values->GetTuple1(i);
    if (!std::isfinite(v)) continue;
    sum += v;
    ++n;
  }
  return n > 0 ? sum / double(n) : 0.0;
}

// The axis along which an image is one cell thick (the last such), or -1 for a 3D image.
int flatAxis(vtkImageData* image) {
  const int* dims = image->GetDimensions();  // points: cells + 1
  for (int axis = 2; axis >= 0; --axis) {
    if (dims[axis] == 2) return axis;
  }
  return -1;
}

// "diameter [nm]" in notation, as the field view's colour bar ("Q_R [W/m³]"), in UTF-8; vector
// fields are shown by their length: "|u| [m/s]".
std::string colourBarTitle(const FieldDesc& desc) {
  const std::string name = desc.components > 1 ? "|" + desc.name + "|" : desc.name;
  return unicode_axis_title(name, desc.unit).toStdString();
}

}  // namespace

// The VTK scene in a render window that draws into whatever framebuffer is bound (the renderer's
// target), and the trackball that turns its camera: VTK's own interactor is not wired to Qt here.
// Every part of the scene is built once and stays in the renderer; a new data set only
// changes the parts' inputs and visibility, so no GL object is freed outside the context.
// The camera is reset when the shape of the data changes or its bounds move (a new box or
// grid); otherwise the user's turning and zooming stay from one snapshot to the next.
class ScenePicture {
 public:
  ScenePicture();   // made and
  ~ScenePicture();  // destroyed with the renderer's context current

  // Draws `data` (from to_vtk) coloured by its scalars, with `title` over the colour bar.
  void showData(vtkDataSet* data, const std::string& title);
  // An empty scene with `text` in its middle.
  void showMessage(const std::string& text);
  // Spheres (centres, diameters as scalars) drawn translucent inside an image; null: none.
  void showObstacles(vtkPolyData* spheres);
  // Whether the data shown is a 3D image of one component: what the iso-surface and the
  // volume rendering need.
  bool isVolumetric() const { return shape_ == Shape::Volume && volume_values_; }
  // Whether the data is a 2D plane of vectors: what the streamlines need.
  bool hasStreamlines() const { return shape_ == Shape::Plane && plane_vectors_; }
  void setIsoSurface(bool on);
  void setVolume(bool on);
  // Trackball: a drag of `pixels` turns the scene (x about the view-up axis, y tilts it); a wheel
  // turn of `notches` (forward positive) moves the camera toward the focal point.
  void turn(QPointF pixels);
  void zoom(double notches);
  // Fits the scene into the view, seen from the default direction.
  void resetCamera();
  std::string message() const;
  // Draws a frame of `pixels` into the framebuffer bound in the current context.
  void render(QSize pixels);

 private:
  void buildRenderers();
  void buildParts();
  void colourBy(vtkDataArray* values, const std::string& title);
  void showImage(vtkImageData* image);
  void updateVolumeColours(const std::array<double, 2>& range, double cell_size);
  void updateVisibility();
  bool boundsMoved(const double* bounds) const;
  void alignAxesCamera();
  void cameraMoved();

  vtkNew<vtkGenericOpenGLRenderWindow> window_;
  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkRenderer> axes_renderer_;  // a corner of the view, drawn over the scene
  vtkNew<vtkAxesActor> axes_;
  vtkNew<vtkLookupTable> lut_;
  vtkNew<vtkScalarBarActor> colour_bar_;
  vtkNew<vtkTextActor> message_;

  vtkNew<vtkOutlineFilter> outline_;  // the particles' bounding box or the image's extent
  vtkNew<vtkActor> outline_actor_;
  vtkNew<vtkPolyDataMapper> particle_mapper_;
  vtkNew<vtkActor> particles_;
  std::array<vtkNew<vtkImageDataGeometryFilter>, 3> slice_filters_;  // planes normal to x, y, z
  std::array<vtkNew<vtkActor>, 3> slices_;
  vtkNew<vtkCellDataToPointData> to_points_;  // contour and volume mapper need point data
  vtkNew<vtkContourFilter> contour_;
  vtkNew<vtkActor> iso_surface_;
  vtkNew<vtkSmartVolumeMapper> volume_mapper_;
  vtkNew<vtkVolume> volume_;
  vtkNew<vtkPointGaussianMapper> obstacle_mapper_;  // the spheres of a packed bed, one impostor each
  vtkNew<vtkActor> obstacles_;
  bool obstacles_shown_ = false;  // showObstacles had spheres for the field shown
  vtkNew<vtkLineSource> seeds_;   // streamlines of a plane's vector field, seeded on its diagonal
  vtkNew<vtkStreamTracer> streamlines_;
  vtkNew<vtkActor> streamline_actor_;

  Shape shape_ = Shape::None;
  int flat_axis_ = -1;           // Shape::Plane: the axis the plane is normal to
  bool volume_values_ = false;   // the image's values have one component
  bool plane_vectors_ = false;   // the image's values have three components and it spans two axes
  bool iso_surface_on_ = false;  // the user's choices
  bool volume_on_ = false;
  std::array<double, 6> framed_bounds_{};  // the data's bounds when the camera was last reset
};

ScenePicture::ScenePicture() {
  window_->SetOwnContext(false);  // the renderer's context, current on its thread as this is made
  window_->SetIsCurrent(true);
  window_->SetFrameBlitModeToBlitToCurrent();
  window_->OpenGLInitContext();
  buildRenderers();
  buildParts();
  showMessage("no field");
}

ScenePicture::~ScenePicture() { window_->Finalize(); }

void ScenePicture::buildRenderers() {
  window_->SetNumberOfLayers(2);
  window_->AddRenderer(renderer_);
  window_->AddRenderer(axes_renderer_);
  renderer_->GradientBackgroundOn();
  renderer_->SetBackground(kBackgroundLow[0], kBackgroundLow[1], kBackgroundLow[2]);
  renderer_->SetBackground2(kBackgroundHigh[0], kBackgroundHigh[1], kBackgroundHigh[2]);
  // The axes' corner is a second renderer on the layer above (it keeps the scene's pixels),
  // looking at the axes from the direction of the main camera just before each frame.
  axes_renderer_->SetLayer(1);
  axes_renderer_->SetViewport(0.0, 0.0, kCornerSize, kCornerSize);
  axes_renderer_->InteractiveOff();
  axes_renderer_->AddActor(axes_);
  renderer_->AddObserver(vtkCommand::StartEvent, this, &ScenePicture::alignAxesCamera);
}

void ScenePicture::buildParts() {
  fillLookupTable(lut_);
  colour_bar_->SetLookupTable(lut_);
  colour_bar_->SetNumberOfLabels(5);
  colour_bar_->SetLabelFormat("%.3g");
  colour_bar_->UnconstrainedFontSizeOn();  // the sizes below in pixels, whatever the title's length
  for (vtkTextProperty* text : {colour_bar_->GetTitleTextProperty(), colour_bar_->GetLabelTextProperty()}) {
    text->ItalicOff();
    text->ShadowOff();
    text->SetFontSize(kBarFontPx);
    use_text_font(text);  // Greek letters and symbols in the title
  }
  colour_bar_->SetPosition(0.83, 0.08);  // normalised viewport coordinates: near the right-hand edge
  colour_bar_->SetWidth(0.12);
  colour_bar_->SetHeight(0.8);
  colour_bar_->SetTextPositionToPrecedeScalarBar();  // labels left of the bar, never past the edge
  colour_bar_->SetVerticalTitleSeparation(kBarFontPx / 2);
  renderer_->AddActor2D(colour_bar_);

  message_->GetTextProperty()->SetFontSize(kMessageFontPx);
  use_text_font(message_->GetTextProperty());
  message_->GetTextProperty()->SetColor(kMessageColour[0], kMessageColour[1], kMessageColour[2]);
  message_->GetTextProperty()->SetJustificationToCentered();
  message_->GetTextProperty()->SetVerticalJustificationToCentered();
  message_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  message_->SetPosition(0.5, 0.5);
  renderer_->AddActor2D(message_);

  vtkNew<vtkPolyDataMapper> outline_mapper;
  outline_mapper->SetInputConnection(outline_->GetOutputPort());
  outline_actor_->SetMapper(outline_mapper);
  outline_actor_->GetProperty()->SetColor(kOutlineColour[0], kOutlineColour[1], kOutlineColour[2]);
  renderer_->AddActor(outline_actor_);

  particle_mapper_->SetScalarModeToUsePointData();
  colourThrough(particle_mapper_, lut_);
  particles_->SetMapper(particle_mapper_);
  particles_->GetProperty()->SetPointSize(kPointSizePx);
  particles_->GetProperty()->RenderPointsAsSpheresOn();
  renderer_->AddActor(particles_);

  for (std::size_t axis = 0; axis < slices_.size(); ++axis) {
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(slice_filters_[axis]->GetOutputPort());
    mapper->SetScalarModeToUseCellData();  // one flat colour per cell, as the field is stored
    colourThrough(mapper, lut_);
    slices_[axis]->SetMapper(mapper);
    slices_[axis]->GetProperty()->LightingOff();  // colours as on the colour bar, from any side
    renderer_->AddActor(slices_[axis]);
  }

  contour_->SetInputConnection(to_points_->GetOutputPort());
  vtkNew<vtkPolyDataMapper> contour_mapper;
  contour_mapper->SetInputConnection(contour_->GetOutputPort());
  colourThrough(contour_mapper, lut_);
  iso_surface_->SetMapper(contour_mapper);
  renderer_->AddActor(iso_surface_);

  volume_mapper_->SetInputConnection(to_points_->GetOutputPort());
  volume_->SetMapper(volume_mapper_);
  vtkNew<vtkVolumeProperty> volume_property;
  volume_property->SetInterpolationTypeToLinear();
  volume_->SetProperty(volume_property);
  renderer_->AddVolume(volume_);

  // Each sphere is a disc facing the camera and shaded as a sphere (an impostor): a triangle a sphere,
  // where facets made the paper's 12753 spheres 600 000 triangles (0.3 s a frame under a software
  // renderer). The points carry the diameters; the disc fills the triangle's inscribed circle.
  obstacle_mapper_->SetScaleFactor(0.5);
  obstacle_mapper_->SetTriangleScale(1.0);
  obstacle_mapper_->EmissiveOff();
  obstacle_mapper_->ScalarVisibilityOff();
  obstacle_mapper_->SetSplatShaderCode(kSphereImpostor);
  obstacles_->SetMapper(obstacle_mapper_);
  obstacles_->GetProperty()->SetColor(kObstacleColour[0], kObstacleColour[1], kObstacleColour[2]);
  obstacles_->GetProperty()->SetOpacity(kObstacleOpacity);  // the slices through the bed show through
  renderer_->AddActor(obstacles_);

  streamlines_->SetInputConnection(to_points_->GetOutputPort());
  streamlines_->SetSourceConnection(seeds_->GetOutputPort());
  streamlines_->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, vtkDataSetAttributes::SCALARS);
  streamlines_->SetIntegrationDirectionToBoth();
  streamlines_->SetIntegratorTypeToRungeKutta45();
  streamlines_->SetIntegrationStepUnit(vtkStreamTracer::CELL_LENGTH_UNIT);
  streamlines_->SetInitialIntegrationStep(0.2);
  streamlines_->SetMaximumNumberOfSteps(4000);
  vtkNew<vtkPolyDataMapper> streamline_mapper;
  streamline_mapper->SetInputConnection(streamlines_->GetOutputPort());
  streamline_mapper->ScalarVisibilityOff();
  streamline_actor_->SetMapper(streamline_mapper);
  streamline_actor_->GetProperty()->SetColor(kStreamlineColour[0], kStreamlineColour[1], kStreamlineColour[2]);
  streamline_actor_->GetProperty()->SetLineWidth(kStreamlineWidthPx);
  streamline_actor_->GetProperty()->LightingOff();
  renderer_->AddActor(streamline_actor_);
}

void ScenePicture::showData(vtkDataSet* data, const std::string& title) {
  const Shape shown_before = shape_;
  colourBy(valuesOf(data), title);
  outline_->SetInputData(data);
  if (auto* cloud = vtkPolyData::SafeDownCast(data)) {
    particle_mapper_->SetInputData(cloud);
    shape_ = Shape::Particles;
  } else {
    showImage(vtkImageData::SafeDownCast(data));
  }
  updateVisibility();
  const double* bounds = data->GetBounds();
  if (shape_ != shown_before || boundsMoved(bounds)) {
    std::copy(bounds, bounds + 6, framed_bounds_.begin());
    resetCamera();
  }
}

// Whether a face of `bounds` lies farther than kReframeTolerance of the framed diagonal
// from where it was when the camera was last reset.
bool ScenePicture::boundsMoved(const double* bounds) const {
  const auto& b = framed_bounds_;
  const double diagonal = std::sqrt(std::pow(b[1] - b[0], 2) + std::pow(b[3] - b[2], 2) + std::pow(b[5] - b[4], 2));
  const double tolerance = kReframeTolerance * diagonal;
  for (int i = 0; i < 6; ++i) {
    if (std::abs(bounds[i] - b[std::size_t(i)]) > tolerance) return true;
  }
  return false;
}

void ScenePicture::showObstacles(vtkPolyData* spheres) {
  obstacles_shown_ = spheres != nullptr;
  if (spheres) {
    obstacle_mapper_->SetInputData(spheres);
    obstacle_mapper_->SetScaleArray(spheres->GetPointData()->GetScalars()->GetName());  // the diameters
  }
  updateVisibility();
}

void ScenePicture::showMessage(const std::string& text) {
  message_->SetInput(text.c_str());
  shape_ = Shape::None;
  updateVisibility();
}

void ScenePicture::colourBy(vtkDataArray* values, const std::string& title) {
  const auto range = colourRange(values);
  lut_->SetTableRange(range[0], range[1]);
  colour_bar_->SetTitle(title.c_str());
}

// A 2D image is one plane; a 3D image three planes through its centre, whose cell values
// the planes carry as they are (vtkImageDataGeometryFilter copies cell data).
void ScenePicture::showImage(vtkImageData* image) {
  int extent[6];
  image->GetExtent(extent);
  for (int axis = 0; axis < 3; ++axis) {
    int plane[6];
    std::copy(extent, extent + 6, plane);
    plane[2 * axis] = plane[2 * axis + 1] = (extent[2 * axis] + extent[2 * axis + 1]) / 2;  // the middle point index
    slice_filters_[axis]->SetInputData(image);
    slice_filters_[axis]->SetExtent(plane);
  }
  flat_axis_ = flatAxis(image);
  shape_ = flat_axis_ >= 0 ? Shape::Plane : Shape::Volume;

  vtkDataArray* values = image->GetCellData()->GetScalars();
  volume_values_ = values->GetNumberOfComponents() == 1;
  to_points_->SetInputData(image);
  int cells[3];
  image->GetCellDims(cells);
  plane_vectors_ = values->GetNumberOfComponents() == 3 && std::count_if(cells, cells + 3, [](int n) { return n > 1; }) == 2;
  if (hasStreamlines()) {
    // The diagonal of the plane, in its middle: it crosses every vortex of a cavity.
    const double* b = image->GetBounds();
    double from[3], to[3];
    for (int axis = 0; axis < 3; ++axis) {
      const double mid = 0.5 * (b[2 * axis] + b[2 * axis + 1]);
      from[axis] = axis == flat_axis_ ? mid : b[2 * axis] + 0.02 * (b[2 * axis + 1] - b[2 * axis]);
      to[axis] = axis == flat_axis_ ? mid : b[2 * axis + 1] - 0.02 * (b[2 * axis + 1] - b[2 * axis]);
    }
    seeds_->SetPoint1(from);
    seeds_->SetPoint2(to);
    seeds_->SetResolution(kStreamlineSeeds - 1);
    streamlines_->SetMaximumPropagation(4.0 * std::sqrt(std::pow(b[1] - b[0], 2) + std::pow(b[3] - b[2], 2) + std::pow(b[5] - b[4], 2)));
  }
  if (shape_ == Shape::Volume && volume_values_) {
    contour_->SetValue(0, finiteMean(values));
    const double* spacing = image->GetSpacing();
    updateVolumeColours(colourRange(values), std::min({spacing[0], spacing[1], spacing[2]}));
  }
}

// The volume takes the lookup table's colours; low values are transparent, the opacity
// rising linearly to kVolumeOpacityPerCell per cell at the top of the range.
void ScenePicture::updateVolumeColours(const std::array<double, 2>& range, double cell_size) {
  vtkNew<vtkColorTransferFunction> colours;
  for (vtkIdType i = 0; i < lut_->GetNumberOfTableValues(); ++i) {
    const double* rgba = lut_->GetTableValue(i);
    const double t = double(i) / double(lut_->GetNumberOfTableValues() - 1);
    colours->AddRGBPoint(range[0] + t * (range[1] - range[0]), rgba[0], rgba[1], rgba[2]);
  }
  vtkNew<vtkPiecewiseFunction> opacity;
  opacity->AddPoint(range[0], 0.0);
  opacity->AddPoint(range[1], kVolumeOpacityPerCell);
  vtkVolumeProperty* property = volume_->GetProperty();
  property->SetColor(colours);
  property->SetScalarOpacity(opacity);
  property->SetScalarOpacityUnitDistance(cell_size);
}

void ScenePicture::setIsoSurface(bool on) {
  iso_surface_on_ = on;
  updateVisibility();
}

void ScenePicture::setVolume(bool on) {
  volume_on_ = on;
  updateVisibility();
}

void ScenePicture::updateVisibility() {
  const bool volume_rendered = isVolumetric() && volume_on_;
  const bool three_slices = shape_ == Shape::Volume && !volume_rendered;  // the volume replaces them
  message_->SetVisibility(shape_ == Shape::None);
  colour_bar_->SetVisibility(shape_ != Shape::None);
  outline_actor_->SetVisibility(shape_ != Shape::None);
  particles_->SetVisibility(shape_ == Shape::Particles);
  for (int axis = 0; axis < 3; ++axis) {
    slices_[axis]->SetVisibility(three_slices || (shape_ == Shape::Plane && axis == flat_axis_));
  }
  iso_surface_->SetVisibility(isVolumetric() && iso_surface_on_);
  volume_->SetVisibility(volume_rendered);
  streamline_actor_->SetVisibility(hasStreamlines());
  obstacles_->SetVisibility(obstacles_shown_ && (shape_ == Shape::Volume || shape_ == Shape::Plane));
}

void ScenePicture::resetCamera() {
  vtkCamera* camera = renderer_->GetActiveCamera();
  // A plane is seen face on, along its normal; anything else from the default direction.
  const int normal = shape_ == Shape::Plane ? flat_axis_ : 2;
  double position[3] = {0.0, 0.0, 0.0};
  double up[3] = {0.0, 0.0, 0.0};
  position[normal] = 1.0;
  up[normal == 2 ? 1 : 2] = 1.0;  // y up when looking along z, else z up
  camera->SetFocalPoint(0.0, 0.0, 0.0);
  camera->SetPosition(position);
  camera->SetViewUp(up);
  if (shape_ != Shape::Plane) {
    camera->Azimuth(kViewAzimuth);
    camera->Elevation(kViewElevation);
    camera->OrthogonalizeViewUp();
  }
  renderer_->ResetCamera();  // keeps the direction, fits the visible parts into the view
}

// The corner's camera looks at the axes along the main camera's direction, with its up.
void ScenePicture::alignAxesCamera() {
  vtkCamera* scene = renderer_->GetActiveCamera();
  vtkCamera* corner = axes_renderer_->GetActiveCamera();
  double direction[3];
  scene->GetDirectionOfProjection(direction);
  corner->SetFocalPoint(0.0, 0.0, 0.0);
  corner->SetPosition(-direction[0], -direction[1], -direction[2]);
  corner->SetViewUp(scene->GetViewUp());
  axes_renderer_->ResetCamera();
}

void ScenePicture::turn(QPointF pixels) {
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->Azimuth(-pixels.x() * kDegreesPerPixel);
  camera->Elevation(pixels.y() * kDegreesPerPixel);
  camera->OrthogonalizeViewUp();
  cameraMoved();
}

void ScenePicture::zoom(double notches) {
  renderer_->GetActiveCamera()->Dolly(std::pow(kZoomPerNotch, notches));
  cameraMoved();
}

void ScenePicture::cameraMoved() { renderer_->ResetCameraClippingRange(); }

std::string ScenePicture::message() const { return message_->GetInput() ? message_->GetInput() : ""; }

void ScenePicture::render(QSize pixels) {
  window_->SetSize(pixels.width(), pixels.height());
  window_->SetIsCurrent(true);
  window_->GetState()->ResetFramebufferBindings();  // the renderer's target is bound
  window_->SetReadyForRendering(true);
  window_->Render();
  window_->SetReadyForRendering(false);
}

bool scene_volumetric(const FieldData& field) {
  const auto& cells = field.grid.cells;
  return field.grid.kind == Grid::Kind::Image && field.desc.components == 1 &&
         std::none_of(cells.begin(), cells.end(), [](auto n) { return n == 1; });
}

SceneRenderer::SceneRenderer(QOpenGLContext* context, QOffscreenSurface* surface) : context_(context), surface_(surface) {}

SceneRenderer::~SceneRenderer() = default;

bool SceneRenderer::makeCurrent() {
  if (!context_->isValid() || !context_->makeCurrent(surface_)) return false;
  if (!picture_) picture_ = std::make_unique<ScenePicture>();
  return true;
}

template <class Change>
void SceneRenderer::change(Change&& apply) {
  if (!makeCurrent()) return;
  apply(*picture_);
  askForFrame();
}

void SceneRenderer::askForFrame() {
  frame_owed_ = !shown_;
  if (frame_asked_ || !shown_) return;
  frame_asked_ = true;
  QMetaObject::invokeMethod(
      this,
      [this] {
        frame_asked_ = false;
        const QImage frame = drawNow();
        if (!frame.isNull()) emit frameReady(frame);
      },
      Qt::QueuedConnection);
}

QImage SceneRenderer::drawNow() {
  if (size_.isEmpty() || !makeCurrent()) return {};
  if (!target_ || target_->size() != size_) {
    target_.reset();
    // Opaque: VTK leaves alpha < 1 where it blends, which an image read as premultiplied would garble.
    QOpenGLFramebufferObjectFormat format;
    format.setInternalTextureFormat(GL_RGB8);
    target_ = std::make_unique<QOpenGLFramebufferObject>(size_, format);
  }
  target_->bind();
  {
    std::lock_guard lock(vtk_render_mutex());
    picture_->render(size_);
  }
  QImage frame = target_->toImage();
  target_->release();
  return frame;
}

// The parts' shader programs (slices coloured by cell, translucent sphere impostors and the pass
// that blends them, particles as spheres) are compiled when first drawn: 50-70 ms each under a
// software renderer without Mesa's shader cache. A sample of each is drawn once, then the empty scene.
// The threads of a software renderer (llvmpipe) are made with the context and inherit this thread's
// priority: at the GUI thread's own, a scene frame slowed the window's composition beside it.
void SceneRenderer::prepare() {
#ifdef __linux__
  constexpr int kNice = 10;                                      // below the GUI thread's composition, above a solver's nice 19
  setpriority(PRIO_PROCESS, pid_t(syscall(SYS_gettid)), kNice);  // best effort: a refusal changes nothing
#endif
  if (!context_->create()) {
    emit unavailable();
    return;
  }
  if (!makeCurrent()) return;
  const std::string message = picture_->message();

  vtkNew<vtkImageData> image;  // 2^3 cells of a scalar, then of a vector
  image->SetDimensions(3, 3, 3);
  vtkNew<vtkDoubleArray> scalars, vectors;
  scalars->SetNumberOfTuples(8);
  vectors->SetNumberOfComponents(3);
  vectors->SetNumberOfTuples(8);
  for (vtkIdType i = 0; i < 8; ++i) {
    scalars->SetValue(i, double(i));
    vectors->SetTuple3(i, double(i), 1.0, 0.0);
  }

  vtkNew<vtkPoints> centres;  // one point: a sphere of diameter 1, or a particle
  centres->InsertNextPoint(1.0, 1.0, 1.0);
  vtkNew<vtkCellArray> vertex;
  const vtkIdType first = 0;
  vertex->InsertNextCell(1, &first);
  vtkNew<vtkDoubleArray> point_values;
  point_values->SetName("sample");
  point_values->InsertNextValue(1.0);
  vtkNew<vtkPolyData> point;
  point->SetPoints(centres);
  point->SetVerts(vertex);
  point->GetPointData()->SetScalars(point_values);

  const QSize shown = size_;
  if (size_.isEmpty()) size_ = QSize(64, 64);
  picture_->showObstacles(point);
  for (vtkDoubleArray* values : {scalars.Get(), vectors.Get()}) {
    image->GetCellData()->SetScalars(values);
    picture_->showData(image, "|u| [m/s]");
    drawNow();
  }
  picture_->showObstacles(nullptr);
  picture_->showData(point, "d [nm]");
  drawNow();
  picture_->showMessage(message);
  size_ = shown;
}

void SceneRenderer::showField(std::shared_ptr<const Snapshot> snapshot, std::size_t field) {
  if (!makeCurrent()) return;
  const FieldData& shown = snapshot->fields.at(field);
  try {
    // A packed bed's spheres on the same axes as an image field; their glyphs (12753 for the paper's
    // bed) are rebuilt only when the list changes, not at every snapshot.
    const FieldData* spheres = nullptr;
    if (shown.grid.kind == Grid::Kind::Image)
      for (const FieldData& f : snapshot->fields)
        if (f.desc.name == kObstacleField && f.grid.kind == Grid::Kind::Particles && f.grid.axes == shown.grid.axes) spheres = &f;
    if (!spheres) {
      if (!obstacle_centres_.empty()) forgetObstacles();
    } else if (spheres->positions != obstacle_centres_ || spheres->values != obstacle_diameters_) {
      picture_->showObstacles(vtkPolyData::SafeDownCast(to_vtk(*spheres)));
      obstacle_centres_ = spheres->positions;
      obstacle_diameters_ = spheres->values;
    }
    picture_->showData(to_vtk(shown), colourBarTitle(shown.desc));
  } catch (const Error& e) {
    picture_->showMessage(e.what());  // a field that does not match its grid
  }
  askForFrame();
}

void SceneRenderer::showMessage(const std::string& text) {
  change([&](ScenePicture& p) { p.showMessage(text); });
}

void SceneRenderer::forgetObstacles() {
  change([this](ScenePicture& p) {
    p.showObstacles(nullptr);
    obstacle_centres_.clear();
    obstacle_diameters_.clear();
  });
}

void SceneRenderer::setIsoSurface(bool on) {
  change([&](ScenePicture& p) { p.setIsoSurface(on); });
}

void SceneRenderer::setVolume(bool on) {
  change([&](ScenePicture& p) { p.setVolume(on); });
}

void SceneRenderer::turn(QPointF pixels) {
  change([&](ScenePicture& p) { p.turn(pixels); });
}

void SceneRenderer::zoom(double notches) {
  change([&](ScenePicture& p) { p.zoom(notches); });
}

void SceneRenderer::resetCamera() {
  change([&](ScenePicture& p) { p.resetCamera(); });
}

void SceneRenderer::resize(QSize pixels) {
  size_ = pixels;
  askForFrame();
}

void SceneRenderer::setShown(bool shown) {
  shown_ = shown;
  if (shown_ && frame_owed_) askForFrame();
}

void SceneRenderer::release(QThread* gui) {
  if (makeCurrent()) {
    picture_.reset();
    target_.reset();
    context_->doneCurrent();
  } else {
    (void)picture_.release();  // never drawn: no GL objects to free, and no context to free them in
  }
  context_->moveToThread(gui);
  moveToThread(gui);
}

}  // namespace ks::gui
