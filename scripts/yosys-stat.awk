# Reads a yosys log (yosys -l FILE ... stat) and prints one line: "CELLS FLIPFLOPS PROCESSES
# MEMORIES CPU_SECONDS" of the design's last statistics (the final netlist's when `stat` ends the
# script). For a design with submodules the statistics end with the design hierarchy's totals
# (every module times its instances, the instance cells left out): only those count, or a
# submodule would be counted twice. Flip-flops are bits: every flip-flop cell kind of yosys's
# generic library ($_DFF_*, $_DFFE_*, $_SDFF*_, $_DFFSR*_, $_ALDFF*_) is one bit. PROCESSES and
# MEMORIES left after synthesis mean the block was not fully synthesized (no gates for them).
# CPU_SECONDS is yosys's own user time ("End of script ... CPU: user 5.27s"), 0 when absent.
# Used by scripts/rtl-check.sh (synth) and scripts/rtl-cost.sh; tests/rtl/rtl_cost_test.py.
/Printing statistics/ { cells = 0; ffs = 0; processes = 0; memories = 0 }
/=== design hierarchy ===/ { cells = 0; ffs = 0; processes = 0; memories = 0 }
/^ *Number of cells:/ { cells = $4 }
/^ *Number of processes:/ { processes = $4 }
/^ *Number of memories:/ { memories = $4 }
$1 ~ /^\$_(S|AL)?DFF/ { ffs += $2 }
/^End of script\./ {
  for (i = 1; i < NF; i++) {
    if ($i == "user") { cpu = $(i + 1); sub(/s,?$/, "", cpu) }
  }
}
END { printf "%d %d %d %d %s\n", cells, ffs, processes, memories, (cpu == "" ? "0" : cpu) }
