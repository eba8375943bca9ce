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

    // Configuration, taken while rst_n is low (constant during a run).
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
    input logic [  TSW-1:0] now,           // the current cycle c (read at the edge)

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
  localparam int DNW = (PV > 1) ? $clog2(PV) : 1;  // network output channel index

  // How the logic is laid out (the cycles do not depend on it; a simulator's cost does). Three
  // processes: `state_comb` reads registers only (the heads, virtual-channel allocation, the
  // candidates for the switch), `switch_comb` reads the ready chain and the room ahead (out_room,
  // out_go) and allocates the switch, and the clocked process reads the network's flits, the
  // interface's offers (inj_valid) and `now`. So a simulator that evaluates a router again while the ready chain
  // settles (rtl/bridge, docs/rtl.md "Stepping a verilated unit") repeats only the switch
  // allocation; and the loops skip empty buffers and ports without candidates, so a router's
  // evaluation costs what it holds, not its maxima. The two combinational processes are
  // `always @*`, not `always_comb`: under Icarus 11 two always_comb processes that set a vector to
  // zero and then some of its bits (as these do) wake each other without end in the router bench;
  // @* means the same here (the functions they call read only their arguments).

  // ---- state --------------------------------------------------------------------------------
  // Configuration, taken at every edge while rst_n is low.
  logic [1:0] kind_q;
  logic [2:0] dims_q;
  logic [3*CW-1:0] radix_q, coord_q;
  logic [VCW-1:0] vcs_q;
  logic [DCW-1:0] depth_q;
  logic [7:0] delay_q;
  logic saf_q, dateline_q, all_port_q;
  // The number of the cycle that follows the last edge. A router that holds flits is clocked in
  // every cycle, so while it holds any this is `now`, and the combinational logic reads no input
  // but the ready chain and the offers.
  logic [TSW-1:0] now_q;
  // Per buffer b: DMAX slots of flit and push cycle, the head slot, the count.
  logic [FW-1:0] mem_flit[NB][DMAX];
  logic [TSW-1:0] mem_time[NB][DMAX];  // the cycle the flit was pushed
  logic [DB-1:0] head_q[NB];
  logic [DCW-1:0] count_q[NB];
  logic [NB-1:0] routed_q;  // the head packet holds an output channel
  logic [OW-1:0] chan_q[NB];  // which one
  logic [NO-1:0] owned_q;  // output channel held by a packet
  // Flits in the neighbour's buffer that output channel ov feeds, as of the start of the cycle.
  logic [DCW-1:0] dn_q[PV];

  // Slot arithmetic modulo DMAX.
  function automatic logic [DB-1:0] slot_add(input logic [DB-1:0] a, input logic [DCW-1:0] n);
    logic [DCW:0] s;
    s = {{(DCW + 1 - DB) {1'b0}}, a} + {1'b0, n};
    if (s >= DMAX_X) s = s - DMAX_X;
    slot_add = s[DB-1:0];
  endfunction

  // The input port of buffer b: network port b / VMAX, or injection channel PMAX + (b - PV).
  function automatic int in_port(input int b);
    in_port = (b < PV) ? b / VMAX : PMAX + (b - PV);
  endfunction

  // [b*NB+j]: buffers b and j belong to the same input port (constant).
  logic [NB*NB-1:0] same_port;
  for (genvar b = 0; b < NB; b++) begin : g_same_port
    for (genvar j = 0; j < NB; j++) begin : g_j
      assign same_port[b*NB+j] = ((b < PV) ? b / VMAX : PMAX + (b - PV)) ==
                                 ((j < PV) ? j / VMAX : PMAX + (j - PV));
    end
  end

  // Whether the head of buffer j came before the head of buffer k: pushed earlier, or in the same
  // cycle with j < k. Wrap-safe: the sign of the difference of two push cycles less than
  // 2^(TSW-1) apart.
  function automatic logic came_before(input logic [TSW-1:0] tj, input logic [TSW-1:0] tk,
                                       input logic j_lower);
    logic [TSW-1:0] diff;
    diff = tj - tk;
    came_before = diff[TSW-1] || (diff == '0 && j_lower);
  endfunction

  // Dimension-ordered routing (Topology::next_port): at_dest, and the output port otherwise,
  // with whether that port crosses the torus dateline (Topology::crosses_dateline) and its
  // dimension. The configuration is passed in, not read from the registers, so that a simulator
  // that re-evaluates a function call only when its arguments change (Icarus) sees a new topology.
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

  // ---- from the registers: heads, virtual-channel allocation, switch candidates --------------
  logic [NB*FW-1:0] hflit;  // head flit of buffer b
  logic [NB*TSW-1:0] htime;  // the cycle it was pushed
  logic [NB*TSW-1:0] tail_time;  // store-and-forward: the cycle the header's packet's tail was pushed
  logic [NB-1:0] nonempty, full, tails, hdr_ready, grant, routed, eject, sure, want;
  logic [NB*OW-1:0] range_lo;  // first output channel of a waiting header's range
  logic [NB*VCW-1:0] range_n;  // channels in the range
  logic [NB*OW-1:0] chan;  // the output channel of buffer b's packet (held or granted now)
  logic [NB*PW-1:0] oport;  // its output port: network port, or PMAX + ejection channel
  logic [NB*DNW-1:0] dnch;  // the network output channel whose room it needs
  logic [PV-1:0] dn_free;  // the neighbour's buffer that channel ov feeds has a free slot
  // [b*NB+j]: the head of j came before the head of b, for the buffers that may take part in an
  // allocation (a waiting header or a routed packet); zero for the others.
  logic [NB*NB-1:0] older;
  logic [NO-1:0] take_ch;  // output channels granted in this cycle
  logic [NP*NB-1:0] to_port;  // [o*NB+b]: buffer b holds a routed packet that leaves by port o

  // The buffers' memories are read by continuous assignments, outside the processes: a read
  // under the processes' conditions made yosys's resource sharing explode (it weighs sharing
  // each read against every other under their conditions).
  for (genvar b = 0; b < NB; b++) begin : g_head
    logic [DB-1:0] hd;
    assign hd = head_q[b];
    assign hflit[b*FW+:FW] = mem_flit[b][hd];
    assign htime[b*TSW+:TSW] = mem_time[b][hd];
    assign tails[b] = mem_flit[b][hd][TAIL];
    assign tail_time[b*TSW+:TSW] = mem_time[b][slot_add(hd, DCW'(mem_flit[b][hd][3*CW+:8]) - DCW'(1))];
  end

  // 1. Virtual-channel allocation: a header at the head of a buffer without an output channel,
  //    `delay` cycles after it was pushed (store-and-forward: after its tail was pushed), asks for
  //    the channels of its dimension-ordered route (with the dateline class on a torus). Ranges
  //    are equal or disjoint (a whole port, one dateline class, one ejection channel), and
  //    requests for one range are served first come, ties to the lower buffer: a request gets the
  //    m-th free channel of its range, m = the earlier requests for the same range.
  always @* begin : state_comb
    logic [7:0] len;
    logic [TSW-1:0] tail_t;
    logic ready, cls;
    logic [PW+4:0] r;
    logic [VCW-1:0] half, cls_n;
    logic [2:0] in_dim;
    logic [NCW-1:0] m, seen;
    logic g;
    logic [OW-1:0] ch;
    logic [OCW-1:0] held;
    // Temporaries start from zero: no value is kept from the last evaluation (no latch).
    len = '0;
    tail_t = '0;
    ready = 1'b0;
    cls = 1'b0;
    r = '0;
    in_dim = '0;
    m = '0;
    seen = '0;
    g = 1'b0;
    ch = '0;
    held = '0;
    hdr_waits = '0;
    take_ch = '0;
    half = vcs_q >> 1;
    cls_n = (kind_q == KIND_TORUS && dateline_q) ? half : vcs_q;
    for (int b = 0; b < NB; b++) begin
      nonempty[b] = count_q[b] != '0;
      full[b] = count_q[b] >= depth_q;
      hdr_ready[b] = 1'b0;
      range_lo[b*OW+:OW] = '0;
      range_n[b*VCW+:VCW] = '0;
      if (nonempty[b] && !routed_q[b] && hflit[b*FW+HEAD]) begin
        len = hflit[b*FW+3*CW+:8];
        tail_t = tail_time[b*TSW+:TSW];
        ready = saf_q ? ({{(8 - DCW) {1'b0}}, count_q[b]} >= len &&
                         (now_q - tail_t) >= TSW'(delay_q))
                      : (now_q - htime[b*TSW+:TSW]) >= TSW'(delay_q);
        if (ready) begin
          hdr_ready[b] = 1'b1;
          r = route(hflit[b*FW+:3*CW], kind_q, dims_q, coord_q, radix_q);
          // Topology::dateline_vc: class 1 on a dateline channel, the arrival class while the
          // packet stays in its dimension, class 0 when it starts a new one (or at its source).
          in_dim = (kind_q == KIND_CUBE) ? 3'(in_port(b)) : 3'(in_port(b) / 2);
          cls = r[PW+3] || (b < PV && in_dim == r[PW+2:PW] && VCW'(b % VMAX) >= half);
          // At the destination: the ejection channel of the input port on an all-port node,
          // else 0.
          range_lo[b*OW+:OW] = r[PW+4] ? ((all_port_q && b < PV) ? OW'(PV + in_port(b)) : OW'(PV))
                                : OW'(32'(r[PW-1:0]) * VMAX) +
                                  ((kind_q == KIND_TORUS && dateline_q && cls) ? OW'(half) : '0);
          range_n[b*VCW+:VCW] = r[PW+4] ? VCW'(1) : cls_n;
        end
      end
    end
    older = '0;
    for (int b = 0; b < NB; b++) begin
      if (hdr_ready[b] || (nonempty[b] && routed_q[b])) begin
        for (int j = 0; j < NB; j++) begin
          if (j != b && (hdr_ready[j] || (nonempty[j] && routed_q[j])))
            older[b*NB+j] = came_before(htime[j*TSW+:TSW], htime[b*TSW+:TSW], j < b);
        end
      end
    end
    for (int b = 0; b < NB; b++) begin
      grant[b] = 1'b0;
      ch = '0;
      if (hdr_ready[b]) begin
        m = '0;
        for (int j = 0; j < NB; j++) begin
          if (hdr_ready[j] && older[b*NB+j] && range_lo[j*OW+:OW] == range_lo[b*OW+:OW])
            m = m + NCW'(1);
        end
        seen = '0;
        g = 1'b0;
        for (int v = 0; v < VMAX; v++) begin
          if (!g && VCW'(v) < range_n[b*VCW+:VCW] && !owned_q[32'(range_lo[b*OW+:OW])+v]) begin
            if (seen == m) begin
              g = 1'b1;
              ch = range_lo[b*OW+:OW] + OW'(v);
            end
            seen = seen + NCW'(1);
          end
        end
        grant[b] = g;
        if (g) take_ch = take_ch | (NO'(1) << ch);
        else hdr_waits = hdr_waits + NCW'(1);
      end
      routed[b] = routed_q[b] || grant[b];
      chan[b*OW+:OW] = routed_q[b] ? chan_q[b] : ch;
      eject[b] = 32'(chan[b*OW+:OW]) >= PV;
      oport[b*PW+:PW] = eject[b] ? PW'(PMAX + 32'(chan[b*OW+:OW]) - PV) : PW'(32'(chan[b*OW+:OW]) / VMAX);
      dnch[b*DNW+:DNW] = DNW'(32'(chan[b*OW+:OW]) % PV);
      want[b] = nonempty[b] && routed[b];
    end
    for (int ov = 0; ov < PV; ov++) dn_free[ov] = dn_q[ov] < depth_q;
    for (int b = 0; b < NB; b++) sure[b] = eject[b] || dn_free[dnch[b*DNW+:DNW]];
    to_port = '0;
    if (want != '0) begin
      for (int o = 0; o < NP; o++) begin
        for (int b = 0; b < NB; b++) to_port[o*NB+b] = want[b] && 32'(oport[b*PW+:PW]) == o;
      end
    end
    // Flits held per input port.
    for (int i = 0; i < NP; i++) begin
      held = '0;
      for (int b = 0; b < NB; b++) begin
        if (in_port(b) == i) held = held + OCW'(count_q[b]);
      end
      occupancy[i*OCW+:OCW] = held;
    end
    busy = nonempty != '0;
  end

  // ---- from the ready chain and the offers: switch allocation, moves, outputs ---------------
  // 2. Switch allocation: a head flit of a routed packet whose channel's next buffer has room,
  //    or is full with a head that may itself leave (out_room), is a candidate; it is sure if it
  //    ejects or its next buffer has a free slot, else speculative. Pass 1: output ports in order
  //    each pass their oldest sure candidate whose input port has not sent yet; pass 2: the
  //    output ports pass 1 left unused each pass their oldest speculative candidate whose input
  //    port has not sent yet (Fabric::allocate_switches: a failed speculative grant must not take
  //    a port from a move that would succeed, or the ports, which couple the dateline classes,
  //    can freeze a torus with no cyclic channel dependency).
  // 3. A winner moves if its next buffer is not full or that buffer's head moves (out_go).
  logic [NB-1:0] may_leave, moving;
  logic [NO-1:0] release_ch;  // output channels whose packet's tail leaves in this cycle
  always @* begin : switch_comb
    logic [NB-1:0] go, blocked, elig, w;
    logic [NP-1:0] port_won;
    logic [NB-1:0] mv;
    logic [FW-1:0] fl;
    logic [OW-1:0] ch;
    go = '0;
    blocked = '0;
    elig = '0;
    w = '0;
    port_won = '0;
    mv = '0;
    fl = '0;
    ch = '0;
    moving = '0;
    release_ch = '0;
    for (int b = 0; b < NB; b++) begin
      may_leave[b] = want[b] && (eject[b] || out_room[dnch[b*DNW+:DNW]]);
      go[b] = sure[b] || out_go[dnch[b*DNW+:DNW]];
    end
    if (may_leave != '0) begin
      // Stage s = pass * NP + o: output port o passes its oldest eligible candidate, whose input
      // port is then used.
      for (int pass = 0; pass < 2; pass++) begin
        for (int o = 0; o < NP; o++) begin
          elig = (pass == 0 || !port_won[o])
                 ? to_port[o*NB+:NB] & may_leave & ~blocked & ((pass == 0) ? sure : ~sure)
                 : '0;
          if (elig != '0) begin
            port_won[o] = 1'b1;
            for (int b = 0; b < NB; b++) begin
              w[b] = elig[b] && ((elig & older[b*NB+:NB]) == '0);
              if (w[b]) blocked = blocked | same_port[b*NB+:NB];
            end
            moving = moving | (w & go);
          end
        end
      end
    end
    // What this router tells its upstream neighbours and its interface.
    in_acc_room = ~full[PV-1:0] | may_leave[PV-1:0];
    in_acc_go = moving[PV-1:0];
    for (int j = 0; j < PMAX; j++) inj_ready[j] = !full[PV+j] || moving[PV+j];
    // Output and ejection ports: the flit of the buffer that moves through them.
    out_valid = '0;
    out_vc = '0;
    out_flit = '0;
    ej_valid = '0;
    ej_flit = '0;
    if (moving != '0) begin
      for (int b = 0; b < NB; b++) begin
        if (moving[b] && tails[b]) release_ch = release_ch | (NO'(1) << chan[b*OW+:OW]);
      end
      for (int p = 0; p < NP; p++) begin
        mv = moving & to_port[p*NB+:NB];
        if (mv != '0) begin
          for (int b = 0; b < NB; b++) begin
            if (mv[b]) begin
              fl = hflit[b*FW+:FW];
              ch = chan[b*OW+:OW];
            end
          end
          if (p < PMAX) begin
            out_valid[p] = 1'b1;
            out_vc[p*VW+:VW] = VW'(32'(ch) % VMAX);
            out_flit[p*FW+:FW] = fl;
          end else begin
            // An ejection channel has no virtual channels: its number is the port's.
            ej_valid[p-PMAX] = 1'b1;
            ej_flit[(p-PMAX)*FW+:FW] = fl;
          end
        end
      end
    end
  end

  // ---- state update ------------------------------------------------------------------------
  // Whether a flit enters buffer b at this edge, and which. Only this process reads the network
  // input ports (in_valid, in_vc, in_flit) and `now`, so a simulator that set them just before
  // the edge needs no combinational evaluation for them (docs/rtl.md, "Stepping a verilated
  // unit").
  function automatic logic arrives(input int b, input logic [PMAX-1:0] valid,
                                   input logic [PMAX*VW-1:0] vc, input logic [PMAX-1:0] injected);
    if (b < PV) arrives = valid[b/VMAX] && 32'(vc[(b/VMAX)*VW+:VW]) == b % VMAX;
    else arrives = injected[b-PV];
  endfunction
  function automatic logic [FW-1:0] arriving(input int b, input logic [PMAX*FW-1:0] net,
                                             input logic [PMAX*FW-1:0] inj);
    arriving = (b < PV) ? net[(b/VMAX)*FW+:FW] : inj[(b-PV)*FW+:FW];
  endfunction

  always_ff @(posedge clk) begin
    now_q <= now + TSW'(1);
    if (!rst_n) begin
      kind_q <= cfg_kind;
      dims_q <= cfg_dims;
      radix_q <= cfg_radix;
      coord_q <= cfg_coord;
      vcs_q <= cfg_vcs;
      depth_q <= cfg_depth;
      delay_q <= cfg_delay;
      saf_q <= cfg_saf;
      dateline_q <= cfg_dateline;
      all_port_q <= cfg_all_port;
      routed_q <= '0;
      owned_q <= '0;
    end else begin
      routed_q <= routed & ~(moving & tails);
      // A channel is taken at its grant and freed when its packet's tail leaves.
      owned_q <= (owned_q | take_ch) & ~release_ch;
    end
  end

  for (genvar b = 0; b < NB; b++) begin : g_buf
    always_ff @(posedge clk) begin
      if (!rst_n) begin
        head_q[b] <= '0;
        count_q[b] <= '0;
        chan_q[b] <= '0;
      end else begin
        if (arrives(b, in_valid, in_vc, inj_valid & inj_ready)) begin
          mem_flit[b][slot_add(head_q[b], count_q[b])] <= arriving(b, in_flit, inj_flit);
          mem_time[b][slot_add(head_q[b], count_q[b])] <= now;
          if (!moving[b]) count_q[b] <= count_q[b] + DCW'(1);
        end else if (moving[b]) begin
          count_q[b] <= count_q[b] - DCW'(1);
        end
        if (moving[b]) head_q[b] <= slot_add(head_q[b], DCW'(1));
        if (grant[b]) chan_q[b] <= chan[b*OW+:OW];
      end
    end
  end

  // The neighbour's count: + the flit this router sends it, - the flit it passes on.
  for (genvar ov = 0; ov < PV; ov++) begin : g_dn
    always_ff @(posedge clk) begin
      if (!rst_n) dn_q[ov] <= '0;
      else
        dn_q[ov] <= dn_q[ov] +
                    DCW'(out_valid[ov/VMAX] && 32'(out_vc[(ov/VMAX)*VW+:VW]) == ov % VMAX) -
                    DCW'(out_go[ov]);
    end
  end
endmodule
