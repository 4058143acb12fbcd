#!/usr/bin/env bash
# Runs the aerosol.coagulation validation cases with kinetic-run and prints the numbers the
# method README quotes (eq. 13 errors, final sigma_g, reference errors). Needs a built kinetic-run.
# usage: scripts/coagulation-validation.sh BUILD_DIR OUT_DIR [backend]
set -euo pipefail
build=$1 out=$2 backend=${3:-auto}
run=("$build/app/cli/kinetic-run" --quiet --backend "$backend")
p=presets/coagulation
report() {  # name, summary.json
  python3 - "$1" "$2" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
s = json.load(open(path))
d = s["diagnostics"]
sg = next(x for x in s["series"] if x["name"] == "sigma_g")
ref = s.get("reference", {})
print(f"{name:34s} {s['backend']['device'][:24]:24s} wall {s['wall_time_s']:8.2f} s  sigma_g(end) {sg['y'][-1]:.4f}"
      f"  eq13 d_g {d.get('eq13_mean_error_d_g', float('nan')):.4f}  eq13 sigma_g {d.get('eq13_mean_error_sigma_g', float('nan')):.4f}"
      f"  ref err {ref.get('mean_relative_error', float('nan')):.4f}  volume drift {d['volume_fraction_relative_change']:.1e}")
PY
}
"${run[@]}" $p/table1-free-molecular.json --out "$out/table1" && report "Table 1 (n_s 2000, n_r 100)" "$out/table1/summary.json"
for ns in 1000 12000; do
  "${run[@]}" $p/table1-free-molecular.json --set n_s=$ns --set n_runs=10 --out "$out/fig6-$ns" &&
    report "Fig. 6 n_s $ns, n_r 10" "$out/fig6-$ns/summary.json"
done
"${run[@]}" $p/constant-kernel.json --out "$out/constant" && report "constant kernel" "$out/constant/summary.json"
"${run[@]}" $p/additive-kernel.json --out "$out/additive" && report "additive kernel" "$out/additive/summary.json"
