// The wormhole router of the multicomputers ([LCC] section 6; docs/architecture.md, multicomputer side),
// the RTL twin of one router of sc::net::Fabric (sc_models/net/fabric.{hpp,cpp}).
//
// One design for meshes, tori and hypercubes: the sizes are compile-time maxima (PMAX network
// ports, VMAX virtual channels per port, DMAX flits per buffer) and the topology is run-time
// configuration (cfg_*): its kind, dimensions, radices, this router's coordinates, the virtual
// channels, buffer depth, router delay, switching, dateline and one-/all-port interface in use.
// So one verilation serves every network within the maxima.
//
// Ports. Network port q: on a mesh or torus 2i (dimension i, positive) and 2i+1 (negative); on a
// hypercube q = i (flip bit i). A flit leaving through output port q enters the neighbour's input
// port q (the port is named by the direction of travel, as in the model). Injection channel j
// (j < PMAX; only j = 0 on a one-port node) and ejection channel e (e = the input port on an
// all-port node, else 0) connect the network interface.
//
// Buffers, in the model's order (ties in arbitration go to the lower index): b = q*VMAX + v for
// input port q, virtual channel v; then PV + j for injection channel j. Output virtual channels:
// ov = q*VMAX + v, then PV + e for ejection channel e.
//
// Flits: {tail, head, data[DW-1:0]}. A header's data holds the destination at [3*CW-1:0]
// (coordinate i at [i*CW +: CW] on a mesh or torus, the node number on a hypercube) and the
// packet's flits at [3*CW +: 8] (read only under store-and-forward). The rest is carried as is.
//
// One cycle, as Fabric::step decides it from the state at the start of the cycle (`now` = c):
//   1. virtual-channel allocation: a header at the head of a buffer without an output channel,
//      `delay` cycles after it was pushed (store-and-forward: after its tail was pushed), asks for
//      the channels of its dimension-ordered route (with the dateline class on a torus); requests
//      are served first come (the cycle the header was pushed), ties to the lower buffer, each
//      taking the first free channel of its range;
//   2. switch allocation: a head flit pushed before c whose channel's next buffer has room, or is
//      full with a head that may itself leave (out_room), is a candidate; it is sure if it ejects
//      or its next buffer has a free slot, else speculative. Pass 1: output ports in order each
//      pass their oldest sure candidate whose input port has not sent yet; pass 2: the output
//      ports pass 1 left unused each pass their oldest speculative candidate whose input port
//      has not sent yet (Fabric::allocate_switches: a failed speculative grant must not take a
//      port from a move that would succeed, or the ports, which couple the dateline classes,
//      can freeze a torus with no cyclic channel dependency);
//   3. a winner moves if its next buffer is not full or that buffer's head moves (out_go).
// in_acc_room tells the upstream router whether a buffer is not full or its head may leave;
// in_acc_go whether its head leaves in this cycle. The upstream router counts the flits of each
// neighbour buffer it feeds (dn_q: + its own flit sent on the channel, - out_go), which says
// whether that buffer has a free slot. The same-cycle hand-off into a full one-flit buffer is a
// combinational chain from router to router; it is acyclic because dimension-ordered routing
// (with the dateline on tori) has no cyclic channel dependency, and the arbitration reads only
// out_room and the counts, never out_go. A torus without its dateline would close the chain into
// a loop.
module router #(
    parameter int PMAX = 6,   // network ports (6: 3-D grids, hypercubes up to 64 nodes)
    parameter int VMAX = 2,   // virtual channels per network port
    parameter int DMAX = 4,   // flits per buffer
    parameter int CW   = 8,   // bits per coordinate (radix <= 2^CW - 1)
    parameter int DW   = 64,  // flit data bits (>= 3*CW + 8)
    parameter int TSW  = 32,  // cycle stamps (wrap-safe: only differences are used)
    // Derived: leave at their defaults.
    parameter int FW  = DW + 2,                            // flit: {tail, head, data}
    parameter int PV  = PMAX * VMAX,                       // network buffers / output channels
    parameter int NB  = PV + PMAX,                         // buffers (network + injection)
    parameter int NO  = PV + PMAX,                         // output channels (+ ejection)
    parameter int NP  = 2 * PMAX,                          // input ports, output ports
    parameter int VW  = (VMAX > 1) ? $clog2(VMAX) : 1,     // virtual channel index
    parameter int VCW = $clog2(VMAX + 1),                  // virtual channel count
    parameter int DB  = (DMAX > 1) ? $clog2(DMAX) : 1,     // slot index
    parameter int DCW = $clog2(DMAX + 1),                  // flits in a buffer
    parameter int OW  = $clog2(NO),                        // output channel index
    parameter int PW  = $clog2(NP),                        // port index
    parameter int OCW = $clog2(VMAX * DMAX + 1),           // flits in an input port
    parameter int NCW = $clog2(NB + 1)                     // count of buffers
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low: empties the buffers, frees every channel

    // Configuration (constant during a run).
    input logic [      1:0] cfg_kind,      // 0 mesh, 1 torus, 2 hypercube
    input logic [      2:0] cfg_dims,      // c (1..3) on a mesh or torus, d (1..PMAX) on a hypercube
    input logic [ 3*CW-1:0] cfg_radix,     // k_i at [i*CW +: CW] (mesh, torus)
    input logic [ 3*CW-1:0] cfg_coord,     // this router: x_i at [i*CW +: CW]; hypercube: node
    input logic [  VCW-1:0] cfg_vcs,       // virtual channels in use, 1..VMAX
    input logic [  DCW-1:0] cfg_depth,     // buffer depth in use, 1..DMAX
    input logic [      7:0] cfg_delay,     // router delay, >= 1
    input logic             cfg_saf,       // store-and-forward, else wormhole
    input logic             cfg_dateline,  // torus: two virtual-channel classes at the dateline
    input logic             cfg_all_port,  // one injection/ejection channel per network port
    input logic [  TSW-1:0] now,           // the current cycle c

    // Network input ports (from the neighbours' output ports q).
    input  logic [  PMAX-1:0] in_valid,
    input  logic [PMAX*VW-1:0] in_vc,
    input  logic [PMAX*FW-1:0] in_flit,
    output logic [    PV-1:0] in_acc_room,  // buffer q*VMAX+v: not full, or its head may leave
    output logic [    PV-1:0] in_acc_go,    // buffer q*VMAX+v: its head leaves this cycle

    // Network output ports (to the neighbours' input ports q).
    output logic [  PMAX-1:0] out_valid,
    output logic [PMAX*VW-1:0] out_vc,
    output logic [PMAX*FW-1:0] out_flit,
    input  logic [    PV-1:0] out_room,     // the neighbour's in_acc_room
    input  logic [    PV-1:0] out_go,       // the neighbour's in_acc_go (its head leaves)

    // Network interface: injection (a flit is taken in a cycle with inj_valid && inj_ready) and
    // ejection (the interface takes every flit it is handed).
    input  logic [  PMAX-1:0] inj_valid,
    input  logic [PMAX*FW-1:0] inj_flit,
    output logic [  PMAX-1:0] inj_ready,
    output logic [  PMAX-1:0] ej_valid,
    output logic [PMAX*FW-1:0] ej_flit,

    // Observation: headers left waiting for a channel this cycle (FabricStats::header_wait_cycles),
    // flits held per input port (network ports, then injection channels), any flit held.
    output logic [     NCW-1:0] hdr_waits,
    output logic [  NP*OCW-1:0] occupancy,
    output logic                busy
);
  localparam int HEAD = DW;
  localparam int TAIL = DW + 1;
  localparam logic [1:0] KIND_TORUS = 2'd1;
  localparam logic [1:0] KIND_CUBE = 2'd2;
  localparam int DCX = DCW + 1;
  localparam logic [DCW:0] DMAX_X = DCX'(DMAX);

  // ---- state --------------------------------------------------------------------------------
  // Per buffer (in g_buf): DMAX slots of flit and push cycle, a head slot and a count.
  logic [ NB*DB-1:0] head_q;
  logic [NB*DCW-1:0] count_q;
  logic [   NB-1:0] routed_q;          // the head packet holds an output channel
  logic [ NB*OW-1:0] chan_q;           // which one
  logic [   NO-1:0] owned_q;           // output channel held by a packet

  // ---- per buffer: head flit, route, requests ----------------------------------------------
  logic [NB*FW-1:0] hflit;             // head flit of buffer b
  logic [NB*TSW-1:0] htime;            // the cycle it was pushed
  logic [NB-1:0] nonempty, full, hdr_ready, tails;
  logic [NB*OW-1:0] range_lo;          // first output channel of the request's range
  logic [NB*VCW-1:0] range_n;          // channels in the range
  logic [NB*NB-1:0] older;             // [b*NB+j]: head of j came before head of b
  logic [NB-1:0] moving;               // a flit leaves buffer b at the next edge
  logic [PMAX-1:0] inj_push;           // a flit enters injection buffer PV + j at the next edge

  // Slot arithmetic modulo DMAX.
  function automatic logic [DB-1:0] slot_add(input logic [DB-1:0] a, input logic [DCW-1:0] n);
    logic [DCW:0] s;
    s = {{(DCW + 1 - DB) {1'b0}}, a} + {1'b0, n};
    if (s >= DMAX_X) s = s - DMAX_X;
    slot_add = s[DB-1:0];
  endfunction

  // Dimension-ordered routing (Topology::next_port): at_dest, and the output port otherwise,
  // with whether that port crosses the torus dateline (Topology::crosses_dateline) and its
  // dimension. The configuration is passed in, not read from the ports, so that a simulator that
  // re-evaluates a function call only when its arguments change (Icarus) sees a new topology.
  function automatic logic [PW+4:0] route(input logic [3*CW-1:0] dst, input logic [1:0] kind,
                                          input logic [2:0] dims, input logic [3*CW-1:0] coord,
                                          input logic [3*CW-1:0] radix);
    logic at_dest, crosses, found;
    logic [PW-1:0] q;
    logic [2:0] dim;
    logic [CW-1:0] a, b, k;
    logic [CW:0] fwd, back;
    at_dest = 1'b1;
    crosses = 1'b0;
    found = 1'b0;
    q = '0;
    dim = '0;
    if (kind == KIND_CUBE) begin
      for (int i = 0; i < PMAX; i++) begin
        if (!found && 3'(i) < dims && dst[i] != coord[i]) begin
          found = 1'b1;
          q = PW'(i);
          dim = 3'(i);
        end
      end
    end else begin
      for (int i = 0; i < 3; i++) begin
        a = coord[i*CW+:CW];
        b = dst[i*CW+:CW];
        k = radix[i*CW+:CW];
        if (!found && 3'(i) < dims && a != b) begin
          found = 1'b1;
          dim = 3'(i);
          if (kind == KIND_TORUS) begin
            // The shorter way round; half a ring goes the positive way.
            fwd = (b >= a) ? {1'b0, b - a} : {1'b0, b} + {1'b0, k} - {1'b0, a};
            back = {1'b0, k} - fwd;
            q = (fwd <= back) ? PW'(2 * i) : PW'(2 * i + 1);
            crosses = (fwd <= back) ? (a == k - CW'(1)) : (a == '0);
          end else begin
            q = (b > a) ? PW'(2 * i) : PW'(2 * i + 1);
          end
        end
      end
    end
    at_dest = !found;
    route = {at_dest, crosses, dim, q};
  endfunction

  // Whether a flit enters buffer b at this edge, and which: read by the clocked logic only. No
  // combinational logic reads the network input ports (in_valid, in_vc, in_flit), so a simulator
  // that set them just before the edge needs no combinational evaluation for them (docs/rtl.md,
  // "Stepping a verilated unit").
  function automatic logic arrives(input int b, input logic [PMAX-1:0] valid,
                                   input logic [PMAX*VW-1:0] vc, input logic [PMAX-1:0] injected);
    if (b < PV) arrives = valid[b/VMAX] && 32'(vc[(b/VMAX)*VW+:VW]) == b % VMAX;
    else arrives = injected[b-PV];
  endfunction
  function automatic logic [FW-1:0] arriving(input int b, input logic [PMAX*FW-1:0] net,
                                             input logic [PMAX*FW-1:0] inj);
    arriving = (b < PV) ? net[(b/VMAX)*FW+:FW] : inj[(b-PV)*FW+:FW];
  endfunction

  for (genvar b = 0; b < NB; b++) begin : g_buf
    localparam int IN = (b < PV) ? b / VMAX : PMAX + (b - PV);  // input port
    localparam int VC = (b < PV) ? b % VMAX : 0;
    logic [FW-1:0] f;
    logic [TSW-1:0] t, tail_t;
    logic [PW+4:0] r;
    logic [7:0] len;
    logic ready;
    logic [VCW-1:0] half, cls_n;
    logic cls;
    logic [2:0] in_dim;
    logic [FW-1:0] mem_flit[DMAX];
    logic [TSW-1:0] mem_time[DMAX];  // the cycle the flit was pushed
    logic [DB-1:0] hd;
    logic [DCW-1:0] cnt;
    assign hd = head_q[b*DB+:DB];
    assign cnt = count_q[b*DCW+:DCW];
    assign f = mem_flit[hd];
    assign t = mem_time[hd];
    assign len = f[3*CW+:8];
    assign tail_t = mem_time[slot_add(hd, DCW'(len) - DCW'(1))];
    assign hflit[b*FW+:FW] = f;
    assign tails[b] = f[TAIL];
    assign htime[b*TSW+:TSW] = t;
    assign nonempty[b] = cnt != '0;
    assign full[b] = cnt >= cfg_depth;
    always_ff @(posedge clk) begin
      if (!rst_n) begin
        head_q[b*DB+:DB] <= '0;
        count_q[b*DCW+:DCW] <= '0;
      end else begin
        if (arrives(b, in_valid, in_vc, inj_push)) begin
          mem_flit[slot_add(hd, cnt)] <= arriving(b, in_flit, inj_flit);
          mem_time[slot_add(hd, cnt)] <= now;
        end
        if (moving[b]) head_q[b*DB+:DB] <= slot_add(hd, DCW'(1));
        count_q[b*DCW+:DCW] <= cnt + DCW'(arrives(b, in_valid, in_vc, inj_push)) -
                               DCW'(moving[b]);
      end
    end
    assign ready = cfg_saf ? ({{(8 - DCW) {1'b0}}, cnt} >= len &&
                              (now - tail_t) >= TSW'(cfg_delay))
                           : (now - t) >= TSW'(cfg_delay);
    assign hdr_ready[b] = nonempty[b] && !routed_q[b] && f[HEAD] && ready;
    assign r = route(f[3*CW-1:0], cfg_kind, cfg_dims, cfg_coord, cfg_radix);
    // Topology::dateline_vc: class 1 on a dateline channel, the arrival class while the packet
    // stays in its dimension, class 0 when it starts a new one (or at its source).
    assign half = cfg_vcs >> 1;
    assign in_dim = (cfg_kind == KIND_CUBE) ? 3'(IN) : 3'(IN / 2);
    assign cls = r[PW+3] || (IN < PMAX && in_dim == r[PW+2:PW] && VCW'(VC) >= half);
    assign cls_n = (cfg_kind == KIND_TORUS && cfg_dateline) ? half : cfg_vcs;
    // At the destination: the ejection channel of the input port on an all-port node, else 0.
    assign range_lo[b*OW+:OW] =
        r[PW+4] ? ((cfg_all_port && IN < PMAX) ? OW'(PV + IN) : OW'(PV))
                : OW'(32'(r[PW-1:0]) * VMAX) +
                  ((cfg_kind == KIND_TORUS && cfg_dateline && cls) ? OW'(half) : '0);
    assign range_n[b*VCW+:VCW] = r[PW+4] ? VCW'(1) : cls_n;
    // Wrap-safe: the sign of the difference of two push cycles less than 2^(TSW-1) apart.
    for (genvar j = 0; j < NB; j++) begin : g_older
      logic [TSW-1:0] diff;
      assign diff = htime[j*TSW+:TSW] - htime[b*TSW+:TSW];
      assign older[b*NB+j] = diff[TSW-1] || (diff == '0 && j < b);
    end
  end

  // ---- virtual-channel allocation ----------------------------------------------------------
  // Requests for one range are served in first-come order; ranges are equal or disjoint (a whole
  // port, one dateline class, one ejection channel), so a request gets the m-th free channel of
  // its range, m = the earlier requests for the same range.
  logic [NB-1:0] grant;
  logic [NB*OW-1:0] grant_ch;
  for (genvar b = 0; b < NB; b++) begin : g_vca
    logic [NCW-1:0] m, seen;
    logic g;
    logic [OW-1:0] ch;
    always_comb begin
      m = '0;
      for (int j = 0; j < NB; j++) begin
        if (hdr_ready[j] && older[b*NB+j] && range_lo[j*OW+:OW] == range_lo[b*OW+:OW]) begin
          m = m + NCW'(1);
        end
      end
      seen = '0;
      g = 1'b0;
      ch = '0;
      for (int v = 0; v < VMAX; v++) begin
        if (!g && VCW'(v) < range_n[b*VCW+:VCW] &&
            !owned_q[32'(range_lo[b*OW+:OW])+v]) begin
          if (seen == m) begin
            g = 1'b1;
            ch = range_lo[b*OW+:OW] + OW'(v);
          end
          seen = seen + NCW'(1);
        end
      end
    end
    assign grant[b] = hdr_ready[b] && g;
    assign grant_ch[b*OW+:OW] = ch;
  end

  always_comb begin
    hdr_waits = '0;
    for (int b = 0; b < NB; b++) begin
      if (hdr_ready[b] && !grant[b]) hdr_waits = hdr_waits + NCW'(1);
    end
  end

  // ---- switch allocation -------------------------------------------------------------------
  logic [NB-1:0] routed, may_leave, eject;
  logic [NB*OW-1:0] chan;
  logic [NB*PW-1:0] oport;
  logic [NB-1:0] room, go, sure;
  // Flits in the neighbour's buffer that output channel ov feeds, as of the start of the cycle.
  logic [PV*DCW-1:0] dn_q;
  logic [PV-1:0] dn_free;
  for (genvar ov = 0; ov < PV; ov++) begin : g_dn
    logic [DCW-1:0] n;
    logic sent;
    assign n = dn_q[ov*DCW+:DCW];
    assign sent = out_valid[ov/VMAX] && 32'(out_vc[(ov/VMAX)*VW+:VW]) == ov % VMAX;
    assign dn_free[ov] = n < cfg_depth;
    always_ff @(posedge clk) begin
      if (!rst_n) dn_q[ov*DCW+:DCW] <= '0;
      else dn_q[ov*DCW+:DCW] <= n + DCW'(sent) - DCW'(out_go[ov]);
    end
  end
  for (genvar b = 0; b < NB; b++) begin : g_cand
    logic [OW-1:0] c;
    assign routed[b] = routed_q[b] || grant[b];
    assign c = routed_q[b] ? chan_q[b*OW+:OW] : grant_ch[b*OW+:OW];
    assign chan[b*OW+:OW] = c;
    assign eject[b] = 32'(c) >= PV;
    assign oport[b*PW+:PW] = eject[b] ? PW'(PMAX + 32'(c) - PV) : PW'(32'(c) / VMAX);
    assign room[b] = eject[b] || out_room[32'(c)%PV];
    assign sure[b] = eject[b] || dn_free[32'(c)%PV];
    assign go[b] = sure[b] || out_go[32'(c)%PV];
    assign may_leave[b] = nonempty[b] && routed[b] && room[b];
  end

  // Two passes over the output ports in order (stage s: port s % NP; sure candidates in stages
  // 0..NP-1, speculative ones in NP..2NP-1 on the ports left unused), each passing its oldest
  // candidate whose input port is still free.
  // Split for Verilator: stage s reads stage s-1, which is no loop.
  localparam int NS = 2 * NP;  // stages
  logic [(NS-1)*NP-1:0] in_used  /*verilator split_var*/;  // [s*NP+i]: i sent in a stage <= s
  // [s*NB+b]: b passes in stage s, through output port s % NP
  logic [NS*NB-1:0] win  /*verilator split_var*/;
  for (genvar s = 0; s < NS; s++) begin : g_sa
    localparam int O = s % NP;
    logic [NB-1:0] elig, w;
    logic [NP-1:0] used_before;
    logic pass_open;  // pass 1, or pass 2 on a port that pass 1 left unused
    if (s == 0) begin : g_first
      assign used_before = '0;
    end else begin : g_next
      assign used_before = in_used[(s-1)*NP+:NP];
    end
    if (s < NP) begin : g_sure
      assign pass_open = 1'b1;
    end else begin : g_spec
      assign pass_open = win[(s-NP)*NB+:NB] == '0;
    end
    for (genvar b = 0; b < NB; b++) begin : g_elig
      localparam int IN = (b < PV) ? b / VMAX : PMAX + (b - PV);
      assign elig[b] = may_leave[b] && 32'(oport[b*PW+:PW]) == O && !used_before[IN] &&
                       pass_open && (sure[b] == (s < NP));
      assign w[b] = elig[b] && ((elig & older[b*NB+:NB]) == '0);
    end
    if (s < NS - 1) begin : g_used
      logic [NP-1:0] used;
      always_comb begin
        used = used_before;
        for (int b = 0; b < NB; b++) begin
          if (w[b]) used = used | (NP'(1) << ((b < PV) ? b / VMAX : PMAX + (b - PV)));
        end
      end
      assign in_used[s*NP+:NP] = used;
    end
    assign win[s*NB+:NB] = w;
  end

  for (genvar b = 0; b < NB; b++) begin : g_move
    logic [NS-1:0] w;
    for (genvar s = 0; s < NS; s++) begin : g_stage
      assign w[s] = win[s*NB+b];
    end
    assign moving[b] = (w != '0) && go[b];
  end

  // What this router tells its upstream neighbours and its interface.
  for (genvar b = 0; b < PV; b++) begin : g_acc
    assign in_acc_room[b] = !full[b] || may_leave[b];
    assign in_acc_go[b] = moving[b];
  end
  for (genvar j = 0; j < PMAX; j++) begin : g_inj
    assign inj_ready[j] = !full[PV+j] || moving[PV+j];
  end

  // Output and ejection ports: the flit of the buffer that moves through them.
  for (genvar p = 0; p < NP; p++) begin : g_out
    logic v;
    logic [FW-1:0] fl;
    logic [OW-1:0] ch;
    always_comb begin
      v = 1'b0;
      fl = '0;
      ch = '0;
      for (int b = 0; b < NB; b++) begin
        if (moving[b] && 32'(oport[b*PW+:PW]) == p) begin
          v = 1'b1;
          fl = hflit[b*FW+:FW];
          ch = chan[b*OW+:OW];
        end
      end
    end
    if (p < PMAX) begin : g_net
      assign out_valid[p] = v;
      assign out_flit[p*FW+:FW] = fl;
      assign out_vc[p*VW+:VW] = VW'(32'(ch) % VMAX);
    end else begin : g_ej
      assign ej_valid[p-PMAX] = v;
      assign ej_flit[(p-PMAX)*FW+:FW] = fl;
      // An ejection channel has no virtual channels: its number is the port's.
      logic unused_ch;
      assign unused_ch = ^ch;
    end
  end

  for (genvar i = 0; i < NP; i++) begin : g_occ
    logic [OCW-1:0] n;
    always_comb begin
      n = '0;
      for (int b = 0; b < NB; b++) begin
        if (((b < PV) ? b / VMAX : PMAX + (b - PV)) == i) n = n + OCW'(count_q[b*DCW+:DCW]);
      end
    end
    assign occupancy[i*OCW+:OCW] = n;
  end
  assign busy = nonempty != '0;

  // ---- state update ------------------------------------------------------------------------
  assign inj_push = inj_valid & inj_ready;

  logic [NO-1:0] release_ch, take_ch;
  logic [NB-1:0] routed_next;
  always_comb begin
    release_ch = '0;
    take_ch = '0;
    for (int b = 0; b < NB; b++) begin
      if (grant[b]) take_ch = take_ch | (NO'(1) << chan[b*OW+:OW]);
      if (moving[b] && hflit[b*FW+TAIL]) release_ch = release_ch | (NO'(1) << chan[b*OW+:OW]);
    end
  end
  assign routed_next = routed & ~(moving & tails);

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      routed_q <= '0;
      chan_q <= '0;
      owned_q <= '0;
    end else begin
      routed_q <= routed_next;
      chan_q <= chan;
      owned_q <= (owned_q | take_ch) & ~release_ch;
    end
  end
endmodule
