"""Files from Python: save writes what kinetic-run --out writes; a checkpoint continues exactly."""

import json
import os

import numpy as np
import pytest

import kinetic_studio as ks


def test_save_writes_the_fields_series_and_summary_as_the_cli_does(tmp_path):
    sim = ks.Simulation.from_preset("bgk/teaching-cavity", backend="cpu").step(2)
    files = sim.save(tmp_path / "out")
    names = sorted(os.path.basename(f) for f in files)
    assert "fields.vti" in names and "series_residual.csv" in names
    for f in files:
        assert os.path.getsize(f) > 0
    with open(tmp_path / "out" / "summary.json", encoding="utf-8") as f:
        summary = json.load(f)
    assert summary["iterations"] == 2 and summary["state"] == "paused" and summary["stop_reason"] == "step(2)"
    assert summary["preset"]["title"] == sim.title
    with open(tmp_path / "out" / "fields.vti", encoding="utf-8", errors="replace") as f:
        head = f.read(600)
    assert 'type="ImageData"' in head and 'compressor="vtkZLibDataCompressor"' in head
    csv_files = sim.save(tmp_path / "csv", format="csv")
    assert any(f.endswith("/V.csv") for f in csv_files)


def test_save_refuses_an_unknown_format_and_an_unwritable_folder(tmp_path):
    sim = ks.Simulation.from_preset("coagulation/teaching-demo", backend="cpu")
    with pytest.raises(ValueError, match=r'save\(format="vtk"\): unknown format; allowed: vti, vti-ascii or csv'):
        sim.save(tmp_path, format="vtk")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match=r"save\(.*file/sub.*\)"):
        sim.save(blocker / "sub")


def test_a_restart_continues_exactly_as_if_never_stopped(tmp_path):
    straight = ks.Simulation.from_preset("coagulation/teaching-demo", backend="cpu").step(6)
    first = ks.Simulation.from_preset("coagulation/teaching-demo", backend="cpu").step(3)
    first.checkpoint(tmp_path / "c.ksc")
    first.close()
    again = ks.Simulation.restart(tmp_path / "c.ksc", backend="cpu")
    assert again.iteration == 3 and again.title == straight.title
    again.step(3)
    np.testing.assert_array_equal(again.field("diameter"), straight.field("diameter"))
    np.testing.assert_array_equal(again.series("sigma_g")[1], straight.series("sigma_g")[1])


def test_a_damaged_checkpoint_is_refused_saying_why(tmp_path):
    sim = ks.Simulation.from_preset("dvm/couette-slip", backend="cpu", ny=20).step(2)
    path = tmp_path / "c.ksc"
    sim.checkpoint(path)
    data = path.read_bytes()
    path.write_bytes(data[:-10])
    with pytest.raises(ks.BadInput, match=r"c.ksc"):
        ks.Simulation.restart(path, backend="cpu")
    with pytest.raises(ValueError, match=r"not-there.ksc"):
        ks.Simulation.restart(tmp_path / "not-there.ksc")


def test_a_closed_simulation_keeps_its_last_state_readable():
    with ks.Simulation.from_preset("coagulation/teaching-demo", backend="cpu") as sim:
        sim.step(1)
    assert sim.field("diameter").shape == (500,)
    with pytest.raises(RuntimeError, match="closed"):
        sim.step(1)


def test_a_restart_keeps_the_checkpoints_method_when_its_preset_file_changed(tmp_path):
    preset = tmp_path / "mine.json"
    preset.write_bytes(open(os.path.join(ks._core.preset_dir(), "coagulation", "teaching-demo.json"), "rb").read())
    first = ks.Simulation.from_preset(str(preset), backend="cpu").step(2)
    first.checkpoint(tmp_path / "c.ksc")
    # The preset file now holds another method: the restart takes the checkpoint's method, not the file's.
    preset.write_bytes(open(os.path.join(ks._core.preset_dir(), "bgk", "teaching-cavity.json"), "rb").read())
    again = ks.Simulation.restart(tmp_path / "c.ksc", backend="cpu")
    assert again.method == "aerosol.coagulation" and again.iteration == 2
    np.testing.assert_array_equal(again.field("diameter"), first.field("diameter"))


def test_a_restart_goes_on_when_its_preset_file_no_longer_reads(tmp_path):
    preset = tmp_path / "mine.json"
    preset.write_bytes(open(os.path.join(ks._core.preset_dir(), "coagulation", "teaching-demo.json"), "rb").read())
    first = ks.Simulation.from_preset(str(preset), backend="cpu").step(2)
    first.checkpoint(tmp_path / "c.ksc")
    preset.write_text('{"method": "aerosol.coagulation", "title": ')  # cut short: the checkpoint holds every parameter
    again = ks.Simulation.restart(tmp_path / "c.ksc", backend="cpu")
    assert again.method == "aerosol.coagulation" and again.iteration == 2 and again.title == first.title
    assert again.params == first.params
    np.testing.assert_array_equal(again.step(1).field("diameter"), first.step(1).field("diameter"))


def test_python_dash_m_runs_a_preset_and_says_what_is_wrong(tmp_path):
    import subprocess
    import sys

    def run(*args):
        return subprocess.run([sys.executable, "-m", "kinetic_studio", *args], capture_output=True, text=True, timeout=120)

    r = run("--help")
    assert r.returncode == 0 and "usage: python -m kinetic_studio" in r.stdout and "exit codes" in r.stdout
    assert "dvm/couette-slip" in run("--presets", "dvm").stdout.split()
    r = run("coagulation/teaching-demo", "--set", "n_s=100", "--set", "n_runs=2", "--backend", "cpu", "--steps", "2",
            "--out", str(tmp_path / "out"), "--quiet")
    assert r.returncode == 0, r.stderr
    with open(tmp_path / "out" / "summary.json", encoding="utf-8") as f:
        assert json.load(f)["iterations"] == 2
    r = run("coagulation/teaching-demo", "--set", "n_s=5", "--quiet")
    assert r.returncode == 2 and "params/n_s: value 5 for 'n_s' is out of range" in r.stderr
