#!/usr/bin/env bash
# On the GPU machine, one call that measures a change against the code before it and checks it: builds
# the tree in BASE (a `git archive` tarball of the code before, carried in an ignored folder such as
# .krbundle/) beside this tree, runs BENCH on each in turn RUNS times with the same arguments, then
# (--tests) this tree's ctest -j16 on the tests matching a regex and (--equality) CUDA ranks against
# one process for the rank_equality.sh cases whose names start with a match (KS_EQUALITY_ONLY).
# Into ${OUT:-out/device}: compare.log (what each step printed), new1.json, base1.json, ... (RUNS of
# each: keep RUNS <= 2, as the device tool brings back 8 files), ctest.log (whole), build.log.
# usage: scripts/device-compare.sh --base FILE --bench TARGET [--runs 2] [--tests REGEX]
#          [--test-targets T1,T2] [--equality REGEX] [--ctest-seconds 400] [-- BENCH ARGS...]
# e.g. scripts/device-compare.sh --base .krbundle/base.tar --bench bench_lbm --tests Lbm \
#        --test-targets lbm_tests --equality lbm -- --sizes 128 --box-sizes 128 --seconds 1 --cpu-max-nodes 0
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-out/device}
base='' bench='' runs=2 tests='' test_targets=() equality='' ctest_seconds=400
while (($#)); do
  case $1 in
    --base) base=$2; shift 2 ;;
    --bench) bench=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    --test-targets) IFS=, read -ra test_targets <<<"$2"; shift 2 ;;
    --equality) equality=$2; shift 2 ;;
    --ctest-seconds) ctest_seconds=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "device-compare.sh: unknown option $1 (see the usage at the top of the script)" >&2; exit 2 ;;
  esac
done
[[ -n $base && -f $base && -n $bench ]] || { echo "device-compare.sh: --base FILE (a tarball that exists) and --bench TARGET are needed" >&2; exit 2; }
mkdir -p "$out"
exec > >(tee -a "$out/compare.log") 2>&1
export PATH=/usr/local/cuda/bin:$PATH
cfg=(-DKS_GUI=OFF -DKS_CUDA=ON -DKS_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DKS_PYTHON=OFF -DKS_BENCH=ON)
half=$(($(nproc) / 2))
t0=$(date +%s)
mkdir -p /tmp/ks-base && tar -xf "$base" -C /tmp/ks-base || exit 1
targets=("$bench")
[[ -n $tests ]] && targets+=("${test_targets[@]}")
[[ -n $equality ]] && targets+=(kinetic-run)
(cmake -S /tmp/ks-base -B /tmp/ks-base-build "${cfg[@]}" -DKS_TESTS=OFF -DKS_MPI=OFF && cmake --build /tmp/ks-base-build -j"$half" --target "$bench") \
  >"$out/build.log" 2>&1 & base_build=$!
with_tests=OFF
[[ -n $tests ]] && with_tests=ON
(cmake -S . -B build-compare "${cfg[@]}" -DKS_TESTS=$with_tests && cmake --build build-compare -j"$half" --target "${targets[@]}") \
  >"$out/build-new.log" 2>&1 & new_build=$!
wait $base_build || { echo "the base did not build:"; grep -E 'error' "$out/build.log" | head -20; exit 1; }
wait $new_build || { echo "this tree did not build:"; grep -E 'error' "$out/build-new.log" | head -20; exit 1; }
cat "$out/build-new.log" >>"$out/build.log" && rm "$out/build-new.log"
echo "built in $(($(date +%s) - t0)) s"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for r in $(seq 1 "$runs"); do
  echo "== new $r"
  "build-compare/bench/$bench" "$@" --out "$out/new$r.json"
  echo "== base $r"
  "/tmp/ks-base-build/bench/$bench" "$@" --out "$out/base$r.json"
done
echo "benchmarks done at $(($(date +%s) - t0)) s"
status=0
if [[ -n $equality ]]; then
  echo "== rank equality ($equality)"
  KS_EQUALITY_ONLY=$equality timeout 600 bash tests/mpi/rank_equality.sh "$PWD/build-compare/app/cli/kinetic-run" "$(command -v mpirun)" "$PWD" cuda || status=1
fi
if [[ -n $tests ]]; then
  echo "== ctest -R '$tests'"
  (cd build-compare && KS_DATA_DIR=$OLDPWD timeout "$ctest_seconds" ctest -j16 --timeout "$ctest_seconds" -R "$tests" >"$out/ctest.log" 2>&1) || status=1
  grep -E 'tests passed|Total Test|\*\*\*|Failed' "$out/ctest.log"
fi
echo "done in $(($(date +%s) - t0)) s"
exit $status
