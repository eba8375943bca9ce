// Self-checking bench of sync_unit. Four scripted processors (agents) run sync ops against it;
// each op starts when its agent has finished the previous one and its start cycle has come,
// and the bench records the machine cycle in which the op completed. The expected cycles are
// written here from sc::SyncUnit's documented rules, as formulas of the cost registers A
// (activate), B (barrier) and G (gamma):
//   activate-sync granted in cycle g completes in g + A, and its targets hold a token from then;
//   the interrupt bus goes first come (arrival cycle), ties to the lower id, never overtaken;
//   wait-sync completes in the cycle its token is there;
//   a barrier (bus switch) whose last member arrives in cycle t releases every member in t + B
//   (t + G); an episode is a (kind, group) pair.
//   a token counter holds at most 2^TKW - 1 tokens; a delivery past that sets token_overflow.
// Each machine cycle: zero-time steps (edges without tick) until `settled`, then the tick edge.
// Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012) and Verilator (--binary
// --timing).
module tb_sync_unit;
  localparam int N = 4;
  localparam int NB = 2;
  localparam int CW = 16;
  localparam int TKW = 4;
  localparam int K = 16;  // ops per agent and scenario
  localparam int NEVER = -1;

  localparam int OP_NONE = 0;
  localparam int OP_ACT = 1;  // arg: target mask
  localparam int OP_WS = 2;  // arg: source
  localparam int OP_BAR = 3;  // arg: group mask
  localparam int OP_BSW = 4;  // arg: group mask

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic tick = 1'b0;
  logic cfg_we = 1'b0;
  logic [CW-1:0] cfg_activate = '0, cfg_barrier = '0, cfg_gamma = '0;
  logic [N-1:0] act_req = '0;
  logic [N*N-1:0] act_targets = '0;
  logic [N-1:0] act_grant, act_done;
  logic int_busy;
  logic [N-1:0] ws_valid = '0;
  logic [N*NB-1:0] ws_src = '0;
  logic [N-1:0] ws_ok;
  logic [N-1:0] rv_valid = '0, rv_kind = '0;
  logic [N*N-1:0] rv_group = '0;
  logic [N-1:0] rv_release;
  logic settled;
  logic [31:0] barriers, bus_switches, syncs_delivered, int_conflicts, int_wait_cycles;
  logic token_overflow;

  sync_unit #(
      .N  (N),
      .CW (CW),
      .TKW(TKW)
  ) dut (
      .clk(clk),
      .rst_n(rst_n),
      .tick(tick),
      .cfg_we(cfg_we),
      .cfg_activate(cfg_activate),
      .cfg_barrier(cfg_barrier),
      .cfg_gamma(cfg_gamma),
      .act_req(act_req),
      .act_targets(act_targets),
      .act_grant(act_grant),
      .act_done(act_done),
      .int_busy(int_busy),
      .ws_valid(ws_valid),
      .ws_src(ws_src),
      .ws_ok(ws_ok),
      .rv_valid(rv_valid),
      .rv_kind(rv_kind),
      .rv_group(rv_group),
      .rv_release(rv_release),
      .settled(settled),
      .barriers(barriers),
      .bus_switches(bus_switches),
      .syncs_delivered(syncs_delivered),
      .int_conflicts(int_conflicts),
      .int_wait_cycles(int_wait_cycles),
      .token_overflow(token_overflow)
  );

  `include "bench_checks.svh"

  // The agents' scripts and what they did.
  int kind[N][K];
  int arg[N][K];
  int at[N][K];
  int want[N][K];
  int done_at[N][K];
  int idx[N];
  int cyc;

  task automatic clear_scripts;
    for (int i = 0; i < N; i++) begin
      idx[i] = 0;
      for (int k = 0; k < K; k++) begin
        kind[i][k] = OP_NONE;
        arg[i][k] = 0;
        at[i][k] = 0;
        want[i][k] = NEVER;
        done_at[i][k] = NEVER;
      end
    end
  endtask

  task automatic op(input int i, input int k, input int o, input int a, input int start,
                    input int expect_done);
    kind[i][k] = o;
    arg[i][k] = a;
    at[i][k] = start;
    want[i][k] = expect_done;
  endtask

  // Drive the inputs from the agents' current ops (whole-variable writes).
  task automatic drive;
    logic [N-1:0] a_req, w_val, r_val, r_kind;
    logic [N*N-1:0] a_tg, r_grp;
    logic [N*NB-1:0] w_src;
    a_req = '0;
    w_val = '0;
    r_val = '0;
    r_kind = '0;
    a_tg = '0;
    r_grp = '0;
    w_src = '0;
    for (int i = 0; i < N; i++) begin
      // A processor drives its op's group and kind lines whatever its valid says (processor.sv:
      // they are fields of the instruction word): a member not yet at its barrier shows the
      // barrier's lines, any other op arbitrary ones. Only rv_valid says who has arrived.
      r_kind[i] = 1'($urandom);
      r_grp[i*N+:N] = N'($urandom);
      if (idx[i] < K && (kind[i][idx[i]] == OP_BAR || kind[i][idx[i]] == OP_BSW)) begin
        r_kind[i] = (kind[i][idx[i]] == OP_BSW);
        r_grp[i*N+:N] = N'(arg[i][idx[i]]);
      end
      if (idx[i] < K && kind[i][idx[i]] != OP_NONE && cyc >= at[i][idx[i]]) begin
        case (kind[i][idx[i]])
          OP_ACT: begin
            a_req[i] = 1'b1;
            a_tg[i*N+:N] = N'(arg[i][idx[i]]);
          end
          OP_WS: begin
            w_val[i] = 1'b1;
            w_src[i*NB+:NB] = NB'(arg[i][idx[i]]);
          end
          default: begin
            r_val[i] = 1'b1;
            r_kind[i] = (kind[i][idx[i]] == OP_BSW);
            r_grp[i*N+:N] = N'(arg[i][idx[i]]);
          end
        endcase
      end
    end
    act_req = a_req;
    act_targets = a_tg;
    ws_valid = w_val;
    ws_src = w_src;
    rv_valid = r_val;
    rv_kind = r_kind;
    rv_group = r_grp;
    #1;
  endtask

  // One edge; `t` says whether it ends the machine cycle. An agent whose completion output is
  // high leaves its op at the edge.
  task automatic edge_(input logic t);
    logic [N-1:0] fin;
    fin = (act_req & act_done) | (ws_valid & ws_ok) | (rv_valid & rv_release);
    tick = t;
    #1;
    clk = 1'b1;
    #1;
    clk = 1'b0;
    tick = 1'b0;
    for (int i = 0; i < N; i++) begin
      if (fin[i]) begin
        done_at[i][idx[i]] = cyc;
        idx[i]++;
      end
    end
  endtask

  // Machine cycles until `last`: settle, then tick.
  task automatic run(input int last);
    int steps;
    for (cyc = 0; cyc <= last; cyc++) begin
      steps = 0;
      drive();
      while (!settled) begin
        edge_(1'b0);
        drive();
        steps++;
        if (steps > 8 * N) begin
          $fatal(1, "tb_sync_unit: no settling in cycle %0d", cyc);
        end
      end
      edge_(1'b1);
    end
  endtask

  // Empty scripts, cycle 0, one edge with rst_n low; the configuration is the reset's own.
  task automatic reset_only;
    clear_scripts();
    cyc = 0;
    drive();
    rst_n = 1'b0;
    edge_(1'b1);
    rst_n = 1'b1;
  endtask

  task automatic reset_with(input int a, input int b, input int g);
    reset_only();
    cfg_activate = CW'(a);
    cfg_barrier = CW'(b);
    cfg_gamma = CW'(g);
    cfg_we = 1'b1;
    edge_(1'b1);
    cfg_we = 1'b0;
  endtask

  task automatic check_scripts(input string scenario);
    for (int i = 0; i < N; i++) begin
      for (int k = 0; k < K; k++) begin
        if (kind[i][k] != OP_NONE) begin
          check($sformatf("%s P%0d op %0d completion cycle", scenario, i, k), done_at[i][k],
                want[i][k]);
        end
      end
    end
  endtask

  int A, B, G;
  initial begin
    // ---- 1. the reset costs (A = 2, B = 2, gamma = 8) and interrupt bus order ---------------
    clear_scripts();
    cyc = 0;
    drive();
    edge_(1'b1);  // rst_n low
    rst_n = 1'b1;
    A = 2;
    B = 2;
    // P1 and P2 request in cycle 3: P1 first (lower id), P2 at 3 + A. P3 arrives in 4, after
    // P2, granted at 3 + 2A. P0 waits for P1's token, delivered in 3 + A.
    op(0, 0, OP_WS, 1, 0, 3 + A);
    op(1, 0, OP_ACT, 'b0101, 3, 3 + A);
    op(2, 0, OP_ACT, 'b1000, 3, 3 + 2 * A);
    op(3, 0, OP_ACT, 'b0010, 4, 3 + 3 * A);
    // Tokens already there complete at once; the others when delivered.
    op(2, 1, OP_WS, 1, 0, 3 + 2 * A);  // P1's token since 3 + A
    op(3, 1, OP_WS, 2, 0, 3 + 3 * A);  // P2's token since 3 + 2A
    op(1, 1, OP_WS, 3, 0, 3 + 3 * A);  // P3's token in 3 + 3A
    // Then a barrier of all four: the last arrive in 3 + 3A.
    for (int i = 0; i < N; i++) begin
      op(i, i == 0 ? 1 : 2, OP_BAR, 'b1111, 0, 3 + 3 * A + B);
    end
    run(30);
    check_scripts("defaults");
    check("defaults syncs_delivered", 32'(syncs_delivered), 4);
    check("defaults int_conflicts", 32'(int_conflicts), 2);
    check("defaults int_wait_cycles", 32'(int_wait_cycles), A + (3 + 2 * A - 4));
    check("defaults barriers", 32'(barriers), 1);
    check("defaults bus_switches", 32'(bus_switches), 0);
    check("defaults token_overflow", 32'(token_overflow), 0);

    // ---- 2. zero costs: delivery in the grant cycle, release in the last arrival's cycle -----
    A = 0;
    B = 0;
    G = 5;
    reset_with(A, B, G);
    op(0, 0, OP_ACT, 'b0010, 2, 2);
    op(1, 0, OP_WS, 0, 1, 2);
    op(1, 1, OP_BAR, 'b0110, 0, 6 + B);
    op(2, 0, OP_BAR, 'b0110, 6, 6 + B);
    op(0, 1, OP_BSW, 'b1001, 3, 7 + G);
    op(3, 0, OP_BSW, 'b1001, 7, 7 + G);
    op(2, 1, OP_BAR, 'b1100, 0, 7 + G + B);  // arrives in 6, P3 only after its bus switch
    op(3, 1, OP_BAR, 'b1100, 0, 7 + G + B);
    run(20);
    check_scripts("zero costs");
    check("zero costs barriers", 32'(barriers), 2);
    check("zero costs bus_switches", 32'(bus_switches), 1);
    check("zero costs syncs_delivered", 32'(syncs_delivered), 1);

    // ---- 3. episodes are (kind, group) pairs -------------------------------------------------
    A = 1;
    B = 3;
    G = 4;
    reset_with(A, B, G);
    op(0, 0, OP_BAR, 'b0011, 1, 4 + B);
    op(1, 0, OP_BAR, 'b0011, 4, 4 + B);
    op(2, 0, OP_BAR, 'b1100, 2, 2 + B);  // disjoint group, concurrent
    op(3, 0, OP_BAR, 'b1100, 2, 2 + B);
    op(2, 1, OP_BSW, 'b1100, 0, NEVER);  // same group, other kind than P3's: never complete
    op(3, 1, OP_BAR, 'b1100, 0, NEVER);
    op(0, 1, OP_BAR, 'b0111, 0, NEVER);  // P1 is not in this group ...
    op(1, 1, OP_BAR, 'b0011, 0, NEVER);  // ... and P0 is in another
    run(25);
    check_scripts("episodes");
    check("episodes barriers", 32'(barriers), 2);

    // ---- 4. waiting requests go by arrival, not by id; tokens accumulate ---------------------
    A = 4;
    B = 1;
    reset_with(A, B, 8);
    op(0, 0, OP_ACT, 'b1000, 0, A);  // granted in 0
    op(3, 0, OP_ACT, 'b0001, 1, 2 * A);  // arrives in 1
    op(2, 0, OP_ACT, 'b0001, 2, 3 * A);  // arrives in 2
    op(1, 0, OP_ACT, 'b0001, 3, 4 * A);  // arrives in 3
    op(0, 1, OP_ACT, 'b1000, 0, 5 * A);  // asks again in A, after the three
    op(3, 1, OP_WS, 0, 5 * A + 2, 5 * A + 2);  // two tokens from P0 by then
    op(3, 2, OP_WS, 0, 0, 5 * A + 2);
    op(3, 3, OP_WS, 0, 0, NEVER);  // no third one
    op(0, 2, OP_WS, 3, 0, 5 * A);  // P3's token since 2A
    op(0, 3, OP_WS, 2, 0, 5 * A);  // P2's since 3A
    op(1, 1, OP_WS, 0, 0, NEVER);  // P0 never signals P1
    run(5 * A + 6);
    check_scripts("arrival order");
    check("arrival order int_conflicts", 32'(int_conflicts), 4);
    // Waits from arrival to grant: P3 A-1, P2 2A-2, P1 3A-3, P0's second request (arrived in A)
    // 3A.
    check("arrival order int_wait_cycles", 32'(int_wait_cycles),
          (A - 1) + (2 * A - 2) + (3 * A - 3) + 3 * A);
    check("arrival order syncs_delivered", 32'(syncs_delivered), 5);

    // ---- 5. after a reset without a configuration write: gamma 8; a token delivered and one of
    // the same pair consumed at the same edge leave the count as it was -------------------------
    reset_only();
    A = 2;
    G = 8;
    op(2, 0, OP_BSW, 'b1100, 1, 1 + G);
    op(3, 0, OP_BSW, 'b1100, 1, 1 + G);
    // P0's first token reaches P1 in A (granted in 0), its second in 2A (granted in A). P1 waits
    // on P0 from 2A: it takes the first token at the edge that delivers the second, one is left
    // for its next wait-sync and none for the third.
    op(0, 0, OP_ACT, 'b0010, 0, A);
    op(0, 1, OP_ACT, 'b0010, 0, 2 * A);
    op(1, 0, OP_WS, 0, 2 * A, 2 * A);
    op(1, 1, OP_WS, 0, 0, 2 * A);
    op(1, 2, OP_WS, 0, 0, NEVER);
    run(2 * A + G + 4);
    check_scripts("reset without configuration");
    check("reset without configuration bus_switches", 32'(bus_switches), 1);

    // ---- 6. a token counter saturates at 2^TKW - 1 and the overflow is sticky -----------------
    A = 1;
    reset_with(A, 2, 8);
    // P2 signals P3 2^TKW times, one activate-sync per cycle: granted in k, delivered in k + 1.
    for (int k = 0; k < 16; k++) begin
      op(2, k, OP_ACT, 'b1000, 0, k + 1);
    end
    // From cycle 20 P3 takes the 2^TKW - 1 tokens the counter holds; its last wait-sync waits.
    for (int k = 0; k < 15; k++) begin
      op(3, k, OP_WS, 2, 20, 20);
    end
    op(3, 15, OP_WS, 2, 20, NEVER);
    run(24);
    check_scripts("saturation");
    check("saturation token_overflow", 32'(token_overflow), 1);
    check("saturation syncs_delivered", 32'(syncs_delivered), 16);

    checks_verdict("tb_sync_unit", "");
    $finish;
  end
endmodule
