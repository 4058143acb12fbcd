"""Shared helpers of the Python module's tests: the CLI they compare with, its files, skips."""

import csv
import json
import os
import re
import subprocess

import numpy as np
import pytest

import kinetic_studio as ks

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TEACHING = ["coagulation/teaching-demo", "bgk/teaching-cavity", "dvm/teaching-cavity", "lbm/teaching-packed-bed",
            "radiation/teaching-hot-cube"]


def preset_file(name):
    return os.path.join(SOURCE_DIR, "presets", name + ".json")


def kinetic_run():
    path = os.environ.get("KS_KINETIC_RUN")
    if not path:
        pytest.fail("KS_KINETIC_RUN is not set: run these tests through ctest, which names the kinetic-run they compare with")
    return path


def run_cli(args, out):
    """kinetic-run with `args`, outputs to `out`; fails the test with its stderr when it fails."""
    done = subprocess.run([kinetic_run(), *args, "--out", str(out), "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out


def file_safe(name):
    """As the engine names a field's file (io/field_writer.hpp: file_safe)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array(rows[1:], dtype=float)


def memory_order(a, components):
    """A field array's values in the engine's order (x fastest, components interleaved)."""
    a = np.asarray(a)
    if a.ndim == (4 if components > 1 else 3):
        a = a.transpose(2, 1, 0, 3) if components > 1 else a.transpose(2, 1, 0)
    return a.reshape(-1, components)


def require_cuda():
    c = ks.cuda()
    if not c["usable"]:
        pytest.skip("needs a usable CUDA GPU: " + (c["reason"] or "this build has no CUDA"))


STEPS = 2


def compare_with_cli(preset, backend, tmp_path):
    out = run_cli([preset_file(preset), "--backend", backend, "--steps", str(STEPS), "--format", "csv"], tmp_path / "cli")
    with open(out / "summary.json", encoding="utf-8") as f:
        summary = json.load(f)
    sim = ks.Simulation.from_preset(preset, backend=backend).step(STEPS)
    assert sim.state == "paused"
    assert sim.iteration == summary["iterations"] == STEPS
    assert sim.time == pytest.approx(summary["sim_time"], rel=1e-15, abs=0.0)
    assert sim.field_names, "a method without fields"
    for name in sim.field_names:
        header, rows = read_csv(out / (file_safe(name) + ".csv"))
        grid = sim.grid(name)
        values = memory_order(sim.field(name, squeeze=False), grid["components"])
        np.testing.assert_allclose(values, rows[:, 3:], rtol=1e-13, atol=0.0, err_msg=f"{preset}: field {name}")
        if grid["kind"] == "particles":
            np.testing.assert_allclose(grid["positions"], rows[:, :3], rtol=1e-13, err_msg=f"{preset}: {name}'s positions")
        else:
            cx, cy, cz = grid["centres"]
            centres = np.stack(np.meshgrid(cx, cy, cz, indexing="ij"), axis=-1)
            np.testing.assert_allclose(memory_order(centres, 3), rows[:, :3], rtol=1e-13, err_msg=f"{preset}: {name}'s cells")
    by_name = {s["name"]: s for s in summary["series"]}
    assert set(sim.series_names) == set(by_name)
    for name, s in by_name.items():
        x, y = sim.series(name)
        np.testing.assert_allclose(x, s["x"], rtol=1e-13, atol=0.0, err_msg=f"{preset}: series {name} (x)")
        np.testing.assert_allclose(y, s["y"], rtol=1e-13, atol=0.0, err_msg=f"{preset}: series {name} (y)")
    mine = sim.summary()
    assert mine["params"] == summary["params"]
    assert mine["diagnostics"].keys() == summary["diagnostics"].keys()
    sim.close()
