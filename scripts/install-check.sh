#!/usr/bin/env bash
# Checks the installed package as a user of the library meets it (docs/library.md): installs a
# built tree into a temporary prefix, then configures, builds and runs examples/embedding against
# that prefix alone. The example must get the cycles the installed `orthosim run` prints for the
# same program on the omp and on the 4x4 torus, with every message delivered intact.
#
#   scripts/install-check.sh [BUILD_DIR]    (default build/default, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/default}"
[ -d "$build" ] || { echo "scripts/install-check.sh: no build folder '$build'" >&2; exit 2; }

prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > "$prefix.log" || { cat "$prefix.log" >&2; exit 1; }
rm -f "$prefix.log"

completion="$prefix/share/bash-completion/completions/orthosim"
[ -s "$completion" ] || { echo "install check: no bash completion at $completion" >&2; exit 1; }

program=examples/fig2_sample.mcp
total_cycles() {  # the total_cycles line of `orthosim run ... --json`
  "$prefix/bin/orthosim" run "$program" "$@" --json | sed -n 's/^  "total_cycles": \([0-9]*\),\{0,1\}$/\1/p'
}
omp_cycles="$(total_cycles --arch omp --n 4)"
torus_cycles="$(total_cycles --arch torus --dims 4x4)"

launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S examples/embedding -B "$prefix/embedding" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" > /dev/null
cmake --build "$prefix/embedding" -j "$(nproc)" > /dev/null
"$prefix/embedding/embedding" "$program" "$omp_cycles" "$torus_cycles"
echo "install check: ok (the installed package, examples/embedding against it)"
