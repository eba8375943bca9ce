// Bus controller BC(i) of processor P(i): the access protocols of [PH91] section 3.1, Fig. 5.
//
// One access at a time. After the grant: the start-up alpha; then for each vector v = 0..l-1 an
// address increment of beta cycles before every vector after the first, then for each stream
// position p = 0..d-1 one word for tau cycles. The word of (p, v) is at address `addr + v` of the
// module in slot slots[p]; on a write it comes from the index manipulator's buffer rho(p) word v,
// on a read it goes there. Total alpha + beta(l-1) + d tau l cycles (scalar: d = l = 1;
// interleaved: l = 1). An IWR step (`iwr`) is a write access, a bus switch of gamma cycles with
// the bus released, a new request, and a read access: 2(alpha + beta(l-1) + d tau l) + gamma
// cycles when both grants come at once. This is the RTL twin of BusController::granted() in
// sc_models/multiprocessor/bus_controller.cpp; each word is the model's beat(t, tau, ...).
//
// Cycle convention (cycle c = from rising edge c to rising edge c+1):
//   * `start`/`iwr` in cycle c, while idle, raise `req` in cycle c (combinationally) with the
//     access's req_col / req_mask: the request arrives in cycle c, as in the model.
//   * The grant cycle G is the cycle with req && grant. G is the first cycle of the access (the
//     first cycle of alpha, or the first word when alpha = 0): outputs in cycle G depend
//     combinationally on `grant`; `req` never depends on `grant`, so there is no loop.
//   * The access occupies cycles G .. G+D-1 (bus_mode != 0, `hold` high from G+1); `done` is
//     high in cycle G+D only, when the controller is idle again and may accept the next start.
//     `last` is high in cycle G+D-1 (combinationally): a SystemC bridge learns there that the
//     operation ends at the coming edge, so it can schedule the end for the start of G+D.
//   * bus_sel / bus_addr / bus_wdata / bus_data are meaningful when bus_valid and 0 otherwise
//     (the model's VCD holds their last values instead: compare them qualified by valid).
// Timing registers are loaded with cfg_we in a cycle that is idle and has no start (ignored
// otherwise); alpha, beta, gamma may be 0; tau >= 1 (0 acts as 1). Descriptors need 1 <= d <= N
// and 1 <= l <= L (sw/machine/validate.cpp checks programs for this). A start or iwr while busy
// is ignored. The IWR bus switch is gamma cycles from the end of the write half: waiting for the
// other processors of the step (the model's BusSwitch group) is outside this block.
module bus_controller #(
    parameter int N     = 4,   // processors = slots on a bus = data buffers
    parameter int L     = 8,   // words per data buffer: the most vectors l of a block access
    parameter int S     = 4,   // index sets in the index memory
    parameter int W     = 32,  // word width
    parameter int DEPTH = 16,  // words per memory module
    parameter int TW    = 16,  // width of the timing registers alpha, beta, tau, gamma (>= 5)
    // Derived widths: leave at their defaults.
    parameter int NB  = (N > 1) ? $clog2(N) : 1,          // slot / stream position
    parameter int NCW = $clog2(N + 1),                    // degree d in 1..N
    parameter int LB  = (L > 1) ? $clog2(L) : 1,          // vector v in 0..L-1
    parameter int LCW = $clog2(L + 1),                    // vectors l in 1..L
    parameter int SB  = (S > 1) ? $clog2(S) : 1,          // index set
    parameter int AW  = (DEPTH > 1) ? $clog2(DEPTH) : 1   // word address inside a module
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low

    // Run-time timing registers (reset to the paper's defaults 16, 2, 1, 8).
    input logic          cfg_we,
    input logic [TW-1:0] cfg_alpha,
    input logic [TW-1:0] cfg_beta,
    input logic [TW-1:0] cfg_tau,
    input logic [TW-1:0] cfg_gamma,

    // Access request, sampled in the cycle of start/iwr while idle. `start` runs one access in
    // direction acc_write; `iwr` runs an IWR step: a write with the acc_* descriptor (acc_write
    // is ignored), gamma, then a read with the rd_* descriptor. iwr wins over start.
    input logic              start,
    input logic              iwr,
    input logic              acc_write,   // 1 write (buffers -> modules), 0 read
    input logic              acc_col,     // 0 row bus RB(i), 1 column bus CB(i)
    input logic [   NCW-1:0] acc_degree,  // d
    input logic [N*NB-1:0]   acc_slots,   // slots[p] = acc_slots[p*NB +: NB], p < d
    input logic [    AW-1:0] acc_addr,    // address of vector 0
    input logic [   LCW-1:0] acc_vectors, // l
    input logic [    SB-1:0] acc_set,     // index set
    input logic              rd_col,      // read half of an IWR step
    input logic [   NCW-1:0] rd_degree,
    input logic [N*NB-1:0]   rd_slots,
    input logic [    AW-1:0] rd_addr,
    input logic [   LCW-1:0] rd_vectors,
    input logic [    SB-1:0] rd_set,

    // Arbitration (the arbiter is outside: module_array).
    output logic          req,       // waiting for a grant (including the grant cycle)
    output logic          hold,      // holding the bus and the modules (G+1 .. G+D-1)
    output logic          req_col,   // the modules wanted / held: column bus if 1, row bus if 0
    output logic [N-1:0]  req_mask,  // slots wanted / held
    input  logic          grant,     // combinational grant while req is high

    // The bus this controller drives (per cycle).
    output logic          bus_valid,  // a word is on the bus (tau cycles per word)
    output logic [   1:0] bus_mode,   // 0 idle, 1 row bus, 2 column bus: the access holds it
    output logic          bus_write,  // 1 write, 0 read (0 when idle)
    output logic [NB-1:0] bus_sel,    // slot of the module whose word is on the bus
    output logic [AW-1:0] bus_addr,   // word address inside that module
    output logic [ W-1:0] bus_wdata,  // the word written (write access)
    input  logic [ W-1:0] bus_rdata,  // the word the module returns (read access)
    output logic [ W-1:0] bus_data,   // the word on the bus, either direction (for traces)
    output logic          busy,       // an access or IWR step is in progress this cycle
    output logic          done,       // one cycle, right after the last cycle of the operation
    output logic          last,       // the last cycle of the operation: `done` follows

    // Index manipulator access port.
    output logic [SB-1:0] im_set,
    output logic [NB-1:0] im_pos,
    output logic [LB-1:0] im_vec,
    output logic          im_we,     // read access: store im_wdata (the module's word)
    output logic [ W-1:0] im_wdata,
    input  logic [ W-1:0] im_rdata   // write access: the buffer word for (pos, vec)
);
  localparam logic [2:0] S_IDLE = 3'd0;  // no access
  localparam logic [2:0] S_REQ = 3'd1;  // requested, waiting for the grant
  localparam logic [2:0] S_ALPHA = 3'd2;  // start-up alpha
  localparam logic [2:0] S_BETA = 3'd3;  // address increment before vector v > 0
  localparam logic [2:0] S_WORD = 3'd4;  // word (pos, vec) on the bus, tau cycles
  localparam logic [2:0] S_GAMMA = 3'd5;  // IWR bus switch, bus released

  // ---- registers --------------------------------------------------------------------------
  logic [2:0] st_q;
  logic [TW-1:0] cnt_q;  // cycles left in the phase, the current one included
  logic [NB-1:0] pos_q;
  logic [LB-1:0] vec_q;
  logic half2_q;  // an IWR read half follows the current access
  logic done_q;
  logic [TW-1:0] alpha_q, beta_q, tau_q, gamma_q;

  // Descriptor of the current access, and of the pending IWR read half.
  logic d_write_q, d_col_q;
  logic [NCW-1:0] d_deg_q;
  logic [N*NB-1:0] d_slots_q;
  logic [AW-1:0] d_addr_q;
  logic [LCW-1:0] d_vecs_q;
  logic [SB-1:0] d_set_q;
  logic p_col_q;
  logic [NCW-1:0] p_deg_q;
  logic [N*NB-1:0] p_slots_q;
  logic [AW-1:0] p_addr_q;
  logic [LCW-1:0] p_vecs_q;
  logic [SB-1:0] p_set_q;

  // ---- the access in effect this cycle ------------------------------------------------------
  // While idle, a start's descriptor comes straight from the inputs, so that the request, and
  // with an immediate grant the whole first cycle, happen in the start cycle.
  logic accept;
  logic e_write, e_col;
  logic [NCW-1:0] e_deg;
  logic [N*NB-1:0] e_slots;
  logic [AW-1:0] e_addr;
  logic [LCW-1:0] e_vecs;
  logic [SB-1:0] e_set;
  logic e_half2;

  assign accept = (st_q == S_IDLE) && (start || iwr);

  always_comb begin
    if (st_q == S_IDLE) begin
      e_write = iwr | acc_write;
      e_col   = acc_col;
      e_deg   = acc_degree;
      e_slots = acc_slots;
      e_addr  = acc_addr;
      e_vecs  = acc_vectors;
      e_set   = acc_set;
      e_half2 = iwr;
    end else begin
      e_write = d_write_q;
      e_col   = d_col_q;
      e_deg   = d_deg_q;
      e_slots = d_slots_q;
      e_addr  = d_addr_q;
      e_vecs  = d_vecs_q;
      e_set   = d_set_q;
      e_half2 = half2_q;
    end
  end

  // ---- arbitration ----------------------------------------------------------------------------
  assign req = accept || (st_q == S_REQ);
  assign hold = (st_q == S_ALPHA) || (st_q == S_BETA) || (st_q == S_WORD);
  assign req_col = e_col;
  // The slots of an access: one decoded slot per stream position, ORed, not one comparator per
  // (slot, position) (n controllers of n x n comparators grew as n^3 in a verilated machine).
  function automatic logic [N-1:0] slot_mask(input logic [N*NB-1:0] slots,
                                             input logic [NCW-1:0] degree);
    slot_mask = '0;
    for (int p = 0; p < N; p++) begin
      if (NCW'(p) < degree) begin
        slot_mask = slot_mask | (N'(1) << slots[p*NB+:NB]);
      end
    end
  endfunction
  // Decoded from the start's descriptor while idle, otherwise the mask of the access under way,
  // registered when it was accepted (or its IWR read half became current): a verilated owner then
  // decodes the slots in the cycles of a start only, not at every evaluation.
  logic [N-1:0] mask_q;
  always_comb begin
    if (st_q == S_IDLE) begin
      req_mask = slot_mask(acc_slots, acc_degree);
    end else begin
      req_mask = mask_q;
    end
  end

  // ---- phase in effect this cycle -----------------------------------------------------------
  // In the grant cycle the phase is the access's first one; otherwise the registered one.
  logic take;
  logic [2:0] e_st;
  logic [TW-1:0] e_cnt;
  logic [NB-1:0] e_pos;
  logic [LB-1:0] e_vec;

  assign take = req && grant;

  always_comb begin
    e_st  = st_q;
    e_cnt = cnt_q;
    e_pos = pos_q;
    e_vec = vec_q;
    if (take) begin
      e_pos = '0;
      e_vec = '0;
      if (alpha_q != '0) begin
        e_st  = S_ALPHA;
        e_cnt = alpha_q;
      end else begin
        e_st  = S_WORD;
        e_cnt = tau_q;
      end
    end else if (accept) begin
      e_st = S_REQ;
    end
  end

  // ---- next state ---------------------------------------------------------------------------
  logic [2:0] n_st;
  logic [TW-1:0] n_cnt;
  logic [NB-1:0] n_pos;
  logic [LB-1:0] n_vec;
  logic n_done;
  logic n_switch;  // the write half of an IWR step ends: the read half becomes current
  logic last_cycle;  // the last cycle of the phase
  logic last_pos, last_vec;

  assign last_cycle = (e_cnt <= TW'(1));
  assign last_pos = (NCW'(e_pos) + NCW'(1) >= e_deg);
  assign last_vec = (LCW'(e_vec) + LCW'(1) >= e_vecs);

  always_comb begin
    n_st     = e_st;
    n_cnt    = e_cnt - TW'(1);
    n_pos    = e_pos;
    n_vec    = e_vec;
    n_done   = 1'b0;
    n_switch = 1'b0;
    case (e_st)
      S_ALPHA: begin
        if (last_cycle) begin
          n_st  = S_WORD;
          n_cnt = tau_q;
        end
      end
      S_BETA: begin
        if (last_cycle) begin
          n_st  = S_WORD;
          n_cnt = tau_q;
        end
      end
      S_WORD: begin
        if (last_cycle) begin
          if (!last_pos) begin
            n_pos = e_pos + NB'(1);
            n_cnt = tau_q;
          end else if (!last_vec) begin
            // Next vector: address increment beta first (Fig. 5(c)), skipped when beta = 0.
            n_pos = '0;
            n_vec = e_vec + LB'(1);
            if (beta_q != '0) begin
              n_st  = S_BETA;
              n_cnt = beta_q;
            end else begin
              n_cnt = tau_q;
            end
          end else if (e_half2) begin
            n_switch = 1'b1;
            if (gamma_q != '0) begin
              n_st  = S_GAMMA;
              n_cnt = gamma_q;
            end else begin
              n_st = S_REQ;
            end
          end else begin
            n_st   = S_IDLE;
            n_done = 1'b1;
          end
        end
      end
      S_GAMMA: begin
        if (last_cycle) begin
          n_st = S_REQ;
        end
      end
      default: begin  // S_IDLE, S_REQ: no counting
        n_cnt = e_cnt;
      end
    endcase
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      st_q    <= S_IDLE;
      cnt_q   <= '0;
      pos_q   <= '0;
      vec_q   <= '0;
      half2_q <= 1'b0;
      done_q  <= 1'b0;
      alpha_q <= TW'(16);
      beta_q  <= TW'(2);
      tau_q   <= TW'(1);
      gamma_q <= TW'(8);
    end else begin
      st_q    <= n_st;
      cnt_q   <= n_cnt;
      pos_q   <= n_pos;
      vec_q   <= n_vec;
      half2_q <= e_half2 && !n_switch;
      done_q  <= n_done;
      if (cfg_we && st_q == S_IDLE && !accept) begin
        alpha_q <= cfg_alpha;
        beta_q  <= cfg_beta;
        tau_q   <= cfg_tau;
        gamma_q <= cfg_gamma;
      end
    end
  end

  // Descriptors: data registers, no reset needed (written at every accepted start).
  always_ff @(posedge clk) begin
    if (n_switch) begin
      mask_q    <= slot_mask(accept ? rd_slots : p_slots_q, accept ? rd_degree : p_deg_q);
      d_write_q <= 1'b0;
      d_col_q   <= accept ? rd_col : p_col_q;
      d_deg_q   <= accept ? rd_degree : p_deg_q;
      d_slots_q <= accept ? rd_slots : p_slots_q;
      d_addr_q  <= accept ? rd_addr : p_addr_q;
      d_vecs_q  <= accept ? rd_vectors : p_vecs_q;
      d_set_q   <= accept ? rd_set : p_set_q;
    end else if (accept) begin
      mask_q    <= req_mask;
      d_write_q <= e_write;
      d_col_q   <= e_col;
      d_deg_q   <= e_deg;
      d_slots_q <= e_slots;
      d_addr_q  <= e_addr;
      d_vecs_q  <= e_vecs;
      d_set_q   <= e_set;
    end
    if (accept) begin
      p_col_q   <= rd_col;
      p_deg_q   <= rd_degree;
      p_slots_q <= rd_slots;
      p_addr_q  <= rd_addr;
      p_vecs_q  <= rd_vectors;
      p_set_q   <= rd_set;
    end
  end

  // ---- outputs ------------------------------------------------------------------------------
  logic active;
  assign active    = (e_st == S_ALPHA) || (e_st == S_BETA) || (e_st == S_WORD);
  assign bus_valid = (e_st == S_WORD);
  assign bus_mode  = active ? (e_col ? 2'd2 : 2'd1) : 2'd0;
  assign bus_write = active && e_write;
  assign bus_sel   = bus_valid ? e_slots[e_pos*NB+:NB] : '0;
  assign bus_addr  = bus_valid ? e_addr + AW'(e_vec) : '0;
  assign bus_wdata = (bus_valid && e_write) ? im_rdata : '0;
  assign bus_data  = bus_valid ? (e_write ? im_rdata : bus_rdata) : '0;
  assign busy      = (e_st != S_IDLE);
  assign done      = done_q;
  assign last      = n_done;

  assign im_set    = e_set;
  assign im_pos    = e_pos;
  assign im_vec    = e_vec;
  assign im_we     = bus_valid && !e_write;
  assign im_wdata  = bus_rdata;

endmodule
