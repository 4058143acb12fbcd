"""Every method's teaching preset run from Python gives the fields and series kinetic-run gives for
the same preset and seed: the module is the same engine, not a re-implementation."""

import glob
import json
import os

import numpy as np
import pytest

import kinetic_studio as ks
from conftest import TEACHING, file_safe, memory_order, preset_file, read_csv, require_cuda, run_cli

STEPS = 2


def compare_with_cli(preset, backend, tmp_path):
    out = run_cli([preset_file(preset), "--backend", backend, "--steps", str(STEPS), "--format", "csv"], tmp_path / "cli")
    with open(out / "summary.json", encoding="utf-8") as f:
        summary = json.load(f)
    sim = ks.Simulation.from_preset(preset, backend=backend).step(STEPS)
    assert sim.state == "paused"
    assert sim.iteration == summary["iterations"] == STEPS
    assert sim.time == pytest.approx(summary["sim_time"], rel=1e-15, abs=0.0)
    assert sim.fields, "a method without fields"
    for name in sim.fields:
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


@pytest.mark.parametrize("preset", TEACHING)
def test_fields_and_series_equal_the_cli_on_the_cpu(preset, tmp_path):
    compare_with_cli(preset, "cpu", tmp_path)


@pytest.mark.parametrize("preset", TEACHING)
def test_fields_and_series_equal_the_cli_on_the_gpu(preset, tmp_path):
    require_cuda()
    compare_with_cli(preset, "cuda", tmp_path)


def test_the_shipped_presets_are_listed_by_name():
    names = ks.presets()
    assert set(TEACHING) <= set(names)
    assert ks.presets("kinetic.dvm") == ks.presets("dvm")
    assert all(n.startswith("dvm/") for n in ks.presets("dvm"))
    shipped = glob.glob(os.path.join(ks._core.preset_dir(), "*", "*.json"))
    assert len(names) == len(shipped)
