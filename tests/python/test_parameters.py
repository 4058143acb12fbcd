"""Parameters from Python: bad ones raise with the engine's message (what, where, what is allowed)
and change nothing; live ones act at the next iteration; the others wait for reset()."""

import warnings

import numpy as np
import pytest

import kinetic_studio as ks

COAG = "coagulation/teaching-demo"


def test_an_unknown_parameter_names_the_ones_the_method_has():
    with pytest.raises(ValueError, match=r"params/n_particles: unknown parameter 'n_particles'; allowed: one of kernel, n_s, n_runs"):
        ks.Simulation.from_preset(COAG, backend="cpu", n_particles=10)


def test_a_value_out_of_range_says_the_range():
    with pytest.raises(ks.BadInput, match=r"params/n_s: .*out of range; allowed: .*\[16, 100000000\]"):
        ks.Simulation.from_preset(COAG, backend="cpu", n_s=3)


def test_a_wrong_type_and_an_unknown_choice_are_refused():
    with pytest.raises(ValueError, match=r"'n_s' has the wrong type \(expected int\)"):
        ks.Simulation("aerosol.coagulation", {"n_s": "many"}, backend="cpu")
    with pytest.raises(ValueError, match=r"'kernel' is not a known choice; allowed: one of free_molecular, constant"):
        ks.Simulation("aerosol.coagulation", kernel="sticky", backend="cpu")
    with pytest.raises(ValueError, match=r"a value of Python type 'object'"):
        ks.Simulation("aerosol.coagulation", n_s=object(), backend="cpu")


class _FloatRaises:
    def __float__(self):
        raise ZeroDivisionError("no float here")


@pytest.mark.parametrize("value, message", [
    (2**70, r"the integer 1180591620717411303424 is beyond 64 bits"),
    (np.uint64(2**64 - 1), r"the integer 18446744073709551615 is beyond 64 bits"),
    (np.array([1.0, 2.0]), r"Python type 'ndarray' that is not one integer"),
    (_FloatRaises(), r"Python type '_FloatRaises' that float\(\) refuses \(ZeroDivisionError: no float here\)"),
    ("\ud800", r"not valid Unicode"),
    (float("nan"), r"the value nan; allowed: a finite number"),
    (float("-inf"), r"the value -inf; allowed: a finite number"),
])
def test_values_python_cannot_hand_over_are_bad_input_naming_the_key(value, message):
    with pytest.raises(ks.BadInput, match=r"params/t_end: .*" + message):
        ks.Simulation.from_preset(COAG, backend="cpu", t_end=value)
    sim = ks.Simulation.from_preset(COAG, backend="cpu", n_s=100, n_runs=2)
    with pytest.raises(ks.BadInput, match=r"set\(t_end=\.\.\.\): .*" + message):
        sim.set(t_end=value)
    assert sim.params["t_end"] == ks.Simulation.from_preset(COAG, backend="cpu").params["t_end"]  # unchanged


@pytest.mark.parametrize("count", [2.7, "3", True, 2**70])
def test_step_takes_only_a_whole_number_of_iterations(count):
    sim = ks.Simulation.from_preset(COAG, backend="cpu", n_s=100, n_runs=2)
    with pytest.raises(ks.BadInput, match=r"step\("):
        sim.step(count)
    assert sim.iteration == 0
    assert sim.step(np.int32(2)).iteration == 2


def test_numpy_numbers_are_taken_as_numbers():
    sim = ks.Simulation.from_preset(COAG, backend="cpu", n_s=np.int64(64), t_end=np.float64(2.0))
    assert sim.params["n_s"] == 64 and isinstance(sim.params["n_s"], int)
    assert sim.params["t_end"] == 2.0


def test_unknown_methods_presets_and_backends_say_what_exists():
    with pytest.raises(ValueError, match=r"unknown method 'kinetic.bgs'; allowed: one of aerosol.coagulation, kinetic.bgk"):
        ks.Simulation("kinetic.bgs")
    with pytest.raises(ValueError, match=r"preset 'dvm/couette': no such file, nor a preset of that name .*allowed: a preset file, or the name of a shipped one"):
        ks.Simulation.from_preset("dvm/couette")
    with pytest.raises(ValueError, match=r"backend: .*'gpu'.*allowed: auto, cuda"):
        ks.Simulation.from_preset(COAG, backend="gpu")
    with pytest.raises(ValueError, match=r"no such field; allowed: one of diameter, weight"):
        ks.Simulation.from_preset(COAG, backend="cpu").field("d")


def test_cuda_where_there_is_none_raises_a_runtime_error():
    if ks.cuda()["usable"]:
        pytest.skip("a CUDA GPU is usable here: nothing to refuse")
    with pytest.raises(RuntimeError, match="no usable CUDA device|no NVIDIA driver or GPU found|no CUDA support") as e:
        ks.Simulation.from_preset(COAG, backend="cuda")
    assert isinstance(e.value, ks.BackendUnavailable)


def test_a_refused_change_leaves_the_run_as_it_was():
    sim = ks.Simulation.from_preset(COAG, backend="cpu").step(2)
    before = sim.field("diameter").copy()
    with pytest.raises(ValueError, match=r"set\(n_runs=...\): .*out of range; allowed: .*\[1, 10000\]"):
        sim.set(n_runs=0)
    assert sim.params["n_runs"] == 4 and sim.pending_params["n_runs"] == 4
    np.testing.assert_array_equal(sim.field("diameter"), before)
    sim.step(1)
    assert sim.iteration == 3


def test_a_live_change_acts_at_the_next_iteration():
    # t_end is live: a finished run given a later end time goes on to it.
    sim = ks.Simulation.from_preset(COAG, backend="cpu", t_end=5.0).run(progress=False)
    assert sim.state == "finished" and sim.time == pytest.approx(5.0)
    n_before = sim.series("N/N0")[1][-1]
    assert sim.set(t_end=20.0) == {"t_end": "applied"}
    assert sim.params["t_end"] == 20.0
    sim.run(progress=False)
    assert sim.state == "finished" and sim.time == pytest.approx(20.0)
    assert sim.series("N/N0")[1][-1] < n_before  # coagulation went on


def test_a_change_needing_a_new_set_up_waits_for_reset():
    sim = ks.Simulation.from_preset(COAG, backend="cpu").step(1)
    with pytest.warns(ks.DeferredChange, match=r"'n_s' cannot change while a simulation is in progress; 64 applies on Reset"):
        assert sim.set(n_s=64) == {"n_s": "deferred"}
    assert sim.params["n_s"] == 500 and sim.pending_params["n_s"] == 64
    assert sim.field("diameter").shape == (500,)
    sim.reset()
    assert sim.iteration == 0 and sim.params["n_s"] == 64
    assert sim.field("diameter").shape == (64,)


def test_before_the_first_iteration_a_change_sets_up_again_at_once():
    sim = ks.Simulation.from_preset(COAG, backend="cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sim.set(n_s=128) == {"n_s": "applied"}
    assert sim.field("diameter").shape == (128,)


def test_describe_lists_ranges_and_what_may_change_live():
    d = ks.describe("radiation.rmc")
    rays = next(p for p in d["params"] if p["key"] == "rays_per_batch")
    assert rays["live"] is True and rays["type"] == "int"
    assert "Q_R" in [f["name"] for f in d["fields"]]
    assert set(ks.methods()) == {"aerosol.coagulation", "kinetic.bgk", "kinetic.dvm", "lbm.binary", "radiation.rmc"}
