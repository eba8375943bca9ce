// Runs crossbar_bench (rtl/tb/crossbar_bench.sv) for the crossbar system (BUSES = N) and the
// single bus (BUSES = 1) side by side. Prints PASS or calls $fatal.
module tb_crossbar_array;
  logic crossbar_passed, bus_passed;
  crossbar_bench #(.BUSES(4)) crossbar (.passed(crossbar_passed));
  crossbar_bench #(.BUSES(1)) single_bus (.passed(bus_passed));
  initial begin
    wait (crossbar_passed && bus_passed);
    $display("tb_crossbar_array: PASS (crossbar and single bus)");
    $finish;
  end
endmodule
