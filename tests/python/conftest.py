"""Shared helpers of the Python module's tests: the CLI they compare with, its files, skips."""

import csv
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
