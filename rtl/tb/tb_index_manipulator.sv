// Self-checking bench of index_manipulator against [PH91] Fig. 6: an interleaved bus with 3
// memory modules and 3 data buffers.
//   Fig. 6(b), interleaved read with index set {0, 2, 1}: "as the data elements are read from the
//   pipelined bus in sequence, they are written into the buffers 0, 2, and 1 respectively".
//   Interleaved write with index set {1, 1, 2}: "the elements are read from the buffers 1, 1, and
//   2 respectively and written to the memory modules" (replication of buffer 1).
// Block accesses (L vectors) use word v of each buffer for vector v. Then the block's own rules
// beyond the paper: both write ports in one cycle (the bus word wins), and a second instance with
// a local port of LPW = 3 words (word loc_word + j of the buffer, wrapping inside it, written only
// where its loc_we bit is set). Prints PASS or calls $fatal.
// Runs under Icarus (iverilog -g2012) and Verilator (--binary --timing).
module tb_index_manipulator;
  localparam int N = 3;  // Fig. 6: 3 modules on the bus, 3 data buffers
  localparam int L = 4;
  localparam int S = 2;
  localparam int W = 32;
  localparam int NB = 2;
  localparam int LB = 2;
  localparam int SB = 1;

  // The two index sets of Fig. 6, and what the paper says must happen.
  localparam int READ_SET = 0;  // {0, 2, 1}
  localparam int WRITE_SET = 1;  // {1, 1, 2}
  int rho[S][N];
  // Fig. 6(b): the word streamed from module k lands in buffer read_dest[k].
  int read_dest[N];
  // Write with {1, 1, 2}: module k receives buffer write_src[k].
  int write_src[N];

  logic clk = 1'b0;
  logic idx_we = 1'b0;
  logic [SB-1:0] idx_set = '0;
  logic [NB-1:0] idx_pos = '0;
  logic [NB-1:0] idx_buf = '0;
  logic [SB-1:0] ac_set = '0;
  logic [NB-1:0] ac_pos = '0;
  logic [LB-1:0] ac_vec = '0;
  logic [NB-1:0] ac_buf;
  logic ac_we = 1'b0;
  logic [W-1:0] ac_wdata = '0;
  logic [W-1:0] ac_rdata;
  logic loc_we = 1'b0;
  logic [NB-1:0] loc_buf = '0;
  logic [LB-1:0] loc_word = '0;
  logic [W-1:0] loc_wdata = '0;
  logic [W-1:0] loc_rdata;

  index_manipulator #(
      .N(N),
      .L(L),
      .S(S),
      .W(W)
  ) dut (
      .clk(clk),
      .idx_we(idx_we),
      .idx_set(idx_set),
      .idx_pos(idx_pos),
      .idx_buf(idx_buf),
      .ac_set(ac_set),
      .ac_pos(ac_pos),
      .ac_vec(ac_vec),
      .ac_buf(ac_buf),
      .ac_we(ac_we),
      .ac_wdata(ac_wdata),
      .ac_rdata(ac_rdata),
      .loc_we(loc_we),
      .loc_buf(loc_buf),
      .loc_word(loc_word),
      .loc_wdata(loc_wdata),
      .loc_rdata(loc_rdata)
  );

  // The second instance: the same index memory, a local port of WIDE words at once.
  localparam int WIDE = 3;
  logic [WIDE-1:0] wide_we = '0;
  logic [NB-1:0] wide_buf = '0;
  logic [LB-1:0] wide_word = '0;
  logic [WIDE*W-1:0] wide_wdata = '0;
  logic [WIDE*W-1:0] wide_rdata;
  logic [NB-1:0] wide_ac_buf;
  logic [W-1:0] wide_ac_rdata;

  index_manipulator #(
      .N(N),
      .L(L),
      .S(S),
      .W(W),
      .LPW(WIDE)
  ) wide (
      .clk(clk),
      .idx_we(idx_we),
      .idx_set(idx_set),
      .idx_pos(idx_pos),
      .idx_buf(idx_buf),
      .ac_set(ac_set),
      .ac_pos(ac_pos),
      .ac_vec(ac_vec),
      .ac_buf(wide_ac_buf),
      .ac_we(1'b0),
      .ac_wdata(ac_wdata),
      .ac_rdata(wide_ac_rdata),
      .loc_we(wide_we),
      .loc_buf(wide_buf),
      .loc_word(wide_word),
      .loc_wdata(wide_wdata),
      .loc_rdata(wide_rdata)
  );

  always #5 clk <= ~clk;

  `include "bench_checks.svh"

  // Word v of module k, and word v of buffer b as loaded by the processor: distinct patterns.
  function automatic logic [W-1:0] module_word(input int k, input int v);
    return 32'hA000_0000 | 32'(k << 8) | 32'(v);
  endfunction
  function automatic logic [W-1:0] buffer_word(input int b, input int v);
    return 32'hB000_0000 | 32'(b << 8) | 32'(v);
  endfunction

  // All inputs change at the falling edge; the design samples them at the rising edge.
  task automatic load_index(input int s, input int p, input int b);
    @(negedge clk);
    idx_we  = 1'b1;
    idx_set = SB'(s);
    idx_pos = NB'(p);
    idx_buf = NB'(b);
    @(negedge clk);
    idx_we = 1'b0;
  endtask

  task automatic local_write(input int b, input int v, input logic [W-1:0] w);
    @(negedge clk);
    loc_we    = 1'b1;
    loc_buf   = NB'(b);
    loc_word  = LB'(v);
    loc_wdata = w;
    @(negedge clk);
    loc_we = 1'b0;
  endtask

  task automatic local_read(input int b, input int v, output logic [W-1:0] w);
    @(negedge clk);
    loc_buf  = NB'(b);
    loc_word = LB'(v);
    #1 w = loc_rdata;
  endtask

  // The wide instance's local port: the words of `we` from word v of buffer b on; every lane
  // carries a word, so that a lane written without its bit shows.
  task automatic wide_write(input int b, input int v, input logic [WIDE-1:0] we,
                            input logic [WIDE*W-1:0] words);
    @(negedge clk);
    wide_we    = we;
    wide_buf   = NB'(b);
    wide_word  = LB'(v);
    wide_wdata = words;
    @(negedge clk);
    wide_we = '0;
  endtask

  // Words v, v+1, v+2 (modulo L) of the wide instance's buffer b, as the port reads them.
  task automatic wide_check(input string what, input int b, input int v,
                            input logic [WIDE*W-1:0] want);
    @(negedge clk);
    wide_buf  = NB'(b);
    wide_word = LB'(v);
    #1;
    for (int j = 0; j < WIDE; j++) begin
      check($sformatf("%s: buffer %0d word %0d (lane %0d)", what, b, (v + j) % L, j),
            wide_rdata[j*W+:W], want[j*W+:W]);
    end
  endtask

  initial begin
    logic [W-1:0] w;
    // (Element by element: Icarus 11 has no assignment patterns for unpacked arrays.)
    rho[READ_SET][0] = 0;
    rho[READ_SET][1] = 2;
    rho[READ_SET][2] = 1;
    rho[WRITE_SET][0] = 1;
    rho[WRITE_SET][1] = 1;
    rho[WRITE_SET][2] = 2;
    read_dest[0] = 0;
    read_dest[1] = 2;
    read_dest[2] = 1;
    write_src[0] = 1;
    write_src[1] = 1;
    write_src[2] = 2;

    // Index memory, loaded before the run.
    for (int s = 0; s < S; s++) begin
      for (int p = 0; p < N; p++) begin
        load_index(s, p, rho[s][p]);
      end
    end
    for (int s = 0; s < S; s++) begin
      for (int p = 0; p < N; p++) begin
        @(negedge clk);
        ac_set = SB'(s);
        ac_pos = NB'(p);
        #1 check($sformatf("rho(%0d) of set %0d", p, s), W'(ac_buf), W'(rho[s][p]));
      end
    end

    // Fig. 6(b): block-interleaved read of L vectors with index set {0, 2, 1}. The bus streams
    // the words of modules 0, 1, 2 for vector 0, then for vector 1, ...
    for (int v = 0; v < L; v++) begin
      for (int k = 0; k < N; k++) begin
        @(negedge clk);
        ac_set   = SB'(READ_SET);
        ac_pos   = NB'(k);
        ac_vec   = LB'(v);
        ac_we    = 1'b1;
        ac_wdata = module_word(k, v);
      end
    end
    @(negedge clk);
    ac_we = 1'b0;
    for (int k = 0; k < N; k++) begin
      for (int v = 0; v < L; v++) begin
        local_read(read_dest[k], v, w);
        check($sformatf("read {0,2,1}: buffer %0d word %0d", read_dest[k], v), w,
              module_word(k, v));
      end
    end

    // Interleaved write with index set {1, 1, 2}: the processor loads its buffers (LoadBuffer),
    // then the bus takes position k's word from buffer write_src[k], combinationally.
    for (int b = 0; b < N; b++) begin
      for (int v = 0; v < L; v++) begin
        local_write(b, v, buffer_word(b, v));
      end
    end
    for (int v = 0; v < L; v++) begin
      logic [W-1:0] on_bus[N];
      for (int k = 0; k < N; k++) begin
        @(negedge clk);
        ac_set = SB'(WRITE_SET);
        ac_pos = NB'(k);
        ac_vec = LB'(v);
        #1 on_bus[k] = ac_rdata;
        check($sformatf("write {1,1,2}: module %0d vector %0d", k, v), on_bus[k],
              buffer_word(write_src[k], v));
      end
      // Replication: modules 0 and 1 both receive buffer 1's word v.
      check($sformatf("replication, vector %0d", v), on_bus[0], on_bus[1]);
    end

    // The write path reads only: the buffers are unchanged (StoreBuffer gives them back).
    for (int b = 0; b < N; b++) begin
      for (int v = 0; v < L; v++) begin
        local_read(b, v, w);
        check($sformatf("buffer %0d word %0d after the write", b, v), w, buffer_word(b, v));
      end
    end

    // Both write ports in one cycle (the processor never writes its buffers during its own bus
    // access; the block's rule for it): on the same word the bus word wins, on different words
    // both are written. READ_SET maps position 0 to buffer 0 and position 1 to buffer 2.
    @(negedge clk);
    ac_set    = SB'(READ_SET);
    ac_pos    = NB'(0);
    ac_vec    = LB'(1);
    ac_we     = 1'b1;
    ac_wdata  = 32'hC000_0001;
    loc_we    = 1'b1;
    loc_buf   = NB'(0);
    loc_word  = LB'(1);
    loc_wdata = 32'hD000_0001;
    @(negedge clk);
    ac_pos    = NB'(1);
    ac_vec    = LB'(2);
    ac_wdata  = 32'hC000_0002;
    loc_buf   = NB'(1);
    loc_word  = LB'(3);
    loc_wdata = 32'hD000_0002;
    @(negedge clk);
    ac_we  = 1'b0;
    loc_we = 1'b0;
    local_read(0, 1, w);
    check("both ports on buffer 0 word 1: the bus word", w, 32'hC000_0001);
    local_read(2, 2, w);
    check("both ports in one cycle: the bus word in buffer 2 word 2", w, 32'hC000_0002);
    local_read(1, 3, w);
    check("both ports in one cycle: the local word in buffer 1 word 3", w, 32'hD000_0002);

    // The wide local port. Every word of every buffer, one lane at a time (lane 0 only; lanes 1
    // and 2 carry other words, which must not be written: words v+1 and v+2 were written
    // before when v wraps).
    for (int b = 0; b < N; b++) begin
      for (int v = 0; v < L; v++) begin
        wide_write(b, v, WIDE'(1), {32'hEEEE_0002, 32'hEEEE_0001, buffer_word(b, v)});
      end
    end
    for (int b = 0; b < N; b++) begin
      wide_check("lane 0 alone", b, 0, {buffer_word(b, 2), buffer_word(b, 1), buffer_word(b, 0)});
      wide_check("lane 0 alone", b, 3, {buffer_word(b, 1), buffer_word(b, 0), buffer_word(b, 3)});
    end
    // From word 3 of buffer 1, lanes 0 and 2: words 3 and 1 (wrapped inside the buffer), word 0
    // (lane 1) kept; buffer 2, the next in the flat memory, untouched.
    wide_write(1, 3, 3'b101, {32'hF000_0002, 32'hF000_0001, 32'hF000_0000});
    wide_check("lanes 0 and 2 from word 3", 1, 3,
               {32'hF000_0002, buffer_word(1, 0), 32'hF000_0000});
    wide_check("lanes 0 and 2 from word 3", 1, 1,
               {32'hF000_0000, buffer_word(1, 2), 32'hF000_0002});
    wide_check("the next buffer", 2, 0, {buffer_word(2, 2), buffer_word(2, 1), buffer_word(2, 0)});

    checks_verdict("tb_index_manipulator", "");
    $finish;
  end

endmodule
