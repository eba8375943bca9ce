#!/usr/bin/env bash
# Fresh machine to a full test run: installs the dependencies, then builds and runs the whole
# suite twice, as a normal build and under AddressSanitizer + UndefinedBehaviorSanitizer. The
# asan-ubsan run leaves out the label `rtl` (scripts/rtl-check.sh: Verilator lint, the Verilog
# benches, yosys), which runs no code of ours to sanitize, and the long whole-network comparisons
# of model and RTL (tests/README.md, "What CI runs"); the default run has them. Last, every input
# reader is fuzzed for a fixed number of runs over its seed corpus (scripts/fuzz.sh --ci). After the
# default build's tests, scripts/install-check.sh builds examples/embedding against the installed
# package. Before all that, the sources' layout is checked (scripts/format.sh --check). Each stage prints the
# seconds it took and the CPU seconds its processes used, so CI's time budget can be followed
# stage by stage: on a shared machine the wall time says little, the CPU time divided by the
# cores (2 on CI) is what the stage takes on CI's machine (docs/performance.md, "CI").
set -euo pipefail
cd "$(dirname "$0")/.."

# children_cpu: the CPU seconds (user + system) of every process this script has waited for so
# far. `times` runs in this shell, not in a pipe or $(...), whose subshell would count its own.
times_file="$(mktemp)"
trap 'rm -f "$times_file"' EXIT
children_cpu=0
count_children_cpu() {
  times > "$times_file"
  children_cpu=$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m")
                                printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
}
stage_start=$SECONDS
stage_cpu=0
stage_done() {
  count_children_cpu
  echo "=== $1: $((SECONDS - stage_start)) s, CPU $((children_cpu - stage_cpu)) s" \
       "(total $SECONDS s, CPU $children_cpu s) ==="
  stage_start=$SECONDS
  stage_cpu=$children_cpu
}

./scripts/install-deps.sh
stage_done "install"
# The layout is checked first: it takes a second, and a source that is not formatted fails CI.
./scripts/format.sh --check
stage_done "format check"
jobs="$(nproc)"
# The compiler cache, keyed on paths relative to this checkout, so that a later clone elsewhere
# (CI's) reuses what an earlier build compiled; a new machine starts with an empty cache.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# Warnings are errors in CI, in every preset it builds (scripts/fuzz.sh reads this too).
export ORTHOSIM_WERROR=ON
# The sanitizer build links the default build's verilated blocks and runs its end-to-end test
# executables against its own orthosim (ORTHOSIM_REUSE_FROM, CMakeLists.txt): neither holds code
# the sanitizers would instrument, so compiling them again would only cost time.
declare -A preset_args=([default]="" [asan-ubsan]="-DORTHOSIM_REUSE_FROM=$PWD/build/default")
for preset in default asan-ubsan; do
  echo "=== $preset: configure, build, test ==="
  cmake --preset "$preset" -DORTHOSIM_BUILD_TESTS=ON -DORTHOSIM_WERROR="$ORTHOSIM_WERROR" \
        "${launcher[@]}" ${preset_args[$preset]}
  cmake --build --preset "$preset" -j "$jobs"
  stage_done "$preset build"
  ctest --preset "$preset" -j "$jobs"
  stage_done "$preset tests"
  if [ "$preset" = default ]; then
    # The installed package, used by examples/embedding as a user's own testbench would.
    ./scripts/install-check.sh "build/$preset"
    stage_done "install check"
  fi
done
echo "=== fuzz: every input reader, fixed runs and seed ==="
./scripts/fuzz.sh --ci
stage_done "fuzz"
echo "=== all tests passed (default, asan-ubsan and fuzz) ==="
