// The whole multiprocessor ([PH91] section 3.1, Fig. 4) as one unit: N processors P(i)
// (processor.sv), each with its bus controller BC(i) (bus_controller.sv) and index manipulator
// (index_manipulator.sv), the sync unit (sync_unit.sv), and the memory side of the organisation
// ARCH: the omp's n x n modules on row and column buses (module_array.sv), the crossbar's n buses
// (crossbar_array.sv, BUSES = N) or the single bus (crossbar_array.sv, BUSES = 1). Verilated as
// one C++ model and stepped by rtl/bridge/multiprocessor_rtl.cpp (docs/rtl.md, "The
// multiprocessor as one unit").
//
// Wiring (docs/rtl.md): P(i) drives BC(i)'s start and access descriptor and takes its done; P(i)'s
// buffer copies use its index manipulator's local port, BC(i)'s im_* its access port; the
// controllers' requests, holds and buses go to the memory side, whose grants and read words come
// back; the processors' sync requests go to the sync unit.
//
// Time: `clk` has zero-time step edges (tick = 0) and tick edges (tick = 1, the end of a machine
// cycle); the owner gives steps until `settled`, then the tick (docs/rtl.md, "Zero-time steps and
// ticks"). The processors, index manipulators and the sync unit see every edge; the bus
// controllers and the memory side are machine-cycle blocks and see the tick edges only, through
// the gated clock `mclk`, so their timing is the one documented for them alone.
//
// Host ports (before `go`): instruction memories, local memories, index sets, modules, the cost
// registers. A module write and the cost registers of the controllers take effect at a tick edge;
// the others at any edge.
module multiprocessor #(
    parameter int ARCH  = 0,   // 0 omp, 1 crossbar, 2 single bus
    parameter int N     = 4,   // processors
    parameter int L     = 8,   // words per data buffer = most vectors of an access
    parameter int S     = 4,   // index sets
    parameter int W     = 32,  // word width
    parameter int DEPTH = 16,  // words per memory module
    parameter int TW    = 16,  // width of the timing and cost registers
    parameter int LOCAL = 64,  // words of local memory per processor
    parameter int IMEM  = 64,  // instructions per processor
    parameter int CYW   = 24,  // bits of a compute op's cycle count
    parameter int STW   = 16,  // bits of a step mark's step
    parameter int LPW   = 4,   // words per access of each processor's local port (processor.sv)
    parameter int TKW   = 4,   // bits of each sync token counter
    // 1: the host ports load and read the memories (benches). 0: they are tied off and the owner
    // reaches the memories through the verilated model (rtl/bridge/multiprocessor.vlt): Verilator
    // evaluates everything a top-level input reaches combinationally at every eval(), and the
    // host ports reach the module array's and the local memories' read paths.
    parameter int HOST  = 1,
    // Derived widths: leave at their defaults.
    parameter int BUSES = (ARCH == 2) ? 1 : N,  // the crossbar array's buses
    parameter int NB  = (N > 1) ? $clog2(N) : 1,
    parameter int NCW = $clog2(N + 1),
    parameter int LB  = (L > 1) ? $clog2(L) : 1,
    parameter int LCW = $clog2(L + 1),
    parameter int SB  = (S > 1) ? $clog2(S) : 1,
    parameter int AW  = (DEPTH > 1) ? $clog2(DEPTH) : 1,
    parameter int LAW = (LOCAL > 1) ? $clog2(LOCAL) : 1,
    parameter int PCW = (IMEM > 1) ? $clog2(IMEM) : 1,
    parameter int BB  = (BUSES > 1) ? $clog2(BUSES) : 1,
    parameter int ACW = 2 + NB + NCW + N * NB + AW + LCW + SB,
    parameter int CPW = NB + LB + LAW + LCW,
    parameter int FW1 = (ACW > CYW) ? ACW : CYW,
    parameter int FW2 = (CPW > STW) ? CPW : STW,
    parameter int FW3 = (FW1 > FW2) ? FW1 : FW2,
    parameter int IW  = 4 + ((FW3 > N) ? FW3 : N)  // instruction width (processor.sv)
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low, over a tick edge: every block's reset
    input logic tick,   // this edge ends a machine cycle

    // Cost registers: the controllers' alpha, beta, tau, gamma (at a tick edge) and the sync
    // unit's activate, barrier and gamma.
    input logic          cfg_we,
    input logic [TW-1:0] cfg_alpha,
    input logic [TW-1:0] cfg_beta,
    input logic [TW-1:0] cfg_tau,
    input logic [TW-1:0] cfg_gamma,
    input logic [TW-1:0] cfg_activate,
    input logic [TW-1:0] cfg_barrier,

    // Host ports. P(host_proc)'s instruction memory, local memory and index sets.
    input  logic           imem_we,
    input  logic [ NB-1:0] host_proc,
    input  logic [PCW-1:0] imem_addr,
    input  logic [ IW-1:0] imem_wdata,
    input  logic           lm_we,
    input  logic [LAW-1:0] lm_addr,
    input  logic [  W-1:0] lm_wdata,
    output logic [  W-1:0] lm_rdata,
    input  logic           idx_we,
    input  logic [ SB-1:0] idx_set,
    input  logic [ NB-1:0] idx_pos,
    input  logic [ NB-1:0] idx_buf,
    // Module M(host_a, host_b): omp M(row, column); crossbar M(bus, slot); bus M(0, slot).
    input  logic           mod_we,
    input  logic [ NB-1:0] mod_a,
    input  logic [ NB-1:0] mod_b,
    input  logic [ AW-1:0] mod_addr,
    input  logic [  W-1:0] mod_wdata,
    output logic [  W-1:0] mod_rdata,

    input  logic go,       // every processor starts at op 0
    output logic settled,  // the processors and the sync unit: nothing to do before the tick

    // Per processor, P(i)'s at [i*WIDTH +: WIDTH].
    output logic [    N-1:0] running,
    output logic [    N-1:0] finished,
    output logic [N*PCW-1:0] pc,
    output logic [  N*3-1:0] activity,  // processor.sv's classes
    output logic [    N-1:0] mark,
    output logic [N*STW-1:0] mark_step,
    output logic [ N*32-1:0] ops,
    output logic [ N*32-1:0] compute_cycles,
    output logic [ N*32-1:0] memory_cycles,
    output logic [ N*32-1:0] sync_cycles,

    // Per bus controller: its bus.
    output logic [   N-1:0] bus_valid,
    output logic [ 2*N-1:0] bus_mode,
    output logic [   N-1:0] bus_write,
    output logic [N*NB-1:0] bus_sel,
    output logic [N*AW-1:0] bus_addr,
    output logic [ N*W-1:0] bus_data,
    output logic [   N-1:0] bc_busy,
    output logic [   N-1:0] bc_done,
    output logic [   N-1:0] bc_last,

    // Statistics: the sync unit's and the memory side's arbiter's (saturating).
    output logic [31:0] barriers,
    output logic [31:0] bus_switches,
    output logic [31:0] syncs_delivered,
    output logic [31:0] int_conflicts,
    output logic [31:0] int_wait_cycles,
    output logic        int_busy,
    output logic        token_overflow,
    output logic [31:0] wait_cycles,
    output logic [31:0] conflicts,
    output logic        collision
);
  // The host ports, or constants (HOST = 0).
  logic h_imem_we, h_lm_we, h_idx_we, h_mod_we;
  logic [NB-1:0] h_proc, h_mod_a, h_mod_b;
  logic [AW-1:0] h_mod_addr;
  if (HOST != 0) begin : g_host
    assign h_imem_we = imem_we;
    assign h_lm_we = lm_we;
    assign h_idx_we = idx_we;
    assign h_mod_we = mod_we;
    assign h_proc = host_proc;
    assign h_mod_a = mod_a;
    assign h_mod_b = mod_b;
    assign h_mod_addr = mod_addr;
  end else begin : g_no_host
    assign h_imem_we = 1'b0;
    assign h_lm_we = 1'b0;
    assign h_idx_we = 1'b0;
    assign h_mod_we = 1'b0;
    assign h_proc = '0;
    assign h_mod_a = '0;
    assign h_mod_b = '0;
    assign h_mod_addr = '0;
    logic unused_host;
    assign unused_host = ^{imem_we, lm_we, idx_we, mod_we, host_proc, mod_a, mod_b, mod_addr};
  end

  // The machine-cycle blocks' clock: the tick edges only.
  logic mclk;
  assign mclk = clk & tick;

  // ---- wires between the blocks -----------------------------------------------------------------
  logic [N-1:0] p_settled;
  logic [N-1:0] req, hold, req_col, grant, bus_write_w, bus_valid_w;
  logic [N*N-1:0] req_mask;
  logic [2*N-1:0] bus_mode_w;
  logic [N*NB-1:0] bus_sel_w;
  logic [N*AW-1:0] bus_addr_w;
  logic [N*W-1:0] bus_wdata, bus_rdata;
  logic [N*BB-1:0] req_bus;
  logic [N-1:0] act_req, act_done, ws_valid, ws_ok, rv_valid, rv_kind, rv_release, act_grant;
  logic [N*N-1:0] act_targets, rv_group;
  logic [N*NB-1:0] ws_src;
  logic [N*W-1:0] lm_rdata_all;
  logic s_settled;

  for (genvar i = 0; i < N; i++) begin : g_node
    logic bc_start, acc_write, acc_col;
    logic [NB-1:0] acc_bus;
    logic [NCW-1:0] acc_degree;
    logic [N*NB-1:0] acc_slots;
    logic [AW-1:0] acc_addr;
    logic [LCW-1:0] acc_vectors;
    logic [SB-1:0] acc_set;
    logic [LPW-1:0] loc_we;
    logic [NB-1:0] loc_buf;
    logic [LB-1:0] loc_word;
    logic [LPW*W-1:0] loc_wdata, loc_rdata;
    logic [SB-1:0] im_set;
    logic [NB-1:0] im_pos, im_buf;
    logic [LB-1:0] im_vec;
    logic im_we;
    logic [W-1:0] im_wdata, im_rdata;
    logic here;  // the host ports address P(i)
    assign here = h_proc == NB'(i);
    // The crossbar's controllers drive their bus in row mode; only the omp has column buses.
    logic bc_col;
    assign bc_col = (ARCH == 0) ? acc_col : 1'b0;

    processor #(
        .N(N),
        .L(L),
        .S(S),
        .W(W),
        .DEPTH(DEPTH),
        .LOCAL(LOCAL),
        .IMEM(IMEM),
        .CYW(CYW),
        .STW(STW),
        .LPW(LPW)
    ) p (
        .clk(clk),
        .rst_n(rst_n),
        .tick(tick),
        .imem_we(h_imem_we && here),
        .imem_addr(imem_addr),
        .imem_wdata(imem_wdata),
        .go(go),
        .running(running[i]),
        .finished(finished[i]),
        .pc(pc[i*PCW+:PCW]),
        .activity(activity[i*3+:3]),
        .settled(p_settled[i]),
        .mark(mark[i]),
        .mark_step(mark_step[i*STW+:STW]),
        .lm_we(h_lm_we && here),
        .lm_addr(lm_addr),
        .lm_wdata(lm_wdata),
        .lm_rdata(lm_rdata_all[i*W+:W]),
        .bc_start(bc_start),
        .acc_write(acc_write),
        .acc_col(acc_col),
        .acc_bus(acc_bus),
        .acc_degree(acc_degree),
        .acc_slots(acc_slots),
        .acc_addr(acc_addr),
        .acc_vectors(acc_vectors),
        .acc_set(acc_set),
        .bc_done(bc_done[i]),
        .loc_we(loc_we),
        .loc_buf(loc_buf),
        .loc_word(loc_word),
        .loc_wdata(loc_wdata),
        .loc_rdata(loc_rdata),
        .act_req(act_req[i]),
        .act_targets(act_targets[i*N+:N]),
        .act_done(act_done[i]),
        .ws_valid(ws_valid[i]),
        .ws_src(ws_src[i*NB+:NB]),
        .ws_ok(ws_ok[i]),
        .rv_valid(rv_valid[i]),
        .rv_kind(rv_kind[i]),
        .rv_group(rv_group[i*N+:N]),
        .rv_release(rv_release[i]),
        .ops(ops[i*32+:32]),
        .compute_cycles(compute_cycles[i*32+:32]),
        .memory_cycles(memory_cycles[i*32+:32]),
        .sync_cycles(sync_cycles[i*32+:32])
    );

    // The crossbar's bus of this access; 0 on the single bus (and unused on the omp).
    assign req_bus[i*BB+:BB] = (BUSES > 1) ? BB'(acc_bus) : BB'(0);
    logic unused_acc_bus;  // the single bus has one bus: the field is 0
    assign unused_acc_bus = ^acc_bus;

    // The processor issues an IWR step as write, bus switch, read (docs/rtl.md, processor), so
    // the controller's own IWR sequencing (`iwr`, `rd_*`) is not used.
    bus_controller #(
        .N(N),
        .L(L),
        .S(S),
        .W(W),
        .DEPTH(DEPTH),
        .TW(TW)
    ) bc (
        .clk(mclk),
        .rst_n(rst_n),
        .cfg_we(cfg_we),
        .cfg_alpha(cfg_alpha),
        .cfg_beta(cfg_beta),
        .cfg_tau(cfg_tau),
        .cfg_gamma(cfg_gamma),
        .start(bc_start),
        .iwr(1'b0),
        .acc_write(acc_write),
        .acc_col(bc_col),
        .acc_degree(acc_degree),
        .acc_slots(acc_slots),
        .acc_addr(acc_addr),
        .acc_vectors(acc_vectors),
        .acc_set(acc_set),
        .rd_col(1'b0),
        .rd_degree(NCW'(0)),
        .rd_slots((N * NB)'(0)),
        .rd_addr(AW'(0)),
        .rd_vectors(LCW'(0)),
        .rd_set(SB'(0)),
        .req(req[i]),
        .hold(hold[i]),
        .req_col(req_col[i]),
        .req_mask(req_mask[i*N+:N]),
        .grant(grant[i]),
        .bus_valid(bus_valid_w[i]),
        .bus_mode(bus_mode_w[2*i+:2]),
        .bus_write(bus_write_w[i]),
        .bus_sel(bus_sel_w[i*NB+:NB]),
        .bus_addr(bus_addr_w[i*AW+:AW]),
        .bus_wdata(bus_wdata[i*W+:W]),
        .bus_rdata(bus_rdata[i*W+:W]),
        .bus_data(bus_data[i*W+:W]),
        .busy(bc_busy[i]),
        .done(bc_done[i]),
        .last(bc_last[i]),
        .im_set(im_set),
        .im_pos(im_pos),
        .im_vec(im_vec),
        .im_we(im_we),
        .im_wdata(im_wdata),
        .im_rdata(im_rdata)
    );

    index_manipulator #(
        .N(N),
        .L(L),
        .S(S),
        .W(W),
        .LPW(LPW)
    ) im (
        .clk(clk),
        .idx_we(h_idx_we && here),
        .idx_set(idx_set),
        .idx_pos(idx_pos),
        .idx_buf(idx_buf),
        .ac_set(im_set),
        .ac_pos(im_pos),
        .ac_vec(im_vec),
        .ac_buf(im_buf),
        .ac_we(im_we),
        .ac_wdata(im_wdata),
        .ac_rdata(im_rdata),
        .loc_we(loc_we),
        .loc_buf(loc_buf),
        .loc_word(loc_word),
        .loc_wdata(loc_wdata),
        .loc_rdata(loc_rdata)
    );
    // The buffer that position p maps to is the index manipulator's business only.
    logic unused_im_buf;
    assign unused_im_buf = ^im_buf;
  end

  assign lm_rdata = lm_rdata_all[32'(h_proc)*W+:W];
  assign bus_valid = bus_valid_w;
  assign bus_mode = bus_mode_w;
  assign bus_write = bus_write_w;
  assign bus_sel = bus_sel_w;
  assign bus_addr = bus_addr_w;

  // ---- the memory side --------------------------------------------------------------------------
  if (ARCH == 0) begin : g_omp
    module_array #(
        .N(N),
        .W(W),
        .DEPTH(DEPTH)
    ) modules (
        .clk(mclk),
        .rst_n(rst_n),
        .req(req),
        .hold(hold),
        .req_col(req_col),
        .req_mask(req_mask),
        .grant(grant),
        .wait_cycles(wait_cycles),
        .conflicts(conflicts),
        .collision(collision),
        .bus_mode(bus_mode_w),
        .bus_sel(bus_sel_w),
        .bus_addr(bus_addr_w),
        .bus_wdata(bus_wdata),
        .bus_write(bus_write_w),
        .bus_valid(bus_valid_w),
        .bus_rdata(bus_rdata),
        .host_we(h_mod_we),
        .host_row(h_mod_a),
        .host_col(h_mod_b),
        .host_addr(h_mod_addr),
        .host_wdata(mod_wdata),
        .host_rdata(mod_rdata)
    );
    logic unused_req_bus;
    assign unused_req_bus = ^req_bus;
  end else begin : g_buses
    crossbar_array #(
        .N(N),
        .BUSES(BUSES),
        .W(W),
        .DEPTH(DEPTH)
    ) modules (
        .clk(mclk),
        .rst_n(rst_n),
        .req(req),
        .hold(hold),
        .req_bus(req_bus),
        .grant(grant),
        .wait_cycles(wait_cycles),
        .conflicts(conflicts),
        .collision(collision),
        .bus_mode(bus_mode_w),
        .bus_sel(bus_sel_w),
        .bus_addr(bus_addr_w),
        .bus_wdata(bus_wdata),
        .bus_write(bus_write_w),
        .bus_valid(bus_valid_w),
        .bus_rdata(bus_rdata),
        .host_we(h_mod_we),
        .host_bus((BUSES > 1) ? BB'(h_mod_a) : BB'(0)),
        .host_slot(h_mod_b),
        .host_addr(h_mod_addr),
        .host_wdata(mod_wdata),
        .host_rdata(mod_rdata)
    );
    // A bus's modules are reached through that bus: the column/row choice and the slot mask
    // matter on the omp only.
    logic unused_omp_request;
    assign unused_omp_request = ^{req_col, req_mask, h_mod_a};
  end

  // ---- synchronization --------------------------------------------------------------------------
  sync_unit #(
      .N  (N),
      .CW (TW),
      .TKW(TKW)
  ) sync (
      .clk(clk),
      .rst_n(rst_n),
      .tick(tick),
      .cfg_we(cfg_we),
      .cfg_activate(cfg_activate),
      .cfg_barrier(cfg_barrier),
      .cfg_gamma(cfg_gamma),
      .act_req(act_req),
      .act_targets(act_targets),
      .act_grant(act_grant),
      .act_done(act_done),
      .int_busy(int_busy),
      .ws_valid(ws_valid),
      .ws_src(ws_src),
      .ws_ok(ws_ok),
      .rv_valid(rv_valid),
      .rv_kind(rv_kind),
      .rv_group(rv_group),
      .rv_release(rv_release),
      .settled(s_settled),
      .barriers(barriers),
      .bus_switches(bus_switches),
      .syncs_delivered(syncs_delivered),
      .int_conflicts(int_conflicts),
      .int_wait_cycles(int_wait_cycles),
      .token_overflow(token_overflow)
  );
  logic unused_act_grant;
  assign unused_act_grant = ^act_grant;

  assign settled = s_settled && &p_settled;

endmodule
