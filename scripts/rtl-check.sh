#!/usr/bin/env bash
# Checks the RTL in rtl/: Verilator lint (-Wall, with rtl/orthosim.vlt) of every block at its
# default and at other parameters, the self-checking test benches under Icarus and under
# Verilator, and a yosys synthesis of every block with its cell count. Exits non-zero on any
# failure. Small parameters (N = 4, L = 8, S = 4, module depth 16; the router bench: 16 routers):
# about 1.8 minutes of CPU time from a cold compiler cache, most of it the Verilator benches'
# build (45 s) and the synthesis (40 s; 2026-11-29).
#
#   scripts/rtl-check.sh            everything
#   scripts/rtl-check.sh STAGE...   only these of: lint, icarus (the benches under Icarus),
#                                   verilator (the benches under Verilator), synth (yosys); CTest
#                                   runs them as separate tests, side by side (tests/rtl)
#   KEEP=1 scripts/rtl-check.sh     keep the work folder (printed at the end)
#   RTL_CHECK_ALL=1 scripts/rtl-check.sh   also build every bench under Verilator, and synthesize
#                                   every block at the sizes of docs/rtl.md's cell counts
#   scripts/rtl-check.sh cost       only the cost tables of docs/rtl.md (omp, crossbar, bus at
#                                   n = 4, 8, 16; router + interface at 2 and 4 virtual channels;
#                                   their cycles): scripts/rtl-cost.sh with its defaults, about
#                                   15 minutes of CPU, not part of CI
set -euo pipefail
cd "$(dirname "$0")/.."

stages=("$@")
if [ ${#stages[@]} -eq 0 ]; then
  stages=(lint icarus verilator synth)
fi
for st in "${stages[@]}"; do
  case "$st" in
    lint | icarus | verilator | synth | cost) ;;
    *)
      echo "rtl-check.sh: unknown stage '$st' (expected lint, icarus, verilator, synth or cost)" >&2
      exit 2
      ;;
  esac
done
wants() { [[ " ${stages[*]} " == *" $1 "* ]]; }

blocks=(index_manipulator bus_controller module_array router sync_unit crossbar_array processor
  network_interface)
rtl=rtl
# The files a block instantiates, besides its own.
declare -A block_deps=(
  [module_array]="$rtl/fcfs_arbiter.sv"
  [sync_unit]="$rtl/fcfs_arbiter.sv"
  [crossbar_array]="$rtl/fcfs_arbiter.sv"
)
vc=(-f "$rtl/rtl.vc" "$rtl/orthosim.vlt")

# ---- tools: verilator (5.006), iverilog (11), yosys (0.23), from the one list of dependencies ----
./scripts/install-deps.sh

work="$(mktemp -d "${TMPDIR:-/tmp}/orthosim-rtl-check.XXXXXX")"
if [ "${KEEP:-0}" != 1 ]; then
  trap 'rm -rf "$work"' EXIT
fi
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# synth NAME TOP "CHPARAM..." "SYNTH OPTIONS" FILES...: yosys synth of TOP; sets $cells and $ffs
# (flip-flop bits, the design hierarchy's totals for a block with submodules:
# scripts/yosys-stat.awk).
synth() {
  local name="$1" top="$2" chparam="$3" options="$4"
  shift 4
  cells=""
  ffs=""
  if yosys -q -l "$work/$name.yosys.log" -p "read_verilog -sv $*; $chparam synth -top $top $options; stat" \
      >"$work/$name.yosys.out" 2>&1; then
    local processes memories
    read -r cells ffs processes memories _ < <(awk -f scripts/yosys-stat.awk "$work/$name.yosys.log")
    if [ "$processes" -ne 0 ] || [ "$memories" -ne 0 ]; then
      fail "$name: processes or memories left after synthesis (not fully synthesizable)"
    fi
  else
    tail -n 20 "$work/$name.yosys.out"
    fail "$name: yosys"
  fi
}

if wants cost; then
  # The tables of docs/rtl.md, "Cost of the systems and of a node" (options: scripts/rtl-cost.sh).
  scripts/rtl-cost.sh
  exit 0
fi


# ---- lint ------------------------------------------------------------------------------------
# Defaults, then odd sizes (n not a power of two, L > module depth) and a larger n, so that width
# arithmetic is checked beyond the one parameterisation the benches use.
if wants lint; then
  echo "=== lint: verilator --lint-only -Wall"
  declare -A params=(
    [index_manipulator]="-GN=3,-GL=5,-GS=3,-GLPW=3 -GN=8,-GL=32,-GS=16,-GW=64"
    [bus_controller]="-GN=3,-GL=5,-GS=3,-GDEPTH=10 -GN=8,-GL=32,-GS=16,-GDEPTH=64,-GW=64,-GTW=8"
    [module_array]="-GN=3,-GDEPTH=10 -GN=8,-GDEPTH=64,-GW=64"
    [router]="-GPMAX=4,-GVMAX=1,-GDMAX=1,-GDW=32 -GPMAX=10,-GVMAX=4,-GDMAX=8,-GCW=10,-GDW=96"
    [sync_unit]="-GN=3,-GCW=5,-GTKW=2 -GN=16,-GCW=8,-GTKW=8"
    [crossbar_array]="-GBUSES=1 -GN=3,-GBUSES=3,-GDEPTH=10 -GN=8,-GBUSES=8,-GDEPTH=64,-GW=64"
    [network_interface]="-GPMAX=1,-GQD=1,-GRQ=1 -GPMAX=10,-GCW=10,-GDW=96,-GW=48,-GTGW=10,-GMWW=9,-GQD=3,-GRQ=5"
    [processor]="-GN=3,-GL=5,-GS=3,-GDEPTH=10,-GLOCAL=40,-GIMEM=20,-GLPW=3 -GN=16,-GL=256,-GS=512,-GDEPTH=4096,-GLOCAL=65536,-GIMEM=1024,-GCYW=32"
  )
  for b in "${blocks[@]}"; do
    for g in "" ${params[$b]}; do
      g="${g//,/ }"
      # shellcheck disable=SC2086  # $g is a list of -G options, block_deps a list of files
      if verilator --lint-only "${vc[@]}" $g --top-module "$b" "$rtl/$b.sv" ${block_deps[$b]:-} \
          >"$work/lint.log" 2>&1; then
        echo "  $b ${g:-(defaults)}: clean"
      else
        cat "$work/lint.log"
        fail "lint $b ${g:-(defaults)}"
      fi
    done
  done
  # The whole multiprocessor (every block above but the router and the interface), per
  # organisation, at the defaults, odd sizes, and the sizes the simulator verilates (n = 16).
  mp_files="$rtl/multiprocessor.sv $rtl/processor.sv $rtl/bus_controller.sv $rtl/index_manipulator.sv $rtl/module_array.sv $rtl/crossbar_array.sv $rtl/fcfs_arbiter.sv $rtl/sync_unit.sv"
  for g in -GARCH=0 -GARCH=1 -GARCH=2 -GARCH=0,-GN=3,-GL=5,-GS=3,-GDEPTH=7 -GARCH=2,-GN=3,-GL=5,-GS=3,-GDEPTH=7,-GLPW=1 \
      -GARCH=1,-GN=8,-GW=64 -GARCH=1,-GN=16,-GL=256,-GS=512,-GDEPTH=4096,-GLOCAL=4096,-GIMEM=4096 -GARCH=0,-GN=2 \
      -GARCH=0,-GHOST=0 -GARCH=2,-GHOST=0,-GN=16; do
    g="${g//,/ }"
    # shellcheck disable=SC2086  # $g is a list of -G options, mp_files a list of files
    if verilator --lint-only "${vc[@]}" $g --top-module multiprocessor $mp_files >"$work/lint.log" 2>&1; then
      echo "  multiprocessor $g: clean"
    else
      cat "$work/lint.log"
      fail "lint multiprocessor $g"
    fi
  done
fi

# ---- test benches ------------------------------------------------------------------------------
# Every bench runs under Icarus (seconds). Verilator builds cost tens of seconds of CPU each, so
# the default run builds the datapath and router benches; RTL_CHECK_ALL=1 builds every bench.
benches=(tb_index_manipulator tb_bus_controller tb_router tb_fcfs_arbiter tb_sync_unit tb_crossbar_array
  tb_crossbar_ports tb_module_array tb_processor tb_network_interface tb_multiprocessor)
verilator_benches=(tb_index_manipulator tb_bus_controller tb_router)
if [ "${RTL_CHECK_ALL:-0}" = 1 ]; then
  verilator_benches=("${benches[@]}")
fi
declare -A tb_sources=(
  [tb_index_manipulator]="$rtl/index_manipulator.sv $rtl/tb/tb_index_manipulator.sv"
  [tb_bus_controller]="$rtl/bus_controller.sv $rtl/index_manipulator.sv $rtl/module_array.sv $rtl/fcfs_arbiter.sv $rtl/tb/tb_bus_controller.sv"
  [tb_router]="$rtl/router.sv $rtl/tb/tb_router.sv"
  [tb_fcfs_arbiter]="$rtl/fcfs_arbiter.sv $rtl/tb/tb_fcfs_arbiter.sv"
  [tb_sync_unit]="$rtl/sync_unit.sv $rtl/fcfs_arbiter.sv $rtl/tb/tb_sync_unit.sv"
  [tb_network_interface]="$rtl/network_interface.sv $rtl/tb/tb_network_interface.sv"
  [tb_processor]="$rtl/processor.sv $rtl/bus_controller.sv $rtl/index_manipulator.sv $rtl/module_array.sv $rtl/sync_unit.sv $rtl/fcfs_arbiter.sv $rtl/tb/tb_processor.sv"
  [tb_multiprocessor]="$rtl/multiprocessor.sv $rtl/processor.sv $rtl/bus_controller.sv $rtl/index_manipulator.sv $rtl/module_array.sv $rtl/crossbar_array.sv $rtl/sync_unit.sv $rtl/fcfs_arbiter.sv $rtl/tb/tb_multiprocessor.sv"
  [tb_crossbar_array]="$rtl/crossbar_array.sv $rtl/fcfs_arbiter.sv $rtl/bus_controller.sv $rtl/index_manipulator.sv $rtl/tb/crossbar_bench.sv $rtl/tb/tb_crossbar_array.sv"
  [tb_crossbar_ports]="$rtl/crossbar_array.sv $rtl/fcfs_arbiter.sv $rtl/tb/tb_crossbar_ports.sv"
  [tb_module_array]="$rtl/module_array.sv $rtl/fcfs_arbiter.sv $rtl/tb/tb_module_array.sv"
)
run_bench() {  # simulator, bench, command...
  local sim="$1" tb="$2"
  shift 2
  if "$@" >"$work/$tb.$sim.log" 2>&1 && grep -q "^$tb: PASS" "$work/$tb.$sim.log"; then
    echo "  $(grep "^$tb: PASS" "$work/$tb.$sim.log")"
  else
    tail -n 30 "$work/$tb.$sim.log"
    fail "$tb under $sim"
  fi
}

if wants icarus; then
  echo "=== test benches: Icarus (iverilog -g2012, vvp)"
  for tb in "${benches[@]}"; do
    # shellcheck disable=SC2086  # the source list
    if iverilog -g2012 -Wall -I "$rtl/tb" -o "$work/$tb.vvp" -s "$tb" ${tb_sources[$tb]} >"$work/$tb.iverilog.log" 2>&1; then
      run_bench icarus "$tb" vvp -n "$work/$tb.vvp"
    else
      cat "$work/$tb.iverilog.log"
      fail "$tb: iverilog"
    fi
  done
fi

# The benches build at -O0 with bounded loop unrolling: the simulation takes well under a second,
# while a default (-Os, fully unrolled) build of tb_bus_controller takes minutes.
if wants verilator; then
  echo "=== test benches: Verilator (--binary --timing)"
  # Through the compiler cache when there is one (the generated code names the sources relative to
  # the checkout, never the scratch folder, so a later run reuses it: the router's bench is over a
  # minute of compiling).
  objcache=""
  if command -v ccache >/dev/null; then
    objcache="OBJCACHE=ccache"
  fi
  for tb in "${verilator_benches[@]}"; do
    # shellcheck disable=SC2086  # the source list
    if verilator --binary --timing -j 2 "${vc[@]}" --unroll-count 4 -I"$rtl/tb" \
        -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0 $objcache" \
        -Mdir "$work/obj_$tb" --top-module "$tb" ${tb_sources[$tb]} >"$work/$tb.verilate.log" 2>&1; then
      run_bench verilator "$tb" "$work/obj_$tb/V$tb"
    else
      grep -E "%(Error|Warning)" -A4 "$work/$tb.verilate.log" | head -n 40 || tail -n 30 "$work/$tb.verilate.log"
      fail "$tb: verilator build"
    fi
  done
fi

# ---- synthesis -------------------------------------------------------------------------------
# The router at its defaults (6 ports, 2 virtual channels, 64-bit flits) takes yosys over half an
# hour; its count is taken at a 2-D mesh router's sizes (docs/rtl.md). It is synthesized without
# resource sharing, as scripts/rtl-cost.sh synthesizes every block: yosys's `share` weighs every
# two of its memory reads under the switch allocation's conditions and ran out of 24 GB.
# What the check asks of every block (that it synthesizes to gates, no process or memory left)
# shows as well at smaller sizes: the module array and the crossbar array at n = 2, the router
# with two ports of two virtual channels (with the virtual channels the mesh router's size has
# not) take yosys 2, 2 and 18 s of CPU instead of 27, 13 and 35. RTL_CHECK_ALL=1 synthesizes the
# sizes docs/rtl.md counts: every block at its defaults, the router at a 2-D mesh router's.
if [ "${RTL_CHECK_ALL:-0}" = 1 ]; then
  declare -A synth_params=(
    [router]="chparam -set PMAX 4 -set VMAX 1 -set DMAX 1 -set DW 32 -set TSW 16 router;"
  )
else
  declare -A synth_params=(
    [module_array]="chparam -set N 2 -set DEPTH 4 module_array;"
    [crossbar_array]="chparam -set N 2 -set BUSES 2 -set DEPTH 4 crossbar_array;"
    [router]="chparam -set PMAX 2 -set VMAX 2 -set DMAX 2 -set DW 32 -set TSW 16 router;"
  )
fi
declare -A synth_options=(
  [router]="-noshare"
)
if wants synth; then
  echo "=== synthesis: yosys synth -top <block>, default parameters but: ${synth_params[*]}"
  printf "  %-20s %8s %8s\n" block cells "flip-flops"
  for b in "${blocks[@]}"; do
    # shellcheck disable=SC2086  # the list of files
    synth "$b" "$b" "${synth_params[$b]:-}" "${synth_options[$b]:-}" "$rtl/$b.sv" ${block_deps[$b]:-}
    printf "  %-20s %8s %8s\n" "$b" "$cells" "$ffs"
  done
fi

if [ "${KEEP:-0}" = 1 ]; then
  echo "work folder: $work"
fi
if [ "$failures" -ne 0 ]; then
  echo "=== rtl-check: $failures failure(s)"
  exit 1
fi
echo "=== rtl-check: all passed"
