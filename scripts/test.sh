#!/usr/bin/env bash
# Fresh machine to a full test run: installs the dependencies, then builds and runs the whole
# suite twice, as a normal build and under AddressSanitizer + UndefinedBehaviorSanitizer. The
# asan-ubsan run leaves out the label `rtl` (scripts/rtl-check.sh: Verilator lint, the Verilog
# benches, yosys), which runs no code of ours to sanitize; the default run has it. Last, every
# input reader is fuzzed for a fixed number of runs over its seed corpus (scripts/fuzz.sh --ci).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs="$(nproc)"
for preset in default asan-ubsan; do
  echo "=== $preset: configure, build, test ==="
  cmake --preset "$preset" -DORTHOSIM_BUILD_TESTS=ON
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
done
echo "=== fuzz: every input reader, fixed runs and seed ==="
./scripts/fuzz.sh --ci
echo "=== all tests passed (default, asan-ubsan and fuzz) ==="
