"""scripts/mutants.py: the one-line mutants it makes of a file, and its verdicts when run, with
stand-ins for cmake and ctest (a build that refuses one mutant, tests that catch another)."""

import os
import stat
import subprocess
import sys
import tempfile
import unittest

SCRIPT = None  # set from the command line

SOURCE = """int f(int a, int b) {
  // a < b in a comment
  g("a < b", b > 0);  // a < b after the code
  if (a < b && b >= 0) {
    ++a;
  }
  return a + 1;
}
double h(double x) { return x + 1e-9 - 1.5; }
"""

# What each mutant's line becomes: the comments and the string literal are left alone.
EXPECTED = [
    (3, 'g("a < b", b >= 0);  // a < b after the code'),
    (4, "if (a <= b && b >= 0) {"),
    (4, "if (a < b && b > 0) {"),
    (4, "if (a < b || b >= 0) {"),
    (5, ";"),
    (7, "return a;"),
    # A literal that begins with 1 is no `+ 1`: the sign swapped, never the 1 cut off it.
    (9, "double h(double x) { return x - 1e-9 - 1.5; }"),
    (9, "double h(double x) { return x + 1e-9 + 1.5; }"),
]


def write_executable(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


class Mutants(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.source = os.path.join(self.dir.name, "f.cpp")
        with open(self.source, "w") as f:
            f.write(SOURCE)

    def tearDown(self):
        self.dir.cleanup()

    def mutants(self, *args, env=None):
        return subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True,
                              text=True, env=env, cwd=self.dir.name)

    def test_list_names_each_operator_of_the_code_once(self):
        r = self.mutants("list", "f.cpp")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), len(EXPECTED), r.stdout)
        for n, (line, (number, after)) in enumerate(zip(lines, EXPECTED), start=1):
            self.assertTrue(line.lstrip().startswith("%d  f.cpp:%d: " % (n, number)), line)
            self.assertTrue(line.endswith("->  " + after) or
                            (after == ";" and line.endswith("->  ;")), line)

    def test_run_gives_each_mutant_its_verdict_and_puts_the_file_back(self):
        # The build refuses the `||` mutant; the tests catch the `<=` one.
        bin_dir = os.path.join(self.dir.name, "bin")
        os.mkdir(bin_dir)
        write_executable(os.path.join(bin_dir, "cmake"),
                         "#!/bin/sh\n! grep -q '||' \"$MUTATED\"\n")
        write_executable(os.path.join(bin_dir, "ctest"),
                         "#!/bin/sh\n! grep -q 'a <= b' \"$MUTATED\"\n")
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"],
                   MUTATED=self.source)
        r = self.mutants("run", "f.cpp", "--build", "build", "--targets", "t", "--tests", ".",
                         env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        verdicts = [line.split()[1] for line in r.stdout.splitlines()[:-1]]
        self.assertEqual(verdicts, ["SURVIVED", "CAUGHT", "SURVIVED", "NOT", "SURVIVED",
                                    "SURVIVED", "SURVIVED", "SURVIVED"],
                         r.stdout)
        self.assertEqual(r.stdout.splitlines()[-1], "totals: CAUGHT 1, NOT BUILT 1, SURVIVED 6")
        with open(self.source) as f:
            self.assertEqual(f.read(), SOURCE)
        # --only: the mutants named, numbered as `list` numbers them.
        r = self.mutants("run", "f.cpp", "--build", "build", "--targets", "t", "--tests", ".",
                         "--only", "2,4", env=env)
        self.assertEqual([line.split()[0] for line in r.stdout.splitlines()[:-1]], ["2", "4"])

    def test_run_refuses_tests_that_fail_without_a_mutant(self):
        # A test executable left holding an earlier round's mutant fails whatever is mutated now:
        # every mutant would be counted as caught.
        bin_dir = os.path.join(self.dir.name, "bin")
        os.mkdir(bin_dir)
        write_executable(os.path.join(bin_dir, "cmake"), "#!/bin/sh\nexit 0\n")
        write_executable(os.path.join(bin_dir, "ctest"), "#!/bin/sh\nexit 8\n")
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
        r = self.mutants("run", "f.cpp", "--build", "build", "--targets", "t", "--tests", "^X",
                         env=env)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertEqual(r.stdout, "")
        self.assertIn("without a mutant the tests fail (^X)", r.stderr)
        with open(self.source) as f:
            self.assertEqual(f.read(), SOURCE)

    def test_a_test_printing_without_end_is_stopped_at_the_output_cap(self):
        # CTest holds a running test's output in memory: the stand-in grows to 200 MB where the
        # `<=` mutant is in and then would pass after 10 s, unless stopped at the 50 MB cap.
        bin_dir = os.path.join(self.dir.name, "bin")
        os.mkdir(bin_dir)
        write_executable(os.path.join(bin_dir, "cmake"), "#!/bin/sh\nexit 0\n")
        write_executable(os.path.join(bin_dir, "ctest"),
                         "#!/bin/sh\ngrep -q 'a <= b' \"$MUTATED\" || exit 0\n"
                         "exec %s -c 'import time; x = b\"o\" * (200 << 20); time.sleep(10)'\n"
                         % sys.executable)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"],
                   MUTATED=self.source)
        r = self.mutants("run", "f.cpp", "--build", "build", "--targets", "t", "--tests", ".",
                         "--only", "2", "--output-cap", "50", env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split()[:2], ["2", "CAUGHT"], r.stdout)

    def test_run_without_a_build_is_refused_naming_the_options(self):
        r = self.mutants("run", "f.cpp")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--build, --targets and --tests", r.stderr)


if __name__ == "__main__":
    SCRIPT = os.path.abspath(sys.argv[1])
    unittest.main(argv=sys.argv[:1], verbosity=2)
