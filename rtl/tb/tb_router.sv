// Self-checking bench of router: 16 routers wired at run time as a 4 x 4 mesh, a 4 x 4 torus
// (dateline, 2 virtual channels) or a 4-cube, with a bench network interface per node.
//   Zero load (sc_models/net/fabric.hpp): a packet of F flits whose header enters its source
//   router in cycle c0 and crosses h links has its tail ejected in cycle
//     wormhole:            c0 + (h+1) delay + F - 1
//     store-and-forward:   c0 + (h+1)(delay + F - 1) + F - 1
//   (the interface sees it one cycle later: t_s + (h+1) delay + F and t_s + F + (h+1)(delay+F-1)).
//   Contention ([LCC] section 6: first-come arbitration): two packets for one ejection channel
//   in the same cycle, ties to the lower buffer (input port x+ before y+); the earlier header
//   first even from the higher buffer; on all-port nodes both eject at once; the loser's waiting
//   cycles are counted in hdr_waits.
// Every flit's data is checked at its destination (packet id, word index, in order).
// Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012) and Verilator (--binary --timing).
module tb_router;
  localparam int PMAX = 4;
  localparam int VMAX = 2;
  localparam int DMAX = 4;
  localparam int CW = 8;
  localparam int DW = 64;
  localparam int TSW = 32;
  localparam int FW = DW + 2;
  localparam int PV = PMAX * VMAX;
  localparam int VW = 1;
  localparam int VCW = 2;
  localparam int DCW = 3;
  localparam int NP = 2 * PMAX;
  localparam int OCW = 4;
  localparam int NCW = 4;
  localparam int R = 16;      // routers
  localparam int MAXPK = 8;   // packets per scenario
  localparam int MESH = 0, TORUS = 1, CUBE = 2;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic [TSW-1:0] cyc = '0;
  logic [1:0] kind = 2'd0;
  logic [2:0] dims = 3'd2;
  logic [VCW-1:0] vcs = VCW'(1);
  logic [DCW-1:0] depth = DCW'(1);
  logic [7:0] delay = 8'd1;
  logic saf = 1'b0;
  logic all_port = 1'b0;

  // Network wiring: output port q of router r feeds input port q of nbr(r, q).
  logic [R*PMAX-1:0] out_valid, in_valid, inj_valid, inj_ready, ej_valid;
  logic [R*PMAX*VW-1:0] out_vc, in_vc;
  logic [R*PMAX*FW-1:0] out_flit, in_flit, inj_flit, ej_flit;
  logic [R*PV-1:0] acc_room, acc_go, out_room, out_go;
  logic [R*NCW-1:0] hdr_waits;
  logic [R*NP*OCW-1:0] occupancy;
  logic [R-1:0] busy;

  function automatic int coord(input int n, input int i);
    coord = (i == 0) ? n % 4 : n / 4;
  endfunction
  // The router reached from r through port q, or -1 (mesh edge).
  function automatic int nbr(input logic [1:0] k, input int r, input int q);
    int x, y, d;
    if (k == 2'(CUBE)) begin
      nbr = r ^ (1 << q);
    end else begin
      x = coord(r, 0);
      y = coord(r, 1);
      d = (q % 2 == 0) ? 1 : -1;
      if (q / 2 == 0) x = x + d;
      else y = y + d;
      if (k == 2'(TORUS)) begin
        nbr = ((y + 4) % 4) * 4 + (x + 4) % 4;
      end else if (x < 0 || x > 3 || y < 0 || y > 3) begin
        nbr = -1;
      end else begin
        nbr = y * 4 + x;
      end
    end
  endfunction
  // The router whose port q leads to r, or -1.
  function automatic int src_of(input logic [1:0] k, input int r, input int q);
    src_of = -1;
    for (int s = 0; s < R; s++) begin
      if (nbr(k, s, q) == r) src_of = s;
    end
  endfunction
  function automatic int hops(input logic [1:0] k, input int a, input int b);
    int dx, h;
    h = 0;
    if (k == 2'(CUBE)) begin
      for (int i = 0; i < 4; i++) h = h + (((a ^ b) >> i) & 1);
    end else begin
      for (int i = 0; i < 2; i++) begin
        dx = coord(a, i) - coord(b, i);
        if (dx < 0) dx = -dx;
        if (k == 2'(TORUS) && 4 - dx < dx) dx = 4 - dx;
        h = h + dx;
      end
    end
    hops = h;
  endfunction
  // The first port of the dimension-ordered route (the all-port injection channel).
  function automatic int first_port(input logic [1:0] k, input int a, input int b);
    int fwd;
    first_port = 0;
    if (k == 2'(CUBE)) begin
      for (int i = 3; i >= 0; i--) if ((((a ^ b) >> i) & 1) == 1) first_port = i;
    end else begin
      for (int i = 1; i >= 0; i--) begin
        if (coord(a, i) != coord(b, i)) begin
          fwd = (coord(b, i) - coord(a, i) + 4) % 4;
          if (k == 2'(TORUS)) first_port = (fwd <= 4 - fwd) ? 2 * i : 2 * i + 1;
          else first_port = (coord(b, i) > coord(a, i)) ? 2 * i : 2 * i + 1;
        end
      end
    end
  endfunction
  function automatic logic [3*CW-1:0] dest_field(input logic [1:0] k, input int n);
    if (k == 2'(CUBE)) dest_field = (3 * CW)'(n);
    else dest_field = {CW'(0), CW'(coord(n, 1)), CW'(coord(n, 0))};
  endfunction

  for (genvar r = 0; r < R; r++) begin : g_node
    for (genvar q = 0; q < PMAX; q++) begin : g_port
      int s, t;
      assign s = src_of(kind, r, q);
      assign t = nbr(kind, r, q);
      assign in_valid[r*PMAX+q] = (s >= 0) && out_valid[s*PMAX+q];
      assign in_vc[(r*PMAX+q)*VW+:VW] = (s >= 0) ? out_vc[(s*PMAX+q)*VW+:VW] : '0;
      assign in_flit[(r*PMAX+q)*FW+:FW] = (s >= 0) ? out_flit[(s*PMAX+q)*FW+:FW] : '0;
      for (genvar v = 0; v < VMAX; v++) begin : g_vc
        assign out_room[r*PV+q*VMAX+v] = (t >= 0) && acc_room[t*PV+q*VMAX+v];
        assign out_go[r*PV+q*VMAX+v] = (t >= 0) && acc_go[t*PV+q*VMAX+v];
      end
    end
    logic [3*CW-1:0] radix, here;
    assign radix = (kind == 2'(CUBE)) ? '0 : {CW'(0), CW'(4), CW'(4)};
    assign here = dest_field(kind, r);
    router #(
        .PMAX(PMAX),
        .VMAX(VMAX),
        .DMAX(DMAX),
        .CW(CW),
        .DW(DW),
        .TSW(TSW)
    ) u (
        .clk(clk),
        .rst_n(rst_n),
        .cfg_kind(kind),
        .cfg_dims(dims),
        .cfg_radix(radix),
        .cfg_coord(here),
        .cfg_vcs(vcs),
        .cfg_depth(depth),
        .cfg_delay(delay),
        .cfg_saf(saf),
        .cfg_dateline(1'b1),
        .cfg_all_port(all_port),
        .now(cyc),
        .in_valid(in_valid[r*PMAX+:PMAX]),
        .in_vc(in_vc[r*PMAX*VW+:PMAX*VW]),
        .in_flit(in_flit[r*PMAX*FW+:PMAX*FW]),
        .in_acc_room(acc_room[r*PV+:PV]),
        .in_acc_go(acc_go[r*PV+:PV]),
        .out_valid(out_valid[r*PMAX+:PMAX]),
        .out_vc(out_vc[r*PMAX*VW+:PMAX*VW]),
        .out_flit(out_flit[r*PMAX*FW+:PMAX*FW]),
        .out_room(out_room[r*PV+:PV]),
        .out_go(out_go[r*PV+:PV]),
        .inj_valid(inj_valid[r*PMAX+:PMAX]),
        .inj_flit(inj_flit[r*PMAX*FW+:PMAX*FW]),
        .inj_ready(inj_ready[r*PMAX+:PMAX]),
        .ej_valid(ej_valid[r*PMAX+:PMAX]),
        .ej_flit(ej_flit[r*PMAX*FW+:PMAX*FW]),
        .hdr_waits(hdr_waits[r*NCW+:NCW]),
        .occupancy(occupancy[r*NP*OCW+:NP*OCW]),
        .busy(busy[r])
    );
  end

  // ---- bench network interface: the scenario's packets, each from `at` on -------------------
  int npk = 0;
  int pk_src[MAXPK], pk_dst[MAXPK], pk_len[MAXPK], pk_at[MAXPK], pk_chan[MAXPK];
  int pk_sent[MAXPK], pk_got[MAXPK], pk_head[MAXPK], pk_done[MAXPK];
  int waits = 0;
  int checks = 0;

  function automatic logic [FW-1:0] flit_of(input int p, input int k, input int len,
                                            input logic [3*CW-1:0] dst);
    logic [FW-1:0] f;
    if (k == 0) f = {1'b0, 1'b1, 32'(p), 8'(len), dst};
    else f = {1'b0, 1'b0, 32'(p), 32'(p * 256 + k)};
    f[FW-1] = (k == len - 1);
    flit_of = f;
  endfunction

  // The interface works at the falling edge of cycle c: it offers each channel's next flit for
  // cycle c (inj_valid never waits for inj_ready), lets the network settle, then counts the flits
  // the routers take and eject at the coming rising edge.
  logic [R*PMAX-1:0] ni_taken;
  logic [R*PMAX-1:0] ni_v = '0;
  logic [R*PMAX*FW-1:0] ni_fl = '0;
  logic [R*PMAX-1:0] nv;
  logic [R*PMAX*FW-1:0] nf;
  logic [FW-1:0] ef;
  int pk;
  assign inj_valid = ni_v;
  assign inj_flit = ni_fl;

  initial begin
    forever begin
      @(negedge clk);
      nv = '0;
      nf = '0;
      ni_taken = '0;
      for (int q = 0; q < MAXPK; q++) begin
        if (rst_n && q < npk && pk_sent[q] < pk_len[q] && !ni_taken[pk_src[q]*PMAX+pk_chan[q]]) begin
          ni_taken[pk_src[q]*PMAX+pk_chan[q]] = 1'b1;
          if (pk_at[q] <= int'(cyc)) begin
            nv[pk_src[q]*PMAX+pk_chan[q]] = 1'b1;
            nf[(pk_src[q]*PMAX+pk_chan[q])*FW+:FW] =
                flit_of(q, pk_sent[q], pk_len[q], dest_field(kind, pk_dst[q]));
          end
        end
      end
      ni_v = nv;
      ni_fl = nf;
      #1;
      for (int n = 0; n < R && rst_n; n++) begin
        waits = waits + 32'(hdr_waits[n*NCW+:NCW]);
        for (int j = 0; j < PMAX; j++) begin
          if (inj_valid[n*PMAX+j] && inj_ready[n*PMAX+j]) begin
            pk = int'(inj_flit[(n*PMAX+j)*FW+DW-32+:32]);
            if (pk_sent[pk] == 0) pk_head[pk] = int'(cyc);
            pk_sent[pk] = pk_sent[pk] + 1;
          end
          if (ej_valid[n*PMAX+j]) begin
            ef = ej_flit[(n*PMAX+j)*FW+:FW];
            pk = int'(ef[DW-1-:32]);
            if (pk >= npk || pk_dst[pk] != n) $fatal(1, "flit of packet %0d ejected at node %0d", pk, n);
            if (ef[DW] != (pk_got[pk] == 0) || ef[DW+1] != (pk_got[pk] == pk_len[pk] - 1))
              $fatal(1, "packet %0d: flit %0d has wrong head/tail bits", pk, pk_got[pk]);
            if (pk_got[pk] > 0 && ef[31:0] != 32'(pk * 256 + pk_got[pk]))
              $fatal(1, "packet %0d: flit %0d carries %0h", pk, pk_got[pk], ef[31:0]);
            if (pk_got[pk] == pk_len[pk] - 1) pk_done[pk] = int'(cyc);
            pk_got[pk] = pk_got[pk] + 1;
          end
        end
      end
    end
  end

  always #5 clk <= ~clk;
  always @(posedge clk) cyc <= cyc + 1;

  task automatic configure(input int k, input int v, input int d, input int dl, input bit sf,
                           input bit ap);
    kind = 2'(k);
    dims = (k == CUBE) ? 3'd4 : 3'd2;
    vcs = VCW'(v);
    depth = DCW'(d);
    delay = 8'(dl);
    saf = sf;
    all_port = ap;
  endtask

  // Clears the network and the packet list.
  task automatic reset_net;
    @(negedge clk);
    rst_n = 1'b0;
    npk = 0;
    for (int p = 0; p < MAXPK; p++) begin
      pk_sent[p] = 0;
      pk_got[p] = 0;
      pk_done[p] = -1;
      pk_head[p] = -1;
    end
    @(negedge clk);
    rst_n = 1'b1;
  endtask

  // Packet p of the scenario: from s to d, len flits, offered from cycle `after` cycles ahead.
  task automatic packet(input int s, input int d, input int len, input int after);
    pk_src[npk] = s;
    pk_dst[npk] = d;
    pk_len[npk] = len;
    pk_at[npk] = int'(cyc) + after;
    pk_chan[npk] = all_port ? first_port(kind, s, d) : 0;
    npk = npk + 1;
  endtask

  task automatic run_all;
    int left, t;
    left = 1;
    for (t = 0; t < 400 && (left != 0 || busy != '0); t++) begin
      @(negedge clk);
      left = 0;
      for (int p = 0; p < npk; p++) if (pk_done[p] < 0) left = left + 1;
    end
    if (left != 0 || busy != '0) $fatal(1, "scenario did not finish: %0d packets, kind %0d", npk, kind);
  endtask

  task automatic expect_done(input int p, input int want, input string what);
    checks = checks + 1;
    if (pk_done[p] != want)
      $fatal(1, "%s: packet %0d (%0d -> %0d, %0d flits, head in at %0d): tail out at %0d, want %0d",
             what, p, pk_src[p], pk_dst[p], pk_len[p], pk_head[p], pk_done[p], want);
  endtask

  int seed = 7;
  function automatic int rnd(input int n);
    seed = (seed * 1103515245 + 12345) & 32'h7fffffff;
    rnd = (seed >> 8) % n;
  endfunction

  initial begin
    int s, d, len, want, h, k, dl, dp, w0;
    bit sf;
    // Zero load: one packet at a time, every kind, delay, depth, switching.
    for (int kk = 0; kk < 3; kk++) begin
      for (int cfg = 0; cfg < 4; cfg++) begin
        k = kk;
        dl = (cfg % 2 == 0) ? 1 : 3;
        dp = (cfg < 2) ? 1 : 4;
        sf = (cfg == 3);
        configure(k, (k == TORUS) ? 2 : 1, dp, dl, sf, cfg == 2);
        for (int t = 0; t < 4; t++) begin
          s = rnd(R);
          d = (s + 1 + rnd(R - 1)) % R;
          len = sf ? 1 + rnd(dp) : 1 + rnd(7);
          reset_net();
          packet(s, d, len, 1);
          run_all();
          h = hops(kind, s, d);
          want = sf ? pk_head[0] + (h + 1) * (dl + len - 1) + len - 1
                    : pk_head[0] + (h + 1) * dl + len - 1;
          expect_done(0, want, "zero load");
          if (pk_head[0] != pk_at[0]) $fatal(1, "zero load: header not injected when offered");
        end
      end
    end
    // Contention for node 5's ejection channel: from node 4 (arrives on x+, buffer 0) and node 1
    // (arrives on y+, buffer 4), F flits each, delay 2.
    for (int ap = 0; ap < 2; ap++) begin
      configure(MESH, 1, 1, 2, 1'b0, ap == 1);
      reset_net();
      w0 = waits;
      packet(1, 5, 5, 1);
      packet(4, 5, 5, 1);
      run_all();
      if (ap == 0) begin
        expect_done(1, pk_head[1] + 2 * 2 + 5 - 1, "tie to the lower buffer");
        expect_done(0, pk_head[1] + 2 * 2 + 2 * 5 - 1, "tie loser follows the tail");
        checks = checks + 1;
        if (waits - w0 != 5) $fatal(1, "tie: %0d header wait cycles, want 5", waits - w0);
      end else begin
        expect_done(0, pk_head[0] + 2 * 2 + 5 - 1, "all-port: own ejection channel");
        expect_done(1, pk_head[1] + 2 * 2 + 5 - 1, "all-port: own ejection channel");
      end
    end
    // First come: node 1's header (higher buffer) arrives a cycle earlier and wins.
    configure(MESH, 1, 1, 2, 1'b0, 1'b0);
    reset_net();
    packet(1, 5, 5, 1);
    packet(4, 5, 5, 2);
    run_all();
    expect_done(0, pk_head[0] + 2 * 2 + 5 - 1, "first come");
    expect_done(1, pk_head[0] + 2 * 2 + 2 * 5 - 1, "first come: later header waits");
    // One link, two packets from the same source: the second follows the first's tail.
    configure(TORUS, 2, 1, 1, 1'b0, 1'b0);
    reset_net();
    packet(0, 3, 4, 1);
    packet(0, 2, 3, 1);
    run_all();
    expect_done(0, pk_head[0] + 2 * 1 + 4 - 1, "torus wrap link");
    expect_done(1, pk_head[1] + 3 * 1 + 3 - 1, "second packet of a source");
    checks = checks + 1;
    if (pk_head[1] != pk_head[0] + 4) $fatal(1, "second packet injected at %0d", pk_head[1]);
    $display("tb_router: PASS (%0d checks)", checks);
    $finish;
  end
endmodule
