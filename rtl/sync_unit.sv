// Synchronization hardware of the multiprocessor ([PH91] section 4.3, Fig. 4): the interprocessor
// interrupt bus that carries activate-sync tokens, the wait-sync token counters, the group
// barrier, and the IWR bus switch (a barrier of the step's group that costs gamma). The RTL twin
// of sc::SyncUnit (sc_models/multiprocessor/sync_unit.cpp) plus the interrupt bus's share of
// sc::ResourceArbiter and the costs of sc::Processor's sync ops:
//   * activate-sync from P(i): requests the interrupt bus; granted first come (arrival cycle,
//     ties to the lower id, no overtaking), it holds the bus `activate` cycles, then delivers one
//     token to each target, frees the bus and lets P(i) continue: granted in cycle G, P(i) and
//     the targets continue in cycle G + activate.
//   * wait-sync of P(t) on P(s): consumes one token (t, s); with none there it waits until one
//     is delivered and continues in the delivery cycle.
//   * barrier / bus switch of a group: when the last member arrives in cycle t, every member
//     continues in cycle t + barrier (barrier) or t + gamma (bus switch). An episode is a (kind,
//     group) pair, as the model's: members arriving with another group or kind do not count.
//
// Time. `clk` edges are of two kinds. A `tick` edge ends a machine cycle: only it counts costs
// down and ages waiting requests. An edge without `tick` is a step inside the machine cycle (the
// model's delta cycles): zero-time work happens there, one transition per edge (grant, delivery,
// token consumption, barrier completion, release). `settled` says that no such transition is
// pending, so that the owner can take the tick edge. The processors are stepped the same way
// (processor.sv); the machine-cycle blocks (bus controllers, memory arrays) see tick edges only.
//
// Ports that carry one value per processor are flat: processor i's value at [i*WIDTH +: WIDTH].
// A processor holds its request (act_req and act_targets, ws_valid and ws_src, rv_valid, rv_kind
// and rv_group) from the edge it enters the op until the edge at which its completion output
// (act_done, ws_ok, rv_release) is high; at that edge it leaves the op.
module sync_unit #(
    parameter int N   = 4,   // processors
    parameter int CW  = 16,  // width of the cost registers
    parameter int TKW = 4,   // bits of each token counter (tokens from P(s) not yet consumed by P(t))
    // Derived width: leave at its default.
    parameter int NB = (N > 1) ? $clog2(N) : 1
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low: no tokens, no holder, costs to their defaults
    input logic tick,   // this edge ends a machine cycle

    // Cost registers (reset to the model's defaults: activate 2, barrier 2, gamma 8).
    input logic          cfg_we,
    input logic [CW-1:0] cfg_activate,  // cycles an activate-sync holds the interrupt bus
    input logic [CW-1:0] cfg_barrier,   // from the last arrival at a barrier to the release
    input logic [CW-1:0] cfg_gamma,     // the IWR bus switch: from the last arrival to the release

    // Interrupt bus: activate-sync.
    input  logic [  N-1:0] act_req,      // P(i) is in an activate-sync
    input  logic [N*N-1:0] act_targets,  // its targets, bit t of [i*N +: N]
    output logic [  N-1:0] act_grant,    // granted at the coming edge (combinational)
    output logic [  N-1:0] act_done,     // delivered at the coming edge: P(i) continues
    output logic           int_busy,     // the interrupt bus is held

    // Wait-sync.
    input  logic [   N-1:0] ws_valid,  // P(t) is in a wait-sync
    input  logic [N*NB-1:0] ws_src,    // on P(s)
    output logic [   N-1:0] ws_ok,     // a token is there: consumed at the coming edge

    // Barrier and IWR bus switch.
    input  logic [  N-1:0] rv_valid,    // P(p) is at a barrier or bus switch
    input  logic [  N-1:0] rv_kind,     // 0 barrier, 1 bus switch
    input  logic [N*N-1:0] rv_group,    // its group (it includes p)
    output logic [  N-1:0] rv_release,  // released: P(p) continues at the coming edge

    output logic settled,  // nothing happens at an edge without tick

    // Statistics (saturating), the model's `sync.barriers`, `sync.bus_switches`,
    // `sync.syncs_delivered` and the interrupt bus's share of the arbiter's `conflicts` and
    // `conflict_wait_cycles`.
    output logic [31:0] barriers,
    output logic [31:0] bus_switches,
    output logic [31:0] syncs_delivered,
    output logic [31:0] int_conflicts,
    output logic [31:0] int_wait_cycles,
    output logic        token_overflow  // sticky: a token counter would have passed 2^TKW - 1
);
  // ---- cost registers ------------------------------------------------------------------------
  logic [CW-1:0] activate_q, barrier_q, gamma_q;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      activate_q <= CW'(2);
      barrier_q  <= CW'(2);
      gamma_q    <= CW'(8);
    end else if (cfg_we) begin
      activate_q <= cfg_activate;
      barrier_q  <= cfg_barrier;
      gamma_q    <= cfg_gamma;
    end
  end

  // ---- interrupt bus: first-come arbitration of one resource --------------------------------
  // Every pair of requests conflicts; a request is blocked while the bus is held. The holder
  // keeps its request up until its delivery and is not a contender.
  logic holder_valid_q;
  logic [NB-1:0] holder_q;
  logic [CW-1:0] hold_cnt_q;  // cycles of the activate cost left
  logic [N-1:0] pend;  // contending requests
  logic deliver;
  for (genvar i = 0; i < N; i++) begin : g_pend
    assign pend[i] = act_req[i] && !(holder_valid_q && holder_q == NB'(i));
  end

  fcfs_arbiter #(
      .N(N)
  ) interrupt_bus (
      .clk(clk),
      .rst_n(rst_n),
      .tick(tick),
      .req(pend),
      .conf({N * N{1'b1}}),
      .blocked({N{holder_valid_q}}),
      .grant(act_grant),
      .wait_cycles(int_wait_cycles),
      .conflicts(int_conflicts)
  );

  assign deliver  = holder_valid_q && hold_cnt_q == '0;
  assign int_busy = holder_valid_q;
  for (genvar i = 0; i < N; i++) begin : g_done
    assign act_done[i] = deliver && holder_q == NB'(i);
  end

  logic [NB-1:0] grant_id;
  logic [N-1:0] targets;  // the holder's targets
  logic [31:0] n_targets;
  always_comb begin
    grant_id = '0;
    for (int i = 0; i < N; i++) begin
      if (act_grant[i]) begin
        grant_id = NB'(i);
      end
    end
    targets = act_targets[holder_q*N+:N];
    n_targets = '0;
    for (int t = 0; t < N; t++) begin
      n_targets = n_targets + 32'(targets[t]);
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      holder_valid_q <= 1'b0;
      holder_q <= '0;
      hold_cnt_q <= '0;
    end else begin
      if (|act_grant) begin
        holder_valid_q <= 1'b1;
        holder_q <= grant_id;
        hold_cnt_q <= activate_q;
      end else if (deliver) begin
        holder_valid_q <= 1'b0;
      end else if (tick && holder_valid_q) begin
        hold_cnt_q <= hold_cnt_q - CW'(1);
      end
    end
  end

  // ---- tokens: [t*N+s] counts activate-syncs from P(s) delivered to P(t), not yet consumed ----
  logic [N*N*TKW-1:0] tokens_q;
  logic [N-1:0] ws_here;
  for (genvar t = 0; t < N; t++) begin : g_ws
    assign ws_here[t] = tokens_q[(t*N+32'(ws_src[t*NB+:NB]))*TKW+:TKW] != '0;
    assign ws_ok[t] = ws_valid[t] && ws_here[t];
  end

  // The token logic is written under `if` on its activity (a delivery, a consumption): a
  // verilated owner evaluates what an `if` guards only when it holds, and the counters change
  // only then (docs/performance.md, "The whole machine verilated, round 2").
  logic overflow;
  always_comb begin
    overflow = 1'b0;
    if (deliver) begin
      for (int t = 0; t < N; t++) begin
        if (targets[t] && tokens_q[(t*N+32'(holder_q))*TKW+:TKW] == '1 &&
            !(ws_ok[t] && ws_src[t*NB+:NB] == holder_q)) begin
          overflow = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      tokens_q <= '0;
      syncs_delivered <= '0;
      token_overflow <= 1'b0;
    end else begin
      if (deliver || ws_ok != '0) begin
        for (int t = 0; t < N; t++) begin
          for (int s = 0; s < N; s++) begin
            if (deliver && targets[t] && holder_q == NB'(s) &&
                !(ws_ok[t] && ws_src[t*NB+:NB] == NB'(s))) begin
              if (tokens_q[(t*N+s)*TKW+:TKW] != '1) begin
                tokens_q[(t*N+s)*TKW+:TKW] <= tokens_q[(t*N+s)*TKW+:TKW] + TKW'(1);
              end
            end else if (!(deliver && targets[t] && holder_q == NB'(s)) && ws_ok[t] &&
                         ws_src[t*NB+:NB] == NB'(s)) begin
              tokens_q[(t*N+s)*TKW+:TKW] <= tokens_q[(t*N+s)*TKW+:TKW] - TKW'(1);
            end
          end
        end
      end
      if (deliver) begin
        syncs_delivered <= (syncs_delivered > ~n_targets) ? '1 : syncs_delivered + n_targets;
      end
      if (overflow) begin
        token_overflow <= 1'b1;
      end
    end
  end

  // ---- barriers and bus switches ------------------------------------------------------------
  // P(p) has arrived while it is at the op and not yet being released. Its episode is complete
  // when every member of its group has arrived with the same kind and group; all of them then
  // count the delay down together and are released in the same cycle.
  logic [N-1:0] releasing_q;
  logic [N*CW-1:0] rel_cnt_q;
  logic [N-1:0] arrived, complete, lowest;
  assign arrived = rv_valid & ~releasing_q;
  // Under `if` on an arrival, as the tokens above: nothing is complete while no one has arrived.
  always_comb begin
    complete = '0;
    if (arrived != '0) begin
      for (int p = 0; p < N; p++) begin
        complete[p] = arrived[p] && (rv_group[p*N+:N] & ~arrived) == '0;
        for (int m = 0; m < N; m++) begin
          if (rv_group[p*N+m] &&
              (rv_kind[m] != rv_kind[p] || rv_group[m*N+:N] != rv_group[p*N+:N])) begin
            complete[p] = 1'b0;
          end
        end
      end
    end
    for (int p = 0; p < N; p++) begin
      lowest[p] = (rv_group[p*N+:N] & ((N'(1) << p) - N'(1))) == '0;
    end
  end

  logic [31:0] n_barriers, n_switches;
  always_comb begin
    n_barriers = '0;
    n_switches = '0;
    for (int p = 0; p < N; p++) begin
      n_barriers = n_barriers + 32'(complete[p] && lowest[p] && !rv_kind[p]);
      n_switches = n_switches + 32'(complete[p] && lowest[p] && rv_kind[p]);
    end
  end

  for (genvar p = 0; p < N; p++) begin : g_rel
    assign rv_release[p] = releasing_q[p] && rel_cnt_q[p*CW+:CW] == '0;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      releasing_q <= '0;
      rel_cnt_q <= '0;
      barriers <= '0;
      bus_switches <= '0;
    end else begin
      for (int p = 0; p < N; p++) begin
        if (complete[p]) begin
          releasing_q[p] <= 1'b1;
          rel_cnt_q[p*CW+:CW] <= rv_kind[p] ? gamma_q : barrier_q;
        end else if (rv_release[p]) begin
          releasing_q[p] <= 1'b0;
        end else if (tick && releasing_q[p]) begin
          rel_cnt_q[p*CW+:CW] <= rel_cnt_q[p*CW+:CW] - CW'(1);
        end
      end
      barriers <= (barriers > ~n_barriers) ? '1 : barriers + n_barriers;
      bus_switches <= (bus_switches > ~n_switches) ? '1 : bus_switches + n_switches;
    end
  end

  assign settled = !(|act_grant) && !deliver && !(|ws_ok) && !(|complete) && !(|rv_release);

endmodule
