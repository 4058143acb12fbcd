"""The .hdf files of a run, read by VTK's vtkHDFReader, against the .vti files of the same run
written by one process, read by VTK's XML reader: for every NAME.hdf in NEW_DIR, NAME.vti in
VTI_DIR has a cell where the .hdf has a point (its points are the cells' centres: as many along
each axis, the first at the first cell's centre, the same spacing), the same arrays (names,
components) and every value equal, bit for bit. Exits 1 naming each difference.

usage: python3 same_as_vti.py VTI_DIR NEW_DIR
"""
import pathlib
import sys

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOHDF import vtkHDFReader
from vtkmodules.vtkIOXML import vtkXMLImageDataReader


def read(reader, path):
    reader.SetFileName(str(path))
    reader.Update()
    return reader.GetOutput()


def arrays(data):
    out = {}
    for i in range(data.GetNumberOfArrays()):
        a = data.GetArray(i)
        if a is not None:
            out[a.GetName()] = (a.GetNumberOfComponents(), vtk_to_numpy(a))
    return out


def compare(vti_path, hdf_path):
    problems = []
    vti, hdf = read(vtkXMLImageDataReader(), vti_path), read(vtkHDFReader(), hdf_path)
    cells = tuple(max(n - 1, 1) for n in vti.GetDimensions())
    centre = tuple(o + 0.5 * h for o, h in zip(vti.GetOrigin(), vti.GetSpacing()))
    for what, got, want in (("points", hdf.GetDimensions(), cells), ("origin", hdf.GetOrigin(), centre),
                            ("spacing", hdf.GetSpacing(), vti.GetSpacing())):
        if tuple(got) != tuple(want):
            problems.append(f"{what} {tuple(got)} != {tuple(want)} (the .vti's cells)")
    want, got = arrays(vti.GetCellData()), arrays(hdf.GetPointData())
    if set(want) != set(got):
        problems.append(f"arrays {sorted(got)} != {sorted(want)}")
    for name in sorted(set(want) & set(got)):
        (nc_want, v_want), (nc_got, v_got) = want[name], got[name]
        if nc_want != nc_got or not np.array_equal(v_want, v_got):
            bad = int(np.sum(v_want != v_got)) if v_want.shape == v_got.shape else "all"
            problems.append(f"{name}: {nc_got} components, {bad} values differ (of {v_want.size})")
    return problems


def main(vti_dir, new_dir):
    files = sorted(pathlib.Path(new_dir).glob("*.hdf"))
    if not files:
        print(f"FAIL: no .hdf file in {new_dir}")
        return 1
    failed = 0
    for f in files:
        vti = pathlib.Path(vti_dir) / (f.stem + ".vti")
        problems = [f"{vti} is missing"] if not vti.exists() else compare(vti, f)
        for p in problems:
            print(f"FAIL: {f.name}: {p}")
        failed += bool(problems)
        if not problems:
            points = read(vtkHDFReader(), f).GetNumberOfPoints()
            print(f"{f.name}: equal to {vti.name} ({points} cells)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
