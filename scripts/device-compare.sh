#!/usr/bin/env bash
# On the GPU machine, one call that measures a change against the code before it and checks it: builds
# the tree in BASE (a `git archive` tarball of the code before, carried in an ignored folder such as
# .krbundle/) and each VARIANT tarball (other versions of the change, to tell which part of it gains)
# beside this tree, runs BENCH on each in turn RUNS times with the same arguments, then (--tests)
# this tree's ctest -j16 on the tests matching a regex and (--equality) CUDA ranks against one
# process for the rank_equality.sh cases whose names start with a match (KS_EQUALITY_ONLY).
# Into ${OUT:-out/device}: compare.log (what each step printed), new1.json, base1.json, NAME1.json
# ... (RUNS of each: the device tool brings back 8 files, so RUNS x (2 + variants) <= 5), ctest.log
# (whole), build.log. GoogleTest and CLI11 come from .device/ where the machine lacks them
# (device-check.sh).
# usage: scripts/device-compare.sh --base FILE --bench TARGET [--variant NAME=FILE ...] [--runs 2]
#          [--tests REGEX] [--test-targets T1,T2] [--equality REGEX] [--ctest-seconds 400] [-- BENCH ARGS...]
# e.g. scripts/device-compare.sh --base .krbundle/base.tar --variant held=.krbundle/held.tar --runs 1 \
#        --bench bench_lbm --tests Lbm --test-targets lbm_tests --equality lbm -- --sizes 128 --box-sizes 128
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-out/device}
base='' bench='' runs=2 tests='' test_targets=() equality='' ctest_seconds=400 variants=()
while (($#)); do
  case $1 in
    --base) base=$2; shift 2 ;;
    --variant) variants+=("$2"); shift 2 ;;
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
for v in "${variants[@]}"; do
  [[ $v =~ ^[a-z0-9_]+=.+$ && -f ${v#*=} && ${v%%=*} != base && ${v%%=*} != new ]] ||
    { echo "device-compare.sh: --variant $v: NAME=FILE with NAME in a-z, 0-9 and _ (not base or new) and FILE a tarball that exists" >&2; exit 2; }
done
mkdir -p "$out"
exec > >(tee -a "$out/compare.log") 2>&1
export PATH=/usr/local/cuda/bin:$PATH
[[ -d /usr/include/gtest || ! -d .device/gtest ]] || export GTEST_ROOT=$PWD/.device/gtest
[[ -d /usr/include/CLI || ! -d .device/cli11 ]] || export CMAKE_PREFIX_PATH=$PWD/.device/cli11
cfg=(-DKS_GUI=OFF -DKS_CUDA=ON -DKS_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release -DKS_PYTHON=OFF -DKS_BENCH=ON)
trees=$((2 + ${#variants[@]}))
share=$(($(nproc) / trees > 0 ? $(nproc) / trees : 1))
t0=$(date +%s)
# The other trees: base, then the variants, each built for the benchmark alone in /tmp/ks-NAME.
others=("base=$base" "${variants[@]}")
pids=()
for o in "${others[@]}"; do
  name=${o%%=*} src=/tmp/ks-${o%%=*}
  mkdir -p "$src" && tar -xf "${o#*=}" -C "$src" || exit 1
  (cmake -S "$src" -B "$src-build" "${cfg[@]}" -DKS_TESTS=OFF -DKS_MPI=OFF && cmake --build "$src-build" -j"$share" --target "$bench") \
    >"$out/build-$name.log" 2>&1 &
  pids+=($!)
done
targets=("$bench")
[[ -n $tests ]] && targets+=("${test_targets[@]}")
[[ -n $equality ]] && targets+=(kinetic-run)
with_tests=OFF
[[ -n $tests ]] && with_tests=ON
(cmake -S . -B build-compare "${cfg[@]}" -DKS_TESTS=$with_tests && cmake --build build-compare -j"$share" --target "${targets[@]}") \
  >"$out/build-new.log" 2>&1 & new_build=$!
for i in "${!others[@]}"; do
  name=${others[$i]%%=*}
  wait "${pids[$i]}" || { echo "$name did not build:"; grep -E 'error' "$out/build-$name.log" | head -20; exit 1; }
done
wait $new_build || { echo "this tree did not build:"; grep -E 'error' "$out/build-new.log" | head -20; exit 1; }
cat "$out"/build-*.log >"$out/build.log" && rm "$out"/build-*.log
echo "built in $(($(date +%s) - t0)) s"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for r in $(seq 1 "$runs"); do
  echo "== new $r"
  "build-compare/bench/$bench" "$@" --out "$out/new$r.json"
  for o in "${others[@]}"; do
    name=${o%%=*}
    echo "== $name $r"
    "/tmp/ks-$name-build/bench/$bench" "$@" --out "$out/$name$r.json"
  done
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
