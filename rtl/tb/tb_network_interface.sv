// Self-checking bench of network_interface: a sending interface A, whose injected flits the
// bench takes as the router would (with an inj_ready pattern), and a receiving interface B, to
// which the bench hands packets on its ejection channels in an order it chooses (packets of one
// message overtaking each other, several channels at once, as an all-port node sees them).
// The expected values are the model's rules (sc::net::NetworkInterfaces) written as formulas:
//   a message of w words with packets of P flits is ceil(w / (P - 1)) packets (1 if P = 0 or
//   w = 0), w + packets flits; submitted in cycle s on an idle channel, its header is offered in
//   s + 1 + t_s and its flits are taken one per ready cycle; the next packet of a message
//   follows its predecessor's tail with no start-up; the next message starts its t_s in the
//   cycle after the previous message's last tail was taken; a message submitted while its
//   channel's queue holds QD messages is refused;
//   a header carries the destination, the packet's flits (at most 255), tag, first word and
//   message words;
//   payload flit k of a packet carries word first + k - 1, read from address base + index;
//   at B every payload word is delivered with its tag and index, and the message is complete
//   with the last of its flits to arrive (a message of no words with its header);
//   and the RTL's limits: B's table holds RQ messages (a complete one frees its entry; one that
//   finds no free entry sets the sticky overflow flag and is never complete), A's queue QD.
// Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012) and Verilator (--binary
// --timing).
module tb_network_interface;
  localparam int PMAX = 4;
  localparam int CW = 8;
  localparam int DW = 64;
  localparam int W = 40;  // a payload's tag at bit W, a header's at 3 CW + 8 = 32: two places
  localparam int TGW = 8;
  localparam int MWW = 12;
  localparam int QD = 3;
  localparam int RQ = 3;
  localparam int AW = 16;
  localparam int SUW = 16;
  localparam int FW = DW + 2;
  localparam int QCW = 2;
  localparam int MAXF = 320;  // flits recorded per channel

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic [SUW-1:0] cfg_startup = '0;
  logic [7:0] cfg_packet_flits = '0;
  logic [PMAX-1:0] sub_valid = '0;
  logic [PMAX*3*CW-1:0] sub_dst = '0;
  logic [PMAX*TGW-1:0] sub_tag = '0;
  logic [PMAX*MWW-1:0] sub_words = '0;
  logic [PMAX*AW-1:0] sub_addr = '0;
  logic [PMAX-1:0] sub_ready;
  logic [PMAX*AW-1:0] rd_addr;
  logic [PMAX*W-1:0] rd_data;
  logic [PMAX-1:0] inj_valid, inj_ready;
  logic [PMAX*FW-1:0] inj_flit;
  logic [PMAX*QCW-1:0] queued;
  logic a_overflow;
  // A's ejection side and B's injection side are unused.
  logic [PMAX-1:0] a_dl_valid, a_dl_done;
  logic [PMAX*TGW-1:0] a_dl_tag;
  logic [PMAX*MWW-1:0] a_dl_index;
  logic [PMAX*W-1:0] a_dl_word;

  logic [PMAX-1:0] ej_valid = '0;
  logic [PMAX*FW-1:0] ej_flit = '0;
  logic [PMAX-1:0] dl_valid, dl_done;
  logic [PMAX*TGW-1:0] dl_tag;
  logic [PMAX*MWW-1:0] dl_index;
  logic [PMAX*W-1:0] dl_word;
  logic b_overflow;
  logic [PMAX-1:0] b_sub_ready;
  logic [PMAX*AW-1:0] b_rd_addr;
  logic [PMAX-1:0] b_inj_valid;
  logic [PMAX*FW-1:0] b_inj_flit;
  logic [PMAX*QCW-1:0] b_queued;

  // The node memory's word at address a (A reads through rd_addr / rd_data).
  function automatic logic [W-1:0] word_at(input int a);
    logic [31:0] word = 32'hA500_0000 | 32'(a);
    return W'(word);
  endfunction
  for (genvar j = 0; j < PMAX; j++) begin : g_mem
    assign rd_data[j*W+:W] = word_at(int'(rd_addr[j*AW+:AW]));
  end

  network_interface #(
      .PMAX(PMAX),
      .CW(CW),
      .DW(DW),
      .W(W),
      .TGW(TGW),
      .MWW(MWW),
      .QD(QD),
      .RQ(RQ),
      .AW(AW),
      .SUW(SUW)
  ) a (
      .clk(clk),
      .rst_n(rst_n),
      .cfg_startup(cfg_startup),
      .cfg_packet_flits(cfg_packet_flits),
      .sub_valid(sub_valid),
      .sub_dst(sub_dst),
      .sub_tag(sub_tag),
      .sub_words(sub_words),
      .sub_addr(sub_addr),
      .sub_ready(sub_ready),
      .rd_addr(rd_addr),
      .rd_data(rd_data),
      .inj_valid(inj_valid),
      .inj_flit(inj_flit),
      .inj_ready(inj_ready),
      .ej_valid(PMAX'(0)),
      .ej_flit((PMAX * FW)'(0)),
      .dl_valid(a_dl_valid),
      .dl_tag(a_dl_tag),
      .dl_index(a_dl_index),
      .dl_word(a_dl_word),
      .dl_done(a_dl_done),
      .queued(queued),
      .reasm_overflow(a_overflow)
  );

  network_interface #(
      .PMAX(PMAX),
      .CW(CW),
      .DW(DW),
      .W(W),
      .TGW(TGW),
      .MWW(MWW),
      .QD(QD),
      .RQ(RQ),
      .AW(AW),
      .SUW(SUW)
  ) b (
      .clk(clk),
      .rst_n(rst_n),
      .cfg_startup(cfg_startup),
      .cfg_packet_flits(cfg_packet_flits),
      .sub_valid(PMAX'(0)),
      .sub_dst((PMAX * 3 * CW)'(0)),
      .sub_tag((PMAX * TGW)'(0)),
      .sub_words((PMAX * MWW)'(0)),
      .sub_addr((PMAX * AW)'(0)),
      .sub_ready(b_sub_ready),
      .rd_addr(b_rd_addr),
      .rd_data((PMAX * W)'(0)),
      .inj_valid(b_inj_valid),
      .inj_flit(b_inj_flit),
      .inj_ready(PMAX'(0)),
      .ej_valid(ej_valid),
      .ej_flit(ej_flit),
      .dl_valid(dl_valid),
      .dl_tag(dl_tag),
      .dl_index(dl_index),
      .dl_word(dl_word),
      .dl_done(dl_done),
      .queued(b_queued),
      .reasm_overflow(b_overflow)
  );

  `include "bench_checks.svh"
  // A flit's data, wider than check's 64 bits.
  task automatic check_data(input string what, input logic [DW-1:0] got,
                            input logic [DW-1:0] want);
    checks++;
    if (got !== want) begin
      fail($sformatf("%s: got 0x%0h, expected 0x%0h", what, got, want));
    end
  endtask

  // ---- A: what it injected ----------------------------------------------------------------------
  int cyc;
  logic [FW-1:0] cap_flit[PMAX][MAXF];
  int cap_cyc[PMAX][MAXF];
  int cap_n[PMAX];
  int ready_period;  // inj_ready is low in cycles c with c % ready_period == ready_period - 1

  // ---- B: the flits the bench hands it, and what it delivered ----------------------------------
  logic [FW-1:0] ej_list[PMAX][MAXF];
  int ej_at[PMAX][MAXF];
  int ej_n[PMAX];
  int got_done[256];  // cycle of dl_done per tag
  int got_words[256];

  task automatic edge_;
    #1;
    clk = 1'b1;
    #1;
    clk = 1'b0;
  endtask

  task automatic reset_all(input int ts, input int pf, input int period);
    rst_n = 1'b0;
    cfg_startup = SUW'(ts);
    cfg_packet_flits = 8'(pf);
    ready_period = period;
    edge_();
    rst_n = 1'b1;
    cyc = 0;
    for (int j = 0; j < PMAX; j++) begin
      cap_n[j] = 0;
      ej_n[j] = 0;
    end
    for (int t = 0; t < 256; t++) begin
      got_done[t] = -1;
      got_words[t] = 0;
    end
  endtask

  // Submissions by cycle: up to 8 per scenario.
  int s_at[8], s_ch[8], s_tag[8], s_words[8], s_addr[8], s_dst[8];
  int s_n;

  // One cycle: submit (one message per channel), offer B's scheduled flits, sample both
  // interfaces, take the edge. A channel without a flit keeps its last one on its lines, as a
  // router's output register would: B must read a flit only with ej_valid.
  task automatic cycle_;
    logic [PMAX-1:0] rdy, ev;
    logic [PMAX*FW-1:0] ef;
    int k, ch;
    sub_valid = '0;
    for (int m = 0; m < s_n; m++) begin
      if (s_at[m] == cyc) begin
        ch = s_ch[m];
        sub_valid[ch] = 1'b1;
        sub_tag[ch*TGW+:TGW] = TGW'(s_tag[m]);
        sub_words[ch*MWW+:MWW] = MWW'(s_words[m]);
        sub_addr[ch*AW+:AW] = AW'(s_addr[m]);
        sub_dst[ch*3*CW+:3*CW] = (3 * CW)'(s_dst[m]);
      end
    end
    rdy = '0;
    for (int j = 0; j < PMAX; j++) begin
      rdy[j] = (ready_period == 0) || (cyc % ready_period != ready_period - 1);
    end
    inj_ready = rdy;
    ev = '0;
    ef = ej_flit;
    for (int j = 0; j < PMAX; j++) begin
      for (k = 0; k < ej_n[j]; k++) begin
        if (ej_at[j][k] == cyc) begin
          ev[j] = 1'b1;
          ef[j*FW+:FW] = ej_list[j][k];
        end
      end
    end
    ej_valid = ev;
    ej_flit = ef;
    #1;
    for (int j = 0; j < PMAX; j++) begin
      if (inj_valid[j] && inj_ready[j]) begin
        cap_flit[j][cap_n[j]] = inj_flit[j*FW+:FW];
        cap_cyc[j][cap_n[j]] = cyc;
        cap_n[j]++;
      end
      if (dl_valid[j]) begin
        check($sformatf("B ch %0d cycle %0d word", j, cyc), 32'(dl_word[j*W+:W]),
              32'(word_at(100 * 32'(dl_tag[j*TGW+:TGW]) + 32'(dl_index[j*MWW+:MWW]))));
        got_words[dl_tag[j*TGW+:TGW]]++;
      end
      if (dl_done[j]) begin
        check($sformatf("B tag %0d completed once", dl_tag[j*TGW+:TGW]),
              got_done[dl_tag[j*TGW+:TGW]], -1);
        got_done[dl_tag[j*TGW+:TGW]] = cyc;
      end
    end
    edge_();
    cyc++;
  endtask

  // The expected flits of A's message m (its packets back to back), from the rules above, and
  // the cycles: the header of its first packet is taken in `first_take`, every flit after it
  // in the next ready cycle.
  function automatic int packets_of(input int w, input int pf);
    if (pf == 0 || w == 0) return 1;
    return (w + pf - 2) / (pf - 1);
  endfunction

  function automatic bit ready_in(input int c);
    return (ready_period == 0) || (c % ready_period != ready_period - 1);
  endfunction

  // Checks message m's flits on its channel from position `pos`, starting no earlier than cycle
  // `from` (its header is taken in the first ready cycle at or after from); returns the position
  // after it and the cycle its last flit was taken.
  task automatic expect_message(input int m, input int pos, input int from, input int pf,
                                output int next_pos, output int last_take);
    int ch, w, per, first, payload, c, p;
    logic [FW-1:0] f, want;
    ch = s_ch[m];
    w = s_words[m];
    per = (pf == 0) ? w : pf - 1;
    first = 0;
    c = from;
    p = pos;
    for (int k = 0; k < packets_of(w, pf); k++) begin
      payload = (w - first < per) ? w - first : per;
      for (int i = 0; i <= payload; i++) begin
        while (!ready_in(c)) c++;
        if (i == 0) begin
          want = {payload == 0, 1'b1,
                  DW'({MWW'(w), MWW'(first), TGW'(s_tag[m]), 8'((payload + 1 > 255) ? 255 : payload + 1),
                       24'(s_dst[m])})};
        end else begin
          want = {i == payload, 1'b0,
                  DW'({MWW'(first + i - 1), TGW'(s_tag[m]), word_at(s_addr[m] + first + i - 1)})};
        end
        f = cap_flit[ch][p];
        check_data($sformatf("A tag %0d packet %0d flit %0d data", s_tag[m], k, i), f[DW-1:0],
                   want[DW-1:0]);
        check($sformatf("A tag %0d packet %0d flit %0d tail, head", s_tag[m], k, i),
              32'(f[DW+1:DW]), 32'(want[DW+1:DW]));
        check($sformatf("A tag %0d packet %0d flit %0d taken in", s_tag[m], k, i),
              cap_cyc[ch][p], c);
        last_take = c;
        c++;
        p++;
      end
      first += payload;
    end
    next_pos = p;
  endtask

  // B: packet k of message m from A's captured flits, handed on ejection channel e from cycle
  // `at`, one flit a cycle; returns the cycle of its last flit.
  task automatic hand_packet(input int m, input int k, input int e, input int at,
                             output int last_at);
    int ch, p, n;
    bit done_;
    ch = s_ch[m];
    // Find packet k of message m among the channel's flits.
    // (No break: Icarus 11 has none.)
    n = -1;
    p = 0;
    while (p < cap_n[ch] && n < k) begin
      if (cap_flit[ch][p][DW] && int'(cap_flit[ch][p][3*CW+8+:TGW]) == s_tag[m]) n++;
      if (n < k) p++;
    end
    last_at = at - 1;
    done_ = 0;
    while (p < cap_n[ch] && !done_) begin
      last_at++;
      ej_list[e][ej_n[e]] = cap_flit[ch][p];
      ej_at[e][ej_n[e]] = last_at;
      ej_n[e]++;
      done_ = cap_flit[ch][p][DW+1];
      p++;
    end
  endtask

  int pos, last0, last1, t, la, lb, lc, ld, le;
  initial begin
    // ---- 1. one-port: start-up, packetization, back-to-back messages, backpressure -------------
    // t_s = 3, packets of 4 flits (3 words), inj_ready low every 4th cycle.
    reset_all(3, 4, 4);
    s_n = 3;
    // tag, channel, words, address, destination; submitted in cycles 1, 2, 3.
    s_at[0] = 1; s_ch[0] = 0; s_tag[0] = 1; s_words[0] = 7; s_addr[0] = 100; s_dst[0] = 'h010203;
    s_at[1] = 2; s_ch[1] = 0; s_tag[1] = 2; s_words[1] = 0; s_addr[1] = 200; s_dst[1] = 'h000001;
    s_at[2] = 3; s_ch[2] = 0; s_tag[2] = 3; s_words[2] = 3; s_addr[2] = 300; s_dst[2] = 'h0a0b0c;
    for (int c = 0; c < 60; c++) cycle_();
    check("A: flits of three messages", cap_n[0], (7 + 3) + (0 + 1) + (3 + 1));
    // Message 1 in the queue from cycle 2, offered from 2 + t_s.
    expect_message(0, 0, 1 + 1 + 3, 4, pos, last0);
    // Message 2: its start-up begins the cycle after message 1's last tail.
    expect_message(1, pos, last0 + 1 + 3, 4, pos, last1);
    expect_message(2, pos, last1 + 1 + 3, 4, pos, last0);
    check("A: queue empty", 32'(queued[0+:QCW]), 0);

    // ---- 2. all-port: four channels submitted in one cycle, whole-message packets, t_s = 0, no
    //      backpressure: the four messages start together.
    reset_all(0, 0, 0);
    s_n = 4;
    for (int m = 0; m < 4; m++) begin
      s_at[m] = 2;
      s_ch[m] = m;
      s_tag[m] = 10 + m;
      s_words[m] = 2 * m + 1;
      s_addr[m] = 1000 + 10 * m;
      s_dst[m] = m;
    end
    for (int c = 0; c < 30; c++) cycle_();
    for (int m = 0; m < 4; m++) begin
      expect_message(m, 0, s_at[m] + 1, 0, pos, last0);
    end

    // ---- 3. queue full ---------------------------------------------------------------------------
    reset_all(20, 0, 0);
    s_n = 0;
    sub_words = '0;
    sub_words[1*MWW+:MWW] = MWW'(1);
    sub_valid = 4'b0010;
    for (int m = 0; m < QD; m++) begin
      #1 check($sformatf("queue room for message %0d", m), 32'(sub_ready[1]), 1);
      edge_();
    end
    #1 check("queue full after QD messages", 32'(sub_ready[1]), 0);
    check("other channel has room", 32'(sub_ready[2]), 1);
    sub_valid = '0;
    check("queued on channel 1", 32'(queued[1*QCW+:QCW]), QD);

    // ---- 4. reassembly at B: packets overtake, channels in parallel, empty message --------------
    reset_all(0, 3, 0);  // packets of 3 flits (2 words)
    s_n = 3;
    // Tags double as the node memory's word base (word_at(100 tag + index)) for B's checks.
    s_at[0] = 0; s_ch[0] = 0; s_tag[0] = 5; s_words[0] = 5; s_addr[0] = 500; s_dst[0] = 1;
    s_at[1] = 1; s_ch[1] = 1; s_tag[1] = 9; s_words[1] = 0; s_addr[1] = 900; s_dst[1] = 1;
    s_at[2] = 2; s_ch[2] = 2; s_tag[2] = 7; s_words[2] = 2; s_addr[2] = 700; s_dst[2] = 1;
    for (int c = 0; c < 20; c++) cycle_();
    // Message 5's packets: words {0,1}, {2,3}, {4}. Hand its last packet first on channel 1 and
    // its first on channel 0 in cycle 30; its middle packet after the last on channel 1. Message 7
    // on channel 2 in 31, message 9 (no words) on channel 3 in 32.
    hand_packet(0, 2, 1, 30, la);
    hand_packet(0, 0, 0, 30, lb);
    hand_packet(0, 1, 1, la + 1, lc);
    hand_packet(2, 0, 2, 31, ld);
    hand_packet(1, 0, 3, 32, le);
    s_n = 0;
    for (int c = 20; c < 45; c++) cycle_();
    check("B: message 5 complete with its last flit", got_done[5], (lb > lc) ? lb : lc);
    check("B: message 7 complete with its tail", got_done[7], ld);
    check("B: message 9 (no words) complete with its header", got_done[9], 32);
    check("B: message 5 words", got_words[5], 5);
    check("B: message 7 words", got_words[7], 2);
    check("B: no overflow", 32'(b_overflow), 0);

    // ---- 5. reassembly table overflow: RQ + 1 messages open at once ------------------------------
    reset_all(0, 2, 0);  // one word per packet
    s_n = RQ + 1;
    for (int m = 0; m <= RQ; m++) begin
      s_at[m] = m;
      s_ch[m] = m % PMAX;
      s_tag[m] = 20 + m;
      s_words[m] = 2;
      s_addr[m] = 100 * (20 + m);
      s_dst[m] = 1;
    end
    for (int c = 0; c < 15; c++) cycle_();
    // Every message's first packet in cycle 20 (channel e's header opens the e-th free entry:
    // message 23 finds none), then the second packets of the first RQ in 23, their words in 24.
    // Message 20 again (its tag used anew once its message is complete) on channel 3 from 27:
    // header, word, header, word, the last in 30.
    for (int m = 0; m <= RQ; m++) hand_packet(m, 0, m % PMAX, 20, t);
    for (int m = 0; m < RQ; m++) hand_packet(m, 1, m % PMAX, 23, t);
    hand_packet(0, 0, 3, 27, t);
    hand_packet(0, 1, 3, t + 1, t);
    s_n = 0;
    for (int c = 15; c < 27; c++) cycle_();
    check("B: overflow with RQ + 1 open messages", 32'(b_overflow), 1);
    for (int m = 0; m < RQ; m++) begin
      check($sformatf("B: message %0d complete with its last word", 20 + m), got_done[20+m], 24);
    end
    check("B: the message without an entry is never complete", got_done[20+RQ], -1);
    got_done[20] = -1;
    got_words[20] = 0;
    for (int c = 27; c < 35; c++) cycle_();
    check("B: a tag used again is a new message, complete with its last word", got_done[20], 30);
    check("B: ... of two words", got_words[20], 2);

    // ---- 6. packets of 301, 256 and 255 flits (one packet per message) --------------------------
    reset_all(1, 0, 0);
    check("B: a reset clears the overflow flag", 32'(b_overflow), 0);
    s_n = 3;
    s_at[0] = 0; s_ch[0] = 1; s_tag[0] = 40; s_words[0] = 300; s_addr[0] = 4000; s_dst[0] = 5;
    s_at[1] = 0; s_ch[1] = 2; s_tag[1] = 41; s_words[1] = 255; s_addr[1] = 4100; s_dst[1] = 5;
    s_at[2] = 0; s_ch[2] = 3; s_tag[2] = 42; s_words[2] = 254; s_addr[2] = 4200; s_dst[2] = 5;
    for (int c = 0; c < 310; c++) cycle_();
    check("A: a 300-word message is 301 flits", cap_n[1], 301);
    for (int m = 0; m < 3; m++) expect_message(m, 0, 0 + 1 + 1, 0, pos, last0);
    check("A: its header's length saturates", 32'(cap_flit[1][0][3*CW+:8]), 255);
    check("A: 256 flits saturate", 32'(cap_flit[2][0][3*CW+:8]), 255);
    check("A: 255 flits do not", 32'(cap_flit[3][0][3*CW+:8]), 255);

    // ---- 7. the queue as a ring: a submission to a full queue refused, the head wrapping --------
    // t_s = 2, one packet per message, channel 0. Messages 50, 51, 52 fill the queue (cycles 0 to
    // 2); 99 in cycle 3 finds it full (50 leaves with its tail in 6); 53 in 8 and 54 in 11 find
    // room and go to the slots 50 and 51 left, after 52 has gone through the last slot.
    reset_all(2, 0, 0);
    s_n = 6;
    for (int m = 0; m < 6; m++) begin
      s_ch[m] = 0;
      s_dst[m] = 3;
    end
    s_at[0] = 0; s_tag[0] = 50; s_words[0] = 3; s_addr[0] = 5000;
    s_at[1] = 1; s_tag[1] = 51; s_words[1] = 1; s_addr[1] = 5100;
    s_at[2] = 2; s_tag[2] = 52; s_words[2] = 2; s_addr[2] = 5200;
    s_at[3] = 3; s_tag[3] = 99; s_words[3] = 1; s_addr[3] = 9900;
    s_at[4] = 8; s_tag[4] = 53; s_words[4] = 2; s_addr[4] = 5300;
    s_at[5] = 11; s_tag[5] = 54; s_words[5] = 1; s_addr[5] = 5400;
    for (int c = 0; c < 30; c++) cycle_();
    // Each message after the first starts its t_s the cycle after its predecessor's tail.
    expect_message(0, 0, 0 + 1 + 2, 0, pos, last0);
    for (int m = 1; m < 6; m++) begin
      if (m != 3) expect_message(m, pos, last0 + 1 + 2, 0, pos, last0);
    end
    check("A: the five accepted messages and nothing else", cap_n[0], pos);
    check("A: queue empty", 32'(queued[0+:QCW]), 0);

    checks_verdict("tb_network_interface", "");
    $finish;
  end
endmodule
