// Self-checking bench of processor: four processors on the omp, each with its bus controller
// and index manipulator, the module array and the sync unit, running machine programs encoded
// as docs/rtl.md (processor) lays them out. The bench records the machine cycle in which each
// op ends and compares it with the cycles worked out by hand below from the model's rules
// (sc::Processor, sc::SyncUnit, Fig. 5):
//   compute c ends c cycles after it starts; an access granted in G ends in
//   G + alpha + beta(l-1) + d tau l; an activate-sync granted in G ends in G + A and delivers
//   then; a wait-sync ends when its token is there; a barrier (bus switch) whose last member
//   arrives in t ends in t + B (t + gamma); buffer copies, step marks and compute 0 take no time.
// It also checks the words that travel (local memory -> buffer -> module -> buffer -> local
// memory), the step marks' cycles, the activities and the statistics; and, on a fifth processor
// alone with a wider local port (P(wide), LPW = 3), the zero-time steps of each buffer copy, the
// words next to a copy, a step mark's step, go and reset.
// Clocking: processors, index manipulators and the sync unit see every edge (zero-time steps
// and the tick); the bus controllers and the module array see the tick edges only.
// Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012) and Verilator (--binary
// --timing).
module tb_processor;
  localparam int N = 4;
  localparam int L = 8;
  localparam int S = 4;
  localparam int W = 32;
  localparam int DEPTH = 16;
  localparam int TW = 16;
  localparam int LOCAL = 32;
  localparam int IMEM = 16;
  localparam int CYW = 24;
  localparam int STW = 16;
  localparam int NB = 2;
  localparam int NCW = 3;
  localparam int LB = 3;
  localparam int LCW = 4;
  localparam int SB = 2;
  localparam int AW = 4;
  localparam int LAW = 5;
  localparam int PCW = 4;
  // The instruction width, docs/rtl.md: 4 + max(access fields 2 + NB + NCW + N NB + AW + LCW +
  // SB = 25, CYW = 24, copy fields NB + LB + LAW + LCW = 14, STW = 16, N = 4) = 29.
  localparam int IW = 29;
  localparam int NEVER = -1;

  logic clk = 1'b0;  // every edge
  logic mclk = 1'b0;  // tick edges only
  logic tick = 1'b0;
  logic rst_n = 1'b0;
  logic go = 1'b0;
  logic imem_we = 1'b0;
  logic [PCW-1:0] imem_addr = '0;
  logic [IW-1:0] imem_wdata = '0;
  logic [N-1:0] imem_sel = '0;
  logic lm_we = 1'b0;
  logic [N-1:0] lm_sel = '0;
  logic [LAW-1:0] lm_addr = '0;
  logic [W-1:0] lm_wdata = '0;
  logic idx_we = 1'b0;
  logic [SB-1:0] idx_set = '0;
  logic [NB-1:0] idx_pos = '0, idx_buf = '0;
  logic bcfg_we = 1'b0;
  logic scfg_we = 1'b0;
  logic [TW-1:0] alpha_r = '0, beta_r = '0, tau_r = '0, gamma_r = '0;
  logic [15:0] act_r = '0, bar_r = '0;

  logic [N-1:0] running, finished, p_settled, mark;
  logic [N*PCW-1:0] pc;
  logic [N*3-1:0] activity;
  logic [N*W-1:0] lm_rdata;
  logic [N*32-1:0] ops, compute_cycles, memory_cycles, sync_cycles;
  logic [N*STW-1:0] mark_step;
  logic [N-1:0] act_req, act_done, ws_valid, ws_ok, rv_valid, rv_kind, rv_release;
  logic [N*N-1:0] act_targets, rv_group;
  logic [N*NB-1:0] ws_src;
  logic [N-1:0] act_grant;
  logic int_busy, s_settled, token_overflow;
  logic [31:0] barriers, bus_switches, syncs_delivered, int_conflicts, int_wait_cycles;
  logic [N-1:0] req, hold, req_col, grant, bus_valid, bus_write, busy, done, last;
  logic [N*N-1:0] req_mask;
  logic [2*N-1:0] bus_mode;
  logic [N*NB-1:0] bus_sel;
  logic [N*AW-1:0] bus_addr;
  logic [N*W-1:0] bus_wdata, bus_rdata, bus_data;
  logic [31:0] wait_cycles, conflicts;
  logic collision;
  logic [W-1:0] host_rdata;

  for (genvar i = 0; i < N; i++) begin : g_node
    logic bc_start, acc_write, acc_col;
    logic [NB-1:0] acc_bus;
    logic [NCW-1:0] acc_degree;
    logic [N*NB-1:0] acc_slots;
    logic [AW-1:0] acc_addr;
    logic [LCW-1:0] acc_vectors;
    logic [SB-1:0] acc_set;
    logic loc_we;
    logic [NB-1:0] loc_buf;
    logic [LB-1:0] loc_word;
    logic [W-1:0] loc_wdata, loc_rdata;
    logic [SB-1:0] im_set;
    logic [NB-1:0] im_pos, im_buf;
    logic [LB-1:0] im_vec;
    logic im_we;
    logic [W-1:0] im_wdata, im_rdata;

    processor #(
        .N(N),
        .L(L),
        .S(S),
        .W(W),
        .DEPTH(DEPTH),
        .LOCAL(LOCAL),
        .IMEM(IMEM),
        .CYW(CYW),
        .STW(STW)
    ) p (
        .clk(clk),
        .rst_n(rst_n),
        .tick(tick),
        .imem_we(imem_we && imem_sel[i]),
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
        .lm_we(lm_we && lm_sel[i]),
        .lm_addr(lm_addr),
        .lm_wdata(lm_wdata),
        .lm_rdata(lm_rdata[i*W+:W]),
        .bc_start(bc_start),
        .acc_write(acc_write),
        .acc_col(acc_col),
        .acc_bus(acc_bus),
        .acc_degree(acc_degree),
        .acc_slots(acc_slots),
        .acc_addr(acc_addr),
        .acc_vectors(acc_vectors),
        .acc_set(acc_set),
        .bc_done(done[i]),
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
        .cfg_we(bcfg_we),
        .cfg_alpha(alpha_r),
        .cfg_beta(beta_r),
        .cfg_tau(tau_r),
        .cfg_gamma(gamma_r),
        .start(bc_start),
        .iwr(1'b0),
        .acc_write(acc_write),
        .acc_col(acc_col),
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
        .bus_valid(bus_valid[i]),
        .bus_mode(bus_mode[2*i+:2]),
        .bus_write(bus_write[i]),
        .bus_sel(bus_sel[i*NB+:NB]),
        .bus_addr(bus_addr[i*AW+:AW]),
        .bus_wdata(bus_wdata[i*W+:W]),
        .bus_rdata(bus_rdata[i*W+:W]),
        .bus_data(bus_data[i*W+:W]),
        .busy(busy[i]),
        .done(done[i]),
        .last(last[i]),
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
        .W(W)
    ) im (
        .clk(clk),
        .idx_we(idx_we),
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
  end

  module_array #(
      .N(N),
      .W(W),
      .DEPTH(DEPTH)
  ) ma (
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
      .bus_mode(bus_mode),
      .bus_sel(bus_sel),
      .bus_addr(bus_addr),
      .bus_wdata(bus_wdata),
      .bus_write(bus_write),
      .bus_valid(bus_valid),
      .bus_rdata(bus_rdata),
      .host_we(1'b0),
      .host_row(NB'(0)),
      .host_col(NB'(0)),
      .host_addr(AW'(0)),
      .host_wdata(W'(0)),
      .host_rdata(host_rdata)
  );

  sync_unit #(
      .N (N),
      .CW(16)
  ) sync (
      .clk(clk),
      .rst_n(rst_n),
      .tick(tick),
      .cfg_we(scfg_we),
      .cfg_activate(act_r),
      .cfg_barrier(bar_r),
      .cfg_gamma(gamma_r),
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

  // ---- P(wide): a processor alone, with a wider local port --------------------------------------
  // Its own index manipulator, LPW = 3 words per local port access (3 does not divide the buffer's
  // 8 words, so a copy's last step may move fewer and its word index wraps inside the buffer); no
  // controller and no sync unit, their completion inputs held low: it runs only the ops that need
  // neither (buffer copies, computes, step marks). Its own go, instruction and local memory
  // writes; the rest of the host port and the reset are the other processors' too.
  localparam int WLPW = 3;
  logic w_go = 1'b0, w_imem_we = 1'b0, w_lm_we = 1'b0;
  logic w_running, w_finished, w_settled, w_mark;
  logic [PCW-1:0] w_pc;
  logic [2:0] w_activity;
  logic [STW-1:0] w_mark_step;
  logic [W-1:0] w_lm_rdata;
  logic [31:0] w_ops, w_compute_cycles, w_memory_cycles, w_sync_cycles;
  logic w_bc_start, w_acc_write, w_acc_col;
  logic [NB-1:0] w_acc_bus;
  logic [NCW-1:0] w_acc_degree;
  logic [N*NB-1:0] w_acc_slots;
  logic [AW-1:0] w_acc_addr;
  logic [LCW-1:0] w_acc_vectors;
  logic [SB-1:0] w_acc_set;
  logic [WLPW-1:0] w_loc_we;
  logic [NB-1:0] w_loc_buf, w_ac_buf;
  logic [LB-1:0] w_loc_word;
  logic [WLPW*W-1:0] w_loc_wdata, w_loc_rdata;
  logic [W-1:0] w_ac_rdata;
  logic w_act_req, w_ws_valid, w_rv_valid, w_rv_kind;
  logic [N-1:0] w_act_targets, w_rv_group;
  logic [NB-1:0] w_ws_src;

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
      .LPW(WLPW)
  ) wide (
      .clk(clk),
      .rst_n(rst_n),
      .tick(tick),
      .imem_we(w_imem_we),
      .imem_addr(imem_addr),
      .imem_wdata(imem_wdata),
      .go(w_go),
      .running(w_running),
      .finished(w_finished),
      .pc(w_pc),
      .activity(w_activity),
      .settled(w_settled),
      .mark(w_mark),
      .mark_step(w_mark_step),
      .lm_we(w_lm_we),
      .lm_addr(lm_addr),
      .lm_wdata(lm_wdata),
      .lm_rdata(w_lm_rdata),
      .bc_start(w_bc_start),
      .acc_write(w_acc_write),
      .acc_col(w_acc_col),
      .acc_bus(w_acc_bus),
      .acc_degree(w_acc_degree),
      .acc_slots(w_acc_slots),
      .acc_addr(w_acc_addr),
      .acc_vectors(w_acc_vectors),
      .acc_set(w_acc_set),
      .bc_done(1'b0),
      .loc_we(w_loc_we),
      .loc_buf(w_loc_buf),
      .loc_word(w_loc_word),
      .loc_wdata(w_loc_wdata),
      .loc_rdata(w_loc_rdata),
      .act_req(w_act_req),
      .act_targets(w_act_targets),
      .act_done(1'b0),
      .ws_valid(w_ws_valid),
      .ws_src(w_ws_src),
      .ws_ok(1'b0),
      .rv_valid(w_rv_valid),
      .rv_kind(w_rv_kind),
      .rv_group(w_rv_group),
      .rv_release(1'b0),
      .ops(w_ops),
      .compute_cycles(w_compute_cycles),
      .memory_cycles(w_memory_cycles),
      .sync_cycles(w_sync_cycles)
  );

  index_manipulator #(
      .N(N),
      .L(L),
      .S(S),
      .W(W),
      .LPW(WLPW)
  ) wide_im (
      .clk(clk),
      .idx_we(1'b0),
      .idx_set(SB'(0)),
      .idx_pos(NB'(0)),
      .idx_buf(NB'(0)),
      .ac_set(SB'(0)),
      .ac_pos(NB'(0)),
      .ac_vec(LB'(0)),
      .ac_buf(w_ac_buf),
      .ac_we(1'b0),
      .ac_wdata(W'(0)),
      .ac_rdata(w_ac_rdata),
      .loc_we(w_loc_we),
      .loc_buf(w_loc_buf),
      .loc_word(w_loc_word),
      .loc_wdata(w_loc_wdata),
      .loc_rdata(w_loc_rdata)
  );

  `include "bench_checks.svh"

  // ---- encoding (docs/rtl.md, processor) ------------------------------------------------------
  function automatic logic [IW-1:0] op_compute(input int c);
    return IW'({CYW'(c), 4'd1});
  endfunction
  // An access: d slots from `first` rotating, on RB(i)/CB(i) (col) of the omp.
  function automatic logic [IW-1:0] op_access(input bit write, input bit col, input int d,
                                               input int first, input int addr, input int l,
                                               input int set);
    logic [N*NB-1:0] slots;
    slots = '0;
    for (int p = 0; p < d; p++) slots[p*NB+:NB] = NB'((first + p) % N);
    return IW'({SB'(set), LCW'(l), AW'(addr), slots, NCW'(d), NB'(0), col, write, 4'd2});
  endfunction
  function automatic logic [IW-1:0] op_mask(input int opcode, input int m);
    return IW'({N'(m), 4'(opcode)});
  endfunction
  function automatic logic [IW-1:0] op_waitsync(input int src);
    return IW'({NB'(src), 4'd6});
  endfunction
  function automatic logic [IW-1:0] op_copy(input bit store, input int buffer, input int word,
                                             input int local_addr, input int words);
    return IW'({LCW'(words), LAW'(local_addr), LB'(word), NB'(buffer), store ? 4'd8 : 4'd7});
  endfunction
  function automatic logic [IW-1:0] op_mark(input int step);
    return IW'({STW'(step), 4'd9});
  endfunction
  localparam logic [IW-1:0] HALT = '0;
  localparam int OP_BUSSWITCH = 3;
  localparam int OP_BARRIER = 4;
  localparam int OP_ACTIVATE = 5;

  // ---- the programs and what the bench saw -------------------------------------------------------
  logic [IW-1:0] prog[N][IMEM];
  int want_end[N][IMEM];  // machine cycle in which op k ends (relative to the go cycle)
  int got_end[N][IMEM];
  int got_mark[N];
  localparam int CYCLES = 64;  // activities recorded per run
  logic [31:0] got_activity[N][CYCLES];  // P(i)'s activity in machine cycle c, before its tick
  int cyc;

  task automatic edge_(input logic t);
    logic [N*PCW-1:0] pc_before;
    pc_before = pc;
    for (int i = 0; i < N; i++) begin
      if (mark[i]) got_mark[i] = cyc;
    end
    tick = t;
    #1;
    clk = 1'b1;
    mclk = t;
    #1;
    clk = 1'b0;
    mclk = 1'b0;
    tick = 1'b0;
    #1;
    for (int i = 0; i < N; i++) begin
      if (running[i] && pc[i*PCW+:PCW] != pc_before[i*PCW+:PCW]) begin
        got_end[i][pc_before[i*PCW+:PCW]] = cyc;
      end
    end
  endtask

  // A machine cycle: zero-time steps until everything is settled, then the tick.
  task automatic machine_cycle;
    int steps;
    steps = 0;
    #1;
    while (!(s_settled && &p_settled)) begin
      edge_(1'b0);
      steps++;
      if (steps > 64) $fatal(1, "tb_processor: no settling in cycle %0d", cyc);
    end
    for (int i = 0; i < N; i++) begin
      if (cyc < CYCLES) got_activity[i][cyc] = 32'(activity[i*3+:3]);
    end
    edge_(1'b1);
    cyc++;
  endtask

  task automatic load_and_run(input string name, input int a, input int b, input int t,
                              input int g, input int act, input int bar, input int last_cycle);
    // Reset, timing and cost registers, index sets, programs, local memories.
    rst_n = 1'b0;
    edge_(1'b1);
    rst_n = 1'b1;
    alpha_r = TW'(a);
    beta_r = TW'(b);
    tau_r = TW'(t);
    gamma_r = TW'(g);
    act_r = 16'(act);
    bar_r = 16'(bar);
    bcfg_we = 1'b1;
    scfg_we = 1'b1;
    edge_(1'b1);
    bcfg_we = 1'b0;
    scfg_we = 1'b0;
    for (int s = 0; s < S; s++) begin
      for (int p = 0; p < N; p++) begin
        idx_we = 1'b1;
        idx_set = SB'(s);
        idx_pos = NB'(p);
        idx_buf = NB'(s == 0 ? p : (s == 1 ? N - 1 - p : (p + s) % N));
        edge_(1'b0);
      end
    end
    idx_we = 1'b0;
    for (int i = 0; i < N; i++) begin
      imem_sel = N'(1) << i;
      lm_sel = N'(1) << i;
      for (int k = 0; k < IMEM; k++) begin
        imem_we = 1'b1;
        imem_addr = PCW'(k);
        imem_wdata = prog[i][k];
        edge_(1'b0);
      end
      imem_we = 1'b0;
      for (int k = 0; k < LOCAL; k++) begin
        lm_we = 1'b1;
        lm_addr = LAW'(k);
        lm_wdata = 32'h1000_0000 | 32'(i << 8) | 32'(k);
        edge_(1'b0);
      end
      lm_we = 1'b0;
    end
    for (int i = 0; i < N; i++) begin
      got_mark[i] = NEVER;
      for (int k = 0; k < IMEM; k++) got_end[i][k] = NEVER;
      for (int c = 0; c < CYCLES; c++) got_activity[i][c] = NEVER;
    end
    go = 1'b1;
    edge_(1'b0);
    go = 1'b0;
    for (cyc = 0; cyc <= last_cycle; cyc++) begin
      machine_cycle();
      cyc--;  // machine_cycle counts
    end
    for (int i = 0; i < N; i++) begin
      for (int k = 0; k < IMEM; k++) begin
        if (prog[i][k] != HALT || k == 0 || prog[i][k-1] != HALT) begin
          check($sformatf("%s: P%0d op %0d end cycle", name, i, k), got_end[i][k],
                want_end[i][k]);
        end
      end
    end
    check($sformatf("%s: collision", name), 32'(collision), 0);
  endtask

  task automatic clear;
    for (int i = 0; i < N; i++) begin
      for (int k = 0; k < IMEM; k++) begin
        prog[i][k] = HALT;
        want_end[i][k] = NEVER;
      end
    end
  endtask

  function automatic int local_word(input int i, input int k);
    return 32'h1000_0000 | (i << 8) | k;
  endfunction

  task automatic read_local(input int i, input int k, output int w);
    lm_sel = N'(1) << i;
    lm_addr = LAW'(k);
    #1;
    w = int'(lm_rdata[i*W+:W]);
  endtask

  // P(wide)'s edges and machine cycles. While P(wide) is at op host_op, its edges also carry a
  // host write of lm_wdata to local lm_addr (set by the caller).
  localparam int WIDE = 4;  // P(wide)'s words in its local memory: local_word(WIDE, k)
  logic [IW-1:0] w_prog[IMEM];
  int w_end[IMEM];
  int w_mark_cycle, w_mark_step_seen;
  int w_host_op;
  task automatic wide_edge(input logic t);
    logic [PCW-1:0] pc_before;
    pc_before = w_pc;
    if (w_mark) begin
      w_mark_cycle = cyc;
      w_mark_step_seen = int'(w_mark_step);
    end
    w_lm_we = w_running && w_pc == PCW'(w_host_op);
    tick = t;
    #1;
    clk = 1'b1;
    mclk = t;
    #1;
    clk = 1'b0;
    mclk = 1'b0;
    tick = 1'b0;
    w_lm_we = 1'b0;
    #1;
    if (w_running && w_pc != pc_before) w_end[pc_before] = cyc;
  endtask
  // Zero-time steps until P(wide) is settled (their number in `steps`, its activity then in
  // `activity_now`), then the tick.
  task automatic wide_cycle(output int steps, output logic [31:0] activity_now);
    steps = 0;
    #1;
    while (!w_settled) begin
      wide_edge(1'b0);
      steps++;
      if (steps > 64) $fatal(1, "tb_processor: P(wide) no settling in cycle %0d", cyc);
    end
    activity_now = 32'(w_activity);
    wide_edge(1'b1);
    cyc++;
  endtask

  task automatic read_wide_local(input int k, output int w);
    lm_addr = LAW'(k);
    #1;
    w = int'(w_lm_rdata);
  endtask

  int A, B, G, al, be, ta, D1, D2, t1, t2, w;
  initial begin
    // ---- 1. producer/consumer hand-over and an IWR exchange ----------------------------------
    al = 3;
    be = 1;
    ta = 2;
    G = 4;
    A = 2;
    B = 3;
    clear();
    // P0: copy local 0..1 to buffer 0, compute 5, write M(0,1) words 4..5 over RB(0), signal P1.
    D1 = al + be * (2 - 1) + 1 * ta * 2;  // d = 1, l = 2
    prog[0][0] = op_copy(0, 0, 0, 0, 2);
    prog[0][1] = op_compute(5);
    prog[0][2] = op_access(1, 0, 1, 1, 4, 2, 0);
    prog[0][3] = op_mask(OP_ACTIVATE, 'b0010);
    want_end[0][0] = 0;
    want_end[0][1] = 5;
    want_end[0][2] = 5 + D1;
    want_end[0][3] = 5 + D1 + A;
    // P1: wait for P0, read M(0,1) words 4..5 over CB(1) (slot 0), store to local 20..21, mark.
    prog[1][0] = op_waitsync(0);
    prog[1][1] = op_access(0, 1, 1, 0, 4, 2, 0);
    prog[1][2] = op_copy(1, 0, 0, 20, 2);
    prog[1][3] = op_mark(7);
    want_end[1][0] = 5 + D1 + A;
    want_end[1][1] = 5 + D1 + A + D1;
    want_end[1][2] = 5 + D1 + A + D1;
    want_end[1][3] = 5 + D1 + A + D1;
    // P2 and P3: barrier (P2 computes 7 first), then an IWR step of the group {2,3}: each writes
    // its word to the other's module over its row bus, bus switch, reads over its column bus.
    D2 = al + ta;  // scalar
    prog[2][0] = op_copy(0, 3, 0, 2, 1);  // local 2 -> buffer 3
    prog[2][1] = op_compute(7);
    prog[2][2] = op_mask(OP_BARRIER, 'b1100);
    prog[2][3] = op_access(1, 0, 1, 3, 9, 1, 1);  // M(2,3) <- buffer 3 (set 1: rho(0) = 3)
    prog[2][4] = op_mask(OP_BUSSWITCH, 'b1100);
    prog[2][5] = op_access(0, 1, 1, 3, 9, 1, 0);  // M(3,2) -> buffer 0
    prog[2][6] = op_copy(1, 0, 0, 30, 1);
    prog[3][0] = op_copy(0, 0, 0, 3, 1);  // local 3 -> buffer 0
    prog[3][1] = op_mask(OP_BARRIER, 'b1100);
    prog[3][2] = op_access(1, 0, 1, 2, 9, 1, 0);  // M(3,2) <- buffer 0
    prog[3][3] = op_mask(OP_BUSSWITCH, 'b1100);
    prog[3][4] = op_access(0, 1, 1, 2, 9, 1, 0);  // M(2,3) -> buffer 0
    prog[3][5] = op_copy(1, 0, 0, 31, 1);
    t1 = 7 + B;  // the barrier's release
    t2 = t1 + D2 + G;  // the bus switch's release
    want_end[2][0] = 0;
    want_end[2][1] = 7;
    want_end[2][2] = t1;
    want_end[2][3] = t1 + D2;
    want_end[2][4] = t2;
    want_end[2][5] = t2 + D2;
    want_end[2][6] = t2 + D2;
    want_end[3][0] = 0;
    want_end[3][1] = t1;
    want_end[3][2] = t1 + D2;
    want_end[3][3] = t2;
    want_end[3][4] = t2 + D2;
    want_end[3][5] = t2 + D2;
    load_and_run("hand-over and IWR", al, be, ta, G, A, B, 60);
    check("hand-over: P1's step mark cycle", got_mark[1], 5 + D1 + A + D1);
    // The words: P0's local 0..1 arrive in P1's local 20..21.
    for (int k = 0; k < 2; k++) begin
      read_local(1, 20 + k, w);
      check($sformatf("hand-over: P1 local %0d", 20 + k), w, local_word(0, k));
    end
    // The IWR exchange: P2's local 2 in P3's local 31, P3's local 3 in P2's local 30.
    read_local(2, 30, w);
    check("IWR: P2 got P3's local 3", w, local_word(3, 3));
    read_local(3, 31, w);
    check("IWR: P3 got P2's local 2", w, local_word(2, 2));
    check("statistics: P0 ops", 32'(ops[0+:32]), 4);
    check("statistics: P0 compute cycles", 32'(compute_cycles[0+:32]), 5);
    check("statistics: P0 memory cycles", 32'(memory_cycles[0+:32]), D1);
    check("statistics: P0 sync cycles", 32'(sync_cycles[0+:32]), A);
    check("statistics: P1 sync cycles", 32'(sync_cycles[32+:32]), 5 + D1 + A);
    check("statistics: P2 sync cycles", 32'(sync_cycles[64+:32]), B + G);
    check("statistics: P3 sync cycles", 32'(sync_cycles[96+:32]), 7 + B + G);
    check("statistics: P3 memory cycles", 32'(memory_cycles[96+:32]), 2 * D2);
    check("sync: barriers", 32'(barriers), 1);
    check("sync: bus switches", 32'(bus_switches), 1);
    check("sync: syncs delivered", 32'(syncs_delivered), 1);
    // Activities (processor.sv's classes) inside the ops above: P0 computes in 0..4, writes in
    // 5..5+D1-1, activates in 5+D1..5+D1+A-1, then halts; P1 waits for P0's token, then reads;
    // P2 is in its bus switch from t1 + D2 to t2; P3 in its barrier from 0 to t1.
    check("activity: P0 compute", got_activity[0][2], 1);
    check("activity: P0 write", got_activity[0][5], 3);
    check("activity: P0 activate-sync", got_activity[0][5+D1], 6);
    check("activity: P0 halted", got_activity[0][5+D1+A], 0);
    check("activity: P1 wait-sync", got_activity[1][0], 7);
    check("activity: P1 read", got_activity[1][5+D1+A], 2);
    check("activity: P2 bus switch", got_activity[2][t1+D2], 4);
    check("activity: P3 barrier", got_activity[3][0], 5);

    // ---- 2. contention, zero costs, zero-time chains -------------------------------------------
    al = 2;
    be = 0;
    ta = 1;
    G = 0;
    A = 0;
    B = 0;
    clear();
    // P0 writes M(0,1) (RB(0), slot 1) and P1 reads it (CB(1), slot 0), both in cycle 0: P0
    // first (lower id), P1 in P0's done cycle. D = alpha + d tau l with d = 2, l = 3.
    D1 = al + be * 2 + 2 * ta * 3;
    prog[0][0] = op_access(1, 0, 2, 1, 0, 3, 0);  // M(0,1), M(0,2)
    prog[0][1] = op_mask(OP_ACTIVATE, 'b1110);  // A = 0: delivered in the grant cycle
    prog[0][2] = op_compute(0);
    prog[0][3] = op_mark(1);
    want_end[0][0] = D1;
    want_end[0][1] = D1;
    want_end[0][2] = D1;
    want_end[0][3] = D1;
    prog[0][4] = op_waitsync(3);  // P3 signals after its barrier, in D1
    want_end[0][4] = D1;
    prog[1][0] = op_access(0, 1, 1, 0, 0, 3, 0);  // M(0,1) over CB(1)
    prog[1][1] = op_waitsync(0);  // P0's token since D1
    want_end[1][0] = D1 + (al + be * 2 + 1 * ta * 3);  // granted in D1, d = 1, l = 3
    want_end[1][1] = want_end[1][0];
    // P2 and P3: the interrupt bus with A = 0, a barrier with B = 0 in the last arrival's cycle.
    prog[2][0] = op_waitsync(0);
    prog[2][1] = op_mask(OP_BARRIER, 'b1100);
    prog[3][0] = op_compute(3);
    prog[3][1] = op_waitsync(0);
    prog[3][2] = op_mask(OP_BARRIER, 'b1100);
    prog[3][3] = op_mask(OP_ACTIVATE, 'b0001);  // the interrupt bus is free again in D1
    want_end[2][0] = D1;
    want_end[2][1] = D1;
    want_end[3][0] = 3;
    want_end[3][1] = D1;
    want_end[3][2] = D1;
    want_end[3][3] = D1;
    load_and_run("contention", al, be, ta, G, A, B, 40);
    check("contention: P0's step mark", got_mark[0], D1);
    check("contention: module conflicts", 32'(conflicts), 1);
    check("contention: module wait cycles", 32'(wait_cycles), D1);
    check("contention: P1 memory cycles (waits included)", 32'(memory_cycles[32+:32]),
          want_end[1][0]);
    check("contention: syncs delivered", 32'(syncs_delivered), 4);

    // ---- 3. the bus field (B(b) on the crossbar) reaches acc_bus (crossbar_array's req_bus) ----
    clear();
    prog[0][0] = op_access(0, 0, 1, 0, 0, 1, 0) | (IW'(2) << 6);  // bus 2 at [6 +: NB]
    load_and_run("bus field", al, be, ta, G, A, B, 0);  // stop in the access's first cycle
    check("bus field: acc_bus while the access is current", 32'(g_node[0].acc_bus), 2);

    // ---- 4. an access right after an access: the controller takes the second start in the
    // first's done cycle, so the second is entered and started then, not ended by that done ----
    al = 3;
    be = 1;
    ta = 2;
    D1 = al + be * (2 - 1) + 1 * ta * 2;  // d = 1, l = 2
    clear();
    prog[0][0] = op_copy(0, 0, 0, 0, 2);  // local 0..1 -> buffer 0
    prog[0][1] = op_access(1, 0, 1, 1, 4, 2, 0);  // M(0,1) words 4..5 <- buffer 0
    prog[0][2] = op_access(0, 0, 1, 1, 4, 2, 1);  // and back over RB(0) into buffer 3 (set 1)
    prog[0][3] = op_copy(1, 3, 0, 12, 2);  // buffer 3 -> local 12..13
    want_end[0][0] = 0;
    want_end[0][1] = D1;
    want_end[0][2] = 2 * D1;
    want_end[0][3] = 2 * D1;
    load_and_run("back-to-back accesses", al, be, ta, 4, 2, 3, 2 * D1 + 2);
    for (int k = 0; k < 2; k++) begin
      read_local(0, 12 + k, w);
      check($sformatf("back-to-back accesses: P0 local %0d", 12 + k), w, local_word(0, k));
    end
    check("back-to-back accesses: the write's last cycle", got_activity[0][D1-1], 3);
    check("back-to-back accesses: the read's first cycle", got_activity[0][D1], 2);

    // ---- 5. P(wide): LPW = 3 words per zero-time step; a step mark; go and reset ----------------
    // A copy of w words takes ceil(w / 3) steps, the last moving w mod 3 (or 3); a compute 0, a
    // step mark and a compute's entry one step each. All of it in cycle 0, the compute 2 ending in
    // cycle 2 (its step there). Sources: local 0..7 and 10..15; local 8, 9 and 28 are read or
    // written only by a copy that moves words past its w.
    w_prog[0] = op_copy(0, 0, 0, 0, 8);  // buffer 0 words 0..7 <- local 0..7: 3 steps (3, 3, 2)
    w_prog[1] = op_copy(0, 1, 2, 10, 6);  // buffer 1 words 2..7 <- local 10..15: 2 steps (3, 3)
    w_prog[2] = op_copy(1, 1, 4, 16, 4);  // local 16..19 <- buffer 1 words 4..7: 2 steps (3, 1)
    w_prog[3] = op_copy(1, 0, 0, 20, 8);  // local 20..27 <- buffer 0 words 0..7: 3 steps
    w_prog[4] = op_copy(1, 0, 5, 29, 3);  // local 29..31 <- buffer 0 words 5..7: 1 step
    w_prog[5] = op_compute(0);  // 1 step
    w_prog[6] = op_mark('hA5C3);  // 1 step
    w_prog[7] = op_compute(2);  // entered at a step of cycle 0, ends at a step of cycle 2
    for (int k = 8; k < IMEM; k++) w_prog[k] = HALT;
    rst_n = 1'b0;
    edge_(1'b1);
    rst_n = 1'b1;
    w_host_op = NEVER;
    for (int k = 0; k < IMEM; k++) begin
      w_imem_we = 1'b1;
      imem_addr = PCW'(k);
      imem_wdata = w_prog[k];
      edge_(1'b0);
    end
    w_imem_we = 1'b0;
    for (int k = 0; k < LOCAL; k++) begin
      w_lm_we = 1'b1;
      lm_addr = LAW'(k);
      lm_wdata = W'(local_word(WIDE, k));
      edge_(1'b0);
    end
    w_lm_we = 1'b0;
    check("wide: not running before go", 32'(w_running), 0);
    check("wide: not finished before go", 32'(w_finished), 0);
    // Twice: the second go, without a reset, starts the program at op 0 again; in that run the
    // host port writes local 29 at op 4's step, and the processor's copy wins the word.
    for (int run = 0; run < 2; run++) begin
      int steps[4];
      logic [31:0] act[4];
      string r;
      r = $sformatf("wide run %0d", run);
      for (int k = 0; k < IMEM; k++) w_end[k] = NEVER;
      w_mark_cycle = NEVER;
      w_mark_step_seen = NEVER;
      if (run == 1) begin
        w_host_op = 4;
        lm_addr = LAW'(29);
        lm_wdata = 32'hBAD0_0029;
      end
      w_go = 1'b1;
      edge_(1'b0);
      w_go = 1'b0;
      cyc = 0;
      for (int c = 0; c < 4; c++) wide_cycle(steps[c], act[c]);
      w_host_op = NEVER;
      check($sformatf("%s: steps in cycle 0", r), steps[0], 3 + 2 + 2 + 3 + 1 + 1 + 1 + 1);
      check($sformatf("%s: steps in cycle 1", r), steps[1], 0);
      check($sformatf("%s: steps in cycle 2", r), steps[2], 1);
      check($sformatf("%s: activity in the compute", r), act[1], 1);
      check($sformatf("%s: activity at the halt", r), act[3], 0);
      for (int k = 0; k < 7; k++) check($sformatf("%s: op %0d end cycle", r, k), w_end[k], 0);
      check($sformatf("%s: op 7 end cycle", r), w_end[7], 2);
      check($sformatf("%s: step mark cycle", r), w_mark_cycle, 0);
      check($sformatf("%s: step mark's step", r), w_mark_step_seen, 'hA5C3);
      check($sformatf("%s: finished", r), 32'(w_finished), 1);
      check($sformatf("%s: pc at the halt", r), 32'(w_pc), 8);
      if (run == 0) begin
        check("wide: ops", 32'(w_ops), 8);
        check("wide: compute cycles", 32'(w_compute_cycles), 2);
      end
      // The words: sources and the words next to the copies unchanged.
      for (int k = 0; k < 16; k++) begin
        read_wide_local(k, w);
        check($sformatf("%s: local %0d (a source or unused)", r, k), w, local_word(WIDE, k));
      end
      for (int k = 0; k < 4; k++) begin
        read_wide_local(16 + k, w);
        check($sformatf("%s: local %0d", r, 16 + k), w, local_word(WIDE, 12 + k));
      end
      for (int k = 0; k < 8; k++) begin
        read_wide_local(20 + k, w);
        check($sformatf("%s: local %0d", r, 20 + k), w, local_word(WIDE, k));
      end
      read_wide_local(28, w);
      check($sformatf("%s: local 28 (past a store)", r), w, local_word(WIDE, 28));
      for (int k = 0; k < 3; k++) begin
        read_wide_local(29 + k, w);
        check($sformatf("%s: local %0d", r, 29 + k), w, local_word(WIDE, 5 + k));
      end
    end
    // A reset stops the processor at op 0.
    rst_n = 1'b0;
    edge_(1'b1);
    rst_n = 1'b1;
    check("wide: pc after a reset", 32'(w_pc), 0);
    check("wide: not running after a reset", 32'(w_running), 0);
    check("wide: not finished after a reset", 32'(w_finished), 0);

    checks_verdict("tb_processor", "");
    $finish;
  end
endmodule
