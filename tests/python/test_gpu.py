"""The module on a GPU (skipped, saying why, without one): the same fields as kinetic-run on the GPU,
and the GPU and the CPU agreeing through the module."""

import numpy as np
import pytest

import kinetic_studio as ks
from conftest import TEACHING, compare_with_cli, require_cuda


@pytest.mark.parametrize("preset", TEACHING)
def test_fields_and_series_equal_the_cli_on_the_gpu(preset, tmp_path):
    require_cuda()
    compare_with_cli(preset, "cuda", tmp_path)


def test_the_gpu_and_the_cpu_agree_through_the_module():
    require_cuda()
    cpu = ks.Simulation.from_preset("dvm/couette-slip", backend="cpu", ny=40).step(5)
    gpu = ks.Simulation.from_preset("dvm/couette-slip", backend="cuda", ny=40).step(5)
    assert gpu.backend == "cuda"
    np.testing.assert_allclose(gpu.field("U"), cpu.field("U"), rtol=1e-12, atol=1e-15)
