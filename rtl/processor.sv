// Processor P(i) of the multiprocessor: a sequencer that executes its machine program
// (docs/machine-program.md) from an instruction memory, with its local memory. The RTL twin of
// sc::Processor (sc_models/multiprocessor/processor.cpp). It computes, starts memory accesses
// on its bus controller (bus_controller.sv) with an index set, synchronizes through the sync
// unit (sync_unit.sv), and copies words between its local memory and its data buffers through
// the index manipulator's local port. The op encoding is in docs/rtl.md (processor).
//
// Time, as in sync_unit: a `tick` edge ends a machine cycle; edges without tick are zero-time
// steps inside it (the model's delta cycles), at which the ops that take no time run, one
// transition per edge: a compute of 0 cycles, a step mark, a buffer copy (LPW words per step:
// a copy of w words takes ceil(w / LPW) steps), a wait-sync that finds its token, entering an op, leaving it when its completion input is high.
// `settled` says that the processor has nothing to do before the tick. Costs count tick edges:
//   compute c        c cycles from the cycle it is entered;
//   memory access    `start` (with the descriptor) from the cycle it is entered up to the tick
//                    edge, which the idle controller accepts; the op ends in the controller's
//                    done cycle (alpha + beta(l-1) + d tau l after the grant, Fig. 5);
//   activate-sync, wait-sync, barrier, bus switch: the sync unit's protocols; the op ends in the
//                    cycle its completion input (act_done, ws_ok, rv_release) is high.
// So an op ends, and the next one starts, in the same machine cycle as in the model. An IWR step
// is three ops: the write access, the bus switch of its group, the read access (the model's
// Iwr phases 0, 1 and 2).
module processor #(
    parameter int N     = 4,   // processors = slots on a bus = data buffers
    parameter int L     = 8,   // words per data buffer = most vectors of an access
    parameter int S     = 4,   // index sets
    parameter int W     = 32,  // word width
    parameter int DEPTH = 16,  // words per memory module
    parameter int LOCAL = 64,  // words of local memory
    parameter int IMEM  = 64,  // instruction words
    parameter int CYW   = 24,  // bits of a compute op's cycle count
    parameter int STW   = 16,  // bits of a step mark's step number
    // Words per access of the local port (the local memory's and the index manipulator's): a
    // buffer copy moves LPW words per zero-time step. Copies take no machine cycles, so LPW
    // changes only how many step edges a copy takes, not a cycle or a word.
    parameter int LPW   = 1,
    // Derived widths: leave at their defaults.
    parameter int NB  = (N > 1) ? $clog2(N) : 1,
    parameter int NCW = $clog2(N + 1),
    parameter int LB  = (L > 1) ? $clog2(L) : 1,
    parameter int LCW = $clog2(L + 1),
    parameter int SB  = (S > 1) ? $clog2(S) : 1,
    parameter int AW  = (DEPTH > 1) ? $clog2(DEPTH) : 1,
    parameter int LAW = (LOCAL > 1) ? $clog2(LOCAL) : 1,
    parameter int PCW = (IMEM > 1) ? $clog2(IMEM) : 1,
    // Instruction fields (docs/rtl.md): a 4-bit opcode, then the op's fields from bit 4 up.
    parameter int ACW = 2 + NB + NCW + N * NB + AW + LCW + SB,  // an access's fields
    parameter int CPW = NB + LB + LAW + LCW,  // a buffer copy's fields
    parameter int FW1 = (ACW > CYW) ? ACW : CYW,
    parameter int FW2 = (CPW > STW) ? CPW : STW,
    parameter int FW3 = (FW1 > FW2) ? FW1 : FW2,
    parameter int IW  = 4 + ((FW3 > N) ? FW3 : N)  // instruction width
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low: stopped, counters 0
    input logic tick,   // this edge ends a machine cycle

    // Instruction memory (loaded before the run) and the run.
    input  logic           imem_we,
    input  logic [PCW-1:0] imem_addr,
    input  logic [ IW-1:0] imem_wdata,
    input  logic           go,        // start the program at op 0
    output logic           running,
    output logic           finished,  // at a halt op (every program ends with one)
    output logic [PCW-1:0] pc,
    output logic [    2:0] activity,  // 0 idle, 1 compute, 2 read, 3 write, 4 bus switch,
                                      // 5 barrier, 6 activate-sync, 7 wait-sync
    output logic           settled,   // nothing to do before the tick
    output logic           mark,      // a step mark passes at the coming edge
    output logic [STW-1:0] mark_step,

    // Local memory's host port (load and inspect; a processor copy wins the word).
    input  logic           lm_we,
    input  logic [LAW-1:0] lm_addr,
    input  logic [  W-1:0] lm_wdata,
    output logic [  W-1:0] lm_rdata,

    // Bus controller (bus_controller.sv) and the bus the access uses (crossbar_array's req_bus).
    output logic              bc_start,
    output logic              acc_write,
    output logic              acc_col,
    output logic [    NB-1:0] acc_bus,
    output logic [   NCW-1:0] acc_degree,
    output logic [  N*NB-1:0] acc_slots,
    output logic [    AW-1:0] acc_addr,
    output logic [   LCW-1:0] acc_vectors,
    output logic [    SB-1:0] acc_set,
    input  logic              bc_done,

    // Index manipulator's local port (buffer copies): words loc_word + j, j < LPW, of buffer
    // loc_buf; word j at [j*W +: W], written where loc_we[j].
    output logic [   LPW-1:0] loc_we,
    output logic [    NB-1:0] loc_buf,
    output logic [    LB-1:0] loc_word,
    output logic [LPW*W-1:0] loc_wdata,
    input  logic [LPW*W-1:0] loc_rdata,

    // Sync unit (sync_unit.sv): this processor's bits.
    output logic          act_req,
    output logic [ N-1:0] act_targets,
    input  logic          act_done,
    output logic          ws_valid,
    output logic [NB-1:0] ws_src,
    input  logic          ws_ok,
    output logic          rv_valid,
    output logic          rv_kind,
    output logic [ N-1:0] rv_group,
    input  logic          rv_release,

    // Statistics (the model's processor counters; ops counts an IWR step as its three ops).
    output logic [31:0] ops,
    output logic [31:0] compute_cycles,
    output logic [31:0] memory_cycles,  // from entering an access to its end
    output logic [31:0] sync_cycles     // in barriers, bus switches, activate- and wait-sync
);
  localparam logic [3:0] OP_HALT = 4'd0;
  localparam logic [3:0] OP_COMPUTE = 4'd1;
  localparam logic [3:0] OP_ACCESS = 4'd2;
  localparam logic [3:0] OP_BUSSWITCH = 4'd3;
  localparam logic [3:0] OP_BARRIER = 4'd4;
  localparam logic [3:0] OP_ACTIVATE = 4'd5;
  localparam logic [3:0] OP_WAITSYNC = 4'd6;
  localparam logic [3:0] OP_LOADBUF = 4'd7;
  localparam logic [3:0] OP_STOREBUF = 4'd8;
  localparam logic [3:0] OP_STEPMARK = 4'd9;

  // Access fields.
  localparam int A_WRITE = 4;
  localparam int A_COL = 5;
  localparam int A_BUS = 6;
  localparam int A_DEG = A_BUS + NB;
  localparam int A_SLOTS = A_DEG + NCW;
  localparam int A_ADDR = A_SLOTS + N * NB;
  localparam int A_VEC = A_ADDR + AW;
  localparam int A_SET = A_VEC + LCW;
  // Buffer copy fields.
  localparam int C_BUF = 4;
  localparam int C_WORD = C_BUF + NB;
  localparam int C_LOCAL = C_WORD + LB;
  localparam int C_WORDS = C_LOCAL + LAW;

  logic [IW-1:0] imem[IMEM];
  logic [W-1:0] lmem[LOCAL];

  logic running_q;
  logic [PCW-1:0] pc_q;
  logic entered_q;  // the current op has been entered (compute counting, access accepted)
  logic [CYW-1:0] cnt_q;  // compute: cycles left; copies: the first word of this step's LPW

  logic [IW-1:0] instr;
  logic [3:0] opcode;
  assign instr  = imem[pc_q];
  assign opcode = running_q ? instr[3:0] : OP_HALT;

  // ---- decode ---------------------------------------------------------------------------------
  logic [CYW-1:0] c_cycles;
  logic [N-1:0] mask;
  logic [NB-1:0] c_buf;
  logic [LB-1:0] c_word;
  logic [LAW-1:0] c_local;
  logic [LCW-1:0] c_words;
  logic copy_last;  // this step copies the op's last word
  logic [CYW-1:0] copy_left;  // words of the op not copied before this step
  logic [LPW-1:0] copy_en;  // word j of this step is one of the op's
  assign c_cycles = instr[4+:CYW];
  assign mask = instr[4+:N];
  assign c_buf = instr[C_BUF+:NB];
  assign c_word = instr[C_WORD+:LB];
  assign c_local = instr[C_LOCAL+:LAW];
  assign c_words = instr[C_WORDS+:LCW];
  assign copy_left = CYW'(c_words) - cnt_q;
  assign copy_last = copy_left <= CYW'(LPW);
  always_comb begin
    for (int j = 0; j < LPW; j++) begin
      copy_en[j] = CYW'(j) < copy_left;
    end
  end

  // ---- what happens at the coming edge --------------------------------------------------------
  logic advance;  // the op ends: pc moves on
  // the op is entered: a compute with cycles at once, an access at the tick (the controller
  // accepts it there). `tick` gates the register, not this signal, so that nothing combinational
  // depends on it (a verilated owner's every eval() re-evaluates what its inputs reach).
  logic enter;
  logic step;  // a buffer copy moves up to LPW words
  always_comb begin
    advance = 1'b0;
    enter = 1'b0;
    step = 1'b0;
    case (opcode)
      OP_COMPUTE: begin
        if (!entered_q) begin
          advance = (c_cycles == '0);
          enter = (c_cycles != '0);
        end else begin
          advance = (cnt_q == '0);
        end
      end
      OP_ACCESS: begin
        enter = !entered_q;
        advance = entered_q && bc_done;
      end
      OP_BUSSWITCH, OP_BARRIER: advance = rv_release;
      OP_ACTIVATE: advance = act_done;
      OP_WAITSYNC: advance = ws_ok;
      OP_LOADBUF, OP_STOREBUF: begin
        advance = (c_words == '0) || copy_last;
        step = (c_words != '0);
      end
      OP_STEPMARK: advance = 1'b1;
      default: ;  // halt
    endcase
  end

  // The access waits for the tick; computes, syncs and ended accesses wait for their inputs.
  assign settled = !(advance || step || (enter && opcode == OP_COMPUTE));

  // ---- registers ------------------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (imem_we) begin
      imem[imem_addr] <= imem_wdata;
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      running_q <= 1'b0;
      pc_q <= '0;
      entered_q <= 1'b0;
      cnt_q <= '0;
    end else if (go) begin
      running_q <= 1'b1;
      pc_q <= '0;
      entered_q <= 1'b0;
      cnt_q <= '0;
    end else if (advance) begin
      pc_q <= pc_q + PCW'(1);
      entered_q <= 1'b0;
      cnt_q <= '0;
    end else if (enter && (tick || opcode != OP_ACCESS)) begin
      entered_q <= 1'b1;
      cnt_q <= c_cycles;
    end else if (step) begin
      cnt_q <= cnt_q + CYW'(LPW);
    end else if (tick && opcode == OP_COMPUTE && entered_q) begin
      cnt_q <= cnt_q - CYW'(1);
    end
  end

  // Local memory: StoreBuffer writes up to LPW words at each of its steps (in ascending order, so
  // that a copy wrapping round a memory ends as word by word); the host port otherwise.
  logic [LAW-1:0] l_addr[LPW];
  always_comb begin
    for (int j = 0; j < LPW; j++) begin
      l_addr[j] = c_local + LAW'(cnt_q) + LAW'(j);
    end
  end
  always_ff @(posedge clk) begin
    if (step && opcode == OP_STOREBUF) begin
      for (int j = 0; j < LPW; j++) begin
        if (copy_en[j]) begin
          lmem[l_addr[j]] <= loc_rdata[j*W+:W];
        end
      end
    end else if (lm_we) begin
      lmem[lm_addr] <= lm_wdata;
    end
  end
  assign lm_rdata = lmem[lm_addr];

  // ---- statistics -----------------------------------------------------------------------------
  logic in_compute, in_memory, in_sync;
  assign in_compute = opcode == OP_COMPUTE && entered_q && !advance;
  assign in_memory = opcode == OP_ACCESS && !advance;
  assign in_sync = (opcode == OP_BUSSWITCH || opcode == OP_BARRIER || opcode == OP_ACTIVATE ||
                    opcode == OP_WAITSYNC) && !advance;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      ops <= '0;
      compute_cycles <= '0;
      memory_cycles <= '0;
      sync_cycles <= '0;
    end else begin
      if (advance) begin
        ops <= ops + 32'd1;
      end
      if (tick) begin
        compute_cycles <= compute_cycles + 32'(in_compute);
        memory_cycles <= memory_cycles + 32'(in_memory);
        sync_cycles <= sync_cycles + 32'(in_sync);
      end
    end
  end

  // ---- outputs --------------------------------------------------------------------------------
  assign running = running_q;
  assign finished = running_q && opcode == OP_HALT;
  assign pc = pc_q;
  assign mark = opcode == OP_STEPMARK;
  assign mark_step = instr[4+:STW];

  always_comb begin
    case (opcode)
      OP_COMPUTE: activity = 3'd1;
      OP_ACCESS: activity = acc_write ? 3'd3 : 3'd2;
      OP_BUSSWITCH: activity = 3'd4;
      OP_BARRIER: activity = 3'd5;
      OP_ACTIVATE: activity = 3'd6;
      OP_WAITSYNC: activity = 3'd7;
      default: activity = 3'd0;
    endcase
  end

  assign bc_start = opcode == OP_ACCESS && !entered_q;
  assign acc_write = instr[A_WRITE];
  assign acc_col = instr[A_COL];
  assign acc_bus = instr[A_BUS+:NB];
  assign acc_degree = instr[A_DEG+:NCW];
  assign acc_slots = instr[A_SLOTS+:N*NB];
  assign acc_addr = instr[A_ADDR+:AW];
  assign acc_vectors = instr[A_VEC+:LCW];
  assign acc_set = instr[A_SET+:SB];

  assign loc_we = (step && opcode == OP_LOADBUF) ? copy_en : '0;
  assign loc_buf = c_buf;
  assign loc_word = c_word + LB'(cnt_q);
  always_comb begin
    for (int j = 0; j < LPW; j++) begin
      loc_wdata[j*W+:W] = lmem[l_addr[j]];
    end
  end

  assign act_req = opcode == OP_ACTIVATE;
  assign act_targets = mask;
  assign ws_valid = opcode == OP_WAITSYNC;
  assign ws_src = instr[4+:NB];
  assign rv_valid = opcode == OP_BUSSWITCH || opcode == OP_BARRIER;
  assign rv_kind = opcode == OP_BUSSWITCH;
  assign rv_group = mask;

endmodule
