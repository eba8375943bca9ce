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
  logic [N-1:0] waiting_q;  // requested in an earlier machine cycle and not granted yet
  logic [N*N-1:0] older_q;  // [j*N+i]: waiting j arrived strictly before waiting i
  logic [N*N-1:0] first;  // [j*N+i]: request j is ordered before request i

  always_comb begin
    for (int i = 0; i < N; i++) begin
      for (int j = 0; j < N; j++) begin
        if (waiting_q[j] != waiting_q[i]) begin
          first[j*N+i] = waiting_q[j];  // the one that was already waiting came first
        end else if (waiting_q[j] && (older_q[j*N+i] || older_q[i*N+j])) begin
          first[j*N+i] = older_q[j*N+i];
        end else begin
          first[j*N+i] = (j < i);  // same arrival cycle: lower id first
        end
      end
    end
  end

  always_comb begin
    for (int i = 0; i < N; i++) begin
      grant[i] = req[i] && !blocked[i];
      for (int j = 0; j < N; j++) begin
        if (j != i && conf[i*N+j] && req[j] && first[j*N+i]) begin
          grant[i] = 1'b0;
        end
      end
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
      wait_cycles <= '0;
      conflicts   <= '0;
    end else begin
      conflicts <= (conflicts > ~n_conflicts) ? '1 : conflicts + n_conflicts;
      if (tick) begin
        waiting_q <= still_waiting;
        for (int j = 0; j < N; j++) begin
          for (int i = 0; i < N; i++) begin
            older_q[j*N+i] <= still_waiting[j] && still_waiting[i] && waiting_q[j] &&
                (!waiting_q[i] || older_q[j*N+i]);
          end
        end
        wait_cycles <= (wait_cycles > ~n_waiting) ? '1 : wait_cycles + n_waiting;
      end else begin
        waiting_q <= waiting_q & ~grant;
      end
    end
  end

endmodule
