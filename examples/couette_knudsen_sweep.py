"""Couette flow across the Knudsen range with the discrete-velocity (Shakhov) solver: the shear
stress between two plates against its two limits, Navier-Stokes with velocity slip (small Kn) and
free-molecular flow (large Kn), and the velocity profiles that go from linear to flat.

    PYTHONPATH=build/python python3 examples/couette_knudsen_sweep.py [--quick] [--backend cpu]

Units are the solver's: lengths in the gap L, speeds in the most probable speed v_m = sqrt(2 R T_w),
density n = 1 and wall temperature T_w = 1 (engine/methods/dvm/README.md).
"""

import argparse
import math

import numpy as np

import kinetic_studio as ks

SLIP = 1.016  # viscous slip coefficient of the Shakhov model with diffuse walls


def viscosity(kn, omega):
    """mu at T_w from the Knudsen number (the paper's eq. 10, as the solver sets it)."""
    return 15.0 * math.sqrt(math.pi) * 0.5 * kn / ((5.0 - 2.0 * omega) * (7.0 - 2.0 * omega))


def shear_free_molecular(U):
    """Molecules fly plate to plate without colliding: P_xy = -n U / (2 sqrt(pi))."""
    return -U / (2.0 * math.sqrt(math.pi))


def shear_navier_stokes_slip(kn, U, omega):
    """Navier-Stokes with first-order slip at both walls: P_xy = -mu U / (1 + 2 sigma l), l = mu v_m / p."""
    mu = viscosity(kn, omega)
    return -mu * U / (1.0 + 2.0 * SLIP * 2.0 * mu)


def sweep(kns, ny, nv, backend="auto", progress=False):
    """The plates of the `couette-slip` preset at each Kn: (shear stress, (y, U_x) profile) per Kn."""
    results = []
    for kn in kns:
        # fp64 stored f: with fp32 the iteration stalls near a relative change of 1e-7 (DVM README)
        sim = ks.Simulation.from_preset("dvm/couette-slip", backend=backend, kn=float(kn), ny=ny, nv=nv,
                                        precision="fp64", tolerance=1e-8, max_iterations=20000)
        sim.run(progress=progress)
        y = sim.grid("U")["centres"][1]
        results.append({"kn": float(kn), "shear": sim.diagnostics["shear_stress"], "y": y,
                        "ux": np.array(sim.field("U")[:, 0]), "iterations": sim.iteration,
                        "U": sim.params["lid_speed"], "omega": sim.params["omega"], "device": sim.device})
        print(f"Kn = {kn:8.3g}: P_xy = {results[-1]['shear']:+.5f} after {sim.iteration} iterations on {sim.device}")
        sim.close()
    return results


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    U, omega = results[0]["U"], results[0]["omega"]
    fm = shear_free_molecular(U)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    kn_line = np.logspace(math.log10(min(r["kn"] for r in results)) - 0.3, math.log10(max(r["kn"] for r in results)) + 0.3, 200)
    left.semilogx(kn_line, [shear_navier_stokes_slip(k, U, omega) / fm for k in kn_line], "--", color="tab:blue",
                  label="Navier-Stokes with slip")
    left.semilogx(kn_line, [viscosity(k, omega) * U / -fm for k in kn_line], ":", color="tab:gray", label="Navier-Stokes, no slip")
    left.axhline(1.0, ls="--", color="tab:red", label="free-molecular")
    left.semilogx([r["kn"] for r in results], [r["shear"] / fm for r in results], "o", color="black", label="DVM (Shakhov)")
    left.set_ylim(0, 1.25)
    left.set_xlabel("Knudsen number Kn")
    left.set_ylabel("shear stress / free-molecular value")
    left.set_title("Couette flow: shear stress across the Knudsen range")
    left.legend(loc="upper left", fontsize=9)
    for r in results:
        right.plot(r["y"], r["ux"] / U, label=f"Kn = {r['kn']:.3g}")
    right.set_xlabel("y / L")
    right.set_ylabel("U_x / U_wall")
    right.set_title("velocity across the gap (walls at 0 and U)")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="three Knudsen numbers on coarse grids (seconds)")
    parser.add_argument("--backend", default="auto", help="auto, cuda or cpu")
    parser.add_argument("--out", default="couette-knudsen-sweep.png",
                        help="the figure to write (docs/images/couette-knudsen-sweep.png is the README's)")
    args = parser.parse_args(argv)
    if args.quick:
        results = sweep([0.1, 1.0, 30.0], ny=30, nv=16, backend=args.backend)
    else:  # below Kn = 0.03 the iterations to converge grow as 1 / Kn^2
        results = sweep(np.logspace(math.log10(0.03), 2, 8), ny=80, nv=24, backend=args.backend)
    plot(results, args.out)
    return results


if __name__ == "__main__":
    main()
