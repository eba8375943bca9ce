// Self-checking bench of crossbar_array with N bus controllers and index manipulators: the
// crossbar system (BUSES = N buses through an N x N crossbar) and the single bus (BUSES = 1),
// one bench instance each, run side by side.
//
// Accesses are issued in phases: in a phase each controller makes at most one request, `delay`
// cycles after the phase starts, and the phase ends when all are done. The bench's reference is
// the model's rule written out: taken in order of (request cycle, id), a request on bus b is
// granted at max(its request cycle, the end of the previous one on b), and ends
// alpha + beta(l-1) + d tau l cycles after its grant (Fig. 5). Every grant and done cycle is
// compared with it; every word moves in a reference copy of the modules and buffers, in grant
// order, and all of them are compared after each phase. Hand-worked phases check the rule's
// cases by formula: ties to the lower id, first come beats the lower id, parallel buses on the
// crossbar (serial on the single bus), back-to-back grants; then pseudo-random phases.
// Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012) and Verilator (--binary
// --timing).
module crossbar_bench #(
    parameter int BUSES = 4
) (
    output logic passed
);
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
  localparam int BB = (BUSES > 1) ? $clog2(BUSES) : 1;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic cfg_we = 1'b0;
  logic [TW-1:0] cfg_alpha = '0, cfg_beta = '0, cfg_tau = '0, cfg_gamma = '0;
  logic [N-1:0] start_r = '0, write_r = '0;
  logic [N*NCW-1:0] acc_deg = '0;
  logic [N*N*NB-1:0] acc_slots = '0;
  logic [N*AW-1:0] acc_addr = '0;
  logic [N*LCW-1:0] acc_vecs = '0;
  logic [N*SB-1:0] acc_set = '0;
  logic [N*BB-1:0] req_bus = '0;
  logic idx_we = 1'b0;
  logic [SB-1:0] idx_set = '0;
  logic [NB-1:0] idx_pos = '0, idx_buf = '0;
  logic [N-1:0] loc_we_r = '0;
  logic [NB-1:0] loc_buf = '0;
  logic [LB-1:0] loc_word = '0;
  logic [W-1:0] loc_wdata = '0;
  logic host_we = 1'b0;
  logic [BB-1:0] host_bus = '0;
  logic [NB-1:0] host_slot = '0;
  logic [AW-1:0] host_addr = '0;
  logic [W-1:0] host_wdata = '0;

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
        .iwr(1'b0),
        .acc_write(write_r[i]),
        .acc_col(1'b0),  // a shared bus is driven in row mode: slot s is M(b,s)
        .acc_degree(acc_deg[i*NCW+:NCW]),
        .acc_slots(acc_slots[i*N*NB+:N*NB]),
        .acc_addr(acc_addr[i*AW+:AW]),
        .acc_vectors(acc_vecs[i*LCW+:LCW]),
        .acc_set(acc_set[i*SB+:SB]),
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
        .loc_we(loc_we_r[i]),
        .loc_buf(loc_buf),
        .loc_word(loc_word),
        .loc_wdata(loc_wdata),
        .loc_rdata(loc_rdata[i*W+:W])
    );
  end

  crossbar_array #(
      .N(N),
      .BUSES(BUSES),
      .W(W),
      .DEPTH(DEPTH)
  ) xa (
      .clk(clk),
      .rst_n(rst_n),
      .req(req),
      .hold(hold),
      .req_bus(req_bus),
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
      .host_bus(host_bus),
      .host_slot(host_slot),
      .host_addr(host_addr),
      .host_wdata(host_wdata),
      .host_rdata(host_rdata)
  );

  `include "bench_checks.svh"
  int cyc = 0;

  // One clock cycle: inputs are written before, outputs sampled 1 unit before the edge.
  task automatic edge_;
    #1;
    clk = 1'b1;
    #1;
    clk = 1'b0;
    cyc++;
  endtask

  // ---- reference ------------------------------------------------------------------------------
  logic [W-1:0] ref_mod[BUSES][N][DEPTH];
  logic [W-1:0] ref_buf[N][N][L];
  int rho[S][N];
  int alpha, beta, tau;

  // The phase's accesses.
  bit on[N], wr[N];
  int dly[N], bus[N], deg[N], slot[N][N], addr[N], vecs[N], iset[N];
  int t_req[N], t_grant[N], t_done[N];
  int w_grant[N], w_done[N];  // the reference's

  function automatic int duration(input int i);
    return alpha + beta * (vecs[i] - 1) + deg[i] * tau * vecs[i];
  endfunction

  // The model's rule: by (request cycle, id), grant at max(request, end of the bus's previous).
  task automatic reference(input int t0);
    int free_at[BUSES];
    bit taken[N];
    int best, b, bf;
    for (int k = 0; k < BUSES; k++) free_at[k] = 0;
    for (int i = 0; i < N; i++) taken[i] = !on[i];
    for (int n = 0; n < N; n++) begin
      best = -1;
      for (int i = 0; i < N; i++) begin
        if (!taken[i] && (best < 0 || dly[i] < dly[best])) best = i;
      end
      if (best >= 0) begin
        taken[best] = 1;
        b = (BUSES == 1) ? 0 : bus[best];
        w_grant[best] = (t0 + dly[best] > free_at[b]) ? t0 + dly[best] : free_at[b];
        w_done[best] = w_grant[best] + duration(best);
        free_at[b] = w_done[best];
        // Its words, vector by vector, position by position (Fig. 5).
        for (int v = 0; v < vecs[best]; v++) begin
          for (int p = 0; p < deg[best]; p++) begin
            bf = rho[iset[best]][p];
            if (wr[best]) begin
              ref_mod[b][slot[best][p]][addr[best]+v] = ref_buf[best][bf][v];
            end else begin
              ref_buf[best][bf][v] = ref_mod[b][slot[best][p]][addr[best]+v];
            end
          end
        end
      end
    end
  endtask

  // ---- running a phase --------------------------------------------------------------------------
  task automatic drive_starts(input int t0);
    logic [N-1:0] s, w;
    logic [N*NCW-1:0] dg;
    logic [N*N*NB-1:0] sl;
    logic [N*AW-1:0] ad;
    logic [N*LCW-1:0] vc;
    logic [N*SB-1:0] st;
    logic [N*BB-1:0] rb;
    s = '0;
    w = write_r;
    dg = acc_deg;
    sl = acc_slots;
    ad = acc_addr;
    vc = acc_vecs;
    st = acc_set;
    rb = req_bus;
    for (int i = 0; i < N; i++) begin
      if (on[i] && cyc == t0 + dly[i]) begin
        s[i] = 1'b1;
        w[i] = wr[i];
        dg[i*NCW+:NCW] = NCW'(deg[i]);
        for (int p = 0; p < N; p++) begin
          sl[(i*N+p)*NB+:NB] = NB'(p < deg[i] ? slot[i][p] : 0);
        end
        ad[i*AW+:AW] = AW'(addr[i]);
        vc[i*LCW+:LCW] = LCW'(vecs[i]);
        st[i*SB+:SB] = SB'(iset[i]);
        rb[i*BB+:BB] = BB'(BUSES == 1 ? 0 : bus[i]);
      end
    end
    start_r = s;
    write_r = w;
    acc_deg = dg;
    acc_slots = sl;
    acc_addr = ad;
    acc_vecs = vc;
    acc_set = st;
    req_bus = rb;
  endtask

  task automatic run_phase(input string name);
    int t0, w0, c0, n_wait, n_conf;
    bit all_done;
    t0 = cyc + 1;
    w0 = int'(wait_cycles);
    c0 = int'(conflicts);
    reference(t0);
    for (int i = 0; i < N; i++) begin
      t_grant[i] = -1;
      t_done[i] = -1;
    end
    all_done = 0;
    while (!all_done) begin
      drive_starts(t0);
      #1;
      check($sformatf("%s cycle %0d: collision", name, cyc), 32'(collision), 0);
      for (int i = 0; i < N; i++) begin
        if (req[i] && grant[i]) t_grant[i] = cyc;
        if (done[i]) t_done[i] = cyc;
      end
      edge_();
      all_done = 1;
      for (int i = 0; i < N; i++) begin
        if (on[i] && t_done[i] < 0) all_done = 0;
      end
      if (cyc > t0 + 2000) $fatal(1, "crossbar_bench: phase %s does not end", name);
    end
    n_wait = 0;
    n_conf = 0;
    for (int i = 0; i < N; i++) begin
      if (on[i]) begin
        check($sformatf("%s BC(%0d) grant cycle", name, i), t_grant[i], w_grant[i]);
        check($sformatf("%s BC(%0d) done cycle", name, i), t_done[i], w_done[i]);
        n_wait += w_grant[i] - (t0 + dly[i]);
        n_conf += (w_grant[i] > t0 + dly[i]) ? 1 : 0;
      end
    end
    check($sformatf("%s wait_cycles", name), 32'(wait_cycles) - w0, n_wait);
    check($sformatf("%s conflicts", name), 32'(conflicts) - c0, n_conf);
    compare_all(name);
  endtask

  task automatic compare_all(input string name);
    for (int b = 0; b < BUSES; b++) begin
      for (int s = 0; s < N; s++) begin
        for (int k = 0; k < DEPTH; k++) begin
          host_bus = BB'(b);
          host_slot = NB'(s);
          host_addr = AW'(k);
          #1;
          check($sformatf("%s M(%0d,%0d) word %0d", name, b, s, k), 32'(host_rdata),
                32'(ref_mod[b][s][k]));
        end
      end
    end
    for (int bf = 0; bf < N; bf++) begin
      for (int v = 0; v < L; v++) begin
        loc_buf = NB'(bf);
        loc_word = LB'(v);
        #1;
        for (int i = 0; i < N; i++) begin
          check($sformatf("%s BC(%0d) buffer %0d word %0d", name, i, bf, v),
                32'(loc_rdata[i*W+:W]), 32'(ref_buf[i][bf][v]));
        end
      end
    end
  endtask

  task automatic none;
    for (int i = 0; i < N; i++) on[i] = 0;
  endtask

  // BC(i): an access on bus b of d slots from `first` (rotating), l vectors.
  task automatic acc(input int i, input int delay, input bit w, input int b, input int d,
                     input int first, input int a, input int l, input int s);
    on[i] = 1;
    wr[i] = w;
    dly[i] = delay;
    bus[i] = b;
    deg[i] = d;
    for (int p = 0; p < d; p++) slot[i][p] = (first + p) % N;
    addr[i] = a;
    vecs[i] = l;
    iset[i] = s;
  endtask

  task automatic set_timing(input int a, input int b, input int t);
    cfg_we = 1'b1;
    cfg_alpha = TW'(a);
    cfg_beta = TW'(b);
    cfg_tau = TW'(t);
    cfg_gamma = TW'(0);
    edge_();
    cfg_we = 1'b0;
    alpha = a;
    beta = b;
    tau = t;
  endtask

  int lcg = 12345;
  function automatic int rnd(input int m);
    lcg = (lcg * 1103515245 + 12345) & 32'h7fffffff;
    return (lcg >>> 8) % m;
  endfunction

  int d0;
  initial begin
    check_context = $sformatf("(BUSES=%0d) ", BUSES);
    passed = 1'b0;
    for (int p = 0; p < N; p++) begin
      rho[0][p] = p;
      rho[1][p] = N - 1 - p;
      rho[2][p] = 1 + p / 2;  // replication on writes
      rho[3][p] = (p + 1) % N;
    end
    edge_();
    rst_n = 1'b1;
    for (int s = 0; s < S; s++) begin
      for (int p = 0; p < N; p++) begin
        idx_we = 1'b1;
        idx_set = SB'(s);
        idx_pos = NB'(p);
        idx_buf = NB'(rho[s][p]);
        edge_();
      end
    end
    idx_we = 1'b0;
    // Fill every module and buffer with words that say where they are.
    for (int b = 0; b < BUSES; b++) begin
      for (int s = 0; s < N; s++) begin
        for (int k = 0; k < DEPTH; k++) begin
          host_we = 1'b1;
          host_bus = BB'(b);
          host_slot = NB'(s);
          host_addr = AW'(k);
          host_wdata = 32'h4000_0000 | 32'(b << 12) | 32'(s << 8) | 32'(k);
          ref_mod[b][s][k] = host_wdata;
          edge_();
        end
      end
    end
    host_we = 1'b0;
    for (int i = 0; i < N; i++) begin
      for (int bf = 0; bf < N; bf++) begin
        for (int v = 0; v < L; v++) begin
          loc_we_r = N'(1) << i;
          loc_buf = NB'(bf);
          loc_word = LB'(v);
          loc_wdata = 32'h8000_0000 | 32'(i << 12) | 32'(bf << 8) | 32'(v);
          ref_buf[i][bf][v] = loc_wdata;
          edge_();
        end
      end
    end
    loc_we_r = '0;

    set_timing(3, 1, 2);
    // H1: BC(0) and BC(1) ask for B(2) in the same cycle: BC(0) (lower id) first, BC(1) in BC(0)'s
    // done cycle. BC(3) asks a cycle later and follows BC(1). BC(2) uses B(0): on the crossbar it
    // is granted at once; on the single bus it is third in line.
    none();
    acc(0, 0, 1, 2, 2, 0, 3, 2, 0);
    acc(1, 0, 0, 2, 3, 1, 3, 2, 1);
    acc(2, 0, 1, 0, 1, 3, 5, 1, 2);
    acc(3, 1, 0, 2, 1, 0, 4, 1, 0);
    d0 = cyc + 1;
    run_phase("H1");
    check("H1 BC(0) at once", t_grant[0] - d0, 0);
    check("H1 BC(1) after BC(0)", t_grant[1], t_done[0]);
    if (BUSES > 1) begin
      check("H1 BC(2) parallel on B(0)", t_grant[2] - d0, 0);
      check("H1 BC(3) after BC(1)", t_grant[3], t_done[1]);
    end else begin
      check("H1 single bus: BC(2) after BC(1)", t_grant[2], t_done[1]);
      check("H1 single bus: BC(3) after BC(2)", t_grant[3], t_done[2]);
      check("H1 single bus: BC(3) done", t_done[3] - d0,
            (alpha + beta + 2 * 2 * tau) + (alpha + beta + 3 * 2 * tau) + (alpha + tau) +
            (alpha + tau));
    end
    // H2: first come beats the lower id: BC(3) asks B(1) a cycle before BC(0).
    none();
    acc(3, 0, 1, 1, 4, 0, 8, 3, 2);
    acc(0, 1, 0, 1, 2, 2, 8, 3, 3);
    d0 = cyc + 1;
    run_phase("H2");
    check("H2 BC(3) first come", t_grant[3] - d0, 0);
    check("H2 BC(0) after BC(3)", t_grant[0], t_done[3]);
    // H3: every controller on its own bus: all at once on the crossbar, back to back in id order
    // on the single bus.
    none();
    for (int i = 0; i < N; i++) acc(i, 0, i[0], (i + 1) % N, 2, i, 2 * i, 2, i % S);
    d0 = cyc + 1;
    run_phase("H3");
    for (int i = 0; i < N; i++) begin
      check($sformatf("H3 BC(%0d) grant", i), t_grant[i] - d0,
            BUSES > 1 ? 0 : i * (alpha + beta + 2 * 2 * tau));
    end

    // Pseudo-random phases, other timings.
    for (int ph = 0; ph < 24; ph++) begin
      if (ph % 8 == 0) begin
        int ra, rb, rt;
        ra = rnd(4);
        rb = rnd(3);
        rt = 1 + rnd(2);
        set_timing(ra, rb, rt);
      end
      none();
      for (int i = 0; i < N; i++) begin
        if (rnd(4) != 0) begin
          // One draw per statement: the order of argument evaluation is not defined.
          int l, d, dl, w, b, f, a, s;
          l = 1 + rnd(L);
          d = 1 + rnd(N);
          dl = rnd(6);
          w = rnd(2);
          b = rnd(N);
          f = rnd(N);
          a = rnd(DEPTH - l + 1);
          s = rnd(S);
          acc(i, dl, w == 1, b, d, f, a, l, s);
          // Reads with replicated buffers would overwrite: keep set 2 for writes.
          if (!wr[i] && iset[i] == 2) iset[i] = 0;
        end
      end
      run_phase($sformatf("random %0d", ph));
    end

    checks_verdict($sformatf("crossbar_bench (BUSES=%0d)", BUSES),
                   $sformatf(", %0d conflicts, %0d wait cycles", conflicts, wait_cycles));
    passed = 1'b1;
  end
endmodule
