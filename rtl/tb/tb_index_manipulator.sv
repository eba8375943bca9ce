// Self-checking bench of index_manipulator against [PH91] Fig. 6: an interleaved bus with 3
// memory modules and 3 data buffers.
//   Fig. 6(b), interleaved read with index set {0, 2, 1}: "as the data elements are read from the
//   pipelined bus in sequence, they are written into the buffers 0, 2, and 1 respectively".
//   Interleaved write with index set {1, 1, 2}: "the elements are read from the buffers 1, 1, and
//   2 respectively and written to the memory modules" (replication of buffer 1).
// Block accesses (L vectors) use word v of each buffer for vector v. Prints PASS or calls $fatal.
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

    checks_verdict("tb_index_manipulator", "");
    $finish;
  end

endmodule
