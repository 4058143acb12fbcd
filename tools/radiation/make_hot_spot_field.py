#!/usr/bin/env python3
"""Writes presets/radiation/data/hot-spot-16.csv: the example temperature field of the preset
temperature-from-file.json, in the x,y,z,T format that radiation.rmc reads (profile = file).

A 0.16 m cube of 16^3 cells of combustion products at 400 K holding a Gaussian hot spot of
1800 K peak (width sigma = 3 cm) off the centre, the kind of pocket a DNS of a flame leaves.
Rows are cell centres in m and temperatures in K, printed to 0.1 K.
"""
import math
import pathlib

N = 16              # cells per axis
H = 0.01            # m, cell size
T_GAS = 400.0       # K, the surrounding gas
T_PEAK = 1800.0     # K, the hot spot's centre
CENTRE = (0.06, 0.08, 0.08)  # m
SIGMA = 0.03        # m

out = pathlib.Path(__file__).resolve().parents[2] / "presets/radiation/data/hot-spot-16.csv"
with open(out, "w") as f:
    f.write("# radiation.rmc example field: tools/radiation/make_hot_spot_field.py\n")
    f.write("x,y,z,T\n")
    for k in range(N):
        for j in range(N):
            for i in range(N):
                x, y, z = ((i + 0.5) * H, (j + 0.5) * H, (k + 0.5) * H)
                r2 = (x - CENTRE[0]) ** 2 + (y - CENTRE[1]) ** 2 + (z - CENTRE[2]) ** 2
                T = T_GAS + (T_PEAK - T_GAS) * math.exp(-r2 / (2 * SIGMA ** 2))
                f.write(f"{x:.3f},{y:.3f},{z:.3f},{T:.1f}\n")
print(out, out.stat().st_size, "bytes")
