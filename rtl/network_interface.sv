// A node's network interface of the multicomputers ([LCC] section 6), the RTL twin of one node
// of sc::net::NetworkInterfaces (sc_models/net/network_interfaces.cpp); with router.sv it makes
// a node of a mesh, torus or hypercube.
//
// Injection. A message (destination, tag, words, the address of its first word in the node's
// memory) is queued on one injection channel: channel 0 on a one-port node; on an all-port node
// the channel of the first hop of its route, which its submitter picks (the route is decided in
// one place, the router and sw::Topology::route). Each channel has its own submission port, so
// that an all-port node starts messages on several channels in one cycle, as the model does. It is split into packets of at most
// cfg_packet_flits flits (0: one packet), a header and up to cfg_packet_flits - 1 payload flits,
// one word each. The start-up t_s (cfg_startup) of a message begins in the first cycle its first
// packet is at the front of its channel's queue; the packet is offered from t_s cycles later,
// one flit per cycle, and a flit is taken in a cycle with inj_valid and the router's inj_ready.
// The next packet of the same message is offered from the cycle after the previous one's tail
// was taken, with no start-up. A message submitted in cycle c is in the queue from cycle c + 1.
//
// Flits are router.sv's {tail, head, data}. Header data: the destination at [3CW-1:0], the
// packet's flits at [3CW +: 8] (saturated at 255: only store-and-forward reads it), then the message's tag, the packet's first word index and the
// message's words (TGW, MWW, MWW bits). Payload data: the word at [W-1:0], then the tag and the
// word's index in the message (TGW, MWW bits). So a word ejected carries where it belongs, and
// reassembly needs no per-packet state.
//
// Ejection and reassembly. The router hands over every flit on its ejection channels (one on a
// one-port node, one per network port on an all-port node). Each payload word is delivered with
// its tag and index (dl_*). A message is complete when its last word has arrived, in whichever
// packet (packets may overtake each other on different virtual channels): the words still
// missing are counted per message in a table of RQ entries, opened by the first header of the
// message to arrive. dl_done marks the flit that completes its message (a header-only packet
// for a message of no words); the model reports the message delivered in the next cycle.
// Tags must be unique among the messages in flight to one node.
module network_interface #(
    parameter int PMAX = 6,   // injection and ejection channels (router.sv's PMAX)
    parameter int CW   = 8,   // bits per coordinate (router.sv's CW)
    parameter int DW   = 64,  // flit data bits (router.sv's DW; >= 3 CW + 8 + TGW + 2 MWW)
    parameter int W    = 32,  // word bits (<= DW - TGW - MWW)
    parameter int TGW  = 8,   // message tag bits
    parameter int MWW  = 12,  // bits of a word index: messages of up to 2^MWW - 1 words
    parameter int QD   = 4,   // messages queued per injection channel
    parameter int RQ   = 4,   // messages being reassembled at once
    parameter int AW   = 16,  // node memory address bits
    parameter int SUW  = 16,  // start-up counter bits
    // Derived: leave at their defaults.
    parameter int FW = DW + 2,
    parameter int QB = (QD > 1) ? $clog2(QD) : 1,
    parameter int QCW = $clog2(QD + 1),
    parameter int MD = AW + MWW + TGW + 3 * CW  // a queued message: {addr, words, tag, dst}
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low: empties the queues and the reassembly table

    input logic [SUW-1:0] cfg_startup,       // t_s
    input logic [    7:0] cfg_packet_flits,  // flits per packet, header included (0: one packet)

    // Submission of a message, per injection channel.
    input  logic [     PMAX-1:0] sub_valid,
    input  logic [PMAX*3*CW-1:0] sub_dst,
    input  logic [ PMAX*TGW-1:0] sub_tag,
    input  logic [ PMAX*MWW-1:0] sub_words,
    input  logic [  PMAX*AW-1:0] sub_addr,
    output logic [     PMAX-1:0] sub_ready,  // the channel's queue has room (combinational)

    // The node's memory, one read port per injection channel (combinational).
    output logic [PMAX*AW-1:0] rd_addr,
    input  logic [ PMAX*W-1:0] rd_data,

    // Router (router.sv's injection and ejection ports).
    output logic [  PMAX-1:0] inj_valid,
    output logic [PMAX*FW-1:0] inj_flit,
    input  logic [  PMAX-1:0] inj_ready,
    input  logic [  PMAX-1:0] ej_valid,
    input  logic [PMAX*FW-1:0] ej_flit,

    // Delivery, per ejection channel.
    output logic [    PMAX-1:0] dl_valid,  // a payload word arrives
    output logic [PMAX*TGW-1:0] dl_tag,    // its message (also for a header)
    output logic [PMAX*MWW-1:0] dl_index,  // its index in the message
    output logic [  PMAX*W-1:0] dl_word,
    output logic [    PMAX-1:0] dl_done,   // this flit completes its message

    output logic [PMAX*QCW-1:0] queued,          // messages queued per injection channel
    output logic                reasm_overflow   // sticky: a message found no reassembly entry
);
  localparam int HEAD = DW;
  localparam int H_FLITS = 3 * CW;
  localparam int H_TAG = H_FLITS + 8;
  localparam int H_FIRST = H_TAG + TGW;
  localparam int H_WORDS = H_FIRST + MWW;
  localparam int P_TAG = W;
  localparam int P_INDEX = W + TGW;

  // ---- injection ----------------------------------------------------------------------------
  logic [PMAX-1:0] take;
  assign take = inj_valid & inj_ready;

  for (genvar j = 0; j < PMAX; j++) begin : g_inj
    logic [MD-1:0] q[QD];
    logic [QB-1:0] head_q;
    logic [QCW-1:0] count_q;
    logic started_q;  // the front packet has begun (its start-up counted, if it is a first)
    logic [SUW-1:0] su_q;  // start-up cycles left
    logic [MWW-1:0] flit_q;  // the next flit of the packet (0: header); a packet has <= 2^MWW - 1 words
    logic [MWW-1:0] first_q;  // the packet's first word in the message

    logic [MD-1:0] front;
    logic [3*CW-1:0] f_dst;
    logic [TGW-1:0] f_tag;
    logic [MWW-1:0] f_words, left, per_packet, payload, index;
    logic [AW-1:0] f_addr;
    logic [SUW-1:0] su_left;
    logic [7:0] length;
    logic present, last_flit, push;

    assign front = q[head_q];
    assign f_dst = front[0+:3*CW];
    assign f_tag = front[3*CW+:TGW];
    assign f_words = front[3*CW+TGW+:MWW];
    assign f_addr = front[3*CW+TGW+MWW+:AW];
    assign present = count_q != '0;
    // The packet: up to cfg_packet_flits - 1 words from first_q.
    assign left = f_words - first_q;
    assign per_packet = (cfg_packet_flits == 8'd0) ? f_words : MWW'(cfg_packet_flits) - MWW'(1);
    assign payload = (left < per_packet) ? left : per_packet;
    assign index = first_q + flit_q - MWW'(1);
    assign last_flit = flit_q == payload;
    // Start-up: t_s for a message's first packet, counted from the cycle it reaches the front.
    assign su_left = started_q ? su_q : ((first_q == '0) ? cfg_startup : '0);
    assign inj_valid[j] = present && su_left == '0;
    assign rd_addr[j*AW+:AW] = f_addr + AW'(index);
    // The header's length field (read by the router under store-and-forward only) saturates.
    assign length = (payload >= MWW'(255)) ? 8'd255 : 8'(payload + MWW'(1));
    assign inj_flit[j*FW+:FW] = (flit_q == '0) ?
        {payload == '0, 1'b1, DW'({f_words, first_q, f_tag, length, f_dst})} :
        {last_flit, 1'b0, DW'({index, f_tag, rd_data[j*W+:W]})};
    assign sub_ready[j] = count_q != QCW'(QD);
    assign push = sub_valid[j] && sub_ready[j];
    assign queued[j*QCW+:QCW] = count_q;

    always_ff @(posedge clk) begin
      if (push) begin
        q[QB'((32'(head_q) + 32'(count_q)) % QD)] <=
            {sub_addr[j*AW+:AW], sub_words[j*MWW+:MWW], sub_tag[j*TGW+:TGW], sub_dst[j*3*CW+:3*CW]};
      end
    end

    always_ff @(posedge clk) begin
      if (!rst_n) begin
        head_q <= '0;
        count_q <= '0;
        started_q <= 1'b0;
        su_q <= '0;
        flit_q <= '0;
        first_q <= '0;
      end else begin
        if (present && !started_q) begin
          started_q <= 1'b1;
        end
        if (su_left != '0) begin
          su_q <= su_left - SUW'(1);
        end
        if (take[j]) begin
          if (last_flit) begin
            flit_q <= '0;
            started_q <= 1'b0;
            if (first_q + payload == f_words) begin
              first_q <= '0;  // the message's last packet: the next message
              head_q <= QB'((32'(head_q) + 1) % QD);
            end else begin
              first_q <= first_q + payload;
            end
          end else begin
            flit_q <= flit_q + MWW'(1);
          end
        end
        count_q <= count_q + QCW'(push) - QCW'(take[j] && last_flit && first_q + payload == f_words);
      end
    end
  end

  // ---- ejection and reassembly --------------------------------------------------------------
  logic [RQ-1:0] r_valid_q;
  logic [RQ*TGW-1:0] r_tag_q;
  logic [RQ*MWW-1:0] r_left_q;  // words still to arrive
  logic [RQ-1:0] r_valid;
  logic [RQ*TGW-1:0] r_tag;
  logic [RQ*MWW-1:0] r_left;
  logic overflow;

  // The ejection channels in order, each updating the table the next one sees.
  always_comb begin
    logic [FW-1:0] f;
    logic found, placed;
    logic [TGW-1:0] tag;
    r_valid = r_valid_q;
    r_tag = r_tag_q;
    r_left = r_left_q;
    overflow = 1'b0;
    for (int e = 0; e < PMAX; e++) begin
      f = ej_flit[e*FW+:FW];
      tag = f[HEAD] ? f[H_TAG+:TGW] : f[P_TAG+:TGW];
      dl_valid[e] = ej_valid[e] && !f[HEAD];
      dl_tag[e*TGW+:TGW] = tag;
      dl_index[e*MWW+:MWW] = f[P_INDEX+:MWW];
      dl_word[e*W+:W] = f[W-1:0];
      dl_done[e] = 1'b0;
      found = 1'b0;
      placed = 1'b0;
      if (ej_valid[e]) begin
        for (int k = 0; k < RQ; k++) begin
          if (r_valid[k] && r_tag[k*TGW+:TGW] == tag) begin
            found = 1'b1;
            if (!f[HEAD]) begin
              r_left[k*MWW+:MWW] = r_left[k*MWW+:MWW] - MWW'(1);
              if (r_left[k*MWW+:MWW] == '0) begin
                r_valid[k] = 1'b0;
                dl_done[e] = 1'b1;
              end
            end
          end
        end
        if (!found && f[HEAD]) begin
          if (f[H_WORDS+:MWW] == '0) begin
            dl_done[e] = 1'b1;  // a message of no words: its one header
          end else begin
            for (int k = 0; k < RQ; k++) begin
              if (!placed && !r_valid[k]) begin
                placed = 1'b1;
                r_valid[k] = 1'b1;
                r_tag[k*TGW+:TGW] = tag;
                r_left[k*MWW+:MWW] = f[H_WORDS+:MWW];
              end
            end
            overflow = overflow | !placed;
          end
        end
      end
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      r_valid_q <= '0;
      r_tag_q <= '0;
      r_left_q <= '0;
      reasm_overflow <= 1'b0;
    end else begin
      r_valid_q <= r_valid;
      r_tag_q <= r_tag;
      r_left_q <= r_left;
      if (overflow) begin
        reasm_overflow <= 1'b1;
      end
    end
  end

endmodule
