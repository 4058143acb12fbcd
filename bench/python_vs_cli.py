"""The same preset and iterations through kinetic-run and through the Python module, in one run:
the module adds nothing to the engine's time (issue: a CUDA run in Python is as fast as in the CLI).

    PYTHONPATH=build/python python3 bench/python_vs_cli.py build/app/cli/kinetic-run [--backend cuda] [--json FILE]

Times are the summaries' iterations_time_s (the iterations on the engine's worker) and the wall
time of the whole run (set-up included), each the best of --repeat runs.
"""

import argparse
import json
import os
import subprocess
import tempfile
import time

import kinetic_studio as ks

CASES = [("bgk/cavity-delta-1", 20), ("lbm/packed-bed-coarse", 10), ("dvm/cavity-kn1-64", 3)]


def cli_run(kinetic_run, preset, steps, backend):
    with tempfile.TemporaryDirectory() as out:
        t0 = time.monotonic()
        subprocess.run([kinetic_run, os.path.join(ks._core.preset_dir(), preset + ".json"), "--backend", backend, "--steps",
                        str(steps), "--out", out, "--format", "none", "--quiet"], check=True)
        wall = time.monotonic() - t0
        with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
            s = json.load(f)
    return s["iterations_time_s"], wall, s["backend"]["device"]


def python_run(preset, steps, backend):
    t0 = time.monotonic()
    sim = ks.Simulation.from_preset(preset, backend=backend)
    sim.step(steps)
    s = sim.summary()
    sim.close()
    return s["iterations_time_s"], time.monotonic() - t0, s["backend"]["device"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kinetic_run")
    parser.add_argument("--backend", default="cuda")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = []
    for preset, steps in CASES:
        cli = min((cli_run(args.kinetic_run, preset, steps, args.backend) for _ in range(args.repeat)), key=lambda r: r[0])
        py = min((python_run(preset, steps, args.backend) for _ in range(args.repeat)), key=lambda r: r[0])
        row = {"preset": preset, "iterations": steps, "device": cli[2], "cli_iterations_s": cli[0], "python_iterations_s": py[0],
               "python_over_cli": py[0] / cli[0], "cli_wall_s": cli[1], "python_wall_s": py[1]}
        rows.append(row)
        print(f"{preset:24} {steps:3} iterations on {cli[2]}: kinetic-run {cli[0]:.3f} s, Python {py[0]:.3f} s "
              f"(ratio {row['python_over_cli']:.3f}); wall {cli[1]:.2f} s vs {py[1]:.2f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"benchmark": "python_vs_cli", "backend": args.backend, "cases": rows}, f, indent=2)


if __name__ == "__main__":
    main()
