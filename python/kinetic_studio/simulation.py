"""Simulation: one method running on the engine's worker thread, driven from Python."""

import operator
import time
import warnings

from . import _core
from .errors import BadInput, DeferredChange
from .progress import make_bar


class Simulation:
    """A simulation of one method: made from a preset (`Simulation.from_preset`), from a method and
    its parameters (`Simulation(method, params)`) or from a checkpoint (`Simulation.restart`).

    The engine runs on its own thread without the GIL; `step` and `run` wait for it (Ctrl-C, or a
    notebook's stop button, pauses it after the current iteration: nothing is lost, and `run()`
    continues). Fields come back as read-only NumPy views of the latest state, without a copy.
    """

    _core = None  # until made: a failed construction leaves none

    def __init__(self, method, params=None, backend=None, **overrides):
        """`method`: an id of `kinetic_studio.methods()`; `params` and keyword arguments: parameter
        values over the method's defaults (`describe(method)` lists them with their ranges);
        `backend`: "auto" (CUDA where a GPU is usable), "cuda" or "cpu"."""
        values = dict(params or {})
        values.update(overrides)
        self._attach(_core.Session.from_method(method, backend or "", values))

    @classmethod
    def from_preset(cls, preset, backend=None, **overrides):
        """`preset`: a preset file, or the name of one shipped with Kinetic Studio ("dvm/couette-slip",
        see `presets()`); keyword arguments override its parameters; `backend`: "auto", "cuda",
        "cpu", or None for the preset's own (else auto)."""
        sim = cls.__new__(cls)
        sim._attach(_core.Session.from_preset(str(preset), backend or "", dict(overrides)))
        return sim

    @classmethod
    def restart(cls, checkpoint, backend=None):
        """The state saved by `checkpoint(path)` (or `kinetic-run --checkpoint`) with its method and
        parameters; it continues exactly as if it had never stopped."""
        sim = cls.__new__(cls)
        sim._attach(_core.Session.restart(str(checkpoint), backend or ""))
        return sim

    def _attach(self, core):
        self._core = core
        self._stop_reason = ""
        self._closed = False

    # --- running -------------------------------------------------------------------------------

    def step(self, n=1, progress=False):
        """Runs `n` iterations and waits for them; returns self. `progress`: True, "text", "tqdm"."""
        self._open()
        if isinstance(n, bool) or not hasattr(n, "__index__"):
            raise BadInput(f"step({n!r}): the number of iterations must be a whole number; allowed: an integer >= 1")
        n = operator.index(n)
        start = self._core.progress["iteration"]
        self._core.step(n)
        self._stop_reason = f"step({n})"
        self._follow(f"{self.method}: {n} iterations", progress, None,
                     lambda: (self._core.progress["iteration"] - start) / n)
        return self

    def run(self, until_done=True, max_seconds=None, progress=True):
        """Runs to the method's end condition (its tolerance, end time or iteration limit) and waits,
        showing a progress bar; stops after `max_seconds` (then paused: `run()` again continues).
        With `until_done=False` it returns at once and the run goes on in the background (`wait`,
        `pause`, and `field` reads the latest state meanwhile). Returns self."""
        self._open()
        self._core.throw_if_failed()
        self._core.start()
        self._stop_reason = "running"
        if until_done:
            self._follow(f"{self.method}", progress, max_seconds, lambda: self._core.progress["fraction_done"])
        return self

    def wait(self, timeout=None, progress=False):
        """Waits for a background run (`run(until_done=False)`) to finish or pause; `timeout` in
        seconds pauses it then. Returns self."""
        self._open()
        self._follow(f"{self.method}", progress, timeout, lambda: self._core.progress["fraction_done"])
        return self

    def pause(self):
        """Pauses after the current iteration and waits for it."""
        self._open()
        self._pause("paused")
        return self

    def reset(self):
        """Sets the method up again, with every parameter changed since (`pending_params`)."""
        self._open()
        self._core.reset()
        self._settle()
        self._core.throw_if_failed()
        self._stop_reason = ""
        return self

    def _settle(self):
        while not self._core.wait(0.2):
            pass

    def _pause(self, reason):
        """Pauses after the current iteration, waits for it and keeps why for the summary."""
        self._core.pause()
        self._settle()
        self._stop_reason = reason

    def _follow(self, title, progress, max_seconds, fraction):
        bar = make_bar(title, progress)
        t0 = time.monotonic()
        # Shown, never less than before: an estimate from the residual's trend may fall back.
        most = [0.0]

        def shown():
            most[0] = max(most[0], fraction())
            return most[0]

        try:
            while not self._core.wait(0.2):
                if bar:
                    bar.update(shown(), self._status())
                if max_seconds is not None and time.monotonic() - t0 > max_seconds:
                    self._pause(f"max_seconds={max_seconds}")
                    break
            if bar:
                bar.update(shown(), self._status(), force=True)
        except KeyboardInterrupt:
            # Ctrl-C or the notebook's stop button: pause after the current iteration, keep the state.
            self._pause("interrupted (KeyboardInterrupt)")
            raise
        finally:
            if bar:
                bar.close()
        self._core.throw_if_failed()

    def _status(self):
        p = self._core.progress
        text = f"iteration {p['iteration']}  t = {p['time']:.4g} {p['time_unit']}"
        if p["residual"]:
            text += f"  residual {p['residual']:.3g}"
        if p["end_condition"]:
            text += f"  (toward {p['end_condition']})"
        return text

    # --- parameters ----------------------------------------------------------------------------

    def set(self, **values):
        """Changes parameters as the app does: a live one (rays per cell, a tolerance, ...) applies at
        the next iteration; one that needs a new set-up applies at once before the first iteration,
        else at `reset()` (a DeferredChange warning says so). A bad value raises BadInput (a
        ValueError) with what is allowed, and changes nothing. Returns {key: "applied" | "deferred"}."""
        self._open()
        outcome = {}
        for key, value in values.items():
            status, message = self._core.set(key, value)
            outcome[key] = status
            if status == "deferred":
                warnings.warn(message, DeferredChange, stacklevel=2)
        self._settle()
        self._core.throw_if_failed()
        return outcome

    @property
    def params(self):
        """The parameters the method runs with now (a dict)."""
        return self._core.params

    @property
    def pending_params(self):
        """The parameters the next `reset()` sets up with (deferred changes included)."""
        return self._core.pending_params

    # --- state ---------------------------------------------------------------------------------

    @property
    def state(self):
        """"idle", "running", "paused", "finished" or "failed"."""
        return self._core.state

    @property
    def progress(self):
        """{iteration, time, time_unit, residual, fraction_done, end_condition, work_done, work_unit,
        converged}: fraction_done is toward end_condition ("t_end", "steady state (residual 1e-06)")."""
        return self._core.progress

    @property
    def residual(self):
        """The method's residual of the latest iteration (its measure of change; see `progress`)."""
        return self._core.progress["residual"]

    @property
    def iteration(self):
        """Iterations done since the set-up (a restart counts on from its checkpoint)."""
        return self._core.progress["iteration"]

    @property
    def time(self):
        """Simulated time, in `progress["time_unit"]`."""
        return self._core.progress["time"]

    @property
    def method(self):
        """The method's id ("kinetic.dvm"); `describe(method)` lists its parameters, fields and series."""
        return self._core.method

    @property
    def title(self):
        """The preset's title (the method's, for a simulation made without a preset)."""
        return self._core.title

    @property
    def backend(self):
        """"cpu" or "cuda"."""
        return self._core.backend

    @property
    def device(self):
        """The GPU's name, or the CPU with its threads."""
        return self._core.device

    @property
    def cuda_unused(self):
        """Why backend "auto" runs on the CPU in a CUDA build ("" otherwise)."""
        return self._core.cuda_unused

    @property
    def field_names(self):
        """The names `field(name)` and `grid(name)` take."""
        return self._core.field_names()

    @property
    def series_names(self):
        """The names `series(name)` and `series_info(name)` take."""
        return self._core.series_names()

    def field(self, name, squeeze=True):
        """Field `name` of the latest state as a read-only NumPy array, without a copy: indexed
        [i, j, k] along x, y, z (plus the component for a vector: [..., 3]); axes of one cell left
        out where `squeeze` (a 2-D cavity gives [i, j]). Particles: [particle(, component)].
        `grid(name)` says where the values sit. Later iterations do not change it: it holds the
        state it was read from (no copy needed to keep it)."""
        return self._core.field(name, squeeze)

    def grid(self, name):
        """Where field `name` sits: {kind, axes [(name, unit)], unit, components} with, for a grid,
        cells, origin, spacing and centres (one array per axis), for particles positions ([p, 3])."""
        return self._core.grid(name)

    def series(self, name):
        """Series `name` (a residual history, N(t)/N0, a profile, ...) as NumPy arrays (x, y);
        `series_info(name)` has the labels and the standard error of y where there is one."""
        return self._core.series(name)

    def series_info(self, name):
        """Series `name`'s axis labels, log scales and the standard error of y (None without one):
        {x_label, y_label, y_err, log_x, log_y}."""
        return self._core.series_info(name)

    @property
    def diagnostics(self):
        """The method's scalar diagnostics of the latest state (a dict: shear stress, mass, ...)."""
        return self._core.diagnostics()

    def summary(self):
        """What `kinetic-run --out` writes in summary.json: parameters, backend, progress, timings,
        every series and the comparison with the preset's reference (a dict)."""
        return self._core.summary(self._stop_reason)

    # --- files ---------------------------------------------------------------------------------

    def save(self, directory, format="vti"):
        """Writes what `kinetic-run --out` writes: the fields (`format` "vti": binary VTK files for
        ParaView, "vti-ascii", or "csv"), one CSV per series and summary.json. Returns the files."""
        self._open()
        return self._core.save(str(directory), format, self._stop_reason)

    def checkpoint(self, path):
        """Saves the whole state between iterations (`Simulation.restart(path)` continues from it)."""
        self._open()
        self._core.checkpoint(str(path))
        return self

    def close(self):
        """Ends the engine's thread after the current iteration; the last state stays readable."""
        if not self._closed:
            self._core.close()
            self._closed = True

    def _open(self):
        if self._closed:
            raise RuntimeError("this Simulation was closed: make a new one, or restart from a checkpoint")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if self._core is not None:
            self.close()

    def __repr__(self):
        if self._core is None:
            return "<Simulation (not made)>"
        p = self._core.progress
        return (f"<Simulation {self.method} '{self.title}' on {self.device}: {self.state}, "
                f"iteration {p['iteration']}, t = {p['time']:.4g} {p['time_unit']}>")
