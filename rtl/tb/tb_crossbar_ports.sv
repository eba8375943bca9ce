// Bench of crossbar_array's crosspoints and ports driven directly, without bus controllers: the
// cases the controllers and the arbiter never produce, so that the crossbar's own rules are seen.
// Four controllers, two buses (B(b) holds M(b,0..3)), every module word k of M(b,s) preset by the
// host to 100 * (4b + s) + k. Expected values follow from the module header:
//   a controller drives its bus only while its mode is not idle (mode 0: no access, no word back);
//   two controllers on one bus in one cycle set `collision`, which stays until a reset;
//   the host writes M(b,s) unless a bus accesses that very module (M(b',s) on another bus does
//   not stop it).
// Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012) and Verilator (--binary
// --timing).
module tb_crossbar_ports;
  localparam int N = 4;
  localparam int BUSES = 2;
  localparam int W = 32;
  localparam int DEPTH = 16;
  localparam int NB = 2;
  localparam int BB = 1;
  localparam int AW = 4;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic [N-1:0] req = '0, hold = '0, grant;
  logic [N*BB-1:0] req_bus = '0;
  logic [31:0] wait_cycles, conflicts;
  logic collision;
  logic [2*N-1:0] bus_mode = '0;
  logic [N*NB-1:0] bus_sel = '0;
  logic [N*AW-1:0] bus_addr = '0;
  logic [N*W-1:0] bus_wdata = '0;
  logic [N-1:0] bus_write = '0, bus_valid = '0;
  logic [N*W-1:0] bus_rdata;
  logic host_we = 1'b0;
  logic [BB-1:0] host_bus = '0;
  logic [NB-1:0] host_slot = '0;
  logic [AW-1:0] host_addr = '0;
  logic [W-1:0] host_wdata = '0, host_rdata;

  crossbar_array #(
      .N(N),
      .BUSES(BUSES),
      .W(W),
      .DEPTH(DEPTH)
  ) dut (
      .clk,
      .rst_n,
      .req,
      .hold,
      .req_bus,
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
      .host_bus,
      .host_slot,
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

  // Controller i accesses word k of M(b,s) (mode 1 for an access, 0 for idle lines).
  task automatic drive(input int i, input int mode, input int b, input int s, input int k,
                       input bit w, input int data);
    bus_mode[2*i+:2] = 2'(mode);
    req_bus[i*BB+:BB] = BB'(b);
    bus_sel[i*NB+:NB] = NB'(s);
    bus_addr[i*AW+:AW] = AW'(k);
    bus_write[i] = w;
    bus_wdata[i*W+:W] = W'(data);
    bus_valid[i] = 1'b1;
  endtask

  task automatic idle_all;
    bus_mode = '0;
    bus_valid = '0;
    bus_write = '0;
    #1;
  endtask

  function automatic int word_of(input int b, input int s, input int k);
    return 100 * (4 * b + s) + k;
  endfunction

  task automatic check_word(input string what, input int b, input int s, input int k,
                            input int want);
    host_bus = BB'(b);
    host_slot = NB'(s);
    host_addr = AW'(k);
    #1;
    check(what, 32'(host_rdata), want);
  endtask

  initial begin
    edge_();  // rst_n low
    rst_n = 1'b1;
    host_we = 1'b1;
    for (int b = 0; b < BUSES; b++) begin
      for (int s = 0; s < N; s++) begin
        for (int k = 0; k < DEPTH; k++) begin
          host_bus = BB'(b);
          host_slot = NB'(s);
          host_addr = AW'(k);
          host_wdata = W'(word_of(b, s, k));
          edge_();
        end
      end
    end
    host_we = 1'b0;

    // BC0 reads M(0,1) word 3 while BC1 shows valid lines on bus 0 with mode 0 (idle): only BC0
    // is on the bus, it gets its word and BC1 none.
    drive(0, 1, 0, 1, 3, 1'b0, 0);
    drive(1, 0, 0, 2, 5, 1'b1, 77);
    #1;
    check("mode 1 read word", 32'(bus_rdata[0*W+:W]), word_of(0, 1, 3));
    check("mode 0 gets no word", 32'(bus_rdata[1*W+:W]), 0);
    edge_();
    check("mode 0 lines drive nothing: no collision", 32'(collision), 0);
    check_word("mode 0 lines write nothing", 0, 2, 5, word_of(0, 2, 5));
    idle_all();

    // The host writes M(0,2) word 6 while BC2 reads M(1,2) word 6 (the same slot on the other
    // bus): the write happens.
    drive(2, 1, 1, 2, 6, 1'b0, 0);
    host_bus = 1'b0;
    host_slot = 2'd2;
    host_addr = 4'd6;
    host_wdata = 32'd4242;
    host_we = 1'b1;
    #1;
    check("bus 1 reads M(1,2) beside the host", 32'(bus_rdata[2*W+:W]), word_of(1, 2, 6));
    edge_();
    host_we = 1'b0;
    idle_all();
    check_word("host write beside another bus's access", 0, 2, 6, 4242);

    // BC0 and BC3 both on bus 1: a collision, sticky after they leave, cleared by a reset.
    drive(0, 1, 1, 0, 0, 1'b0, 0);
    drive(3, 2, 1, 1, 0, 1'b0, 0);
    edge_();
    check("two controllers on one bus: collision", 32'(collision), 1);
    idle_all();
    edge_();
    check("collision is sticky", 32'(collision), 1);
    rst_n = 1'b0;
    edge_();
    rst_n = 1'b1;
    check("reset clears collision", 32'(collision), 0);
    // One controller per bus is no collision.
    drive(0, 1, 0, 0, 0, 1'b0, 0);
    drive(3, 1, 1, 0, 0, 1'b0, 0);
    edge_();
    idle_all();
    check("one controller per bus: no collision", 32'(collision), 0);

    checks_verdict("tb_crossbar_ports", "");
    $finish;
  end
endmodule
