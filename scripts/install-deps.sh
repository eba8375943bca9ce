#!/usr/bin/env bash
# Installs the Debian 12 packages orthosim needs to build, test and view waveforms. The one list
# of dependencies; the demo and test scripts and CI call it.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  ccache                         # compiler cache: scripts/test.sh rebuilds only what changed
  libsystemc-dev                 # SystemC 2.3.4 kernel
  verilator                      # RTL blocks verilated into SystemC (rtl/)
  iverilog                       # a second simulator for the RTL benches (scripts/rtl-check.sh)
  yosys                          # synthesis check and cell counts of the RTL (scripts/rtl-check.sh)
  libboost-program-options-dev   # the command line
  nlohmann-json3-dev             # --json output
  libyaml-cpp-dev                # variant files (docs/variants.md)
  libopenmpi-dev openmpi-bin     # orthosim sweep --mpi and mpirun (docs/sweeps.md)
  libgtest-dev                   # GoogleTest, registered with CTest
  gtkwave                        # vcd2fst/fst2vcd: the waveform tests read our VCD and FST back
  libexpat1-dev                  # the trace plot tests parse the SVG back (docs/traces.md)
  clang-14 libfuzzer-14-dev libclang-rt-14-dev  # the fuzz preset: libFuzzer targets of the readers (scripts/fuzz.sh)
  clang-format-14                # .clang-format (scripts/format.sh): one version, one layout
  python3                        # bench/compare-peers and its test (tests/bench)
  jq                             # the paper reproductions read orthosim's JSON (scripts/lcc-paper.sh, calmant-paper.sh)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "installing: ${missing[*]}"
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
