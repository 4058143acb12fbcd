"""Kinetic Studio from Python: run the five methods' presets, change parameters while they run,
read fields as NumPy arrays and series, save VTK files for ParaView.

    import kinetic_studio as ks
    sim = ks.Simulation.from_preset("dvm/couette-slip", kn=0.3)
    sim.run()
    u = sim.field("U")[:, 0]          # U_x across the gap
    y = sim.grid("U")["centres"][1]
"""

import os

from . import errors
from .errors import BackendUnavailable, BadInput, DeferredChange, Error, RunFailed
from . import _core

_core.locate_data(os.path.abspath(_core.__file__))

from .simulation import Simulation  # noqa: E402  (after the data folder is known)

__version__ = _core.version


def methods():
    """The methods' ids ("aerosol.coagulation", "kinetic.bgk", ...)."""
    return list(_core.methods())


def describe(method):
    """A method's title, paper, parameters (type, default, range, unit, live or not), fields and series."""
    return _core.describe(method)


def presets(method=None):
    """The shipped presets' names ("dvm/couette-slip"), for `Simulation.from_preset`; `method`
    ("kinetic.dvm" or its folder "dvm") keeps one method's."""
    root = _core.preset_dir()
    names = []
    for folder in sorted(os.listdir(root)):
        path = os.path.join(root, folder)
        if not os.path.isdir(path):
            continue
        for file in sorted(os.listdir(path)):
            if file.endswith(".json"):
                names.append(f"{folder}/{file[:-5]}")
    if method is None:
        return names
    import json
    keep = []
    for name in names:
        with open(os.path.join(root, name + ".json"), encoding="utf-8") as f:
            if method in (name.split("/")[0], json.load(f).get("method")):
                keep.append(name)
    return keep


def cuda():
    """{compiled, usable, device, reason}: whether this build has CUDA and a GPU it can use."""
    return _core.cuda()


__all__ = ["Simulation", "methods", "describe", "presets", "cuda", "Error", "BadInput", "BackendUnavailable",
           "RunFailed", "DeferredChange", "errors"]
