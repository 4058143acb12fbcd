"""python -m kinetic_studio: list the methods and presets, describe a method, or run a preset with a
progress bar and save what kinetic-run --out saves. Exit codes as kinetic-run's: 2 bad input,
3 backend unavailable, 4 the run failed."""

import argparse
import json
import sys

import kinetic_studio as ks


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m kinetic_studio",
        description="Run a Kinetic Studio preset from Python (the same engine as kinetic-run and the app).",
        epilog="examples:\n"
               "  python -m kinetic_studio --presets dvm\n"
               "  python -m kinetic_studio dvm/couette-slip --set kn=0.3 --out out/couette\n"
               "exit codes: 0 done, 2 bad input, 3 backend unavailable, 4 the run failed",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("preset", nargs="?", help="a preset file, or the name of a shipped one (dvm/couette-slip)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a parameter (repeatable; the value is read as JSON, else as text)")
    p.add_argument("--backend", default=None, choices=["auto", "cuda", "cpu"], help="default: the preset's, else auto")
    p.add_argument("--steps", type=int, default=None, help="run N iterations (default: to the end condition)")
    p.add_argument("--max-seconds", type=float, default=None, help="pause after S seconds of wall time")
    p.add_argument("--out", default=None, metavar="DIR", help="save the fields, series and summary.json there")
    p.add_argument("--format", default="vti", choices=["vti", "vti-ascii", "csv"], help="the fields' format (default vti)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--methods", action="store_true", help="list the methods and exit")
    p.add_argument("--presets", nargs="?", const="", metavar="METHOD", help="list the shipped presets (of one method) and exit")
    p.add_argument("--describe", metavar="METHOD", help="print a method's parameters, fields and series as JSON and exit")
    p.add_argument("--version", action="version", version=f"kinetic_studio {ks.__version__}")
    return p


def _value(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        if args.methods:
            print("\n".join(ks.methods()))
            return 0
        if args.presets is not None:
            print("\n".join(ks.presets(args.presets or None)))
            return 0
        if args.describe:
            print(json.dumps(ks.describe(args.describe), indent=2))
            return 0
        if not args.preset:
            _parser().error("a preset is needed (or --methods, --presets, --describe)")
        overrides = {}
        for item in args.set:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise ks.BadInput(f"--set {item!r}: expected KEY=VALUE")
            overrides[key] = _value(value)
        sim = ks.Simulation.from_preset(args.preset, backend=args.backend, **overrides)
        progress = not args.quiet
        if args.steps is not None:
            sim.step(args.steps, progress=progress)
        else:
            sim.run(max_seconds=args.max_seconds, progress=progress)
        print(f"{sim.state} after {sim.iteration} iterations (t = {sim.time:.4g} {sim.progress['time_unit']})", file=sys.stderr)
        if args.out:
            sim.save(args.out, format=args.format)
            print(f"outputs written to {args.out}", file=sys.stderr)
        sim.close()
        return 0
    except ks.BadInput as e:
        print(f"python -m kinetic_studio: error: {e}", file=sys.stderr)
        return 2
    except ks.BackendUnavailable as e:
        print(f"python -m kinetic_studio: error: {e}", file=sys.stderr)
        return 3
    except ks.RunFailed as e:
        print(f"python -m kinetic_studio: the run failed: {e}", file=sys.stderr)
        return 4


if __name__ == "__main__":
    sys.exit(main())
