// VTK's HDF5 file format, VTKHDF 1.0 ImageData (what VTK 9.1's vtkHDFReader and ParaView 5.11 open),
// written with the HDF5 library: `kinetic-run --format vtkhdf`. The files end in .hdf, the ending
// ParaView 5.11 (Debian 12, Ubuntu 24.04) opens with its VTKHDF reader (later ones take .vtkhdf too). Under MPI with --pieces every rank
// writes its own cells into the one file (parallel HDF5, collective writes), so no rank gathers a
// field and an output is one file however many ranks wrote it. VTKHDF 1.0 holds image data and
// unstructured grids only, and VTK 9.1's reader reads 3D images alone (an axis of one point it reads
// out of bounds): 2D and 1D grids, stretched grids and particles are written as the .vti format writes
// them (.vti, .vtr, .vtp; pieces with their .pvti or .pvtr). Built into its own library (ks_vtkhdf), linked by
// kinetic-run alone: the HDF5 it links (Open MPI's under KS_MPI) stays out of the Python module, whose
// users may load VTK's own HDF5 in the same process.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/communicator.hpp"
#include "core/method.hpp"
#include "time_series.hpp"
#include "vtk_xml_writer.hpp"

namespace ks {

// Whether `dataset` is written as .hdf: a uniform grid of more than one cell along every axis
// (whole, or a rank's piece of one).
bool vtkhdf_writes(const Dataset& dataset);

// Writes `dataset` (vtkhdf_writes) to path_without_extension + ".hdf", replacing the file whole:
// the group VTKHDF with Version 1 0, Type ImageData, WholeExtent, Origin, Spacing and Direction over
// the cells' centres (a point per cell: VTK 9.1's reader reads the point data of an image, but its cell
// data at the points' count); each field as a PointData array of float64, dimensions (z, y, x) and a
// fourth for components (two-component fields get a third, 0, as in the .vti), its unit in the array's
// attribute "unit"; the simulation time, when `time` is given, in the VTKHDF group's attribute "TimeValue"
// (VTK 9.1 reads field data as image arrays and fails on a single value, so FieldData stays empty). A piece (Grid::piece) is written by
// every rank of `comm` together, each calling with its piece of the same dataset; a whole grid by the calling process alone. Throws Error
// naming the file on every rank when any could not write. Returns the path written.
std::string write_dataset_vtkhdf(const Dataset& dataset, const std::string& path_without_extension, std::optional<double> time,
                                 const Communicator& comm);

// kinetic-run --format vtkhdf: every field of `snap` into `dir`, each dataset of a 3D uniform grid as a
// .hdf and the others as .vti, .vtr or .vtp. With `pieces` (under MPI, --pieces) every rank writes its
// pieces together with the others (every rank calls this); the whole grids are written where
// `whole` (the reporting rank). With `series` (--output-every) the files are numbered by iteration and
// listed in its NAME.hdf.series (and .pvd for the others) by rank 0. Returns the files written.
std::vector<std::string> write_fields_vtkhdf(const std::string& dir, const Snapshot& snap, const Communicator& comm, bool pieces,
                                             bool whole, TimeSeriesWriter* series);

// Whether this build's HDF5 writes one file from many ranks (parallel HDF5 under KS_MPI).
bool vtkhdf_parallel();

}  // namespace ks
