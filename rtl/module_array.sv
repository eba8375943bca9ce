// The omp's n x n memory modules M(a,b) ([PH91] section 3.1, Fig. 4(c)) with their arbiter.
//
// M(a,b) sits on row bus RB(a) and column bus CB(b). Bus controller BC(i) drives RB(i) in row
// mode (bus_mode 1: slot s is M(i,s)) and CB(i) in column mode (bus_mode 2: slot s is M(s,i)).
// So M(a,b) is shared by BC(a) on RB(a) and BC(b) on CB(b), one of them at a time.
//
// Storage: each module is DEPTH words, read combinationally (the word is on the bus in the cycle
// its address is) and written at the clock edge of every cycle of a valid write word (the same
// word tau times). A module is addressed by its row bus, its column bus (never both: the arbiter
// grants one of them; `collision` would flag it) or the host port, which loads and inspects
// modules (test benches, SystemC wrappers) and writes only a module no bus addresses.
//
// Arbitration: the RTL twin of ResourceArbiter (sc_models/multiprocessor/resource_arbiter.cpp)
// restricted to the omp. BC(i) requests its bus and the modules of its access (req, req_col,
// req_mask) and holds them from its grant to its end (hold). Buses never conflict (RB(i) and
// CB(i) belong to BC(i) alone), so the resources are the modules, and two requesters i != j
// want a common module exactly when
//   req_col[i] != req_col[j] && req_mask[i][j] && req_mask[j][i]   (module M(i,j) or M(j,i)).
// Requests are ordered first come (the cycle req rose), ties to the lower processor id. In that
// order a request is granted when none of its modules is held and no request before it wants
// one of them, whether that one is granted now or still waiting: a request never overtakes an
// earlier one on a module they both want. The grant is combinational, in the cycle of the
// request when everything is free, and in the cycle a holder ends (its hold falls) otherwise.
// wait_cycles counts, per cycle, the requests left waiting (= the model's conflict_wait_cycles
// once all are granted); conflicts counts the grants that had waited (the model's conflicts).
module module_array #(
    parameter int N     = 4,   // processors: n x n modules
    parameter int W     = 32,  // word width
    parameter int DEPTH = 16,  // words per module
    // Derived widths: leave at their defaults.
    parameter int NB = (N > 1) ? $clog2(N) : 1,         // slot / processor index
    parameter int AW = (DEPTH > 1) ? $clog2(DEPTH) : 1  // word address
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low: clears arbitration state and counters

    // Arbitration, bit i for BC(i).
    input  logic [  N-1:0] req,
    input  logic [  N-1:0] hold,
    input  logic [  N-1:0] req_col,
    input  logic [N*N-1:0] req_mask,     // BC(i)'s slots at [i*N +: N]
    output logic [  N-1:0] grant,
    output logic [   31:0] wait_cycles,  // total cycles of requests waiting (saturates)
    output logic [   31:0] conflicts,    // grants that had to wait (saturates)
    output logic           collision,    // sticky: a module addressed by both its buses at once

    // Buses, BC(i)'s at index i (see bus_controller for their meaning).
    input  logic [ 2*N-1:0] bus_mode,
    input  logic [N*NB-1:0] bus_sel,
    input  logic [N*AW-1:0] bus_addr,
    input  logic [ N*W-1:0] bus_wdata,
    input  logic [   N-1:0] bus_write,
    input  logic [   N-1:0] bus_valid,
    output logic [ N*W-1:0] bus_rdata,

    // Host port to module M(host_row, host_col).
    input  logic          host_we,
    input  logic [NB-1:0] host_row,
    input  logic [NB-1:0] host_col,
    input  logic [AW-1:0] host_addr,
    input  logic [ W-1:0] host_wdata,
    output logic [ W-1:0] host_rdata
);
  // ---- arbitration --------------------------------------------------------------------------
  // The modules are the resources: a request is blocked by a holder that wants a common module,
  // and the first-come order among requests is fcfs_arbiter's, the one rule of ResourceArbiter
  // that the sync unit and the crossbar use too. Every edge ends a machine cycle here (tick 1).
  // Row i as one N-bit word (the other direction's requesters whose slot i is among i's slots
  // and whose slots include i), so that a verilated owner evaluates N word operations per row.
  logic [N*N-1:0] conf;  // [i*N+j]: i and j want a common module
  logic [  N-1:0] blocked;
  logic [N*N-1:0] mask_t;  // [i*N+j] = req_mask[j*N+i]: BC(j) wants slot i

  always_comb begin
    for (int i = 0; i < N; i++) begin
      for (int j = 0; j < N; j++) begin
        mask_t[i*N+j] = req_mask[j*N+i];
      end
    end
    for (int i = 0; i < N; i++) begin
      conf[i*N+:N] = (req_col[i] ? ~req_col : req_col) & req_mask[i*N+:N] & mask_t[i*N+:N] &
          ~(N'(1) << i);
      blocked[i] = (conf[i*N+:N] & hold) != '0;
    end
  end

  fcfs_arbiter #(
      .N(N)
  ) arbiter (
      .clk,
      .rst_n,
      .tick(1'b1),
      .req,
      .conf,
      .blocked,
      .grant,
      .wait_cycles,
      .conflicts
  );

  // ---- modules ----------------------------------------------------------------------------
  // One array holds every module: M(a,b) word k is mem[(a*N+b)*DEPTH + k]. A bus addresses at
  // most one module per cycle, so the storage needs one port per bus and the host port, not one
  // address multiplexer per module: the verilated n = 16 array (256 modules of 4096 words) then
  // evaluates N ports instead of N*N, and its storage is one variable the SystemC bridge can reach
  // (rtl/bridge/module_array.vlt).
  localparam int MODULES = N * N;
  logic [W-1:0] mem[MODULES*DEPTH];

  // A bus's decoding, a function of its ports alone. The read path below decodes the buses into
  // `hit` and `bus_module`; the clocked logic decodes the ports itself (the synthesised logic is
  // the same), so that it reads no combinational signal of the buses: a verilated owner that
  // changed only the buses since it last evaluated the array takes the edge without evaluating
  // the combinational logic again (docs/rtl.md, "Stepping a verilated unit").
  // RB(i) in row mode with slot s addresses M(i,s); CB(i) in column mode with slot s, M(s,i).
  function automatic logic addresses(input logic valid, input logic [1:0] mode);
    addresses = valid && (mode == 2'd1 || mode == 2'd2);
  endfunction
  function automatic logic [31:0] module_on(input int i, input logic [1:0] mode,
                                            input logic [NB-1:0] sel);
    module_on = (mode == 2'd2) ? 32'(sel) * N + 32'(i) : 32'(i) * N + 32'(sel);
  endfunction
  // No bus addresses module m (the host port may write it).
  function automatic logic unaddressed(input logic [31:0] m, input logic [N-1:0] valid,
                                       input logic [2*N-1:0] mode, input logic [N*NB-1:0] sel);
    unaddressed = 1'b1;
    for (int i = 0; i < N; i++) begin
      if (addresses(valid[i], mode[2*i+:2]) && module_on(i, mode[2*i+:2], sel[i*NB+:NB]) == m)
      begin
        unaddressed = 1'b0;
      end
    end
  endfunction
  // Some M(i, s) is addressed by RB(i) and by CB(s) at once. M(i, s) on RB(i) is on column bus
  // CB(s) too (a slot is below N): only BC(s) can address it from there, so one comparison per
  // bus, not one per pair of buses.
  function automatic logic both_buses(input logic [N-1:0] valid, input logic [2*N-1:0] mode,
                                      input logic [N*NB-1:0] sel);
    both_buses = 1'b0;
    for (int i = 0; i < N; i++) begin
      if (valid[i] && mode[2*i+:2] == 2'd1 && valid[sel[i*NB+:NB]] &&
          mode[2*32'(sel[i*NB+:NB])+:2] == 2'd2 && sel[32'(sel[i*NB+:NB])*NB+:NB] == NB'(i)) begin
        both_buses = 1'b1;
      end
    end
  endfunction

  logic [N-1:0] hit;             // BC(i)'s bus addresses a module this cycle
  logic [N*32-1:0] bus_module;   // the module it addresses, a*N+b, at [i*32 +: 32] (flat: Icarus
                                 // has no unpacked arrays in always_comb, yosys no packed 2-D)
  logic [31:0] host_module;

  // Continuous assignments, not always_comb: Icarus would make an always_comb sensitive to what
  // it writes itself and never settle.
  for (genvar i = 0; i < N; i++) begin : g_bus
    assign hit[i] = addresses(bus_valid[i], bus_mode[2*i+:2]);
    assign bus_module[i*32+:32] = module_on(i, bus_mode[2*i+:2], bus_sel[i*NB+:NB]);
  end
  assign host_module = 32'(host_row) * N + 32'(host_col);

  // A write happens at every edge of a valid write word; the host port writes only a module no
  // bus addresses.
  always_ff @(posedge clk) begin
    for (int i = 0; i < N; i++) begin
      if (addresses(bus_valid[i], bus_mode[2*i+:2]) && bus_write[i]) begin
        mem[module_on(i, bus_mode[2*i+:2], bus_sel[i*NB+:NB])*DEPTH+32'(bus_addr[i*AW+:AW])] <=
            bus_wdata[i*W+:W];
      end
    end
    if (host_we && unaddressed(host_module, bus_valid, bus_mode, bus_sel)) begin
      mem[host_module*DEPTH+32'(host_addr)] <= host_wdata;
    end
  end

  // Reads are combinational: the word is on the bus in its address cycle (0 when no word is).
  always_comb begin
    for (int i = 0; i < N; i++) begin
      bus_rdata[i*W+:W] = hit[i] ? mem[bus_module[i*32+:32]*DEPTH+32'(bus_addr[i*AW+:AW])] : '0;
    end
  end

  assign host_rdata = mem[host_module*DEPTH+32'(host_addr)];

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      collision <= 1'b0;
    end else if (both_buses(bus_valid, bus_mode, bus_sel)) begin
      collision <= 1'b1;
    end
  end

endmodule
