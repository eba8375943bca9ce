#!/usr/bin/env bash
# The variants as hardware (docs/rtl.md, "Cost of the systems and of a node"): yosys cells and
# flip-flops of every block the omp, the crossbar and the single bus are built of at n processors,
# and of a 2-D mesh node (router + network interface) at v virtual channels, each system's total
# beside the cycles the model emulates for the Fig. 2 program and an all-to-all exchange (the RTL
# equals the model cycle for cycle: docs/rtl.md, "Verilated blocks in the systems"), and the
# product cells x cycles. Prints Markdown tables.
#
#   scripts/rtl-cost.sh [--n 4,8,16] [--vcs 2,4] [--logs DIR [--from-logs]]
#
#   --n LIST      processors / nodes, powers of two >= 4 (default 4,8,16)
#   --vcs LIST    virtual channels of the mesh router, 1..8 (default 2,4)
#   --logs DIR    keep every block's yosys log in DIR (created; default: a scratch folder)
#   --from-logs   synthesize nothing: read the logs an earlier run left in --logs DIR (the table
#                 again, with new cycles, in seconds)
#
# ORTHOSIM names the binary (default build/default/app/orthosim). Needs yosys 0.23 and jq.
# One flow for every block: `synth -top BLOCK -noshare` (generic gates, memories as flip-flops,
# hierarchy kept, the totals of the design hierarchy counted: scripts/yosys-stat.awk). Every
# block is synthesized once per size and a system's figure is the sum over its instances (a
# system is n identical processors, bus controllers and index manipulators, one sync unit and
# its memory side; a mesh of n nodes is n identical nodes). The default run takes about 15
# minutes of CPU (yosys: 374 s the n = 16 module array, with 4.3 GB of memory; 99 s the 4-VC
# router; 82 s the n = 16 crossbar; 72 s the n = 16 sync unit): run it under nice.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "rtl-cost.sh: $1" >&2
  exit 2
}
ns=4,8,16
vcs=2,4
logs=""
from_logs=0
while [ $# -gt 0 ]; do
  case "$1" in
    --n | --vcs | --logs)
      [ $# -ge 2 ] || usage "$1: expected a value"
      case "$1" in
        --n) ns="$2" ;;
        --vcs) vcs="$2" ;;
        --logs) logs="$2" ;;
      esac
      shift 2
      ;;
    --from-logs)
      from_logs=1
      shift
      ;;
    *) usage "unknown option '$1' (expected --n, --vcs, --logs or --from-logs)" ;;
  esac
done
IFS=, read -r -a ns <<<"$ns"
IFS=, read -r -a vcs <<<"$vcs"
for n in "${ns[@]}"; do
  if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 4 ] || [ "$n" -gt 64 ] || [ $((n & (n - 1))) -ne 0 ]; then
    usage "--n: expected powers of two from 4 to 64, found '$n'"
  fi
done
for v in "${vcs[@]}"; do
  [[ "$v" =~ ^[1-8]$ ]] || usage "--vcs: expected virtual channels from 1 to 8, found '$v'"
done
if [ "$from_logs" = 1 ]; then
  [ -n "$logs" ] || usage "--from-logs: needs --logs DIR (the logs of an earlier run)"
  [ -d "$logs" ] || usage "--logs: no folder '$logs' to read the logs from"
fi
orthosim=${ORTHOSIM:-build/default/app/orthosim}
[ -x "$orthosim" ] || usage "no orthosim at $orthosim (build it, or set ORTHOSIM)"
command -v jq >/dev/null || usage "needs jq"

work="$(mktemp -d "${TMPDIR:-/tmp}/orthosim-rtl-cost.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [ -z "$logs" ]; then
  logs="$work/logs"
fi
mkdir -p "$logs"
rtl=rtl

# block NAME TOP "CHPARAM" FILES...: synthesizes TOP (or, with --from-logs, reads NAME's log);
# sets cells, ffs and cpu, and records a row of the blocks table.
block_rows=""
block() {
  local name="$1" top="$2" chparam="$3"
  shift 3
  local log="$logs/$name.log"
  if [ "$from_logs" = 0 ]; then
    echo "rtl-cost: yosys $name" >&2
    if ! yosys -q -l "$log" -p "read_verilog -sv $*; chparam $chparam $top; synth -top $top -noshare; stat" \
        >"$work/$name.out" 2>&1; then
      tail -n 20 "$work/$name.out" >&2
      echo "rtl-cost: yosys failed on $name (log: $log)" >&2
      exit 1
    fi
  fi
  [ -f "$log" ] || usage "--from-logs: no log $log"
  local processes memories
  read -r cells ffs processes memories cpu < <(awk -f scripts/yosys-stat.awk "$log")
  if [ "$cells" -le 0 ] || [ "$processes" -ne 0 ] || [ "$memories" -ne 0 ]; then
    echo "rtl-cost: $name not fully synthesized ($cells cells, $processes processes and" \
      "$memories memories left; log: $log)" >&2
    exit 1
  fi
  block_rows+="| \`$top\` | $name | ${chparam//-set /} | $cells | $ffs | $cpu |"$'\n'
}

# run_json ARGS...: orthosim with --json; fails unless every word arrived.
run_json() {
  local out
  out="$("$orthosim" "$@" --json)" || {
    echo "rtl-cost: orthosim $* failed" >&2
    exit 1
  }
  [ "$(jq -r .payload_ok <<<"$out")" = true ] || {
    echo "rtl-cost: orthosim $*: a word did not arrive" >&2
    exit 1
  }
  echo "$out"
}

# The Fig. 2 program of [PH91] (examples/fig2_sample.mcp) on n nodes: the same five steps and
# patterns, grown with n. Step 2's permutation sends from every odd node to the next, step 5's
# many-to-one gathers nodes 1..n/2 at N0 and N(n-1) multicasts to them. At n = 4 it is the
# example's program (tests/rtl/rtl_cost_test.py runs both).
fig2_program() {
  local n="$1" half=$(($1 / 2)) i
  printf 'nodes %d\nwords 4\n' "$n"
  printf 'step one_to_one\n  compute all 20\n  send 1 -> 0\n'
  printf 'step permutation\n  compute all 20\n'
  for ((i = 1; i < n; i += 2)); do
    printf '  send %d -> %d\n' "$i" $(((i + 1) % n))
  done
  printf 'step broadcast\n  compute all 20\n  bcast 0 -> all\n'
  printf 'step scatter\n  compute all 20\n  send 0 -> all\n'
  printf 'step many_to_one_and_multicast\n  compute all 20\n'
  printf '  send 1..%d -> 0\n  bcast %d -> 1..%d\n' "$half" $((n - 1)) "$half"
}

# product CELLS CYCLES: cells x cycles in millions, one decimal.
product() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a * b / 1e6 }'; }

systems="| system | n | cells | flip-flops | Fig. 2 cycles | cells x cycles (10^6) | all-to-all cycles | cells x cycles (10^6) |
|---|---|---|---|---|---|---|---|
"
mp="-set L 8 -set S 4 -set W 32"
for n in "${ns[@]}"; do
  block "processor-n$n" processor "-set N $n $mp -set DEPTH 4 -set LOCAL 16 -set IMEM 16" "$rtl/processor.sv"
  pc=$cells pf=$ffs
  block "bus_controller-n$n" bus_controller "-set N $n $mp -set DEPTH 4" "$rtl/bus_controller.sv"
  bcc=$cells bcf=$ffs
  block "index_manipulator-n$n" index_manipulator "-set N $n $mp" "$rtl/index_manipulator.sv"
  imc=$cells imf=$ffs
  block "sync_unit-n$n" sync_unit "-set N $n" "$rtl/sync_unit.sv" "$rtl/fcfs_arbiter.sv"
  sc=$cells sf=$ffs
  fig2_program "$n" >"$work/fig2-n$n.mcp"
  "$orthosim" gen all-to-all-personalized --nodes "$n" --len 4 >"$work/a2a-n$n.mcp"
  for sys in omp crossbar bus; do
    case $sys in
      omp) block "module_array-n$n" module_array "-set N $n -set W 32 -set DEPTH 4" \
        "$rtl/module_array.sv" "$rtl/fcfs_arbiter.sv" ;;
      crossbar) block "crossbar_array-n$n" crossbar_array "-set N $n -set BUSES $n -set W 32 -set DEPTH 4" \
        "$rtl/crossbar_array.sv" "$rtl/fcfs_arbiter.sv" ;;
      bus) block "crossbar_array-1bus-n$n" crossbar_array "-set N $n -set BUSES 1 -set W 32 -set DEPTH 4" \
        "$rtl/crossbar_array.sv" "$rtl/fcfs_arbiter.sv" ;;
    esac
    total_cells=$((n * (pc + bcc + imc) + sc + cells))
    total_ffs=$((n * (pf + bcf + imf) + sf + ffs))
    fig2=$(run_json run "$work/fig2-n$n.mcp" --arch "$sys" | jq .total_cycles)
    a2a=$(run_json access --arch "$sys" --n "$n" --kind iwr --l 4 | jq .cycles)
    systems+="| $sys | $n | $total_cells | $total_ffs | $fig2 | $(product "$total_cells" "$fig2") | $a2a | $(product "$total_cells" "$a2a") |"$'\n'
  done
done

# The mesh node: a 2-D mesh router (4 network ports, 2-flit buffers, 64-bit flit data, 16-bit
# stamps) and an all-port interface; the mesh of n nodes is the most square 2-D mesh.
block "network_interface" network_interface "-set PMAX 4" "$rtl/network_interface.sv"
nic=$cells nif=$ffs
meshes="| mesh | n | virtual channels | node cells | node flip-flops | mesh cells | mesh flip-flops | Fig. 2 cycles | cells x cycles (10^6) | all-to-all cycles | cells x cycles (10^6) |
|---|---|---|---|---|---|---|---|---|---|---|
"
for v in "${vcs[@]}"; do
  block "router-v$v" router "-set PMAX 4 -set VMAX $v -set DMAX 2 -set DW 64 -set TSW 16" "$rtl/router.sv"
  nodec=$((cells + nic)) nodef=$((ffs + nif))
  for n in "${ns[@]}"; do
    bits=0
    while [ $((1 << bits)) -lt "$n" ]; do bits=$((bits + 1)); done
    cols=$((1 << ((bits + 1) / 2))) rows=$((n >> ((bits + 1) / 2)))
    net=(--arch mesh --dims "${cols}x$rows" --vcs "$v" --buffers 2 --ports all)
    fig2=$(run_json run "$work/fig2-n$n.mcp" "${net[@]}" | jq .total_cycles)
    a2a=$(run_json run "$work/a2a-n$n.mcp" "${net[@]}" | jq .total_cycles)
    meshc=$((n * nodec)) meshf=$((n * nodef))
    meshes+="| ${cols}x$rows | $n | $v | $nodec | $nodef | $meshc | $meshf | $fig2 | $(product "$meshc" "$fig2") | $a2a | $(product "$meshc" "$a2a") |"$'\n'
  done
done

echo "Blocks (yosys 0.23, synth -top BLOCK -noshare):"
echo
echo "| block | log | parameters | cells | flip-flops | yosys CPU s |"
echo "|---|---|---|---|---|---|"
printf '%s' "$block_rows"
echo
echo "Multiprocessors: n x (processor + bus_controller + index_manipulator) + sync_unit + memory side"
echo "(omp: module_array; crossbar: crossbar_array, n buses; bus: crossbar_array, 1 bus):"
echo
printf '%s' "$systems"
echo
echo "2-D meshes: n x (router + network_interface):"
echo
printf '%s' "$meshes"
