#include "vtkhdf_writer.hpp"

#include <hdf5.h>

#include <array>
#include <cstdio>
#include <filesystem>

#include "core/errors.hpp"
#include "core/rank_agreement.hpp"
#include "run_output.hpp"

#if defined(KS_HAVE_MPI) && defined(H5_HAVE_PARALLEL)
#include <mpi.h>
#define KS_VTKHDF_PARALLEL 1
#endif

namespace ks {

namespace {

// An HDF5 handle closed when it goes out of scope; a negative id is a failed call, reported as `what`.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t), const std::string& what) : id_(id), close_(close) {
    if (id_ < 0) throw run_failed("HDF5 could not " + what);
  }
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }
  // Closes now, as a collective close must be before the file is renamed.
  void close(const std::string& what) {
    const herr_t status = close_(id_);
    id_ = -1;
    if (status < 0) throw run_failed("HDF5 could not " + what);
  }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void check(herr_t status, const std::string& what) {
  if (status < 0) throw run_failed("HDF5 could not " + what);
}

// Cells along axis `a` of the whole grid (a piece holds the whole grid's in Grid::whole).
int whole_cells(const Grid& g, int a) { return g.whole[a] > 0 ? g.whole[a] : g.cells[a]; }

template <class T, std::size_t N>
void attribute(hid_t on, const char* name, hid_t type, const std::array<T, N>& values) {
  const hsize_t n = N;
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, std::string("describe the attribute ") + name);
  Handle a(H5Acreate2(on, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, std::string("create the attribute ") + name);
  check(H5Awrite(a, type, values.data()), std::string("write the attribute ") + name);
}

// A fixed-length ASCII string attribute, as VTK's reader reads Type (no terminating zero).
void text_attribute(hid_t on, const char* name, const std::string& text) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "make a string type");
  check(H5Tset_size(type, std::max<std::size_t>(1, text.size())), "size a string type");
  check(H5Tset_strpad(type, H5T_STR_NULLPAD), "pad a string type");
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, std::string("describe the attribute ") + name);
  Handle a(H5Acreate2(on, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, std::string("create the attribute ") + name);
  check(H5Awrite(a, type, text.c_str()), std::string("write the attribute ") + name);
}

Handle group(hid_t in, const char* name) {
  return Handle(H5Gcreate2(in, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, std::string("create the group ") + name);
}

// One field's values in the file's array: a point per cell of the whole grid (z, y, x[, components]),
// of which this process writes its piece's (all of them for a whole grid) with the transfer list `transfer`.
void write_array(hid_t point_data, const FieldData& f, const Grid& g, hid_t transfer) {
  const int nc = written_components(f);
  const int rank = nc == 1 ? 3 : 4;
  const hsize_t dims[4] = {hsize_t(whole_cells(g, 2)), hsize_t(whole_cells(g, 1)), hsize_t(whole_cells(g, 0)), hsize_t(nc)};
  const hsize_t start[4] = {hsize_t(g.first[2]), hsize_t(g.first[1]), hsize_t(g.first[0]), 0};
  const hsize_t count[4] = {hsize_t(g.cells[2]), hsize_t(g.cells[1]), hsize_t(g.cells[0]), hsize_t(nc)};
  const std::string what = "the array " + f.desc.name;
  Handle file_space(H5Screate_simple(rank, dims, nullptr), H5Sclose, "describe " + what);
  Handle array(H5Dcreate2(point_data, f.desc.name.c_str(), H5T_IEEE_F64LE, file_space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose,
               "create " + what);
  check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr), "select this process's cells of " + what);
  Handle memory_space(H5Screate_simple(rank, count, nullptr), H5Sclose, "describe " + what + " in memory");
  const std::vector<double> padded = nc == f.desc.components ? std::vector<double>() : padded_to_three(f);
  const double* values = padded.empty() ? f.values.data() : padded.data();
  check(H5Dwrite(array, H5T_NATIVE_DOUBLE, memory_space, file_space, transfer, values), "write " + what);
  text_attribute(array, "unit", f.desc.unit);
}

// The file at `temporary`, written by this process or (`together`) by every rank of the job.
void write_file(const Dataset& d, const std::string& temporary, std::optional<double> time, bool together) {
  const Grid& g = d.grid();
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "make a file access list");
  Handle transfer(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "make a transfer list");
#ifdef KS_VTKHDF_PARALLEL
  if (together) {
    // MpiJob's ranks are MPI_COMM_WORLD's.
    check(H5Pset_fapl_mpio(access, MPI_COMM_WORLD, MPI_INFO_NULL), "open the file on every rank (MPI-IO)");
    check(H5Pset_dxpl_mpio(transfer, H5FD_MPIO_COLLECTIVE), "write collectively");
  }
#else
  if (together) throw run_failed("this kinetic-run's HDF5 writes from one process only (no parallel HDF5)");
#endif
  Handle file(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), H5Fclose, "create the file");
  {  // every object closed before the file (MPI-IO's close refuses a file with objects open)
    Handle root = group(file, "VTKHDF");
    attribute<int, 2>(root, "Version", H5T_NATIVE_INT, {1, 0});
    text_attribute(root, "Type", "ImageData");
    // The points are the cells' centres (VTK 9.1's reader reads an image's point data only; its cell
    // data it reads at the points' count).
    std::array<int, 6> extent{};
    std::array<double, 3> centre0{};
    for (int a = 0; a < 3; ++a) {
      extent[2 * a + 1] = whole_cells(g, a) - 1;
      centre0[a] = g.origin[a] + 0.5 * g.spacing[a];
    }
    attribute(root, "WholeExtent", H5T_NATIVE_INT, extent);
    attribute(root, "Origin", H5T_NATIVE_DOUBLE, centre0);
    attribute(root, "Spacing", H5T_NATIVE_DOUBLE, g.spacing);
    attribute<double, 9>(root, "Direction", H5T_NATIVE_DOUBLE, {1, 0, 0, 0, 1, 0, 0, 0, 1});
    {
      Handle point_data = group(root, "PointData");
      for (const FieldData* f : d.fields) write_array(point_data, *f, g, transfer);
    }
    Handle cell_data = group(root, "CellData");
    Handle field_data = group(root, "FieldData");  // empty: VTK 9.1 reads field data as image arrays
    if (time) attribute<double, 1>(root, "TimeValue", H5T_NATIVE_DOUBLE, {*time});
  }
  file.close("close the file");
}

}  // namespace

bool vtkhdf_parallel() {
#ifdef KS_VTKHDF_PARALLEL
  return true;
#else
  return false;
#endif
}

bool vtkhdf_writes(const Dataset& d) {
  const Grid& g = d.grid();
  if (g.kind != Grid::Kind::Image || g.rectilinear()) return false;
  for (int a = 0; a < 3; ++a)
    if (whole_cells(g, a) == 1) return false;  // VTK 9.1's reader reads an image with a one-point axis out of bounds
  return true;
}

std::string write_dataset_vtkhdf(const Dataset& d, const std::string& path_without_extension, std::optional<double> time,
                                 const Communicator& comm) {
  const std::string path = path_without_extension + ".hdf", temporary = path + ".part";
  const bool together = d.grid().piece() && comm.size() > 1;
  const bool renames = !together || comm.rank() == 0;
  const auto write = [&] {
    try {
      H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are reported as errors naming the file, not printed
      write_file(d, temporary, time, together);
      std::error_code ec;
      if (renames) std::filesystem::rename(temporary, path, ec);
      if (ec) throw run_failed("could not replace it with " + temporary + ": " + ec.message());
    } catch (const Error& e) {
      if (renames) std::remove(temporary.c_str());
      throw run_failed(path + ": " + e.what() + " (the previous file, if any, is kept)");
    }
  };
  if (together) on_every_rank(comm, write, path + ": another rank could not write its part");
  else write();
  return path;
}

std::vector<std::string> write_fields_vtkhdf(const std::string& dir, const Snapshot& snap, const Communicator& comm, bool pieces,
                                             bool whole, TimeSeriesWriter* series) {
  std::vector<std::string> files;
  const Progress& p = snap.progress;
  const auto stem = [&](const Dataset& d) { return dir + "/" + (series ? TimeSeriesWriter::numbered(d.name, p.iteration) : d.name); };
  // A file this process wrote, listed in the summary and, in a series, in the dataset's collection.
  const auto written = [&](const Dataset& d, const std::string& path) {
    files.push_back(path);
    if (series) series->add(d.name, path.substr(dir.size() + 1), p.iteration, p.sim_time);
  };
  if (pieces) {
    for (const Dataset& d : datasets_of(snap.fields, true)) {
      if (!vtkhdf_writes(d)) continue;
      const std::string path = write_dataset_vtkhdf(d, stem(d), p.sim_time, comm);
      if (comm.rank() == 0) written(d, path);
    }
    const std::vector<std::string> rest = write_field_pieces(dir, "vti", snap, comm, series, vtkhdf_writes);
    files.insert(files.end(), rest.begin(), rest.end());
  }
  if (whole) {
    for (const Dataset& d : datasets_of(snap.fields, false))
      written(d, vtkhdf_writes(d) ? write_dataset_vtkhdf(d, stem(d), p.sim_time, comm)
                                  : write_dataset_vtk(d, stem(d), VtkEncoding::Binary, p.sim_time));
  }
  return files;
}

}  // namespace ks
