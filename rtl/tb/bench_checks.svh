// The checks of a self-checking bench, included inside the bench's module (scripts/rtl-check.sh
// passes this folder as an include path): every check is counted, the first 20 failures are
// printed (a broken block fails most checks, and the first ones tell the story), and
// checks_verdict ends the bench with "<bench>: PASS (...)", the line the script looks for, or
// with $fatal.

int errors = 0;
int checks = 0;
// Printed before every failure: a bench instantiated more than once names its instance here.
string check_context = "";

task automatic fail(input string what);
  errors++;
  if (errors <= 20) begin
    $display("FAIL %sat %0t: %s", check_context, $time, what);
  end
endtask

// 32-bit values (the benches' cycles, counts and words: an int, as Verilator's -Wall wants the
// width exact), compared with !== so that an x or z under Icarus fails the check. Narrower or
// wider signals are passed through a size cast, 32'(sig), which keeps an x; int'(sig) would make
// it a 0 that a check expecting 0 passes (a register without its reset).
task automatic check(input string what, input logic signed [31:0] got,
                     input logic signed [31:0] want);
  checks++;
  if (got !== want) begin
    fail($sformatf("%s: got %0d (0x%0h), expected %0d (0x%0h)", what, got, got, want, want));
  end
endtask

// Ends the bench's checks: $fatal if any failed, else "<bench>: PASS (<n> checks<details>)".
task automatic checks_verdict(input string bench, input string details);
  if (errors != 0) begin
    $fatal(1, "%s: %0d of %0d checks failed", bench, errors, checks);
  end
  $display("%s: PASS (%0d checks%s)", bench, checks, details);
endtask
