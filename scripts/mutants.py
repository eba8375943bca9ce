#!/usr/bin/env python3
"""One-line mutants of a source file, and which of them the tests catch (tests/README.md,
"A test must be able to fail").

  scripts/mutants.py list FILE...            print the one-line mutants of each file, numbered
  scripts/mutants.py run FILE... --build DIR --targets T1,T2 --tests REGEX [--only N,M,...]
                                             build and test each mutant in turn; print CAUGHT,
                                             SURVIVED or NOT BUILT for each and the totals

A mutant changes one operator of one line, the way a plausible slip would: a comparison made
strict or not (< and <=, > and >=), an equality negated, && and || swapped, a `!` dropped, a
`+ 1` or `- 1` dropped (`+ 1e-9` or `- 1.5` is no `+ 1`), + and - swapped (not on lines with a
string literal, where + mostly joins strings), an increment or decrement statement dropped.
Operators are recognised with the spaces clang-format puts around binary operators, so template
brackets and shifts are not taken for comparisons; comments, string literals and preprocessor
lines are left alone. A mutant the compiler refuses (a warning is an error with
-DORTHOSIM_WERROR=ON) counts as not built, not as caught.

`run` edits FILE in place and puts it back after each mutant, also when interrupted: run it in a
checkout of its own (`git worktree add --detach DIR`) with a configured build directory, never
in one with work in progress. A mutant is caught when a test of REGEX (`ctest -R`) fails or times
out, or when CTest, which holds the output of the tests running, grows past --output-cap MB (a
test printing without end). The tests must pass without a mutant first (exit 1 otherwise), and
the targets are built again from the restored files at the end. Standard library only.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import List

# Each rule: a pattern matched in a line's code, and what the match becomes.
RULES = [
    (r" < ", " <= "),
    (r" <= ", " < "),
    (r" > ", " >= "),
    (r" >= ", " > "),
    (r" == ", " != "),
    (r" != ", " == "),
    (r" && ", " || "),
    (r" \|\| ", " && "),
    (r"(?<=[(\s])!(?=[A-Za-z_(])", ""),
    (r" \+ 1(?![0-9.eE'])", ""),
    (r" - 1(?![0-9.eE'])", ""),
    (r" \+ (?!1(?![0-9.eE']))", " - "),
    (r" - (?!1(?![0-9.eE']))", " + "),
]
# A whole statement that only increments or decrements: dropped.
STEP = re.compile(r"^(\s*)(\+\+|--)?[A-Za-z_][\w.\[\]>-]*(\+\+|--)?;\s*$")


@dataclass
class Mutant:
    path: Path
    line: int  # 1-based
    before: str
    after: str

    def describe(self) -> str:
        return "%s:%d: %s  ->  %s" % (self.path, self.line, self.before.strip(),
                                      self.after.strip() or "(dropped)")


def code_spans(line: str) -> List[range]:
    """The column ranges of a line outside comments and string or character literals."""
    spans = []
    start = 0
    i = 0
    quote = None
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = None
                start = i + 1
        elif ch in "\"'":
            spans.append(range(start, i))
            quote = ch
        elif line.startswith("//", i):
            spans.append(range(start, i))
            return spans
        i += 1
    if not quote:
        spans.append(range(start, len(line)))
    return spans


def mutants_of(path: Path) -> List[Mutant]:
    out = []
    for number, line in enumerate(path.read_text().splitlines(keepends=True), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", "#", "*", "/*")):
            continue
        if "reserve(" in line or "static_assert" in line:
            continue  # capacity only, or refused at compile time
        spans = code_spans(line)
        for pattern, replacement in RULES:
            if replacement in (" - ", " + ") and '"' in line:
                continue  # most likely strings joined: a minus would not compile
            for match in re.finditer(pattern, line):
                if any(match.start() in s and match.end() - 1 in s for s in spans):
                    mutated = line[:match.start()] + replacement + line[match.end():]
                    out.append(Mutant(path, number, line, mutated))
        step = STEP.match(line)
        if step and (step.group(2) or step.group(3)) and not line.strip().startswith("return"):
            out.append(Mutant(path, number, line, step.group(1) + ";\n"))
    return out


def resident_bytes(pid: int) -> int:
    """The memory process `pid` holds (Linux: VmRSS in /proc), 0 when unknown."""
    try:
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def run_quiet(command: List[str], timeout: int, memory_cap: int = 0) -> int:
    """Runs `command` in a process group of its own and ends with it whatever it left running:
    a mutant can make a test's grandchildren (a sweep's points, say) run on after the test
    process was timed out. With `memory_cap`, the run is also ended (-2) once `command`'s own
    process holds more than that many bytes: CTest keeps every line a test prints in its memory
    until the test ends (and then in its log), and a mutant that made a test print without end
    (a progress line that never stops) had CTest at 10 GB of both before the test's timeout."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                return process.wait(timeout=max(0.0, min(1.0, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                if time.monotonic() >= deadline:
                    return -1
                if memory_cap and resident_bytes(process.pid) > memory_cap:
                    return -2
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def build(args) -> bool:
    command = ["cmake", "--build", args.build, "-j", str(args.jobs), "--target"] + args.targets
    return run_quiet(command, args.build_timeout) == 0


def build_and_test(args) -> str:
    """Builds the targets and runs the tests as the files are now: NOT BUILT, CAUGHT (a test
    failed or timed out) or SURVIVED."""
    if not build(args):
        return "NOT BUILT"
    test = ["ctest", "--test-dir", args.build, "-R", args.tests, "-j", str(args.jobs),
            "--timeout", str(args.test_timeout), "--stop-on-failure"]
    status = run_quiet(test, args.test_timeout * 50, args.output_cap * 1024 * 1024)
    return "SURVIVED" if status == 0 else "CAUGHT"


def try_mutant(m: Mutant, args) -> str:
    original = m.path.read_text()
    lines = original.splitlines(keepends=True)
    if lines[m.line - 1] != m.before:
        return "STALE"  # the file changed since the list was made
    lines[m.line - 1] = m.after
    try:
        m.path.write_text("".join(lines))
        return build_and_test(args)
    finally:
        m.path.write_text(original)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["list", "run"])
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--build", help="a configured build directory (run)")
    p.add_argument("--targets", type=lambda s: s.split(","), default=[],
                   help="the build targets that hold FILE and its tests, comma-separated (run)")
    p.add_argument("--tests", help="ctest -R regular expression of the tests to run (run)")
    p.add_argument("--only", type=lambda s: {int(x) for x in s.split(",")},
                   help="the mutants' numbers, as `list` prints them, comma-separated")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--build-timeout", type=int, default=900, help="seconds")
    p.add_argument("--test-timeout", type=int, default=120,
                   help="seconds per test that has no TIMEOUT property of its own (CTest's "
                        "property wins); the whole test run is stopped after 50 times this")
    p.add_argument("--output-cap", type=int, default=1024,
                   help="MB of memory CTest may hold (the output of the tests running) before "
                        "the tests are stopped and the mutant counted as caught, as a timed-out "
                        "one is")
    args = p.parse_args()
    for f in args.files:
        if not f.is_file():
            p.error("%s: not a file" % f)
    if args.command == "run" and not (args.build and args.targets and args.tests):
        p.error("run needs --build, --targets and --tests")
    # A kill ends the run as an interrupt does: the file under test is put back, the build or
    # test in progress is killed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `list ... | head` ends quietly
    mutants = [m for f in args.files for m in mutants_of(f)]
    if args.command == "run":
        # Without a mutant everything must build and pass, or every mutant would count as
        # caught: an executable of the tests that is not among the targets may hold the last
        # mutant of an earlier round, which was put back in the source but never rebuilt.
        baseline = build_and_test(args)
        if baseline != "SURVIVED":
            print("mutants.py: without a mutant the %s (%s): every mutant would count as caught; "
                  "build every executable whose tests --tests names, or name fewer tests"
                  % ("build fails" if baseline == "NOT BUILT" else "tests fail", args.tests),
                  file=sys.stderr)
            return 1
    counts = {}
    try:
        for number, m in enumerate(mutants, start=1):
            if args.only and number not in args.only:
                continue
            if args.command == "list":
                print("%4d  %s" % (number, m.describe()))
                continue
            verdict = try_mutant(m, args)
            counts[verdict] = counts.get(verdict, 0) + 1
            print("%4d  %-9s %s" % (number, verdict, m.describe()), flush=True)
    finally:
        if args.command == "run":
            build(args)  # no executable keeps the last mutant
    if args.command == "run":
        print("totals: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
