// Self-checking bench of multiprocessor: the whole machine as one unit, once per organisation
// (omp, crossbar, single bus) at N = 4, each running a hand-encoded program (docs/rtl.md,
// processor: op encoding):
//   compute i cycles (P(i)); load 2 words into each of buffers 0..3 (zero time); an interleaved
//   write, bus switch, interleaved read (one IWR exchange); store the read buffers (zero time);
//   a barrier of all; activate-sync P(i+1), wait-sync on P(i-1).
// Omp: P(i) writes d = 4, l = 2 on RB(i) into M(i,s), reads on CB(i) from M(s,i): a transpose.
// Crossbar: P(i) writes d = 4, l = 2 on B(i), reads B(i+1). No conflicts on either: the exchange
// takes Eq. (1) of [PH91], 2(alpha + beta(l-1) + d tau l) + gamma = 2D + gamma, after the
// slowest compute. Single bus: P(i) writes one word (d = 1, l = 1, D = alpha + tau) into M(0,i)
// and reads M(0,i+1); the n accesses of each half go one after the other, first come.
// The cycle each processor halts is checked against these closed forms, and so are the words
// that travel (local memory -> buffer -> module -> buffer -> local memory, through each
// processor's own index set), the arbiter's and the sync unit's counters, the processors'
// statistics and the bus modes (column mode on the omp only).
// Clocking as the bridge does it: zero-time steps until all three units are settled, then the
// tick (docs/rtl.md, "Zero-time steps and ticks"); a step edge is harmless to a settled unit.
// Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012) and Verilator (--binary
// --timing).
module tb_multiprocessor;
  localparam int N = 4;
  localparam int L = 8;
  localparam int S = 4;
  localparam int W = 32;
  localparam int DEPTH = 16;
  localparam int TW = 16;
  localparam int LOCAL = 32;
  localparam int IMEM = 16;
  localparam int NB = 2;
  localparam int NCW = 3;
  localparam int LB = 3;
  localparam int LCW = 4;
  localparam int SB = 2;
  localparam int AW = 4;
  localparam int LAW = 5;
  localparam int PCW = 4;
  localparam int CYW = 24;
  // The instruction width (docs/rtl.md): 4 + max(2 + NB + NCW + N NB + AW + LCW + SB = 25, CYW
  // = 24, NB + LB + LAW + LCW = 14, STW = 16, N = 4) = 29.
  localparam int IW = 29;
  localparam int ARCHS = 3;  // 0 omp, 1 crossbar, 2 single bus
  // Costs, all different: a cost register fed from another's input changes a cycle.
  localparam int ALPHA = 3, BETA = 2, TAU = 1, GAMMA = 4, ACT = 5, BAR = 6;

  logic clk = 1'b0;
  logic tick = 1'b0;
  logic rst_n = 1'b0;
  logic go = 1'b0;
  logic cfg_we = 1'b0;
  logic [ARCHS-1:0] sel = '0;  // the host port writes the units selected
  logic imem_we = 1'b0, lm_we = 1'b0, idx_we = 1'b0, mod_we = 1'b0;
  logic [NB-1:0] host_proc = '0;
  logic [PCW-1:0] imem_addr = '0;
  logic [IW-1:0] imem_wdata = '0;
  logic [LAW-1:0] lm_addr = '0;
  logic [W-1:0] lm_wdata = '0;
  logic [SB-1:0] idx_set = '0;
  logic [NB-1:0] idx_pos = '0, idx_buf = '0, mod_a = '0, mod_b = '0;
  logic [AW-1:0] mod_addr = '0;

  logic [W-1:0] lm_rdata[ARCHS];
  logic [W-1:0] mod_rdata[ARCHS];
  logic settled[ARCHS];
  logic [N-1:0] finished[ARCHS];
  logic [N*32-1:0] ops[ARCHS], compute_cycles[ARCHS], memory_cycles[ARCHS], sync_cycles[ARCHS];
  logic [31:0] barriers[ARCHS], bus_switches[ARCHS], syncs_delivered[ARCHS];
  logic [31:0] int_conflicts[ARCHS], int_wait_cycles[ARCHS], wait_cycles[ARCHS], conflicts[ARCHS];
  logic collision[ARCHS], token_overflow[ARCHS];
  logic [2*N-1:0] bus_mode[ARCHS];

  for (genvar a = 0; a < ARCHS; a++) begin : g_arch
    logic int_busy_unused;
    logic [N-1:0] running, mark, bus_valid, bus_write, bc_busy, bc_done, bc_last;
    logic [N*PCW-1:0] pc;
    logic [N*3-1:0] activity;
    logic [N*16-1:0] mark_step;
    logic [N*NB-1:0] bus_sel;
    logic [N*AW-1:0] bus_addr;
    logic [N*W-1:0] bus_data;
    multiprocessor #(
        .ARCH(a),
        .N(N),
        .L(L),
        .S(S),
        .W(W),
        .DEPTH(DEPTH),
        .TW(TW),
        .LOCAL(LOCAL),
        .IMEM(IMEM),
        .CYW(CYW)
    ) mp (
        .clk(clk),
        .rst_n(rst_n),
        .tick(tick),
        .cfg_we(cfg_we),
        .cfg_alpha(TW'(ALPHA)),
        .cfg_beta(TW'(BETA)),
        .cfg_tau(TW'(TAU)),
        .cfg_gamma(TW'(GAMMA)),
        .cfg_activate(TW'(ACT)),
        .cfg_barrier(TW'(BAR)),
        .imem_we(imem_we && sel[a]),
        .host_proc(host_proc),
        .imem_addr(imem_addr),
        .imem_wdata(imem_wdata),
        .lm_we(lm_we && sel[a]),
        .lm_addr(lm_addr),
        .lm_wdata(lm_wdata),
        .lm_rdata(lm_rdata[a]),
        .idx_we(idx_we && sel[a]),
        .idx_set(idx_set),
        .idx_pos(idx_pos),
        .idx_buf(idx_buf),
        .mod_we(mod_we && sel[a]),
        .mod_a(mod_a),
        .mod_b(mod_b),
        .mod_addr(mod_addr),
        .mod_wdata(W'(0)),
        .mod_rdata(mod_rdata[a]),
        .go(go),
        .settled(settled[a]),
        .running(running),
        .finished(finished[a]),
        .pc(pc),
        .activity(activity),
        .mark(mark),
        .mark_step(mark_step),
        .ops(ops[a]),
        .compute_cycles(compute_cycles[a]),
        .memory_cycles(memory_cycles[a]),
        .sync_cycles(sync_cycles[a]),
        .bus_valid(bus_valid),
        .bus_mode(bus_mode[a]),
        .bus_write(bus_write),
        .bus_sel(bus_sel),
        .bus_addr(bus_addr),
        .bus_data(bus_data),
        .bc_busy(bc_busy),
        .bc_done(bc_done),
        .bc_last(bc_last),
        .barriers(barriers[a]),
        .bus_switches(bus_switches[a]),
        .syncs_delivered(syncs_delivered[a]),
        .int_conflicts(int_conflicts[a]),
        .int_wait_cycles(int_wait_cycles[a]),
        .int_busy(int_busy_unused),
        .token_overflow(token_overflow[a]),
        .wait_cycles(wait_cycles[a]),
        .conflicts(conflicts[a]),
        .collision(collision[a])
    );
  end

  `include "bench_checks.svh"

  // ---- encoding (docs/rtl.md, processor) ------------------------------------------------------
  function automatic logic [IW-1:0] op_compute(input int c);
    return IW'({CYW'(c), 4'd1});
  endfunction
  // An access of d slots first, first+1, ... (mod N) on bus `bus` (crossbar) or RB/CB (omp, col).
  function automatic logic [IW-1:0] op_access(input bit write, input bit col, input int bus,
                                               input int d, input int first, input int l);
    logic [N*NB-1:0] slots;
    slots = '0;
    for (int p = 0; p < d; p++) slots[p*NB+:NB] = NB'((first + p) % N);
    return IW'({SB'(0), LCW'(l), AW'(0), slots, NCW'(d), NB'(bus), col, write, 4'd2});
  endfunction
  function automatic logic [IW-1:0] op_mask(input int opcode, input int m);
    return IW'({N'(m), 4'(opcode)});
  endfunction
  function automatic logic [IW-1:0] op_waitsync(input int src);
    return IW'({NB'(src), 4'd6});
  endfunction
  function automatic logic [IW-1:0] op_copy(input bit store, input int buffer, input int word,
                                             input int local_addr, input int words);
    return IW'({LCW'(words), LAW'(local_addr), LB'(word), NB'(buffer), store ? 4'd8 : 4'd7});
  endfunction
  localparam logic [IW-1:0] HALT = '0;

  function automatic int local_word(input int i, input int k);
    return 32'h2000_0000 | (i << 8) | k;
  endfunction

  // P(i)'s index set 0: position p to buffer rho(i, p) = p + i mod n, each processor's own.
  function automatic int rho(input int i, input int p);
    return (p + i) % N;
  endfunction

  // ---- clocking -------------------------------------------------------------------------------
  int cyc;
  int halt_cycle[ARCHS][N];
  int modes_seen[ARCHS];  // bit m: some controller's bus_mode was m before some tick
  logic all_settled;
  always_comb begin
    all_settled = 1'b1;
    for (int a = 0; a < ARCHS; a++) all_settled = all_settled && settled[a];
  end

  task automatic edge_(input logic t);
    tick = t;
    #1;
    clk = 1'b1;
    #1;
    clk = 1'b0;
    tick = 1'b0;
    #1;
  endtask

  // A machine cycle: zero-time steps until every unit is settled, the halts seen, then the tick.
  task automatic machine_cycle;
    int steps;
    steps = 0;
    #1;
    while (!all_settled) begin
      edge_(1'b0);
      steps++;
      if (steps > 64) $fatal(1, "tb_multiprocessor: no settling in cycle %0d", cyc);
    end
    for (int a = 0; a < ARCHS; a++) begin
      for (int i = 0; i < N; i++) begin
        if (finished[a][i] && halt_cycle[a][i] < 0) halt_cycle[a][i] = cyc;
        modes_seen[a] |= 1 << bus_mode[a][2*i+:2];
      end
    end
    edge_(1'b1);
    cyc++;
  endtask

  logic [IW-1:0] prog[IMEM];  // the program being built and loaded
  task automatic load(input int a, input int i);
    sel = ARCHS'(1) << a;
    host_proc = NB'(i);
    for (int k = 0; k < IMEM; k++) begin
      imem_we = 1'b1;
      imem_addr = PCW'(k);
      imem_wdata = prog[k];
      edge_(1'b0);
    end
    imem_we = 1'b0;
  endtask

  task automatic local_at(input int a, input int i, input int k, output int w);
    host_proc = NB'(i);
    lm_addr = LAW'(k);
    #1;
    w = int'(lm_rdata[a]);
  endtask

  task automatic module_at(input int a, input int x, input int y, input int addr, output int w);
    mod_a = NB'(x);
    mod_b = NB'(y);
    mod_addr = AW'(addr);
    #1;
    w = int'(mod_rdata[a]);
  endtask

  // ---- the run --------------------------------------------------------------------------------
  initial begin
    int d, l, dd, t_sw, t_end, got, want, waited;
    // Reset and the cost registers (the controllers take them at a tick edge).
    rst_n = 1'b0;
    edge_(1'b1);
    rst_n = 1'b1;
    cfg_we = 1'b1;
    edge_(1'b1);
    cfg_we = 1'b0;
    // Index set 0 of every index manipulator: rho(i, p).
    sel = '1;
    for (int i = 0; i < N; i++) begin
      host_proc = NB'(i);
      for (int p = 0; p < N; p++) begin
        idx_we = 1'b1;
        idx_set = SB'(0);
        idx_pos = NB'(p);
        idx_buf = NB'(rho(i, p));
        edge_(1'b0);
      end
    end
    idx_we = 1'b0;
    // Local memories, the same in the three units.
    for (int i = 0; i < N; i++) begin
      host_proc = NB'(i);
      for (int k = 0; k < LOCAL; k++) begin
        lm_we = 1'b1;
        lm_addr = LAW'(k);
        lm_wdata = W'(local_word(i, k));
        edge_(1'b0);
      end
    end
    lm_we = 1'b0;
    // The programs.
    for (int a = 0; a < ARCHS; a++) begin
      for (int i = 0; i < N; i++) begin
        d = (a == 2) ? 1 : N;
        l = (a == 2) ? 1 : 2;
        for (int k = 0; k < IMEM; k++) prog[k] = HALT;
        prog[0] = op_compute(i);
        for (int b = 0; b < N; b++) prog[1+b] = op_copy(1'b0, b, 0, 2 * b, 2);
        case (a)
          0: begin
            prog[5] = op_access(1'b1, 1'b0, 0, d, 0, l);
            prog[7] = op_access(1'b0, 1'b1, 0, d, 0, l);
          end
          1: begin
            prog[5] = op_access(1'b1, 1'b0, i, d, 0, l);
            // The column bit set: the crossbar has row buses only, and its controllers ignore it.
            prog[7] = op_access(1'b0, 1'b1, (i + 1) % N, d, 0, l);
          end
          default: begin
            prog[5] = op_access(1'b1, 1'b0, 0, d, i, l);
            prog[7] = op_access(1'b0, 1'b0, 0, d, (i + 1) % N, l);
          end
        endcase
        prog[6] = op_mask(3, 'b1111);
        for (int b = 0; b < N; b++) prog[8+b] = op_copy(1'b1, b, 0, 16 + 2 * b, 2);
        prog[12] = op_mask(4, 'b1111);
        prog[13] = op_mask(5, 1 << ((i + 1) % N));
        prog[14] = op_waitsync((i + N - 1) % N);
        load(a, i);
      end
    end
    for (int a = 0; a < ARCHS; a++) begin
      for (int i = 0; i < N; i++) halt_cycle[a][i] = -1;
      modes_seen[a] = 0;
    end
    go = 1'b1;
    edge_(1'b0);
    go = 1'b0;
    cyc = 0;
    while (cyc < 400) machine_cycle();

    for (int a = 0; a < ARCHS; a++) begin
      // The exchange: the omp and the crossbar by Eq. (1) after the last compute (N - 1
      // cycles); the single bus one access after another.
      if (a == 2) begin
        dd = ALPHA + TAU;
        // Writes: P(k) asks in cycle k, is granted when P(k-1) is done, done in (k+1) D.
        t_sw = N * dd;  // the last write ends: every member has arrived at the bus switch
        t_end = t_sw + GAMMA + N * dd;  // the reads, all asking at t_sw + gamma
      end else begin
        dd = ALPHA + BETA * (2 - 1) + N * TAU * 2;
        t_end = (N - 1) + 2 * dd + GAMMA;
      end
      // Then the barrier (all released together), then the activate ring on the interrupt bus:
      // P(k)'s activate is granted k A after the release and delivered A later; P(0) waits for
      // P(N-1)'s token.
      t_end = t_end + BAR;
      for (int i = 0; i < N; i++) begin
        check($sformatf("arch %0d: P%0d halt cycle", a, i), halt_cycle[a][i],
              t_end + (i == 0 ? N : i + 1) * ACT);
        check($sformatf("arch %0d: P%0d ops", a, i), 32'(ops[a][i*32+:32]), 15);
        check($sformatf("arch %0d: P%0d compute cycles", a, i), 32'(compute_cycles[a][i*32+:32]),
              i);
      end
      check($sformatf("arch %0d: barriers", a), 32'(barriers[a]), 1);
      check($sformatf("arch %0d: bus switches", a), 32'(bus_switches[a]), 1);
      check($sformatf("arch %0d: syncs delivered", a), 32'(syncs_delivered[a]), N);
      check($sformatf("arch %0d: interrupt conflicts", a), 32'(int_conflicts[a]), N - 1);
      check($sformatf("arch %0d: interrupt wait cycles", a), 32'(int_wait_cycles[a]),
            ACT * N * (N - 1) / 2);
      check($sformatf("arch %0d: collision", a), 32'(collision[a]), 0);
      check($sformatf("arch %0d: token overflow", a), 32'(token_overflow[a]), 0);
      // Bus modes (0 idle, 1 row, 2 column): only the omp has column buses; the crossbar's
      // controllers drive theirs in row mode even for an access with the column bit.
      check($sformatf("arch %0d: bus modes seen", a), modes_seen[a], (a == 0) ? 'b111 : 'b011);
      if (a == 2) begin
        // Writes: P(k) waits from cycle k to k D; reads: from t_sw + gamma to that + k D.
        waited = 0;
        for (int k = 1; k < N; k++) waited += k * (dd - 1) + k * dd;
        check("bus: conflicts", 32'(conflicts[a]), 2 * (N - 1));
        check("bus: wait cycles", 32'(wait_cycles[a]), waited);
      end else begin
        check($sformatf("arch %0d: conflicts", a), 32'(conflicts[a]), 0);
        check($sformatf("arch %0d: wait cycles", a), 32'(wait_cycles[a]), 0);
      end
      // The words: P(i)'s buffer b word v, stored to its local 16 + 2 b + v, came from the
      // module that P(src) wrote from its buffer rho(src, slot) (its local words 2 rho + v).
      // Omp: read at position s = b - i from M(s,i), which P(s) wrote at slot i. Crossbar: at
      // position p = b - i from M(i+1,p), which P(i+1) wrote at slot p. Single bus: position 0,
      // buffer rho(i, 0) = i, from M(0,i+1), which P(i+1) wrote from its buffer rho(i+1, 0).
      for (int i = 0; i < N; i++) begin
        for (int b = 0; b < N; b++) begin
          int src, pos;
          pos = (b - i + N) % N;
          src = (a == 0) ? pos : (i + 1) % N;
          for (int v = 0; v < ((a == 2) ? 1 : 2); v++) begin
            case (a)
              0: want = local_word(src, 2 * rho(src, i) + v);
              1: want = local_word(src, 2 * rho(src, pos) + v);
              default: want = local_word(src, 2 * rho(src, 0));
            endcase
            if (a != 2 || b == rho(i, 0)) begin
              local_at(a, i, 16 + 2 * b + v, got);
              check($sformatf("arch %0d: P%0d local %0d", a, i, 16 + 2 * b + v), got, want);
            end
          end
        end
      end
      // The modules themselves, through the host port: omp M(1,2) word 1 from P(1)'s buffer
      // rho(1, 2); crossbar M(3,0) word 0 from P(3)'s buffer rho(3, 0); bus M(0,2) from P(2)'s
      // buffer rho(2, 0).
      case (a)
        0: begin
          module_at(a, 1, 2, 1, got);
          want = local_word(1, 2 * rho(1, 2) + 1);
        end
        1: begin
          module_at(a, 3, 0, 0, got);
          want = local_word(3, 2 * rho(3, 0));
        end
        default: begin
          module_at(a, 0, 2, 0, got);
          want = local_word(2, 2 * rho(2, 0));
        end
      endcase
      check($sformatf("arch %0d: module word", a), got, want);
    end

    checks_verdict("tb_multiprocessor",
                   $sformatf(", omp, crossbar and single bus at n = %0d", N));
    $finish;
  end
endmodule
