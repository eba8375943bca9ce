// First-come, first-served arbitration of shared resources: the ordering rule of
// sc::ResourceArbiter (sc_models/multiprocessor/resource_arbiter.cpp). Requests are ordered by
// the machine cycle they arrived in, ties to the lower requester id. In that order a request is
// granted when it is not blocked (a resource it wants is held: the user computes `blocked`) and
// no request before it that it conflicts with (they want a common resource) is there, granted
// now or still waiting: a request never overtakes an earlier one on a resource they both want.
// The grant is combinational.
//
// Used by module_array (the omp's modules), sync_unit (the interrupt bus: one resource, every
// pair conflicts) and crossbar_array (the crossbar's buses, the single bus). `tick` marks the edges that end a machine cycle: only
// they age the requests and count waiting cycles; an edge without it (a zero-time step,
// sync_unit) only drops the requests it grants. Blocks clocked by machine cycles tie it high.
module fcfs_arbiter #(
    parameter int N = 4  // requesters
) (
    input logic clk,
    input logic rst_n,  // synchronous, active low: no waiting requests, counters 0
    input logic tick,

    input  logic [  N-1:0] req,          // requesting (a holder does not request)
    input  logic [N*N-1:0] conf,         // [i*N+j]: i and j want a common resource (symmetric)
    input  logic [  N-1:0] blocked,      // a resource request i wants is held
    output logic [  N-1:0] grant,
    output logic [   31:0] wait_cycles,  // sum over machine cycles of the requests left waiting
    output logic [   31:0] conflicts     // grants that had waited (saturating, like wait_cycles)
);
  // Per requester i, as N-bit rows (bit j of row i at [i*N + j]), so that a verilated owner
  // evaluates N word operations per row instead of N * N single bits (docs/performance.md, "The
  // whole machine verilated, round 2"). Only pairs that are both waiting read these rows; a row is
  // rewritten at every tick, when waiting_q is.
  logic [N-1:0] waiting_q;  // requested in an earlier machine cycle and not granted yet
  logic [N*N-1:0] older_q;  // row i: the waiting j that arrived strictly before waiting i
  logic [N*N-1:0] same_q;  // row i: the waiting j != i that arrived in i's cycle
  logic [N*N-1:0] first;  // row i: the requests j ordered before request i

  // A request that was already waiting comes first; two that arrived in one cycle (both waiting
  // or both new) go by id (below[i*N +: N]: the ids below i); two waiting ones from different
  // cycles by their arrival.
  logic [N*N-1:0] below;
  for (genvar i = 0; i < N; i++) begin : g_below
    assign below[i*N+:N] = (N'(1) << i) - N'(1);
  end
  always_comb begin
    for (int i = 0; i < N; i++) begin
      if (waiting_q[i]) begin
        first[i*N+:N] = waiting_q & (older_q[i*N+:N] | (same_q[i*N+:N] & below[i*N+:N]));
      end else begin
        first[i*N+:N] = waiting_q | below[i*N+:N];
      end
    end
  end

  always_comb begin
    for (int i = 0; i < N; i++) begin
      grant[i] = req[i] && !blocked[i] && (conf[i*N+:N] & req & first[i*N+:N]) == '0;
    end
  end

  logic [N-1:0] still_waiting;
  logic [31:0] n_waiting, n_conflicts;
  always_comb begin
    still_waiting = req & ~grant;
    n_waiting = '0;
    n_conflicts = '0;
    for (int i = 0; i < N; i++) begin
      n_waiting = n_waiting + 32'(still_waiting[i]);
      n_conflicts = n_conflicts + 32'(grant[i] && waiting_q[i]);
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      waiting_q   <= '0;
      older_q     <= '0;
      same_q      <= '0;
      wait_cycles <= '0;
      conflicts   <= '0;
    end else begin
      conflicts <= (conflicts > ~n_conflicts) ? '1 : conflicts + n_conflicts;
      if (tick) begin
        waiting_q <= still_waiting;
        for (int i = 0; i < N; i++) begin
          if (!still_waiting[i]) begin
            older_q[i*N+:N] <= '0;
            same_q[i*N+:N]  <= '0;
          end else if (waiting_q[i]) begin  // keeps its order with those still waiting
            older_q[i*N+:N] <= older_q[i*N+:N] & still_waiting & waiting_q;
            same_q[i*N+:N]  <= same_q[i*N+:N] & still_waiting & waiting_q;
          end else begin  // arrived in this cycle: after every earlier one, beside the others
            older_q[i*N+:N] <= still_waiting & waiting_q;
            same_q[i*N+:N]  <= still_waiting & ~waiting_q & ~(N'(1) << i);
          end
        end
        wait_cycles <= (wait_cycles > ~n_waiting) ? '1 : wait_cycles + n_waiting;
      end else begin
        waiting_q <= waiting_q & ~grant;
      end
    end
  end

endmodule
