#!/usr/bin/env bash
# Prints a python3 that has VTK's Python modules (python3-vtk9), which same_as_vti.py reads the files
# with; prints nothing and exits 1 where there is none.
for p in /usr/bin/python3 python3; do
  if "$p" -c "from vtkmodules.vtkIOHDF import vtkHDFReader" 2>/dev/null; then
    command -v "$p"
    exit 0
  fi
done
exit 1
