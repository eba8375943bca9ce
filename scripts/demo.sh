#!/usr/bin/env bash
# Fresh machine to `orthosim demo`: installs the dependencies, builds, runs the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset default -DORTHOSIM_BUILD_TESTS=OFF -DORTHOSIM_BUILD_BENCH=OFF
cmake --build --preset default -j "$(nproc)" --target orthosim
./build/default/app/orthosim demo "$@"
