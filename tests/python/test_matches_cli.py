"""Every method's teaching preset run from Python gives the fields and series kinetic-run gives for
the same preset and seed: the module is the same engine, not a re-implementation."""

import glob
import os

import pytest

import kinetic_studio as ks
from conftest import TEACHING, compare_with_cli

@pytest.mark.parametrize("preset", TEACHING)
def test_fields_and_series_equal_the_cli_on_the_cpu(preset, tmp_path):
    compare_with_cli(preset, "cpu", tmp_path)


def test_the_shipped_presets_are_listed_by_name():
    names = ks.presets()
    assert set(TEACHING) <= set(names)
    assert ks.presets("kinetic.dvm") == ks.presets("dvm")
    assert all(n.startswith("dvm/") for n in ks.presets("dvm"))
    shipped = glob.glob(os.path.join(ks._core.preset_dir(), "*", "*.json"))
    assert len(names) == len(shipped)
