#!/usr/bin/env bash
# Line and branch coverage of the suite (tests/README.md): builds the `coverage` preset (gcc
# --coverage) in build/coverage, runs the suite there (the label `rtl` aside: scripts/rtl-check.sh
# runs no C++ of ours) and prints, with gcovr, the line and branch figures of every source folder
# and the files below 80% of their lines. build/coverage/html/index.html shows, line by line, what
# no test reaches. Not part of CI: a full build and suite run with instrumentation take long.
#
# Arguments go to the configure step, e.g. scripts/coverage.sh -DCMAKE_CXX_COMPILER_LAUNCHER=ccache.
# JOBS (default: nproc) sets the build and test parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh

# gcovr is needed here only, not to build or test: installed the way install-deps.sh does.
if ! command -v gcovr >/dev/null; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  echo "installing: gcovr"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends gcovr
fi

jobs="${JOBS:-$(nproc)}"
build=build/coverage
cmake --preset coverage "$@"
cmake --build --preset coverage -j "$jobs"
# Counts from an earlier run would add up with this one's.
find "$build" -name '*.gcda' -delete
ctest --preset coverage -j "$jobs" || echo "coverage: some tests failed; the figures count what ran"

# Our sources only: not the tests, not the Verilator output under build/. Branches that only
# throw, and those the compiler proves unreachable, are left out: every call that may throw
# would otherwise count an untaken branch. gcovr finds where each object was compiled by walking
# up from its counts (a compiler cache may have made the source paths relative to that folder).
mkdir -p "$build/html"
gcovr --root . "$build" --exclude-directories '.*orthosim_rtl_verilated.*' \
  --filter 'app/' --filter 'sw/' --filter 'sc_models/' --filter 'traces/' --filter 'rtl/bridge/' \
  --exclude-throw-branches --exclude-unreachable-branches \
  --json-summary "$build/coverage.json" --html-details "$build/html/index.html" >/dev/null

python3 - "$build/coverage.json" <<'EOF'
import json
import os
import sys

files = json.load(open(sys.argv[1]))["files"]
folders = {}
for f in files:
    folder = folders.setdefault(os.path.dirname(f["filename"]), [0, 0, 0, 0])
    for i, key in enumerate(("line_covered", "line_total", "branch_covered", "branch_total")):
        folder[i] += f[key]


def percent(covered, total):
    return f"{100.0 * covered / total:5.1f}%" if total else "    -"


print(f"{'folder':<24} {'lines':>16} {'':>6} {'branches':>16} {'':>6}")
totals = [0, 0, 0, 0]
for name in sorted(folders):
    lc, lt, bc, bt = folders[name]
    totals = [a + b for a, b in zip(totals, folders[name])]
    print(f"{name:<24} {lc:>7} of {lt:<6} {percent(lc, lt)} {bc:>7} of {bt:<6} {percent(bc, bt)}")
lc, lt, bc, bt = totals
print(f"{'total':<24} {lc:>7} of {lt:<6} {percent(lc, lt)} {bc:>7} of {bt:<6} {percent(bc, bt)}")
print("\nfiles below 80% of their lines:")
for f in sorted(files, key=lambda f: f["filename"]):
    if f["line_total"] and f["line_covered"] < 0.8 * f["line_total"]:
        print(f"  {f['filename']:<44} {percent(f['line_covered'], f['line_total'])}")
EOF
echo "line by line: $build/html/index.html"
