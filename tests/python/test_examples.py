"""The examples run (small sizes) and their numbers are the physics they plot."""

import importlib.util
import math
import os

import pytest

from conftest import SOURCE_DIR


def run_quick(name, tmp_path):
    """Example `name` at its small sizes on the CPU: (the module, what its main returned), its plot checked."""
    pytest.importorskip("matplotlib", reason="the examples plot with matplotlib (python3-matplotlib)")
    spec = importlib.util.spec_from_file_location(name, os.path.join(SOURCE_DIR, "examples", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    png = tmp_path / (name + ".png")
    results = module.main(["--quick", "--backend", "cpu", "--out", str(png)])
    assert png.stat().st_size > 10000
    return module, results


def test_the_couette_sweep_goes_from_slip_flow_to_free_molecular_flow(tmp_path):
    couette, results = run_quick("couette_knudsen_sweep", tmp_path)
    by_kn = {r["kn"]: r for r in results}
    U, omega = results[0]["U"], results[0]["omega"]
    fm = couette.shear_free_molecular(U)
    # Kn = 0.1: Navier-Stokes with slip to a few per cent (the O(Kn^2) terms; the DVM test bounds it at 2 %
    # on 200 cells, 30 cells here); Kn = 30: within 4 % of free-molecular (collisions at 1/Kn, a coarse velocity grid).
    assert by_kn[0.1]["shear"] == pytest.approx(couette.shear_navier_stokes_slip(0.1, U, omega), rel=0.04)
    assert by_kn[30.0]["shear"] == pytest.approx(fm, rel=0.04)
    # In between the stress lies between the limits, and it rises monotonically with Kn.
    shears = [abs(by_kn[k]["shear"]) for k in (0.1, 1.0, 30.0)]
    assert shears == sorted(shears)
    assert shears[1] < 0.8 * abs(fm)  # Kn = 1: transitional, well below the free-molecular stress
    # The velocity profile flattens: the jump at the walls grows with Kn.
    slip = [r["ux"][0] / U for r in sorted(results, key=lambda r: r["kn"])]
    assert slip == sorted(slip) and slip[-1] > 0.4


def test_the_coagulation_example_levels_off_near_the_sectional_solution(tmp_path):
    coag, results = run_quick("coagulation_self_preservation", tmp_path)
    assert set(results) == {"free_molecular", "continuum", "constant"}
    for kernel, (t, sigma, err, sectional) in results.items():
        assert sigma[0] < 1.06 and sigma[-1] > sigma[0] + 0.25, kernel  # from a monodisperse start
        # 100 tau_char: most of the way to self-preservation, with the sectional solution within
        # four standard errors plus the small ensemble's bias (256 particles, 4 runs).
        assert 1.3 < sigma[-1] < coag.SIGMA_G_CONSTANT_KERNEL + 0.03, kernel
        assert abs(sigma[-1] - sectional[-1]) < 4 * err[-1] + 0.02, kernel
        assert all(math.isfinite(s) for s in sigma)
