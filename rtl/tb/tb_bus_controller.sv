// Self-checking bench of bus_controller, with its index_manipulator and the omp's module_array:
// N bus controllers BC(i), N index manipulators, and the n x n modules, as on the omp.
//
// Every access is checked cycle by cycle against the protocol of [PH91] Fig. 5 (and
// BusController::granted in the SystemC model): from the grant cycle G, alpha cycles of start-up,
// then per vector v (a beta gap before every vector after the first) d words of tau cycles each;
// word (p, v) shows slot slots[p], address addr + v, and the word of buffer rho(p) word v (write)
// or of the module (read). `done` must come exactly alpha + beta(l-1) + d tau l cycles after G
// (scalar: d = l = 1; interleaved: l = 1), and 2(alpha + beta(l-1) + d tau l) + gamma for an IWR
// step. A reference model of every module and buffer is updated word by word, and the whole
// memory is compared at the end of each scenario. Contention scenarios check the arbitration rule
// of module_array (first come, ties to the lower id, no overtaking) and its wait counters.
// The controller's own rules are checked too: the timing after a reset without a configuration
// write (the paper's 16, 2, 1, 8), tau = 0 acting as 1, configuration writes ignored while busy
// and in a start cycle, and an IWR step whose write half ends in the cycle it is accepted.
// Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012) and Verilator (--binary).
module tb_bus_controller;
  localparam int N = 4;
  localparam int L = 8;
  localparam int S = 4;
  localparam int W = 32;
  localparam int DEPTH = 16;
  localparam int TW = 16;
  localparam int NB = 2;
  localparam int NCW = 3;
  localparam int LB = 3;
  localparam int LCW = 4;
  localparam int SB = 2;
  localparam int AW = 4;

  // One access (one half of an IWR step).
  typedef struct packed {
    logic col;
    logic [NCW-1:0] deg;
    logic [N*NB-1:0] slots;
    logic [AW-1:0] addr;
    logic [LCW-1:0] vecs;
    logic [SB-1:0] iset;  // index set
  } desc_t;

  // ---- stimulus registers -----------------------------------------------------------------------
  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic cfg_we = 1'b0;
  logic [TW-1:0] cfg_alpha = '0, cfg_beta = '0, cfg_tau = '0, cfg_gamma = '0;
  logic [N-1:0] start_r = '0, iwr_r = '0, write_r = '0;
  // The descriptors, one field per flat vector (Icarus 11 cannot connect a field of an element
  // of an array of structs to a port).
  logic [N-1:0] acc_col = '0, rd_col = '0;
  logic [N*NCW-1:0] acc_deg = '0, rd_deg = '0;
  logic [N*N*NB-1:0] acc_slots = '0, rd_slots = '0;
  logic [N*AW-1:0] acc_addr = '0, rd_addr = '0;
  logic [N*LCW-1:0] acc_vecs = '0, rd_vecs = '0;
  logic [N*SB-1:0] acc_set = '0, rd_set = '0;
  logic idx_we = 1'b0;
  logic [SB-1:0] idx_set = '0;
  logic [NB-1:0] idx_pos = '0, idx_buf = '0;
  logic [N-1:0] loc_we_r = '0;
  logic [NB-1:0] loc_buf = '0;
  logic [LB-1:0] loc_word = '0;
  logic [W-1:0] loc_wdata = '0;
  logic host_we = 1'b0;
  logic [NB-1:0] host_row = '0, host_col = '0;
  logic [AW-1:0] host_addr = '0;
  logic [W-1:0] host_wdata = '0;

  // ---- wires ----------------------------------------------------------------------------------
  logic [N-1:0] req, hold, req_col, grant, bus_valid, bus_write, busy, done, last;
  logic [N*N-1:0] req_mask;
  logic [2*N-1:0] bus_mode;
  logic [N*NB-1:0] bus_sel;
  logic [N*AW-1:0] bus_addr;
  logic [N*W-1:0] bus_wdata, bus_rdata, bus_data, loc_rdata;
  logic [W-1:0] host_rdata;
  logic [31:0] wait_cycles, conflicts;
  logic collision;

  for (genvar i = 0; i < N; i++) begin : g_proc
    logic [SB-1:0] im_set;
    logic [NB-1:0] im_pos;
    logic [LB-1:0] im_vec;
    logic im_we;
    logic [W-1:0] im_wdata, im_rdata;
    logic [NB-1:0] im_buf;

    bus_controller #(
        .N(N),
        .L(L),
        .S(S),
        .W(W),
        .DEPTH(DEPTH),
        .TW(TW)
    ) bc (
        .clk(clk),
        .rst_n(rst_n),
        .cfg_we(cfg_we),
        .cfg_alpha(cfg_alpha),
        .cfg_beta(cfg_beta),
        .cfg_tau(cfg_tau),
        .cfg_gamma(cfg_gamma),
        .start(start_r[i]),
        .iwr(iwr_r[i]),
        .acc_write(write_r[i]),
        .acc_col(acc_col[i]),
        .acc_degree(acc_deg[i*NCW+:NCW]),
        .acc_slots(acc_slots[i*N*NB+:N*NB]),
        .acc_addr(acc_addr[i*AW+:AW]),
        .acc_vectors(acc_vecs[i*LCW+:LCW]),
        .acc_set(acc_set[i*SB+:SB]),
        .rd_col(rd_col[i]),
        .rd_degree(rd_deg[i*NCW+:NCW]),
        .rd_slots(rd_slots[i*N*NB+:N*NB]),
        .rd_addr(rd_addr[i*AW+:AW]),
        .rd_vectors(rd_vecs[i*LCW+:LCW]),
        .rd_set(rd_set[i*SB+:SB]),
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
        .loc_we(loc_we_r[i]),
        .loc_buf(loc_buf),
        .loc_word(loc_word),
        .loc_wdata(loc_wdata),
        .loc_rdata(loc_rdata[i*W+:W])
    );
  end

  module_array #(
      .N(N),
      .W(W),
      .DEPTH(DEPTH)
  ) ma (
      .clk(clk),
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
      .host_we(host_we),
      .host_row(host_row),
      .host_col(host_col),
      .host_addr(host_addr),
      .host_wdata(host_wdata),
      .host_rdata(host_rdata)
  );

  // ---- clock, cycle count, per-cycle invariants -------------------------------------------------
  // Stimulus changes at the falling edge; checks sample 1 time unit after it (outputs settled).
  // Cycle c runs from rising edge c to rising edge c+1.
  always #5 clk <= ~clk;

  int cyc = 0;
  always @(posedge clk) cyc <= cyc + 1;

  `include "bench_checks.svh"

  logic [N-1:0] done_prev = '0, last_prev = '0;
  initial begin
    forever begin
      @(negedge clk);
      #2;
      if (rst_n) begin
        if ((done & done_prev) != '0) fail("done is longer than one cycle");
        if (done != last_prev) fail("done without last in the cycle before, or last without done");
        last_prev = last;
        if ((grant & ~req) != '0) fail("grant without req");
        if ((req & hold) != '0) fail("req and hold together");
        if (collision) fail("a module was addressed by both of its buses");
        done_prev = done;
      end
    end
  end

  // ---- reference model -----------------------------------------------------------------------
  logic [W-1:0] ref_mod[N][N][DEPTH];  // M(a,b) word k
  logic [W-1:0] ref_buf[N][N][L];  // BC(i)'s buffer b word v
  int rho[S][N];
  logic [TW-1:0] alpha, beta, tau, gamma;

  // (Through a plain vector: Icarus 11 has no part selects of struct members.)
  function automatic int slot_of(input desc_t d, input int p);
    logic [N*NB-1:0] sl;
    sl = d.slots;
    return int'(sl[p*NB+:NB]);
  endfunction
  function automatic int duration(input desc_t d);
    return int'(alpha) + int'(beta) * (int'(d.vecs) - 1) + int'(d.deg) * int'(tau) * int'(d.vecs);
  endfunction

  // Which word (p, v) is on the bus t cycles after the grant, if any.
  task automatic schedule(input desc_t d, input int t, output bit valid, output int p,
                          output int v);
    int period, u, r;
    valid = 0;
    p = 0;
    v = 0;
    if (t >= int'(alpha)) begin
      u = t - int'(alpha);
      period = int'(d.deg) * int'(tau) + int'(beta);
      v = u / period;
      r = u % period;
      if (r < int'(d.deg) * int'(tau)) begin
        valid = 1;
        p = r / int'(tau);
      end
    end
  endtask

  // BC(i)'s outputs checked every cycle, as one value: one comparison per cycle keeps the
  // verilated bench small (Verilator inlines every task call).
  typedef struct packed {
    logic [1:0] mode;
    logic write, req, hold, busy, done, valid;
    logic [NB-1:0] sel;
    logic [AW-1:0] addr;
    logic [W-1:0] wdata, data;
  } obs_t;

  function automatic obs_t observe(input int i);
    obs_t o;
    o.mode  = bus_mode[2*i+:2];
    o.write = bus_write[i];
    o.req   = req[i];
    o.hold  = hold[i];
    o.busy  = busy[i];
    o.done  = done[i];
    o.valid = bus_valid[i];
    o.sel   = bus_sel[i*NB+:NB];
    o.addr  = bus_addr[i*AW+:AW];
    o.wdata = bus_wdata[i*W+:W];
    o.data  = bus_data[i*W+:W];
    return o;
  endfunction

  function automatic string show(input obs_t o);
    return $sformatf({"mode=%0d write=%0d req=%0d hold=%0d busy=%0d done=%0d valid=%0d ",
                      "sel=%0d addr=%0d wdata=%h data=%h"}, o.mode, o.write, o.req, o.hold,
                     o.busy, o.done, o.valid, o.sel, o.addr, o.wdata, o.data);
  endfunction

  task automatic expect_obs(input int i, input string where, input obs_t want);
    obs_t got;
    got = observe(i);
    checks++;
    if (got !== want) begin
      fail($sformatf("BC(%0d) %s\n    got      %s\n    expected %s", i, where, show(got),
                     show(want)));
    end
  endtask

  // While BC(i) requests or holds (req or hold), its request shows the current half's bus and
  // slots: req_col and req_mask (the read half's after an IWR step's bus switch).
  task automatic expect_request(input int i, input string where, input desc_t d);
    logic [N-1:0] want_mask;
    want_mask = '0;
    for (int p = 0; p < int'(d.deg); p++) begin
      want_mask = want_mask | (N'(1) << slot_of(d, p));
    end
    checks++;
    if (req_col[i] !== d.col || req_mask[i*N+:N] !== want_mask) begin
      fail($sformatf("BC(%0d) %s: req_col=%0d req_mask=%b, expected %0d %b", i, where, req_col[i],
                     req_mask[i*N+:N], d.col, want_mask));
    end
  endtask

  // A cycle without an access on the bus: waiting for the grant, bus switch, done, idle.
  function automatic obs_t off(input bit want_req, input bit want_busy, input bit want_done);
    obs_t o;
    o      = '0;
    o.req  = want_req;
    o.busy = want_busy;
    o.done = want_done;
    return o;
  endfunction

  // Stimulus is written as whole variables, never as bit or part selects: Verilator 5.006 with
  // --timing does not wake the logic that reads a variable when a bit or part select of it is
  // written after a timing control (checked on this toolchain; Icarus has no such problem).
  task automatic drive(input int i, input bit s, input bit is_iwr, input bit wr, input desc_t d,
                       input desc_t r);
    logic [N-1:0] b_start, b_iwr, b_write, b_acol, b_rcol;
    logic [N*NCW-1:0] b_adeg, b_rdeg;
    logic [N*N*NB-1:0] b_aslots, b_rslots;
    logic [N*AW-1:0] b_aaddr, b_raddr;
    logic [N*LCW-1:0] b_avecs, b_rvecs;
    logic [N*SB-1:0] b_aset, b_rset;
    b_start = start_r;
    b_iwr = iwr_r;
    b_write = write_r;
    b_acol = acc_col;
    b_rcol = rd_col;
    b_adeg = acc_deg;
    b_rdeg = rd_deg;
    b_aslots = acc_slots;
    b_rslots = rd_slots;
    b_aaddr = acc_addr;
    b_raddr = rd_addr;
    b_avecs = acc_vecs;
    b_rvecs = rd_vecs;
    b_aset = acc_set;
    b_rset = rd_set;
    b_start[i] = s;
    b_iwr[i] = is_iwr;
    b_write[i] = wr;
    b_acol[i] = d.col;
    b_rcol[i] = r.col;
    b_adeg[i*NCW+:NCW] = d.deg;
    b_rdeg[i*NCW+:NCW] = r.deg;
    b_aslots[i*N*NB+:N*NB] = d.slots;
    b_rslots[i*N*NB+:N*NB] = r.slots;
    b_aaddr[i*AW+:AW] = d.addr;
    b_raddr[i*AW+:AW] = r.addr;
    b_avecs[i*LCW+:LCW] = d.vecs;
    b_rvecs[i*LCW+:LCW] = r.vecs;
    b_aset[i*SB+:SB] = d.iset;
    b_rset[i*SB+:SB] = r.iset;
    start_r = b_start;
    iwr_r = b_iwr;
    write_r = b_write;
    acc_col = b_acol;
    rd_col = b_rcol;
    acc_deg = b_adeg;
    rd_deg = b_rdeg;
    acc_slots = b_aslots;
    rd_slots = b_rslots;
    acc_addr = b_aaddr;
    rd_addr = b_raddr;
    acc_vecs = b_avecs;
    rd_vecs = b_rvecs;
    acc_set = b_aset;
    rd_set = b_rset;
  endtask

  // Next cycle: drops start/iwr (the descriptor stays), samples after the falling edge.
  task automatic step(input int i);
    logic [N-1:0] b_start, b_iwr;
    @(negedge clk);
    b_start = start_r;
    b_iwr = iwr_r;
    b_start[i] = 1'b0;
    b_iwr[i] = 1'b0;
    start_r = b_start;
    iwr_r = b_iwr;
    #1;
  endtask

  // An access (start) or an IWR step (iwr: write `d`, gamma, read `r`) on BC(i). It issues the
  // request `delay` cycles after it is called, at a falling edge, and checks every cycle up to
  // the done cycle: for each half, the wait for the grant, then the D cycles of the access word
  // by word (updating the reference model), and between the halves the gamma cycles of the bus
  // switch. With `chain`, it returns in the last cycle of the access, so that the caller can
  // start the next access in the done cycle (with `expect_done`, done is expected then).
  task automatic access(input int i, input int delay, input bit is_iwr, input bit wr,
                        input desc_t d, input desc_t r, input bit chain, input bit expect_done,
                        output int t_req, output int t_grant, output int t_done,
                        output int waited);
    int t_call, halves, D, t, p, v, a, b, k, bi;
    bit valid, hw;
    desc_t hd;
    obs_t want;
    t_call = cyc;
    // (A for loop, not repeat: in these agents Verilator 5.006 ended `repeat (n) @(negedge clk)`
    // one edge early.)
    for (int n = 0; n < delay; n++) begin
      @(negedge clk);
    end
    @(negedge clk);
    drive(i, !is_iwr, is_iwr, wr, d, r);
    #1;
    t_req = cyc;
    check($sformatf("BC(%0d) request cycle", i), t_req, t_call + delay + 1);
    waited = 0;
    t_grant = 0;
    halves = is_iwr ? 2 : 1;
    for (int h = 0; h < halves; h++) begin
      hd = (h == 0) ? d : r;
      hw = (h == 0) ? (is_iwr || wr) : 1'b0;
      if (h == 1) begin
        // Bus switch: gamma cycles with the bus released, then the read half's request.
        for (t = 0; t < int'(gamma); t++) begin
          step(i);
          expect_obs(i, "bus switch", off(0, 1, 0));
        end
        step(i);
      end
      while (!grant[i]) begin
        expect_obs(i, "waiting for the grant", off(1, 1, expect_done && cyc == t_req));
        expect_request(i, $sformatf("half %0d waiting for the grant", h), hd);
        waited++;
        step(i);
      end
      if (h == 0) t_grant = cyc;
      D = duration(hd);
      for (t = 0; t < D; t++) begin
        if (t > 0) step(i);
        want       = '0;
        want.mode  = hd.col ? 2'd2 : 2'd1;
        want.write = hw;
        want.req   = (t == 0);
        want.hold  = (t > 0);
        want.busy  = 1'b1;
        want.done  = expect_done && cyc == t_req;
        schedule(hd, t, valid, p, v);
        if (valid) begin
          // Word (p, v): M(a,b) word addr + v <-> buffer rho(p) word v.
          k = int'(hd.addr) + v;
          a = hd.col ? slot_of(hd, p) : i;
          b = hd.col ? i : slot_of(hd, p);
          bi = rho[hd.iset][p];
          want.valid = 1'b1;
          want.sel   = NB'(slot_of(hd, p));
          want.addr  = AW'(k);
          if (hw) begin
            want.wdata = ref_buf[i][bi][v];
            want.data  = ref_buf[i][bi][v];
            ref_mod[a][b][k] = ref_buf[i][bi][v];
          end else begin
            want.data = ref_mod[a][b][k];
            ref_buf[i][bi][v] = ref_mod[a][b][k];
          end
        end
        expect_obs(i, $sformatf("half %0d t=%0d p=%0d v=%0d", h, t, p, v), want);
        expect_request(i, $sformatf("half %0d t=%0d", h, t), hd);
      end
    end
    t_done = cyc + 1;
    if (!chain) begin
      step(i);
      expect_obs(i, "done cycle", off(0, 0, 1));
    end
  endtask

  // ---- set-up helpers --------------------------------------------------------------------------
  task automatic set_timing(input int a, input int b, input int t, input int g);
    @(negedge clk);
    cfg_we    = 1'b1;
    cfg_alpha = TW'(a);
    cfg_beta  = TW'(b);
    cfg_tau   = TW'(t);
    cfg_gamma = TW'(g);
    alpha     = TW'(a);
    beta      = TW'(b);
    tau       = TW'((t == 0) ? 1 : t);  // tau = 0 acts as 1
    gamma     = TW'(g);
    @(negedge clk);
    cfg_we = 1'b0;
  endtask

  // Fills every module and buffer (host and local ports) with words that tell where they are.
  task automatic fill(input int epoch);
    for (int a = 0; a < N; a++) begin
      for (int b = 0; b < N; b++) begin
        for (int k = 0; k < DEPTH; k++) begin
          @(negedge clk);
          host_we    = 1'b1;
          host_row   = NB'(a);
          host_col   = NB'(b);
          host_addr  = AW'(k);
          host_wdata = 32'h4000_0000 | 32'(epoch << 16) | 32'(a << 12) | 32'(b << 8) | 32'(k);
          ref_mod[a][b][k] = host_wdata;
        end
      end
    end
    @(negedge clk);
    host_we = 1'b0;
    for (int i = 0; i < N; i++) begin
      for (int bf = 0; bf < N; bf++) begin
        for (int v = 0; v < L; v++) begin
          @(negedge clk);
          loc_we_r     = N'(1) << i;
          loc_buf      = NB'(bf);
          loc_word     = LB'(v);
          loc_wdata    = 32'h8000_0000 | 32'(epoch << 16) | 32'(i << 12) | 32'(bf << 8) | 32'(v);
          ref_buf[i][bf][v] = loc_wdata;
        end
      end
    end
    @(negedge clk);
    loc_we_r = '0;
  endtask

  // Compares every module word and every buffer word with the reference model.
  task automatic compare_all(input string scenario);
    for (int a = 0; a < N; a++) begin
      for (int b = 0; b < N; b++) begin
        for (int k = 0; k < DEPTH; k++) begin
          @(negedge clk);
          host_row  = NB'(a);
          host_col  = NB'(b);
          host_addr = AW'(k);
          #1 check($sformatf("%s: M(%0d,%0d) word %0d", scenario, a, b, k),
                   32'(host_rdata), 32'(ref_mod[a][b][k]));
        end
      end
    end
    for (int bf = 0; bf < N; bf++) begin
      for (int v = 0; v < L; v++) begin
        @(negedge clk);
        loc_buf  = NB'(bf);
        loc_word = LB'(v);
        #1;
        for (int i = 0; i < N; i++) begin
          check($sformatf("%s: BC(%0d) buffer %0d word %0d", scenario, i, bf, v),
                32'(loc_rdata[i*W+:W]), 32'(ref_buf[i][bf][v]));
        end
      end
    end
  endtask

  // d slots starting at `first`, rotating forward (or backward with `rev`).
  function automatic desc_t mk(input bit col, input int deg, input int first, input bit rev,
                               input int addr, input int vecs, input int iset);
    desc_t x;
    logic [N*NB-1:0] sl;
    x.col   = col;
    x.deg   = NCW'(deg);
    sl = '0;
    for (int p = 0; p < deg; p++) begin
      sl[p*NB+:NB] = NB'(rev ? (first - p + N) % N : (first + p) % N);
    end
    x.slots = sl;
    x.addr = AW'(addr);
    x.vecs = LCW'(vecs);
    x.iset = SB'(iset);
    return x;
  endfunction

  // ---- scenarios ------------------------------------------------------------------------------
  int n_accesses = 0;

  // One access or IWR step alone: the duration must be the paper's formula.
  task automatic solo(input string kind, input int i, input bit is_iwr, input bit wr,
                      input desc_t d, input desc_t r);
    int want;
    launch(i, 0, is_iwr, wr, d, r, 0, 0);
    wait_agents;
    want = is_iwr ? duration(d) + int'(gamma) + duration(r) : duration(d);
    check($sformatf("%s on BC(%0d), a=%0d b=%0d t=%0d g=%0d d=%0d l=%0d: cycles grant to done",
                    kind, i, alpha, beta, tau, gamma, d.deg, d.vecs), res_td[i] - res_tg[i],
          want);
    check($sformatf("%s on BC(%0d): granted at once", kind, i), res_tg[i] - res_tr[i], 0);
    n_accesses++;
  endtask

  task automatic protocols(input int combo);
    int i, first, addr, td, tr2, tg2, td2;
    int ls[3];
    desc_t d, r;
    ls[0] = 1;
    ls[1] = 2;
    ls[2] = 7;
    i = combo % N;
    // Scalar: alpha + tau, reads and writes, row and column buses.
    for (int k = 0; k < 4; k++) begin
      d = mk(k[0], 1, (combo + k) % N, 0, (combo * 3 + k) % DEPTH, 1, k % S);
      solo("scalar write", i, 0, 1, d, d);
      solo("scalar read", (i + 1) % N, 0, 0, d, d);
    end
    // Interleaved over d = 1..N modules: alpha + d tau.
    for (int deg = 1; deg <= N; deg++) begin
      first = (combo + deg) % N;
      d = mk(deg[0], deg, first, combo[0], (deg * 5 + combo) % DEPTH, 1, (deg + combo) % S);
      solo("interleaved write", i, 0, 1, d, d);
      d.iset = SB'(deg + combo + 1);
      solo("interleaved read", i, 0, 0, d, d);
    end
    // Block-interleaved, l in {1, 2, 7}: alpha + beta(l-1) + d tau l.
    for (int li = 0; li < 3; li++) begin
      for (int deg = 2; deg <= N; deg += 2) begin
        addr = (combo + li * 4) % (DEPTH - ls[li] + 1);
        d = mk(li[0], deg, combo % N, deg[1], addr, ls[li], (li + deg) % S);
        solo("block write", i, 0, 1, d, d);
        d.iset = SB'(li + 2);
        solo("block read", (i + 3) % N, 0, 0, d, d);
      end
    end
    // IWR steps: 2(alpha + beta(l-1) + d tau l) + gamma. Write on RB(i), read on CB(i).
    for (int li = 0; li < 3; li++) begin
      for (int deg = 2; deg <= N; deg++) begin
        addr = (combo * 2 + deg) % (DEPTH - ls[li] + 1);
        d = mk(0, deg, (i + deg) % N, 0, addr, ls[li], deg % S);
        r = mk(1, deg, (i + 1) % N, 1, addr, ls[li], (deg + 1) % S);
        solo("IWR step", i, 1, 0, d, r);
      end
    end
    // An IWR step whose halves differ in d and l: alpha + beta(l1-1) + d1 tau l1 + gamma + ...
    d = mk(0, N, 1, 0, 2, 3, 3);
    r = mk(1, 2, 0, 0, 9, 5, 1);
    solo("IWR step (uneven halves)", i, 1, 0, d, r);
    // An IWR step whose write half is one word (d = l = 1): with alpha = 0 and tau = 1 it ends in
    // its grant cycle, the cycle its start is accepted, so the read half's descriptor is taken
    // from the rd_* inputs there, not from the registers of the previous step's (every field
    // differs from the uneven halves' read half just before).
    d = mk(1, 1, (combo + 2) % N, 0, 11, 1, 2);
    r = mk(0, 3, combo % N, 1, 3, 2, 3);
    solo("IWR step (one-word write half)", i, 1, 0, d, r);
    // Back to back: the next access starts in the done cycle of the previous one.
    d = mk(0, N, 0, 0, 4, 2, 0);
    r = mk(1, 3, 2, 1, 6, 3, 2);
    launch(i, 0, 0, 1, d, d, 1, 0);
    wait_agents;
    td = res_td[i];
    launch(i, 0, 0, 0, r, r, 0, 1);
    wait_agents;
    tr2 = res_tr[i];
    tg2 = res_tg[i];
    td2 = res_td[i];
    check("back to back: second request in the first's done cycle", tr2, td);
    check("back to back: second granted at once", tg2, tr2);
    check("back to back: second duration", td2 - tg2, duration(r));
    n_accesses += 2;
  endtask

  // Configuration writes are ignored while the controller is busy and in its start cycle:
  // cfg_we high, with other values, from the start cycle of an IWR step on BC(i) to its last
  // cycle. The step keeps the timing it started with. The idle controllers take the other values,
  // so the timing set is written again afterwards.
  task automatic config_while_busy(input int combo, input int a, input int b, input int t,
                                   input int g);
    int i, want;
    desc_t d, r;
    i = (combo + 2) % N;
    d = mk(0, 2, i, 0, 1, 3, 1);
    r = mk(1, 3, i, 1, 5, 2, 2);
    want = duration(d) + int'(gamma) + duration(r);
    launch(i, 0, 1, 0, d, r, 0, 0);
    @(negedge clk);  // the start cycle: the agent raises iwr at this edge
    cfg_we    = 1'b1;
    cfg_alpha = TW'(a + 3);
    cfg_beta  = TW'(b + 2);
    cfg_tau   = TW'(t + 2);
    cfg_gamma = TW'(g + 4);
    for (int n = 0; n < want; n++) begin
      @(negedge clk);
    end
    cfg_we = 1'b0;  // the done cycle: idle, a write would be taken
    wait_agents;
    check($sformatf("IWR step on BC(%0d) under configuration writes: cycles grant to done", i),
          res_td[i] - res_tg[i], want);
    check($sformatf("IWR step on BC(%0d) under configuration writes: granted at once", i),
          res_tg[i] - res_tr[i], 0);
    n_accesses++;
    set_timing(a, b, t, g);
  endtask

  // Agents for the contention scenarios: one process per BC runs `access` on command. (Not
  // fork ... join: Verilator 5.006 resumes fork branches that wait on the same clock edge at the
  // wrong times.) Commands and results are arrays only the bench reads; the go/busy handshake
  // vectors are written whole (see `drive`).
  logic [N-1:0] agent_go = '0, agent_busy = '0;
  int cmd_delay[N];
  bit cmd_iwr[N], cmd_wr[N], cmd_chain[N], cmd_expect_done[N];
  desc_t cmd_d[N], cmd_r[N];
  int res_tr[N], res_tg[N], res_td[N], res_w[N];

  for (genvar gi = 0; gi < N; gi++) begin : g_agent
    initial begin
      forever begin
        wait (agent_go[gi]);
        agent_go = agent_go & ~(N'(1) << gi);
        access(gi, cmd_delay[gi], cmd_iwr[gi], cmd_wr[gi], cmd_d[gi], cmd_r[gi], cmd_chain[gi],
               cmd_expect_done[gi],
               res_tr[gi], res_tg[gi], res_td[gi], res_w[gi]);
        agent_busy = agent_busy & ~(N'(1) << gi);
      end
    end
  end

  // Hands an access to BC(i)'s agent; it issues the request `delay` falling edges later.
  task automatic launch(input int i, input int delay, input bit is_iwr, input bit wr,
                        input desc_t d, input desc_t r, input bit chain, input bit expect_done);
    cmd_delay[i] = delay;
    cmd_chain[i] = chain;
    cmd_expect_done[i] = expect_done;
    cmd_iwr[i] = is_iwr;
    cmd_wr[i] = wr;
    cmd_d[i] = d;
    cmd_r[i] = r;
    agent_busy = agent_busy | (N'(1) << i);
    agent_go = agent_go | (N'(1) << i);
  endtask

  task automatic wait_agents;
    wait (agent_busy == '0);
  endtask

  // Contention on modules shared by a row bus and a column bus.
  task automatic contention;
    int w0, c0, want_wait;
    desc_t none, c4;
    none = mk(0, 1, 0, 0, 0, 1, 0);

    // C1: BC(0) writes M(0,1) over RB(0); a cycle later BC(1) reads M(0,1) over CB(1) and waits
    // for BC(0)'s end; it is granted in the cycle BC(0) ends.
    w0 = int'(wait_cycles);
    c0 = int'(conflicts);
    launch(0, 0, 0, 1, mk(0, 1, 1, 0, 3, 2, 0), none, 0, 0);
    launch(1, 1, 0, 0, mk(1, 2, 0, 0, 3, 2, 1), none, 0, 0);
    wait_agents;
    check("C1: BC(0) granted at once", res_tg[0], res_tr[0]);
    check("C1: BC(1) granted when BC(0) ends", res_tg[1], res_td[0]);
    check("C1: BC(1) wait", res_w[1], res_td[0] - res_tr[1]);
    check("C1: wait_cycles", 32'(wait_cycles) - w0, res_w[1]);
    check("C1: conflicts", 32'(conflicts) - c0, 1);
    compare_all("C1");

    // C2: both request in the same cycle: the lower id first.
    launch(1, 0, 0, 1, mk(1, 1, 0, 0, 5, 1, 2), none, 0, 0);
    launch(0, 0, 0, 0, mk(0, 3, 1, 0, 5, 1, 3), none, 0, 0);
    wait_agents;
    check("C2: same request cycle", res_tr[0], res_tr[1]);
    check("C2: BC(0) (lower id) granted at once", res_tg[0], res_tr[0]);
    check("C2: BC(1) granted when BC(0) ends", res_tg[1], res_td[0]);

    // C3: first come beats the lower id: BC(1) asks one cycle before BC(0).
    launch(1, 0, 0, 0, mk(1, 2, 0, 0, 7, 3, 1), none, 0, 0);
    launch(0, 1, 0, 1, mk(0, 1, 1, 0, 8, 1, 0), none, 0, 0);
    wait_agents;
    check("C3: BC(1) first come", res_tg[1], res_tr[1]);
    check("C3: BC(0) granted when BC(1) ends", res_tg[0], res_td[1]);

    // C4: no overtaking. BC(0) holds M(0,1) (RB(0), slot 1). BC(1) asks for M(0,1) and M(2,1)
    // (CB(1), slots 0 and 2) and waits. BC(2) then asks for M(2,1) alone (RB(2), slot 1): it is
    // free, but BC(1) came first and wants it, so BC(2) waits for BC(1)'s end.
    w0 = int'(wait_cycles);
    c0 = int'(conflicts);
    c4 = mk(1, 2, 0, 0, 1, 3, 1);
    c4.slots = {c4.slots[N*NB-1:2*NB], NB'(2), c4.slots[NB-1:0]};  // slots {0, 2}
    launch(0, 0, 0, 1, mk(0, 1, 1, 0, 1, 3, 0), none, 0, 0);
    launch(1, 1, 0, 0, c4, none, 0, 0);
    launch(2, 2, 0, 1, mk(0, 1, 1, 0, 12, 2, 2), none, 0, 0);
    wait_agents;
    check("C4: BC(0) granted at once", res_tg[0], res_tr[0]);
    check("C4: BC(1) granted when BC(0) ends", res_tg[1], res_td[0]);
    check("C4: BC(2) granted when BC(1) ends (not earlier)", res_tg[2], res_td[1]);
    want_wait = (res_tg[1] - res_tr[1]) + (res_tg[2] - res_tr[2]);
    check("C4: wait_cycles", 32'(wait_cycles) - w0, want_wait);
    check("C4: conflicts", 32'(conflicts) - c0, 2);

    // C5: no common module: all granted at once. RB(0) all slots, RB(1) all slots, CB(2) slot 3
    // (M(3,2)) and CB(3) slot 2 (M(2,3)).
    w0 = int'(wait_cycles);
    launch(0, 0, 0, 1, mk(0, N, 0, 0, 0, 4, 1), none, 0, 0);
    launch(1, 0, 0, 0, mk(0, N, 3, 1, 4, 4, 2), none, 0, 0);
    launch(2, 1, 0, 1, mk(1, 1, 3, 0, 9, 2, 3), none, 0, 0);
    launch(3, 0, 0, 0, mk(1, 1, 2, 0, 9, 2, 0), none, 0, 0);
    wait_agents;
    for (int i = 0; i < N; i++) begin
      check($sformatf("C5: BC(%0d) granted at once", i), res_tg[i], res_tr[i]);
    end
    check("C5: wait_cycles", 32'(wait_cycles) - w0, 0);
    compare_all("C5");

    // C6: two IWR steps exchanging messages: P(0) and P(1) write their rows, switch, and read
    // their columns. P(1) starts `lag` cycles later, so P(0)'s read half (CB(0), which needs
    // M(1,0)) waits for the end of P(1)'s write half (RB(1), which holds M(1,0)).
    begin
      int lag, d_w, want_g0;
      desc_t wr0, rd0, wr1, rd1;
      lag = int'(gamma) + 3;
      wr0 = mk(0, N, 0, 0, 6, 2, 0);
      rd0 = mk(1, N, 0, 0, 6, 2, 1);
      wr1 = mk(0, N, 0, 0, 6, 2, 2);
      rd1 = mk(1, N, 0, 0, 6, 2, 3);
      d_w = duration(wr0);
      w0 = int'(wait_cycles);
      launch(0, 0, 1, 0, wr0, rd0, 0, 0);
      launch(1, lag, 1, 0, wr1, rd1, 0, 0);
      wait_agents;
      // P(0): write [tg0, tg0+D), gamma, read requested at tg0+D+gamma, granted when P(1)'s write
      // ends at tr1+D, so done = tr1 + 2D.
      want_g0 = res_tr[1] + d_w;
      check("C6: P(1) write granted at once", res_tg[1], res_tr[1]);
      check("C6: P(0) waits for P(1)'s write half", res_w[0],
            want_g0 - (res_tg[0] + d_w + 32'(gamma)));
      check("C6: P(0) done", res_td[0], want_g0 + d_w);
      check("C6: P(1) step takes 2D + gamma", res_td[1] - res_tg[1], 2 * d_w + 32'(gamma));
      check("C6: wait_cycles", 32'(wait_cycles) - w0, res_w[0] + res_w[1]);
      compare_all("C6");
    end
  endtask

  // Watchdog: a grant that never comes must not hang the run.
  localparam int MAX_CYCLES = 200000;
  initial begin
    #(10 * MAX_CYCLES);
    $fatal(1, "tb_bus_controller: FAIL, no end after %0d cycles (%0d errors so far)", MAX_CYCLES,
           errors);
  end

  initial begin
    // Index sets, loaded into every index manipulator: identity, reversal, replication (a
    // multicast of buffers 1 and 2), and a permutation.
    for (int p = 0; p < N; p++) begin
      rho[0][p] = p;
      rho[1][p] = N - 1 - p;
      rho[2][p] = 1 + p / 2;
      rho[3][p] = (2 * p + 2 + p / 2) % N;
    end
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    for (int s = 0; s < S; s++) begin
      for (int p = 0; p < N; p++) begin
        @(negedge clk);
        idx_we  = 1'b1;
        idx_set = SB'(s);
        idx_pos = NB'(p);
        idx_buf = NB'(rho[s][p]);
      end
    end
    @(negedge clk);
    idx_we = 1'b0;

    // After the reset, before any configuration write: the paper's alpha = 16, beta = 2,
    // tau = 1, gamma = 8. An IWR step of two vectors, d = 2 then 3, shows each of them:
    // (16 + 2 + 2 * 1 * 2) + 8 + (16 + 2 + 3 * 1 * 2) = 22 + 8 + 24 = 54 cycles.
    alpha = TW'(16);
    beta  = TW'(2);
    tau   = TW'(1);
    gamma = TW'(8);
    fill(14);
    solo("IWR step at the reset's timing", 1, 1, 0, mk(0, 2, 1, 0, 3, 2, 1),
         mk(1, 3, 2, 1, 7, 2, 2));
    check("IWR step at the reset's timing: 54 cycles", res_td[1] - res_tg[1], 54);
    compare_all("the reset's timing");

    // Timing sets: the paper's defaults, beta = 0, tau > 1, alpha = 0, gamma = 0, all minimal,
    // tau = 0 (acts as 1) with gamma = 1.
    begin
      int tset[7][4];
      tset[0][0] = 16; tset[0][1] = 2; tset[0][2] = 1; tset[0][3] = 8;
      tset[1][0] = 3;  tset[1][1] = 0; tset[1][2] = 1; tset[1][3] = 0;
      tset[2][0] = 5;  tset[2][1] = 0; tset[2][2] = 3; tset[2][3] = 2;
      tset[3][0] = 0;  tset[3][1] = 1; tset[3][2] = 2; tset[3][3] = 0;
      tset[4][0] = 2;  tset[4][1] = 3; tset[4][2] = 2; tset[4][3] = 5;
      tset[5][0] = 0;  tset[5][1] = 0; tset[5][2] = 1; tset[5][3] = 0;
      tset[6][0] = 0;  tset[6][1] = 1; tset[6][2] = 0; tset[6][3] = 1;
      for (int c = 0; c < 7; c++) begin
        set_timing(tset[c][0], tset[c][1], tset[c][2], tset[c][3]);
        fill(c);
        protocols(c);
        config_while_busy(c, tset[c][0], tset[c][1], tset[c][2], tset[c][3]);
        compare_all($sformatf("protocols, timing set %0d", c));
        if (c == 0 || c == 3 || c == 5) begin
          fill(c + 8);
          contention();
        end
      end
    end

    checks_verdict("tb_bus_controller", $sformatf(", %0d accesses timed", n_accesses));
    $finish;
  end

endmodule
