// Index (data-buffer) manipulator of one processor, [PH91] section 3.2, Fig. 6.
//
// N data buffers of L words each, and an index memory of S index sets of N entries. Index set
// rho maps a stream position p (the p-th word of a vector on the interleaved bus) to a data buffer:
//   read path  (bus -> buffers): the word of position p, vector v is written into buffer rho(p)
//                                word v, at the rising edge ending a cycle with ac_we high;
//   write path (buffers -> bus): the word for position p, vector v is buffer rho(p) word v, read
//                                COMBINATIONALLY (ac_rdata follows ac_set/ac_pos/ac_vec in the
//                                same cycle), so repeated entries of rho replicate a buffer.
// The index memory is loaded through its write port before the run (idx_we). The local port is
// what the processor's LoadBuffer / StoreBuffer use: LPW words at once (words loc_word + j of
// buffer loc_buf, j < LPW, the word index wrapping inside the buffer's LB bits as the processor's
// word-by-word copy did), each written at the clock edge where its loc_we bit is high, read
// combinationally.
//
// The RTL twin of sc_models/multiprocessor/index_manipulator.hpp (on_read / on_write / buffer()).
// Storage has no reset (it is RAM): a buffer word never written reads as X under a four-state
// simulator and 0 under Verilator, while the model reads sw::kUnwrittenWord.
module index_manipulator #(
    parameter int N = 4,   // data buffers = stream positions = entries of an index set
    parameter int L = 8,   // words per data buffer (the most vectors of a block access)
    parameter int S = 4,   // index sets in the index memory
    parameter int W = 32,  // word width
    parameter int LPW = 1,  // words per access of the local port
    // Derived widths: leave at their defaults.
    parameter int NB = (N > 1) ? $clog2(N) : 1,  // buffer / stream position index
    parameter int LB = (L > 1) ? $clog2(L) : 1,  // word index inside a buffer
    parameter int SB = (S > 1) ? $clog2(S) : 1   // index set number
) (
    input logic clk,

    // Index memory write port: entry idx_pos of index set idx_set becomes idx_buf.
    input logic          idx_we,
    input logic [SB-1:0] idx_set,
    input logic [NB-1:0] idx_pos,
    input logic [NB-1:0] idx_buf,

    // Access port, driven by the bus controller during a word of an interleaved access.
    input  logic [SB-1:0] ac_set,    // index set named by the access
    input  logic [NB-1:0] ac_pos,    // stream position p of the word on the bus
    input  logic [LB-1:0] ac_vec,    // vector v of the word
    output logic [NB-1:0] ac_buf,    // rho(p) of ac_set (combinational)
    input  logic          ac_we,     // read path: store ac_wdata into buffer rho(p) word v
    input  logic [ W-1:0] ac_wdata,
    output logic [ W-1:0] ac_rdata,  // write path: buffer rho(p) word v (combinational)

    // Local port: the processor's LoadBuffer (write) and StoreBuffer (read); word j at [j*W +: W].
    input  logic [   LPW-1:0] loc_we,
    input  logic [    NB-1:0] loc_buf,
    input  logic [    LB-1:0] loc_word,
    input  logic [LPW*W-1:0] loc_wdata,
    output logic [LPW*W-1:0] loc_rdata
);
  localparam int IDX_WORDS = S * N;
  localparam int BUF_WORDS = N * L;
  localparam int IAW = (IDX_WORDS > 1) ? $clog2(IDX_WORDS) : 1;
  localparam int BAW = (BUF_WORDS > 1) ? $clog2(BUF_WORDS) : 1;

  logic [NB-1:0] idx_mem[0:IDX_WORDS-1];  // index set s, entry p at s * N + p
  logic [ W-1:0] buf_mem[0:BUF_WORDS-1];  // buffer b, word v at b * L + v

  // Flat addresses. The products are of constants and narrow indices; IAW/BAW bits hold every
  // in-range address.
  logic [IAW-1:0] idx_wr_addr, idx_ac_addr;
  logic [BAW-1:0] buf_ac_addr;
  logic [BAW-1:0] buf_loc_addr[LPW];
  logic [LB-1:0] loc_word_j[LPW];  // word j's index: wraps inside the buffer's LB bits

  always_comb begin
    idx_wr_addr  = IAW'(idx_set) * IAW'(N) + IAW'(idx_pos);
    idx_ac_addr  = IAW'(ac_set) * IAW'(N) + IAW'(ac_pos);
    ac_buf       = idx_mem[idx_ac_addr];
    buf_ac_addr  = BAW'(ac_buf) * BAW'(L) + BAW'(ac_vec);
    for (int j = 0; j < LPW; j++) begin
      loc_word_j[j] = loc_word + LB'(j);
      buf_loc_addr[j] = BAW'(loc_buf) * BAW'(L) + BAW'(loc_word_j[j]);
    end
  end

  always_ff @(posedge clk) begin
    if (idx_we) begin
      idx_mem[idx_wr_addr] <= idx_buf;
    end
  end

  // Two write ports. The processor is suspended during its own bus access, so the local port and
  // the read path never write in the same cycle; if they did, the bus word would win.
  always_ff @(posedge clk) begin
    for (int j = 0; j < LPW; j++) begin
      if (loc_we[j]) begin
        buf_mem[buf_loc_addr[j]] <= loc_wdata[j*W+:W];
      end
    end
    if (ac_we) begin
      buf_mem[buf_ac_addr] <= ac_wdata;
    end
  end

  assign ac_rdata  = buf_mem[buf_ac_addr];
  always_comb begin
    for (int j = 0; j < LPW; j++) begin
      loc_rdata[j*W+:W] = buf_mem[buf_loc_addr[j]];
    end
  end

endmodule
