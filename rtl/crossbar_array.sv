// The memory side of the crossbar and single-bus systems ([PH91] section 3.1, Fig. 4(a), (b)):
// BUSES buses B(b), each with N modules M(b,0..N-1) of DEPTH words, reached from the N bus
// controllers through an N x BUSES crossbar. BUSES = N is the crossbar system (n buses through
// an n x n crossbar, n^2 modules); BUSES = 1 is the single bus B0 with modules M(0..N-1).
// The module in slot s of B(b) is M(b,s) (sw::MemoryOrganization::module_at).
//
// Arbitration: the RTL twin of sc::ResourceArbiter on these systems. A controller asks for its
// bus and the modules of its access; the modules of B(b) are reachable through B(b) only, so two
// requests want a common resource exactly when they want the same bus. First come (the cycle
// req rose), ties to the lower processor id, no overtaking (fcfs_arbiter); a request is blocked
// while its bus is held. The grant is combinational: in the request cycle when the bus is free,
// in the holder's done cycle (when its hold falls) otherwise.
//
// Crossbar: controller i drives B(req_bus[i]) while it accesses (bus_mode != 0, from the grant
// to its last cycle): per bus, the crosspoints select the one driving controller's word, slot,
// address and direction, and the word the bus's module returns goes back to that controller.
// Each bus has one port to its modules: reads are combinational (the word is on the bus in its
// address cycle), a write happens at every edge of a valid write word (the same word tau times).
// `collision` flags two controllers on one bus in one cycle (never, with the arbiter).
module crossbar_array #(
    parameter int N     = 4,   // processors = bus controllers = slots (modules) per bus
    parameter int BUSES = 4,   // N: the crossbar; 1: the single bus
    parameter int W     = 32,  // word width
    parameter int DEPTH = 16,  // words per module
    // Derived widths: leave at their defaults.
    parameter int NB = (N > 1) ? $clog2(N) : 1,              // slot / processor index
    parameter int BB = (BUSES > 1) ? $clog2(BUSES) : 1,      // bus index
    parameter int AW = (DEPTH > 1) ? $clog2(DEPTH) : 1       // word address
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low: clears the arbiter and the counters

    // Arbitration, bit i for BC(i).
    input  logic [   N-1:0] req,
    input  logic [   N-1:0] hold,
    input  logic [N*BB-1:0] req_bus,      // the bus BC(i) wants or holds, at [i*BB +: BB]
    output logic [   N-1:0] grant,
    output logic [    31:0] wait_cycles,  // total cycles of requests waiting (saturates)
    output logic [    31:0] conflicts,    // grants that had to wait (saturates)
    output logic            collision,    // sticky: two controllers drove one bus at once

    // The controllers' buses, BC(i)'s at index i (bus_controller's outputs; row mode).
    input  logic [ 2*N-1:0] bus_mode,
    input  logic [N*NB-1:0] bus_sel,
    input  logic [N*AW-1:0] bus_addr,
    input  logic [ N*W-1:0] bus_wdata,
    input  logic [   N-1:0] bus_write,
    input  logic [   N-1:0] bus_valid,
    output logic [ N*W-1:0] bus_rdata,

    // Host port to module M(host_bus, host_slot).
    input  logic          host_we,
    input  logic [BB-1:0] host_bus,
    input  logic [NB-1:0] host_slot,
    input  logic [AW-1:0] host_addr,
    input  logic [ W-1:0] host_wdata,
    output logic [ W-1:0] host_rdata
);
  // ---- arbitration --------------------------------------------------------------------------
  logic [N*N-1:0] conf;
  logic [N-1:0] blocked;
  always_comb begin
    for (int i = 0; i < N; i++) begin
      blocked[i] = 1'b0;
      for (int j = 0; j < N; j++) begin
        conf[i*N+j] = (i != j) && req_bus[i*BB+:BB] == req_bus[j*BB+:BB];
        if (conf[i*N+j] && hold[j]) begin
          blocked[i] = 1'b1;
        end
      end
    end
  end

  fcfs_arbiter #(
      .N(N)
  ) buses (
      .clk(clk),
      .rst_n(rst_n),
      .tick(1'b1),
      .req(req),
      .conf(conf),
      .blocked(blocked),
      .grant(grant),
      .wait_cycles(wait_cycles),
      .conflicts(conflicts)
  );

  // ---- crossbar -----------------------------------------------------------------------------
  // drive[b*N+i]: BC(i) is connected to B(b) this cycle.
  logic [BUSES*N-1:0] drive;
  logic [BUSES-1:0] b_valid, b_write, b_two;
  logic [BUSES*NB-1:0] b_sel;
  logic [BUSES*AW-1:0] b_addr;
  logic [BUSES*W-1:0] b_wdata, b_rdata;
  for (genvar b = 0; b < BUSES; b++) begin : g_drive
    for (genvar i = 0; i < N; i++) begin : g_bc
      assign drive[b*N+i] = bus_mode[2*i+:2] != 2'd0 && 32'(req_bus[i*BB+:BB]) == b;
    end
  end

  always_comb begin
    for (int b = 0; b < BUSES; b++) begin
      b_valid[b] = 1'b0;
      b_write[b] = 1'b0;
      b_two[b] = 1'b0;
      b_sel[b*NB+:NB] = '0;
      b_addr[b*AW+:AW] = '0;
      b_wdata[b*W+:W] = '0;
      for (int i = 0; i < N; i++) begin
        if (drive[b*N+i] && bus_valid[i]) begin
          b_two[b] = b_two[b] | b_valid[b];
          b_valid[b] = 1'b1;
          b_write[b] = b_write[b] | bus_write[i];
          b_sel[b*NB+:NB] = b_sel[b*NB+:NB] | bus_sel[i*NB+:NB];
          b_addr[b*AW+:AW] = b_addr[b*AW+:AW] | bus_addr[i*AW+:AW];
          b_wdata[b*W+:W] = b_wdata[b*W+:W] | bus_wdata[i*W+:W];
        end
      end
    end
  end

  // ---- modules: M(b,s) word k is mem[(b*N+s)*DEPTH + k]; one port per bus and the host's ----
  logic [W-1:0] mem[BUSES*N*DEPTH];
  logic [31:0] host_module;
  logic host_free;
  assign host_module = 32'(host_bus) * N + 32'(host_slot);

  always_comb begin
    host_free = 1'b1;
    for (int b = 0; b < BUSES; b++) begin
      if (b_valid[b] && 32'(b) * N + 32'(b_sel[b*NB+:NB]) == host_module) begin
        host_free = 1'b0;
      end
    end
  end

  always_ff @(posedge clk) begin
    for (int b = 0; b < BUSES; b++) begin
      if (b_valid[b] && b_write[b]) begin
        mem[(b*N+32'(b_sel[b*NB+:NB]))*DEPTH+32'(b_addr[b*AW+:AW])] <= b_wdata[b*W+:W];
      end
    end
    if (host_we && host_free) begin
      mem[host_module*DEPTH+32'(host_addr)] <= host_wdata;
    end
  end

  always_comb begin
    for (int b = 0; b < BUSES; b++) begin
      b_rdata[b*W+:W] = b_valid[b] ? mem[(b*N+32'(b_sel[b*NB+:NB]))*DEPTH+32'(b_addr[b*AW+:AW])] :
          '0;
    end
  end

  // The word returns through the crosspoint to the controller that drives the bus.
  for (genvar i = 0; i < N; i++) begin : g_ret
    assign bus_rdata[i*W+:W] = (bus_valid[i] && bus_mode[2*i+:2] != 2'd0) ?
        b_rdata[32'(req_bus[i*BB+:BB])*W+:W] : '0;
  end

  assign host_rdata = mem[host_module*DEPTH+32'(host_addr)];

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      collision <= 1'b0;
    end else if (|b_two) begin
      collision <= 1'b1;
    end
  end

endmodule
