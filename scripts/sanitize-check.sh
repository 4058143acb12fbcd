#!/usr/bin/env bash
# AddressSanitizer + UBSan (`cmake --preset asan`, CPU only): builds the engine, kinetic-run and
# two test programs and runs them. The subset, chosen to fit CI's time: core_tests (parameters,
# presets, the Runner, checkpoints, kinetic-run end to end) and fuzz_tests (the crafted-input
# corpus of tests/fuzz, which also runs each of the five methods for a few iterations). The
# methods' validation suites are not run here: at -O1 under ASan they take hours.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$(nproc)"
# A finding aborts the process: the fuzz driver sees a crash, gtest a failed test.
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
build-asan/tests/core_tests --gtest_brief=1
build-asan/tests/fuzz_tests --gtest_brief=1
