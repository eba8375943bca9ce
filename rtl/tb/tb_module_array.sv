// Bench of module_array's ports driven directly, without bus controllers: the cases the
// controllers never produce (a module on both of its buses, the host port beside a bus, lines
// without `valid`), so that the array's own rules are seen. Four buses, every module word k of
// M(a,b) preset by the host to 100 * (4a + b) + k. Expected values follow from the module header:
//   RB(i) in row mode (1) with slot s addresses M(i,s), CB(i) in column mode (2) M(s,i); a bus
//   without valid, or in mode 0 or 3, addresses nothing and reads 0;
//   the host writes M(a,b) unless a bus addresses that very module;
//   M(i,s) addressed by RB(i) and CB(s) in one cycle sets `collision`, which stays until a reset;
//   requests i != j conflict when one is a row and the other a column access and each wants the
//   other's index among its slots (M(i,j) or M(j,i)); a request is blocked by a conflicting
//   holder, and of two new conflicting requests the lower id goes first.
// Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012) and Verilator (--binary
// --timing).
module tb_module_array;
  localparam int N = 4;
  localparam int W = 32;
  localparam int DEPTH = 16;
  localparam int NB = 2;
  localparam int AW = 4;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic [N-1:0] req = '0, hold = '0, req_col = '0, grant;
  logic [N*N-1:0] req_mask = '0;
  logic [31:0] wait_cycles, conflicts;
  logic collision;
  logic [2*N-1:0] bus_mode = '0;
  logic [N*NB-1:0] bus_sel = '0;
  logic [N*AW-1:0] bus_addr = '0;
  logic [N*W-1:0] bus_wdata = '0;
  logic [N-1:0] bus_write = '0, bus_valid = '0;
  logic [N*W-1:0] bus_rdata;
  logic host_we = 1'b0;
  logic [NB-1:0] host_row = '0, host_col = '0;
  logic [AW-1:0] host_addr = '0;
  logic [W-1:0] host_wdata = '0, host_rdata;

  module_array #(
      .N(N),
      .W(W),
      .DEPTH(DEPTH)
  ) dut (
      .clk,
      .rst_n,
      .req,
      .hold,
      .req_col,
      .req_mask,
      .grant,
      .wait_cycles,
      .conflicts,
      .collision,
      .bus_mode,
      .bus_sel,
      .bus_addr,
      .bus_wdata,
      .bus_write,
      .bus_valid,
      .bus_rdata,
      .host_we,
      .host_row,
      .host_col,
      .host_addr,
      .host_wdata,
      .host_rdata
  );

  `include "bench_checks.svh"

  task automatic edge_;
    #1 clk = 1'b1;
    #1 clk = 1'b0;
    #1;
  endtask

  // BC(i)'s bus lines: mode (1 row, 2 column), slot s, word k, valid.
  task automatic drive(input int i, input int mode, input int s, input int k, input bit valid,
                       input bit w, input int data);
    bus_mode[2*i+:2] = 2'(mode);
    bus_sel[i*NB+:NB] = NB'(s);
    bus_addr[i*AW+:AW] = AW'(k);
    bus_write[i] = w;
    bus_wdata[i*W+:W] = W'(data);
    bus_valid[i] = valid;
  endtask

  task automatic idle_all;
    bus_mode = '0;
    bus_valid = '0;
    bus_write = '0;
    #1;
  endtask

  function automatic int word_of(input int a, input int b, input int k);
    return 100 * (4 * a + b) + k;
  endfunction

  task automatic host_at(input int a, input int b, input int k);
    host_row = NB'(a);
    host_col = NB'(b);
    host_addr = AW'(k);
    #1;
  endtask

  task automatic check_word(input string what, input int a, input int b, input int k,
                            input int want);
    host_at(a, b, k);
    check(what, 32'(host_rdata), want);
  endtask

  // The host writes `data` to word k of M(a,b) at one edge beside the bus lines as they are.
  task automatic host_write(input int a, input int b, input int k, input int data);
    host_at(a, b, k);
    host_wdata = W'(data);
    host_we = 1'b1;
    edge_();
    host_we = 1'b0;
  endtask

  task automatic reset_;
    rst_n = 1'b0;
    edge_();
    rst_n = 1'b1;
  endtask

  // A request of BC(i): row or column access, its slots as a bit mask.
  task automatic request(input int i, input bit col, input int slots);
    req[i] = 1'b1;
    req_col[i] = col;
    req_mask[i*N+:N] = N'(slots);
  endtask

  initial begin
    reset_();
    for (int a = 0; a < N; a++) begin
      for (int b = 0; b < N; b++) begin
        for (int k = 0; k < DEPTH; k++) begin
          host_write(a, b, k, word_of(a, b, k));
        end
      end
    end

    // ---- reads and writes by the buses -------------------------------------------------------
    // RB(1) reads M(1,2) word 3, CB(3) reads M(0,3) word 5, BC(0) shows mode 1 without valid,
    // BC(2) mode 3 with valid: neither addresses anything, both read 0.
    drive(1, 1, 2, 3, 1'b1, 1'b0, 0);
    drive(3, 2, 0, 5, 1'b1, 1'b0, 0);
    drive(0, 1, 1, 4, 1'b0, 1'b0, 0);
    drive(2, 3, 1, 4, 1'b1, 1'b0, 0);
    #1;
    check("row mode reads M(i,s)", 32'(bus_rdata[1*W+:W]), word_of(1, 2, 3));
    check("column mode reads M(s,i)", 32'(bus_rdata[3*W+:W]), word_of(0, 3, 5));
    check("no valid reads 0", 32'(bus_rdata[0*W+:W]), 0);
    check("mode 3 reads 0", 32'(bus_rdata[2*W+:W]), 0);
    // The same lines writing: only the two addressing buses write.
    drive(1, 1, 2, 3, 1'b1, 1'b1, 11);
    drive(3, 2, 0, 5, 1'b1, 1'b1, 33);
    drive(0, 1, 1, 4, 1'b0, 1'b1, 44);
    drive(2, 3, 1, 4, 1'b1, 1'b1, 22);
    edge_();
    idle_all();
    check_word("row mode writes M(i,s)", 1, 2, 3, 11);
    check_word("column mode writes M(s,i)", 0, 3, 5, 33);
    check_word("no valid writes nothing", 0, 1, 4, word_of(0, 1, 4));
    check_word("mode 3 writes nothing (as row)", 2, 1, 4, word_of(2, 1, 4));
    check_word("mode 3 writes nothing (as column)", 1, 2, 4, word_of(1, 2, 4));
    check("no collision", 32'(collision), 0);

    // ---- the host port beside the buses ------------------------------------------------------
    // RB(3) on M(3,1) and CB(2) on M(0,2): the host writes M(3,2) and M(1,2) (other modules) but
    // neither M(3,1) nor M(0,2); nor M(2,3) while a bus without valid shows it.
    drive(3, 1, 1, 6, 1'b1, 1'b0, 0);
    drive(2, 2, 0, 6, 1'b1, 1'b0, 0);
    drive(0, 2, 3, 6, 1'b0, 1'b0, 0);  // CB(0) slot 3 would be M(3,0)
    host_write(3, 2, 6, 1001);
    host_write(1, 2, 6, 1002);
    host_write(3, 1, 6, 1003);
    host_write(0, 2, 6, 1004);
    host_write(3, 0, 6, 1005);
    idle_all();
    check_word("host writes beside a bus on another module (same row)", 3, 2, 6, 1001);
    check_word("host writes beside a bus on another module (same column)", 1, 2, 6, 1002);
    check_word("host does not write the module the last row bus addresses", 3, 1, 6,
               word_of(3, 1, 6));
    check_word("host does not write the module a column bus addresses", 0, 2, 6,
               word_of(0, 2, 6));
    check_word("host writes beside a bus without valid", 3, 0, 6, 1005);

    // ---- collision --------------------------------------------------------------------------
    // RB(3) on M(3,1) with CB(1) on M(3,1): both buses on one module, the last row bus.
    drive(3, 1, 1, 0, 1'b1, 1'b0, 0);
    drive(1, 2, 3, 0, 1'b1, 1'b0, 0);
    edge_();
    check("RB(3) and CB(1) on M(3,1): collision", 32'(collision), 1);
    idle_all();
    edge_();
    check("collision is sticky", 32'(collision), 1);
    reset_();
    check("reset clears collision", 32'(collision), 0);
    // RB(0) on M(0,2) and CB(2) on M(1,2): a row bus and a column bus on different modules.
    drive(0, 1, 2, 0, 1'b1, 1'b0, 0);
    drive(2, 2, 1, 0, 1'b1, 1'b0, 0);
    edge_();
    check("row and column buses on different modules: no collision", 32'(collision), 0);
    // RB(0) showing M(0,2) without valid, CB(2) on M(0,2); then the other way round.
    drive(2, 2, 0, 0, 1'b1, 1'b0, 0);
    drive(0, 1, 2, 0, 1'b0, 1'b0, 0);
    edge_();
    check("a row bus without valid is no collision", 32'(collision), 0);
    drive(2, 2, 0, 0, 1'b0, 1'b0, 0);
    drive(0, 1, 2, 0, 1'b1, 1'b0, 0);
    edge_();
    check("a column bus without valid is no collision", 32'(collision), 0);
    idle_all();

    // ---- arbitration ------------------------------------------------------------------------
    // BC(0) holds row 0's slot 1, M(0,1). A column request of BC(1) for slot 2 (M(2,1)) wants
    // none of its modules; for slot 0 (M(0,1)) it is blocked until the hold falls.
    // (req_mask written whole here: Verilator 5.006 under --timing misses the changes of a
    // variable that a process writes through indexed part-selects only.)
    hold[0] = 1'b1;
    req_col[0] = 1'b0;
    req_mask = (N * N)'('b0010);
    request(1, 1'b1, 'b0100);
    #1;
    check("column request for M(2,1) beside the holder of M(0,1)", 32'(grant), 'b0010);
    edge_();
    req = '0;
    request(1, 1'b1, 'b0001);
    #1;
    check("column request for M(0,1) while it is held", 32'(grant), 'b0000);
    edge_();
    hold[0] = 1'b0;
    #1;
    check("... granted when the hold falls", 32'(grant), 'b0010);
    edge_();
    req = '0;
    edge_();
    // Two new requests in one cycle: BC(0) row slot 3 (M(0,3)) and BC(3) column slot 0 (M(0,3))
    // want one module, the lower id goes first; two row requests (M(0,3) and M(3,0)) do not
    // conflict; nor do BC(3) column slots 0 and 1 (M(0,3), M(1,3)) and BC(1) row slot 2
    // (M(1,2)): BC(3) names BC(1) among its slots, BC(1) does not name BC(3).
    request(0, 1'b0, 'b1000);
    request(3, 1'b1, 'b0001);
    #1;
    check("row and column request on M(0,3): the lower id", 32'(grant), 'b0001);
    edge_();
    req = '0;
    edge_();
    request(0, 1'b0, 'b1000);
    request(3, 1'b0, 'b0001);
    #1;
    check("two row requests never conflict", 32'(grant), 'b1001);
    edge_();
    req = '0;
    edge_();
    request(3, 1'b1, 'b0011);
    request(1, 1'b0, 'b0100);
    #1;
    check("a column request for M(3,1), a row request for M(1,2)", 32'(grant), 'b1010);
    edge_();
    req = '0;

    checks_verdict("tb_module_array", "");
    $finish;
  end
endmodule
