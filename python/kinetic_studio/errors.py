"""The exceptions Kinetic Studio raises. Each carries the engine's message: what was wrong, where
(file, key, value) and what is allowed."""


class Error(Exception):
    """Any error of Kinetic Studio's engine."""


class BadInput(Error, ValueError):
    """A preset, parameter, file or argument is wrong (kinetic-run exits with 2)."""


class BackendUnavailable(Error, RuntimeError):
    """The backend asked for (CUDA) cannot be used here (kinetic-run exits with 3)."""


class RunFailed(Error, RuntimeError):
    """The simulation itself failed: NaN, divergence, a device fault (kinetic-run exits with 4)."""


class DeferredChange(UserWarning):
    """A parameter that needs a new set-up was changed during a run: it applies at Simulation.reset()."""
