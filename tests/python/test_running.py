"""Running from Python: the engine works without the GIL, Ctrl-C and max_seconds pause it with
nothing lost, a background run can be watched, progress is shown."""

import io
import os
import signal
import threading
import time

import numpy as np
import pytest

import kinetic_studio as ks
from kinetic_studio.progress import TextBar, make_bar

# Long enough to be stopped: the radiation teaching cube with many rays, one batch an iteration.
LONG = dict(rays_per_cell=10**7, rays_per_batch=50)


def long_run():
    return ks.Simulation.from_preset("radiation/teaching-hot-cube", backend="cpu", **LONG)


def test_max_seconds_pauses_and_run_continues_from_there():
    sim = long_run()
    t0 = time.monotonic()
    sim.run(max_seconds=0.5, progress=False)
    assert time.monotonic() - t0 < 10
    assert sim.state == "paused"
    first = sim.iteration
    assert first >= 1
    assert sim.summary()["stop_reason"] == "max_seconds=0.5"
    # Goes on from there (a longer run where a loaded machine took longer than the first for a batch).
    for seconds in (0.3, 1, 3):
        sim.run(max_seconds=seconds, progress=False)
        if sim.iteration > first:
            break
    assert sim.iteration > first


def test_ctrl_c_pauses_after_the_iteration_and_keeps_the_state():
    sim = long_run()
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        sim.run(progress=False)
    timer.join()
    assert sim.state == "paused"
    assert sim.summary()["stop_reason"] == "interrupted (KeyboardInterrupt)"
    reached = sim.iteration
    q = sim.field("Q_R").copy()
    assert np.isfinite(q).all()
    sim.step(1)
    assert sim.iteration == reached + 1


def test_the_engine_runs_without_the_gil():
    # While step() waits for the engine, another Python thread keeps running.
    sim = ks.Simulation.from_preset("dvm/couette-slip", backend="cpu")
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=count)
    t.start()
    start = time.monotonic()
    sim.step(40)
    took = time.monotonic() - start
    stop.set()
    t.join()
    during = [x for x in ticks if start <= x <= start + took]
    assert took > 0.2, "too short to tell"
    assert len(during) > 0.3 * took / 0.01


def test_a_background_run_can_be_read_while_it_goes_and_waited_for():
    sim = ks.Simulation.from_preset("coagulation/teaching-demo", backend="cpu", t_end=50.0)
    sim.run(until_done=False)
    assert sim.state in ("running", "finished")  # started when run() returns
    d = sim.field("diameter")  # the latest published state, whatever the worker does meanwhile
    assert d.shape == (500,)
    sim.wait()
    assert sim.state == "finished"
    assert sim.time == pytest.approx(50.0)


def test_a_field_is_a_read_only_view_that_keeps_its_state():
    sim = ks.Simulation.from_preset("bgk/teaching-cavity", backend="cpu").step(1)
    v = sim.field("V")
    assert v.shape[-1] == 3 and v.ndim == 3 and not v.flags.writeable and not v.flags.owndata
    with pytest.raises(ValueError):
        v[0, 0, 0] = 1.0
    kept = v.copy()
    sim.step(2)
    np.testing.assert_array_equal(v, kept)  # the array holds the state it was read from
    assert not np.array_equal(sim.field("V"), kept)
    full = sim.field("V", squeeze=False)
    assert full.shape == v.shape[:2] + (1, 3)


def test_a_run_that_fails_raises_run_failed_with_why():
    # A tiny tube with the least viscosity and half the pressure: the lattice Boltzmann update
    # diverges within a few iterations.
    sim = ks.Simulation.from_preset("lbm/tube-simple-bounce-back", backend="cpu", viscosity=0.002, pressure_ratio=0.5,
                                    nx=16, ny=16, nz=32, steps_per_iteration=20)
    with pytest.raises(RuntimeError, match=r"lbm.binary: the momentum became -?nan at step \d+; raise the viscosity") as e:
        sim.run(progress=False, max_seconds=60)
    assert isinstance(e.value, ks.RunFailed)
    assert sim.state == "failed"
    assert sim.summary()["state"] == "failed"
    with pytest.raises(ks.RunFailed):
        sim.run()


def test_the_text_bar_draws_in_place():
    out = io.StringIO()
    bar = TextBar("demo", stream=out)
    bar.update(0.25, "iteration 5", force=True)
    bar.update(1.0, "iteration 20", force=True)
    bar.close()
    text = out.getvalue()
    assert text.startswith("\rdemo [#######") and " 25.0 %  iteration 5" in text
    assert "[" + "#" * TextBar.width + "] 100.0 %  iteration 20" in text and text.endswith("\n")


def test_progress_choices():
    assert make_bar("x", False) is None
    assert isinstance(make_bar("x", "text"), TextBar)
    with pytest.raises(ValueError, match="progress='loud'"):
        make_bar("x", "loud")
    pytest.importorskip("tqdm", reason="tqdm is optional (python3-tqdm)")
    bar = make_bar("x", "tqdm")
    bar.update(0.5, "half", force=True)
    assert bar.bar.n == 500
    bar.close()


def test_the_bar_never_goes_backwards(monkeypatch):
    """An end estimate from the residual's trend may fall back; the bar shows the most reached."""
    shown = []

    class Recorder:
        def update(self, fraction, text, force=False):
            shown.append(fraction)

        def close(self):
            pass

    monkeypatch.setattr(ks.simulation, "make_bar", lambda title, kind: Recorder())
    estimates = iter([0.5, 0.4, 0.6, 0.3, 0.7, 0.2] + [0.1] * 1000)
    sim = ks.Simulation.from_preset("bgk/teaching-cavity", backend="cpu")  # 25 s to its end, short iterations
    sim.run(until_done=False)
    sim._follow("test", True, 1.2, lambda: next(estimates))
    assert sim.state == "paused" and len(shown) >= 3
    assert shown == sorted(shown) and shown[:3] == [0.5, 0.5, 0.6]


def test_in_a_notebook_without_widgets_tqdm_draws_text(monkeypatch):
    """tqdm.auto in Jupyter without ipywidgets warns "IProgress not found": its text bar instead."""
    tqdm = pytest.importorskip("tqdm", reason="tqdm is optional (python3-tqdm)")
    import sys
    import types
    monkeypatch.setitem(sys.modules, "ipykernel", types.ModuleType("ipykernel"))
    monkeypatch.setattr(ks.progress, "_has_widgets", lambda: False)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bar = make_bar("x", True)
        bar.update(0.5, "half", force=True)
        assert type(bar.bar) is tqdm.std.tqdm
        assert "x  half" in str(bar.bar) and ", " not in str(bar.bar)
        bar.close()


def _public(namespace):
    return {name: value for name, value in vars(namespace).items() if not name.startswith("_")}


def test_every_public_name_says_what_it_is():
    """help(kinetic_studio) and help(Simulation) document everything a user can reach."""
    undocumented = [f"kinetic_studio.{name}" for name, value in _public(ks).items()
                    if callable(value) and not (value.__doc__ or "").strip()]
    for name, value in _public(ks.Simulation).items():
        target = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
        if not (getattr(target, "__doc__", None) or "").strip():
            undocumented.append(f"Simulation.{name}")
    assert not undocumented, f"no docstring: {', '.join(undocumented)}"


def test_names_of_the_state_are_properties_and_what_takes_a_name_is_a_method():
    """One rule: what the latest state is (names, numbers, dicts) is read as a property; what takes
    an argument or does work is called."""
    properties = {name for name, value in _public(ks.Simulation).items() if isinstance(value, property)}
    assert {"field_names", "series_names", "diagnostics", "iteration", "residual", "progress", "params"} <= properties
    assert not {"field", "grid", "series", "series_info", "summary", "save", "step", "run"} & properties
