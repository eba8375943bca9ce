// Self-checking bench of fcfs_arbiter against the rule it implements, written here as arrival
// stamps: every request carries the machine cycle it rose in, and request j goes before request i
// when (arrival j, j) < (arrival i, i). So i is granted exactly when it is requesting, not
// blocked, and no conflicting request goes before it (sc::ResourceArbiter's first come, ties to
// the lower id, no overtaking). The counters follow from the same stamps: at a tick edge every
// request left waiting adds a cycle; a grant to a request from an earlier cycle is a conflict.
// Random requests, conflicts (symmetric, changed now and then), blocking and tick / step edges
// (the sync unit's zero-time steps), resets now and then; a requester holds its request until
// granted, as the users do. Prints PASS or calls $fatal. Runs under Icarus (iverilog -g2012)
// and Verilator (--binary --timing).
module tb_fcfs_arbiter;
  localparam int N = 5;
  localparam int EDGES = 20000;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic tick = 1'b1;
  logic [N-1:0] req = '0, blocked = '0, grant;
  logic [N*N-1:0] conf = '0;
  logic [31:0] wait_cycles, conflicts;

  fcfs_arbiter #(
      .N(N)
  ) dut (
      .clk,
      .rst_n,
      .tick,
      .req,
      .conf,
      .blocked,
      .grant,
      .wait_cycles,
      .conflicts
  );

  int arrival[N];  // the machine cycle request i rose in
  int cycle = 0;  // machine cycles (tick edges) since reset
  int want_wait = 0, want_conflicts = 0, grants = 0, waits = 0;
  logic [N-1:0] want;

  initial begin
    #1 clk = 1'b1;
    #1 clk = 1'b0;
    rst_n = 1'b1;
    for (int e = 0; e < EDGES; e++) begin
      tick = ($urandom % 3) != 0;
      if (e % 64 == 0) begin
        for (int i = 0; i < N; i++) begin
          for (int j = i; j < N; j++) begin
            conf[i*N+j] = (i == j) ? 1'($urandom % 2) : ($urandom % 3) != 0;
            conf[j*N+i] = conf[i*N+j];
          end
        end
      end
      for (int i = 0; i < N; i++) begin
        if (!req[i] && ($urandom % 4) == 0) begin
          req[i] = 1'b1;
          arrival[i] = cycle;
        end
        blocked[i] = ($urandom % 5) == 0;
      end
      // The rule, from the stamps.
      for (int i = 0; i < N; i++) begin
        want[i] = req[i] && !blocked[i];
        for (int j = 0; j < N; j++) begin
          if (j != i && req[j] && conf[i*N+j] &&
              (arrival[j] < arrival[i] || (arrival[j] == arrival[i] && j < i))) begin
            want[i] = 1'b0;
          end
        end
      end
      #1;
      if (grant !== want) begin
        $display("FAIL edge %0d (cycle %0d): req %b blocked %b grant %b, expected %b", e, cycle,
                 req, blocked, grant, want);
        $fatal(1);
      end
      for (int i = 0; i < N; i++) begin
        if (want[i] && arrival[i] < cycle) begin
          want_conflicts++;
        end
        if (tick && req[i] && !want[i]) begin
          want_wait++;
          waits++;
        end
        grants += int'(want[i]);
      end
      clk = 1'b1;
      #1 clk = 1'b0;
      req = req & ~want;
      cycle += int'(tick);
      #1;
      if (wait_cycles != 32'(want_wait) || conflicts != 32'(want_conflicts)) begin
        $display("FAIL edge %0d: wait_cycles %0d conflicts %0d, expected %0d and %0d", e,
                 wait_cycles, conflicts, want_wait, want_conflicts);
        $fatal(1);
      end
      // Now and then a reset with requests waiting: it forgets them and zeroes the counters, so
      // the requests after it are ordered among themselves only.
      if (e % 500 == 499) begin
        req = '0;
        rst_n = 1'b0;
        #1 clk = 1'b1;
        #1 clk = 1'b0;
        rst_n = 1'b1;
        want_wait = 0;
        want_conflicts = 0;
      end
    end
    if (grants < EDGES / 4 || waits < EDGES / 4) begin
      $display("FAIL: the stimulus did not exercise the arbiter (%0d grants, %0d waits)", grants,
               waits);
      $fatal(1);
    end
    $display("tb_fcfs_arbiter: PASS (%0d edges, %0d grants, %0d request-cycles waited)", EDGES,
             grants, waits);
    $finish;
  end
endmodule
