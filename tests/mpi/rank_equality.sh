#!/usr/bin/env bash
# kinetic-run under mpirun on CPU ranks: 1, 2 and 4 ranks write the same fields and series as one
# process, bit for bit (aerosol.coagulation splits the runs, radiation.rmc the ray origins: each run's
# and each cell's random streams are keyed by run and cell, and sums are added in the same order);
# errors end every rank with the usual exit code in bounded time.
# usage: rank_equality.sh KINETIC_RUN MPIEXEC SOURCE_DIR
set -uo pipefail
run=$1 mpiexec=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Root in CI containers, more ranks than cores, shared memory without cross-memory attach, PMIx
# without its shared-memory store (it crashes mpirun in some containers).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none PMIX_MCA_gds=hash OMP_NUM_THREADS=1
# A launcher that cannot start two ranks here (some containers' PMIx) is this machine's, not ours: skip,
# saying why.
if ! timeout 60 "$mpiexec" -np 2 true >"$work/probe.log" 2>&1; then
  echo "SKIPPED: $mpiexec cannot start 2 ranks on this machine:"
  head -5 "$work/probe.log"
  exit 77
fi
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

same_outputs() {  # name, preset, args...
  local name=$1 preset=$2
  shift 2
  "$run" "$src/presets/$preset" "$@" --backend cpu --quiet --out "$work/$name-serial" || { fail "$name: one process exited $?"; return; }
  for n in 1 2 4; do
    timeout 300 "$mpiexec" -np $n "$run" "$src/presets/$preset" "$@" --backend cpu --out "$work/$name-$n" 2>"$work/$name-$n.err" ||
      { fail "$name: $n ranks exited $?"; cat "$work/$name-$n.err"; continue; }
    for f in "$work/$name-serial"/*.csv; do
      cmp -s "$f" "$work/$name-$n/$(basename "$f")" || fail "$name: $(basename "$f") of $n ranks differs from one process"
    done
    grep -q "\"count\": $n" "$work/$name-$n/summary.json" || fail "$name: summary.json does not say $n ranks"
    [[ $n == 1 ]] || grep -q "rank $((n - 1)) of $n: " "$work/$name-$n.err" || fail "$name: rank $((n - 1)) did not say where it runs"
  done
  echo "$name: 1, 2 and 4 ranks equal one process ($(ls "$work/$name-serial"/*.csv | wc -l) files)"
}

exits_with() {  # expected code, what, mpiexec args...
  local want=$1 what=$2
  shift 2
  local start=$SECONDS
  timeout 120 "$mpiexec" "$@" >"$work/exit.log" 2>&1
  local got=$?
  [[ $got == "$want" ]] || { fail "$what: exit $got, expected $want"; tail -5 "$work/exit.log"; }
  echo "$what: exit $got in $((SECONDS - start)) s"
}

same_outputs coagulation coagulation/table1-free-molecular.json --steps 6 --set n_runs=8 --set n_s=400
same_outputs radiation radiation/case03-grey-cube-sin.json --steps 3 --set nx=12 --set rays_per_batch=20

coag=("$src/presets/coagulation/table1-free-molecular.json" --backend cpu --steps 2 --set n_s=100)
exits_with 2 "fewer runs than ranks (refused by every rank's set-up)" -np 4 "$run" "${coag[@]}" --set n_runs=3
exits_with 2 "an output directory rank 0 cannot write" -np 2 "$run" "${coag[@]}" --out /proc/not-a-dir
exits_with 2 "a method that does not split its work" -np 2 "$run" "$src/presets/dvm/couette-slip.json" --backend cpu --steps 1
exits_with 2 "checkpoints across ranks" -np 2 "$run" "${coag[@]}" --checkpoint "$work/c.ckpt"

((failures == 0)) || { echo "$failures failures"; exit 1; }
