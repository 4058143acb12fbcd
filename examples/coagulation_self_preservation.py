"""Aerosol coagulation toward the self-preserving size distribution: the geometric standard
deviation sigma_g(t) of a monodisperse start under three collision kernels, by the weighted Monte
Carlo method, next to the discrete-sectional solution. Whatever the start, sigma_g levels off at a
value set by the kernel alone: about 1.46 free-molecular, 1.44 continuum, and for a constant kernel,
whose self-preserving distribution is exponential in volume, exp(pi / (3 sqrt 6)) = 1.533.

    PYTHONPATH=build/python python3 examples/coagulation_self_preservation.py [--quick] [--backend cpu]

Time is in units of the characteristic collision time tau_char (engine/methods/coagulation/README.md).
"""

import argparse
import math

import numpy as np

import kinetic_studio as ks

# ln v of an exponential distribution has variance pi^2 / 6, and ln d = ln v / 3.
SIGMA_G_CONSTANT_KERNEL = math.exp(math.pi / (3.0 * math.sqrt(6.0)))
KERNELS = {"free_molecular": "free-molecular", "continuum": "continuum (Brownian)", "constant": "constant"}


def approach(n_s, n_runs, t_end, backend="auto", progress=False):
    """Table 1's conditions under each kernel: {kernel: (t, sigma_g, its standard error, sectional)}."""
    out = {}
    for kernel in KERNELS:
        sim = ks.Simulation.from_preset("coagulation/table1-free-molecular", backend=backend, kernel=kernel, n_s=n_s,
                                        n_runs=n_runs, t_end=t_end)
        sim.run(progress=progress)
        t, sigma = sim.series("sigma_g")
        err = sim.series_info("sigma_g")["y_err"]
        t_sec, sigma_sec = sim.series("sigma_g sectional")
        assert np.allclose(t, t_sec)
        out[kernel] = (t, sigma, err if err is not None else np.zeros_like(sigma), sigma_sec)
        print(f"{KERNELS[kernel]:>22}: sigma_g({t[-1]:.0f} tau) = {sigma[-1]:.4f} +- {out[kernel][2][-1]:.4f}"
              f" (sectional {sigma_sec[-1]:.4f}) on {sim.device}")
        sim.close()
    return out


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for (kernel, label), colour in zip(KERNELS.items(), ["tab:red", "tab:blue", "tab:green"]):
        t, sigma, err, sectional = results[kernel]
        ax.errorbar(t, sigma, yerr=err, fmt="o", ms=3, color=colour, label=f"{label}: Monte Carlo")
        ax.plot(t, sectional, "--", color=colour, lw=1, label=f"{label}: sectional ({sectional[-1]:.3f} at the end)")
    ax.axhline(SIGMA_G_CONSTANT_KERNEL, ls=":", color="tab:green", lw=1, label=f"constant: exp(pi / 3 sqrt 6) = {SIGMA_G_CONSTANT_KERNEL:.3f}")
    ax.set_xscale("log")
    ax.set_xlabel("t / tau_char")
    ax.set_ylabel("geometric standard deviation sigma_g")
    ax.set_title("Approach to the self-preserving size distribution")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small ensembles to 100 tau_char (seconds)")
    parser.add_argument("--backend", default="auto", help="auto, cuda or cpu")
    parser.add_argument("--out", default="coagulation-self-preservation.png",
                        help="the figure to write (docs/images/coagulation-self-preservation.png is the README's)")
    args = parser.parse_args(argv)
    if args.quick:
        results = approach(n_s=256, n_runs=4, t_end=100.0, backend=args.backend)
    else:
        results = approach(n_s=2000, n_runs=20, t_end=1000.0, backend=args.backend)
    plot(results, args.out)
    return results


if __name__ == "__main__":
    main()
