#!/usr/bin/env bash
# kinetic-run under mpirun on CPU ranks: 1, 2 and 4 ranks write the same fields and series as one
# process, bit for bit (aerosol.coagulation splits the runs, radiation.rmc the ray origins: each run's
# and each cell's random streams are keyed by run and cell, and sums are added in the same order;
# lbm.binary cuts the lattice into z slabs and kinetic.bgk its grid into strips: every node or cell
# is updated from the same values by the same arithmetic) or
# within rounding (kinetic.dvm splits the velocities: the moments are sums across ranks);
# errors end every rank with the usual exit code in bounded time.
# usage: rank_equality.sh KINETIC_RUN MPIEXEC SOURCE_DIR [cpu|cuda]
#   KS_EQUALITY_ONLY=REGEX: only the cases before the error cases whose names start with a match (e.g.
#   'radiation|lbm-fused' takes radiation, lbm-fused, lbm-fused-fp16, lbm-fused-tube, lbm-fused-periodic
#   (-fp16) and lbm-fused's restart); the error, restart and output cases after them are left out.
#   cuda: the equalities, restarts and pieces on CUDA ranks (a card per rank where the node has as
#   many; on the GPU machine, not in CI); the error and signal cases stay on the CPU.
set -uo pipefail
run=$1 mpiexec=$2 src=$3 backend=${4:-cpu}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Root in CI containers, more ranks than cores, shared memory without cross-memory attach, PMIx
# without its shared-memory store and with its plain node-list encoding (Ubuntu 24.04's PMIx 5.0.1
# segfaults in mpirun otherwise on some machines).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none PMIX_MCA_gds=hash PMIX_MCA_preg=native OMP_NUM_THREADS=1
# A launcher that cannot start two ranks here (some containers' PMIx) is this machine's, not ours: skip,
# saying why.
if ! timeout 60 "$mpiexec" -np 2 true >"$work/probe.log" 2>&1; then
  echo "SKIPPED: $mpiexec cannot start 2 ranks on this machine:"
  head -5 "$work/probe.log"
  exit 77
fi
failures=0 checked=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# Whether case $1 is one KS_EQUALITY_ONLY asks for (all when it is empty); counts the ones taken.
wanted() {
  [[ -z ${KS_EQUALITY_ONLY:-} || $1 =~ ^($KS_EQUALITY_ONLY) ]] || return 1
  checked=$((checked + 1))
}

# Every number of file $2 within $3 times the largest magnitude in file $1 of the number in its
# place (the same lines and columns; text equal).
close_to() {
  awk -F, -v tol="$3" '
    function mag(x) { return x < 0 ? -x : x }
    NR == FNR { for (i = 1; i <= NF; ++i) { a[FNR, i] = $i; if ($i + 0 == $i && mag($i) > m) m = mag($i) } n = FNR; next }
    { for (i = 1; i <= NF; ++i) if (a[FNR, i] + 0 == a[FNR, i] ? mag(a[FNR, i] - $i) > tol * m : a[FNR, i] != $i) bad++ }
    END { exit (bad > 0 || FNR != n) }' "$1" "$2"
}

same_outputs() {  # name, tolerance (0: bit for bit), preset, args...
  local name=$1 tol=$2 preset=$3
  shift 3
  wanted "$name" || return 0
  "$run" "$src/presets/$preset" "$@" --backend "$backend" --quiet --out "$work/$name-serial" || { fail "$name: one process exited $?"; return; }
  for n in 1 2 4; do
    timeout 300 "$mpiexec" -np $n "$run" "$src/presets/$preset" "$@" --backend "$backend" --out "$work/$name-$n" 2>"$work/$name-$n.err" ||
      { fail "$name: $n ranks exited $?"; cat "$work/$name-$n.err"; continue; }
    for f in "$work/$name-serial"/*.csv; do
      if [[ $tol == 0 ]]; then
        cmp -s "$f" "$work/$name-$n/$(basename "$f")" || fail "$name: $(basename "$f") of $n ranks differs from one process"
      else
        close_to "$f" "$work/$name-$n/$(basename "$f")" "$tol" || fail "$name: $(basename "$f") of $n ranks differs from one process by more than $tol"
      fi
    done
    grep -q "\"count\": $n" "$work/$name-$n/summary.json" || fail "$name: summary.json does not say $n ranks"
    [[ $n == 1 ]] || grep -q "rank $((n - 1)) of $n: " "$work/$name-$n.err" || fail "$name: rank $((n - 1)) did not say where it runs"
  done
  echo "$name: 1, 2 and 4 ranks equal one process ($(ls "$work/$name-serial"/*.csv | wc -l) files, $([[ $tol == 0 ]] && echo "bit for bit" || echo "within $tol of each file's largest value"))"
}

# 3 steps on 2 ranks, a checkpoint (one part per rank), 3 more steps from it on 2 ranks: the files of
# one process's 6 steps (same_outputs NAME ran them), bit for bit; a restart on 4 ranks is refused.
# With REFERENCE=2 (sums that round differently on ranks than in one process): against same_outputs'
# run on 2 ranks; HALF=2: 2 and 2 steps (the DVM's 4).
restarts_exactly() {  # name, preset, args...
  local name=$1 preset=$2 half=${HALF:-3} reference=${REFERENCE:-serial}
  shift 2
  wanted "$name" || return 0
  "$mpiexec" -np 2 "$run" "$src/presets/$preset" "$@" --backend "$backend" --quiet --steps $half --checkpoint "$work/$name.ckpt" ||
    { fail "$name: the run to the checkpoint exited $?"; return; }
  [[ -f $work/$name.ckpt && -f $work/$name.ckpt.rank1 ]] || fail "$name: no checkpoint part of each rank"
  "$mpiexec" -np 2 "$run" "$src/presets/$preset" "$@" --backend "$backend" --quiet --steps $half --restart "$work/$name.ckpt" --out "$work/$name-restarted" ||
    { fail "$name: the restart exited $?"; return; }
  for f in "$work/$name-$reference"/*.csv; do
    cmp -s "$f" "$work/$name-restarted/$(basename "$f")" || fail "$name: $(basename "$f") after the restart differs from the uninterrupted run ($reference)"
  done
  echo "$name: $half steps, a checkpoint and $half more on 2 ranks equal $((2 * half)) uninterrupted steps ($([[ $reference == 2 ]] && echo "on 2 ranks" || echo "one process"))"
  exits_with 2 "$name: a restart on 4 ranks of a 2-rank checkpoint" -np 4 "$run" "$src/presets/$preset" "$@" --backend "$backend" --steps 1 --restart "$work/$name.ckpt"
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

# A checkpoint set whose parts hold different states (a job killed while it wrote one; here rank 1's
# part copied from an earlier checkpoint): refused by every rank, naming the part, not run on.
refuses_a_mixed_set() {
  local c=("$src/presets/coagulation/table1-free-molecular.json" --backend cpu --set n_s=100 --set n_runs=8 --quiet)
  "$mpiexec" -np 2 "$run" "${c[@]}" --steps 1 --checkpoint "$work/mixed-a.ckpt" || { fail "mixed set: the first run exited $?"; return; }
  "$mpiexec" -np 2 "$run" "${c[@]}" --steps 2 --checkpoint "$work/mixed-b.ckpt" || { fail "mixed set: the second run exited $?"; return; }
  [[ -f $work/mixed-b.ckpt.manifest ]] || fail "mixed set: no manifest beside the checkpoint"
  cp "$work/mixed-a.ckpt.rank1" "$work/mixed-b.ckpt.rank1"
  exits_with 2 "a checkpoint set of two states (rank 1's part from an earlier checkpoint)" -np 2 "$run" "${c[@]}" --steps 1 --restart "$work/mixed-b.ckpt"
  grep -q "mixed-b.ckpt.rank1: the part is of iteration 1" "$work/exit.log" || { fail "mixed set: the message does not name rank 1's part"; tail -3 "$work/exit.log"; }
}

# SIGTERM to rank 1 alone: every rank stops after the same iteration (the collective stop), rank 0
# still writes the outputs, and the job exits 143 without waiting for the end condition.
stops_together() {
  "$mpiexec" -np 2 "$run" "$src/presets/coagulation/table1-free-molecular.json" --set n_runs=4 --set n_s=3000 --backend cpu \
    --out "$work/term" >"$work/term.log" 2>&1 &
  local job=$! start=$SECONDS
  sleep 4
  local sent=0
  for p in $(pgrep -f "kinetic-run .*$work/term"); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then kill -TERM "$p" && sent=1; fi
  done
  ((sent)) || fail "SIGTERM: rank 1's process was not found"
  local deadline=$((SECONDS + 60))
  while kill -0 $job 2>/dev/null && ((SECONDS < deadline)); do sleep 1; done
  if kill -0 $job 2>/dev/null; then
    fail "SIGTERM to rank 1: the job still runs 60 s later"
    pkill -KILL -f "kinetic-run .*$work/term"
  fi
  wait $job
  local got=$?
  [[ $got == 143 ]] || { fail "SIGTERM to rank 1: exit $got, expected 143"; tail -5 "$work/term.log"; }
  grep -q '"stop_reason": "stopped with another rank' "$work/term/summary.json" 2>/dev/null ||
    fail "SIGTERM to rank 1: rank 0's summary.json does not say it stopped with another rank"
  echo "SIGTERM to rank 1: both ranks stopped, exit $got in $((SECONDS - start)) s"
}

# --pieces: each rank writes its slab of every field (NAME_rR.vti) and rank 0 NAME.pvti over them;
# the pieces' values in rank order are the one process's .vti values, and the series are its too.
writes_pieces() {  # preset, args...
  local preset=$1
  shift
  "$run" "$src/presets/$preset" "$@" --backend "$backend" --quiet --format vti --out "$work/pieces-serial" || { fail "pieces: one process exited $?"; return; }
  values() { sed -n '/<DataArray/,/<\/DataArray>/p' "$@" | grep -v DataArray | tr -s ' ' '\n' | grep -v '^$'; }
  for n in 2 4; do
    timeout 300 "$mpiexec" -np $n "$run" "$src/presets/$preset" "$@" --backend "$backend" --quiet --format vti --pieces --out "$work/pieces-$n" ||
      { fail "pieces: $n ranks exited $?"; continue; }
    for whole in "$work/pieces-serial"/*.vti; do
      local name; name=$(basename "$whole" .vti)
      [[ $(grep -c '<Piece Extent' "$work/pieces-$n/$name.pvti" 2>/dev/null) == "$n" ]] || fail "pieces: $name.pvti of $n ranks does not list $n pieces"
      local parts=()
      for ((r = 0; r < n; ++r)); do parts+=("$work/pieces-$n/${name}_r$r.vti"); done
      cmp -s <(values "$whole") <(values "${parts[@]}") || fail "pieces: the values of ${name}'s $n pieces differ from one process's $name.vti"
    done
    for f in "$work/pieces-serial"/*.csv; do
      cmp -s "$f" "$work/pieces-$n/$(basename "$f")" || fail "pieces: $(basename "$f") of $n ranks differs from one process"
    done
  done
  echo "pieces: 2 and 4 ranks' .vti pieces hold one process's field values in order ($(ls "$work/pieces-serial"/*.vti | wc -l) fields), the series equal"
}

# --pieces --format vtkhdf: every rank writes its cells into the one NAME.hdf (parallel HDF5; the
# lattice's z slabs), or rank 0 the fields it gathered (radiation's); read by VTK's vtkHDFReader, it
# holds one process's .vti (tests/vtkhdf/same_as_vti.py). Skipped, saying
# why, where kinetic-run has no parallel HDF5 or no python3 has VTK's modules.
writes_vtkhdf() {  # preset, args...
  local preset=$1 tag
  tag=vtkhdf-$(basename "$preset" .json)
  shift
  local python
  python=$(bash "$src/tests/vtkhdf/vtk_python.sh")
  if [[ -z $python ]] || ! "$run" --version --format vtkhdf >/dev/null 2>&1; then
    echo "vtkhdf: SKIPPED (no python3 with VTK's modules, or kinetic-run without --format vtkhdf)"
    return
  fi
  "$run" "$src/presets/$preset" "$@" --backend "$backend" --quiet --format vti --out "$work/$tag-serial" || { fail "vtkhdf: one process exited $?"; return; }
  for n in 1 2 4; do
    timeout 300 "$mpiexec" -np $n "$run" "$src/presets/$preset" "$@" --backend "$backend" --quiet --format vtkhdf --pieces \
      --out "$work/$tag-$n" 2>"$work/$tag-$n.err" || { fail "vtkhdf: $n ranks exited $?"; cat "$work/$tag-$n.err"; continue; }
    "$python" "$src/tests/vtkhdf/same_as_vti.py" "$work/$tag-serial" "$work/$tag-$n" >"$work/$tag-$n.log" ||
      { fail "vtkhdf: the .hdf of $n ranks differs from one process's .vti"; cat "$work/$tag-$n.log"; }
    ls "$work/$tag-$n"/*_r*.vti >/dev/null 2>&1 && fail "vtkhdf: $n ranks wrote .vti pieces beside the .hdf"
    [[ ! -e $work/$tag-serial/fields.pvd || -s $work/$tag-$n/fields.hdf.series ]] || fail "vtkhdf: $n ranks wrote no fields.hdf.series"
  done
  echo "vtkhdf ($tag): 1, 2 and 4 ranks write one .hdf per field that VTK reads as one process's .vti ($(ls "$work/$tag-serial"/*.vti | wc -l) files)"
}

# Open MPI's cluster launch style: a hostfile with a line a node and its slots (here this node's).
launches_with_a_hostfile() {  # preset, args...
  local preset=$1
  shift
  echo "localhost slots=4" >"$work/hosts"
  "$run" "$src/presets/$preset" "$@" --backend "$backend" --quiet --out "$work/hostfile-serial" || { fail "hostfile: one process exited $?"; return; }
  timeout 300 "$mpiexec" --hostfile "$work/hosts" -np 4 "$run" "$src/presets/$preset" "$@" --backend "$backend" --quiet \
    --out "$work/hostfile-4" 2>"$work/hostfile.err" || { fail "hostfile: 4 ranks exited $?"; cat "$work/hostfile.err"; return; }
  for f in "$work/hostfile-serial"/*.csv; do
    cmp -s "$f" "$work/hostfile-4/$(basename "$f")" || fail "hostfile: $(basename "$f") of 4 ranks differs from one process"
  done
  grep -q '"count": 4' "$work/hostfile-4/summary.json" || fail "hostfile: summary.json does not say 4 ranks"
  echo "hostfile: 4 ranks launched from a hostfile write one process's files"
}

same_outputs coagulation 0 coagulation/table1-free-molecular.json --steps 6 --set n_runs=8 --set n_s=400
# On CUDA one process adds its convergence series on the device (a sum per block, in block order);
# ranks add them on the host, cell by cell: rounding apart, the same. The fields are bit for bit.
rmc_tol=0 rmc_reference=serial
[[ $backend == cuda ]] && rmc_tol=1e-12 rmc_reference=2
same_outputs radiation $rmc_tol radiation/case03-grey-cube-sin.json --steps 6 --set nx=12 --set rays_per_batch=20 --set rays_per_cell=120
# The moments are sums over every rank's velocities, added in another order: rounding apart, the same.
same_outputs dvm 1e-12 dvm/teaching-cavity.json --steps 4 --set nx=8 --set ny=8 --set nz=8 --set nv=16
# The paper's kernels here, the fused step below (on the CPU both run the paper's sequence).
lbm_bed=(--set sphere_count=100 --set nz=48 --set steps_per_iteration=5 --set gpu_step=paper)
# The shock at a Courant number of 1.8 exchanges halos of 2 cells; the cavity, rows.
same_outputs bgk-shock 0 bgk/teaching-shock.json --steps 4 --set courant=0 --set dt=0.15
bgk_cavity=(--set nx=16 --set ny=16 --set nv=8)
same_outputs bgk-cavity 0 bgk/teaching-cavity.json --steps 6 "${bgk_cavity[@]}"
# Strips of one to three rows (on CUDA the edge rows then meet and step as one range), unsplit streaming.
same_outputs bgk-cavity-thin 0 bgk/teaching-cavity.json --steps 3 --set nx=16 --set ny=6 --set nv=8 --set streaming=unsplit
same_outputs lbm 0 lbm/teaching-packed-bed.json --steps 6 "${lbm_bed[@]}"
# The all-fluid periodic box (the CPU's and the paper's kernels here; the fused step on CUDA ranks below).
lbm_box=(--set geometry=periodic --set wave_amplitude=0.1 --set uz=0.05 --set ux=0.02 --set nx=8 --set ny=8 --set nz=16
  --set steps_per_iteration=5)
same_outputs lbm-periodic 0 lbm/tube-simple-bounce-back.json --steps 3 "${lbm_box[@]}" --set gpu_step=paper
if [[ $backend == cuda ]]; then
  # Each rank's fused step pulls its end planes from the halo rows its neighbours sent: the same bits
  # as one process's fused step, with the bed's wall links, in FP16, and with the tube's pressure planes.
  lbm_fused=(--set sphere_count=100 --set nz=48 --set steps_per_iteration=5 --set gpu_step=fused)
  same_outputs lbm-fused 0 lbm/teaching-packed-bed.json --steps 6 "${lbm_fused[@]}"
  same_outputs lbm-fused-fp16 0 lbm/teaching-packed-bed.json --steps 6 "${lbm_fused[@]}" --set precision=fp16
  same_outputs lbm-fused-tube 0 lbm/tube-simple-bounce-back.json --steps 3 --set nx=12 --set ny=12 --set nz=24 \
    --set steps_per_iteration=5 --set gpu_step=fused
  # The box's fused step reads no table (pull_all_fluid), in FP32 and FP16.
  same_outputs lbm-fused-periodic 0 lbm/tube-simple-bounce-back.json --steps 3 "${lbm_box[@]}" --set gpu_step=fused
  same_outputs lbm-fused-periodic-fp16 0 lbm/tube-simple-bounce-back.json --steps 3 "${lbm_box[@]}" --set gpu_step=fused --set precision=fp16
  restarts_exactly lbm-fused lbm/teaching-packed-bed.json "${lbm_fused[@]}"
  # A cavity large enough that the GPU's tiles split each v_x slice's velocities into parts: every
  # rank splits them as one process does (by the whole grid), so its moments add in the same order.
  same_outputs bgk-cavity-parts 0 bgk/cavity-delta-1.json --steps 2 --set nx=160 --set ny=160 --set steps_per_iteration=3
  # The dvm's sums over the ranks through the host, where GPUs cannot reach each other's memory.
  KS_SUMS_THROUGH_HOST=1 same_outputs dvm-host-sums 1e-12 dvm/teaching-cavity.json --steps 4 --set nx=8 --set ny=8 --set nz=8 --set nv=16
fi

if [[ -n ${KS_EQUALITY_ONLY:-} ]]; then
  ((checked > 0)) || fail "KS_EQUALITY_ONLY='$KS_EQUALITY_ONLY' names none of the cases"
  ((failures == 0)) || { echo "$failures failures"; exit 1; }
  exit 0
fi

coag=("$src/presets/coagulation/table1-free-molecular.json" --backend cpu --steps 2 --set n_s=100)
exits_with 2 "fewer runs than ranks (refused by every rank's set-up)" -np 4 "$run" "${coag[@]}" --set n_runs=3
exits_with 2 "an output directory rank 0 cannot write" -np 2 "$run" "${coag[@]}" --out /proc/not-a-dir
exits_with 4 "a state that turns NaN (lbm.binary; every rank sees the lattice's momentum)" -np 2 "$run" "$src/presets/lbm/tube-simple-bounce-back.json" \
  --backend cpu --steps 20 --set nx=12 --set ny=12 --set nz=24 --set viscosity=0.002 --set d_ab=0.01 --set pressure_ratio=0.5 --set steps_per_iteration=20
exits_with 2 "a cavity of fewer rows than ranks" -np 5 "$run" "$src/presets/bgk/teaching-cavity.json" --backend cpu --steps 1 --set ny=4 --set nv=8
restarts_exactly coagulation coagulation/table1-free-molecular.json --set n_runs=8 --set n_s=400
REFERENCE=$rmc_reference restarts_exactly radiation radiation/case03-grey-cube-sin.json --set nx=12 --set rays_per_batch=20 --set rays_per_cell=120
restarts_exactly lbm lbm/teaching-packed-bed.json "${lbm_bed[@]}"
writes_pieces lbm/tube-simple-bounce-back.json --steps 2 --set nx=12 --set ny=12 --set nz=24 --set steps_per_iteration=5 --set gpu_step=paper
writes_vtkhdf lbm/tube-simple-bounce-back.json --steps 2 --set nx=12 --set ny=12 --set nz=24 --set steps_per_iteration=5 --set gpu_step=paper --output-every 1
writes_vtkhdf radiation/case03-grey-cube-sin.json --steps 2 --set nx=12 --set rays_per_batch=20 --set rays_per_cell=120
restarts_exactly bgk-cavity bgk/teaching-cavity.json "${bgk_cavity[@]}"
refuses_a_mixed_set
REFERENCE=2 HALF=2 restarts_exactly dvm dvm/teaching-cavity.json --set nx=8 --set ny=8 --set nz=8 --set nv=16
stops_together
launches_with_a_hostfile coagulation/table1-free-molecular.json --steps 4 --set n_runs=8 --set n_s=400

((failures == 0)) || { echo "$failures failures"; exit 1; }
