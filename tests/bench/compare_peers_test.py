#!/usr/bin/env python3
"""bench/compare-peers run as a user runs it: `--quick`, without peers and with stand-in peers.

Usage: compare_peers_test.py SCRIPT ORTHOSIM. The oracles are closed forms written here: the mean
route lengths of the table's networks and patterns, orthosim's zero-load latency (h + 1) D + F
(docs/networks.md), and the script's own formula for flit-hops per second applied to its printed
columns. The stand-in peers are small shell scripts that print what BookSim2 and Noxim print, so
the parsing and the ratios are checked without the real simulators.
"""

import importlib.machinery
import importlib.util
import os
import re
import stat
import subprocess
import sys
import tempfile
import unittest

SCRIPT = ORTHOSIM = ""
COLUMNS = ["network", "pattern", "tool", "load", "hops", "sim cycles", "CPU s", "start-up s",
           "cycles/s", "flit-hops/s", "accepted", "latency"]


def run(*args, env_extra=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("ORTHOSIM", "BOOKSIM", "NOXIM", "NOXIM_CONFIG", "NOXIM_POWER")}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, SCRIPT, *args], env=env, capture_output=True,
                          text=True, timeout=60)


def si_value(text):
    factor = {"k": 1e3, "M": 1e6, "G": 1e9}
    parts = text.split()
    return float(parts[0]) * (factor[parts[1]] if len(parts) > 1 else 1.0)


def detail_rows(output):
    """The rows of the detail table: {(network, pattern, tool, load): {column: text}}."""
    lines = output.splitlines()
    head = next(i for i, line in enumerate(lines) if line.split()[:3] == COLUMNS[:3])
    # Column starts from the dashes under the header (cells hold spaces: "8x8 mesh", "1.2 M").
    dashes = lines[head + 1]
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", dashes)]
    rows = {}
    for line in lines[head + 2:]:
        if not line.strip():
            break
        cells = [line[a:(spans[i + 1][0] if i + 1 < len(spans) else len(line))].strip()
                 for i, (a, _) in enumerate(spans)]
        row = dict(zip(COLUMNS, cells))
        rows[(row["network"], row["pattern"], row["tool"], row["load"])] = row
    return rows


# Links crossed per delivered flit, as closed forms (a node never sends to itself in orthosim):
# mean |dx| over ordered pairs of a k-line is (k^2 - 1) / (3k), of a k-ring (k even) k / 4; each
# bit of a d-cube address differs with probability 1/2; transpose and bit-reverse on 8 bits
# pair the bits (i, i+4) or (i, 7-i), and a differing pair costs 2 links, so both average 4 over
# all 256 nodes, and 16 nodes (lo == hi, the palindromes) map onto themselves and send nothing.
MESH_8x8 = 2 * 63 / 24 * 64 / 63
TORUS_8x8 = 2 * 8 / 4 * 64 / 63
CUBE_8 = 8 / 2 * 256 / 255
CUBE_8_PERMUTATION = 4 * 256 / 240
# BookSim2 also sends packets to the source itself (uniform draws any node, a permutation keeps
# its fixed points): the same sums over all N sources, or all N^2 pairs.
BOOKSIM_HOPS = {
    ("8x8 mesh", "uniform"): 2 * 63 / 24,
    ("8-cube", "uniform"): 8 / 2,
    ("8-cube", "transpose"): 4,
    ("8-cube", "bitrev"): 4,
    ("8x8 torus", "uniform"): 2 * 8 / 4,
}
EXPECTED_HOPS = {
    ("8x8 mesh", "uniform"): MESH_8x8,
    ("8-cube", "uniform"): CUBE_8,
    ("8-cube", "transpose"): CUBE_8_PERMUTATION,
    ("8-cube", "bitrev"): CUBE_8_PERMUTATION,
    ("8x8 torus", "uniform"): TORUS_8x8,
}
LOADS = [("8x8 mesh", "uniform", "0.01"), ("8x8 mesh", "uniform", "0.07"),
         ("8x8 mesh", "uniform", "0.2"), ("8-cube", "uniform", "0.2"),
         ("8-cube", "transpose", "0.07"), ("8-cube", "bitrev", "0.07"),
         ("8x8 torus", "uniform", "0.07")]
NODES = {"8x8 mesh": 64, "8x8 torus": 64, "8-cube": 256}


FAKE_BOOKSIM = """#!/bin/sh
echo "Packet latency average = 99.5"
echo "Accepted flit rate average= 0.0999"
echo "Time taken is 5000 cycles"
echo "====== Overall Traffic Statistics ======"
echo "Packet latency average = 41.5 (1 samples)"
echo "Accepted flit rate average = 0.0123 (1 samples)"
exit 255
"""
FAKE_NOXIM = """#!/bin/sh
echo "Noxim simulation completed. (2345 cycles executed)"
echo "% Global average delay (cycles): 17.25"
echo "% Average IP throughput (flits/cycle/IP): 0.0456"
"""


class ComparePeers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.alone = run("--quick", "--orthosim", ORTHOSIM, "--booksim", "/nonexistent/booksim")

    def test_without_peers_prints_orthosims_rows_alone_with_a_note(self):
        r = self.alone
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = detail_rows(r.stdout)
        self.assertEqual(sorted(rows), sorted((n, p, "orthosim", l) for n, p, l in LOADS))
        self.assertIn("No peer simulator given", r.stdout)
        # A peer given but missing is a note, not an error.
        self.assertIn("BookSim2: '/nonexistent/booksim' is not an executable file", r.stdout)
        self.assertIn("Noxim: not given", r.stdout)
        summary = [line for line in r.stdout.splitlines() if line.startswith("network")]
        self.assertEqual(len(summary), 2)
        self.assertIn("orthosim cycles/s", summary[1])
        self.assertNotIn("BookSim2", summary[1])

    def test_hops_are_the_patterns_mean_route_lengths(self):
        for (network, pattern, _, _), row in detail_rows(self.alone.stdout).items():
            self.assertAlmostEqual(float(row["hops"]), EXPECTED_HOPS[(network, pattern)], places=3,
                                   msg=(network, pattern))

    def test_flit_hops_per_second_is_accepted_times_nodes_times_hops_times_cycles_per_second(self):
        checked = 0
        for (network, _, _, _), row in detail_rows(self.alone.stdout).items():
            if row["cycles/s"] == "-":
                continue  # a run too short to take more CPU time than the start-up run
            checked += 1
            expected = (float(row["accepted"]) * NODES[network] * float(row["hops"]) *
                        si_value(row["cycles/s"]))
            # accepted printed to 4 decimals, cycles/s to 3 significant digits.
            self.assertLess(abs(si_value(row["flit-hops/s"]) - expected), 0.02 * expected + 1,
                            msg=row)
        # The 8-cube's rows take several times the start-up's CPU time even in --quick.
        self.assertGreater(checked, 0)

    def test_orthosim_runs_the_tables_router_at_low_load(self):
        # 8-flit packets, 4 cycles per hop: (h + 1) 4 + 8 at zero load, a little more at 0.01.
        row = detail_rows(self.alone.stdout)[("8x8 mesh", "uniform", "orthosim", "0.01")]
        zero_load = 4 * (MESH_8x8 + 1) + 8
        self.assertGreater(float(row["latency"]), 0.9 * zero_load)
        self.assertLess(float(row["latency"]), 1.15 * zero_load)
        medium = detail_rows(self.alone.stdout)[("8x8 mesh", "uniform", "orthosim", "0.07")]
        self.assertAlmostEqual(float(medium["accepted"]), 0.07, delta=0.015)

    def test_stand_in_peers_are_read_and_compared(self):
        with tempfile.TemporaryDirectory() as d:
            booksim = os.path.join(d, "booksim")
            noxim_bin = os.path.join(d, "noxim", "bin")
            os.makedirs(noxim_bin)
            os.makedirs(os.path.join(d, "noxim", "config_examples"))
            noxim = os.path.join(noxim_bin, "noxim")
            for path, text in ((booksim, FAKE_BOOKSIM), (noxim, FAKE_NOXIM)):
                with open(path, "w") as f:
                    f.write(text)
                os.chmod(path, stat.S_IRWXU)
            for name in ("power.yaml", os.path.join("..", "config_examples",
                                                    "default_configMeshNoHUB.yaml")):
                open(os.path.join(noxim_bin, name), "w").close()
            r = run("--quick", "--orthosim", ORTHOSIM, env_extra={"BOOKSIM": booksim,
                                                                  "NOXIM": noxim})
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = detail_rows(r.stdout)
        for network, pattern, load in LOADS:
            b = rows[(network, pattern, "BookSim2", load)]
            self.assertEqual((b["sim cycles"], b["accepted"], b["latency"]),
                             ("5000", "0.0123", "41.5"))
            self.assertAlmostEqual(float(b["hops"]), BOOKSIM_HOPS[(network, pattern)], places=3)
            if network == "8x8 mesh":
                n = rows[(network, pattern, "Noxim", load)]
                self.assertEqual((n["sim cycles"], n["accepted"], n["latency"]),
                                 ("2345", "0.0456", "17.2"))
            else:
                self.assertNotIn((network, pattern, "Noxim", load), rows)
                self.assertIn("Noxim simulates meshes only", r.stdout)
        summary = r.stdout.split("\n\n")[2].splitlines()
        self.assertIn("orthosim / BookSim2", summary[0])
        self.assertIn("orthosim / Noxim", summary[0])
        self.assertNotIn("No peer simulator given", r.stdout)

    def test_figures_take_their_prefix_after_rounding_to_three_digits(self):
        loader = importlib.machinery.SourceFileLoader("compare_peers", SCRIPT)
        spec = importlib.util.spec_from_loader("compare_peers", loader)
        script = importlib.util.module_from_spec(spec)
        loader.exec_module(script)
        for value, text in ((999_600.0, "1 M"), (999_400.0, "999 k"), (1_234.0, "1.23 k"),
                            (999.7, "1 k"), (12.5, "12.5"), (2.5e9, "2.5 G"), (None, "-")):
            self.assertEqual(script.si(value), text, value)

    def test_orthosim_scale_multiplies_orthosims_cycles_only(self):
        # --quick: 200 + 800 cycles per row, then the drain; --orthosim-scale 3 runs orthosim
        # 600 + 2400, the peers (here none) the row's own.
        scaled = run("--quick", "--orthosim-scale", "3", "--orthosim", ORTHOSIM)
        self.assertEqual(scaled.returncode, 0, scaled.stderr)
        self.assertIn("orthosim runs 3 times each row's cycles", scaled.stdout)
        self.assertIn("orthosim runs 1 times each row's cycles", self.alone.stdout)
        for key, row in detail_rows(scaled.stdout).items():
            alone = int(detail_rows(self.alone.stdout)[key]["sim cycles"])
            self.assertGreaterEqual(alone, 1000, key)
            self.assertGreaterEqual(int(row["sim cycles"]), 3000, key)
            self.assertLess(int(row["sim cycles"]), 3000 + (alone - 1000) + 1000, key)

    def test_rows_runs_only_the_rows_a_word_names(self):
        r = run("--quick", "--rows", "torus,0.2", "--orthosim", ORTHOSIM)
        self.assertEqual(r.returncode, 0, r.stderr)
        named = [(n, p, l) for n, p, l in LOADS if "torus" in n or l.startswith("0.2")]
        self.assertEqual(len(named), 3)  # the torus, the mesh at 0.20 and the 8-cube at 0.20
        self.assertEqual(sorted(detail_rows(r.stdout)), sorted((n, p, "orthosim", l)
                                                               for n, p, l in named))
        # The summary below the details has the same rows: its header, a rule, then one line
        # per row up to the blank line.
        summary = r.stdout.split("orthosim cycles/s\n", 1)[1].split("\n\n", 1)[0]
        self.assertEqual(len(summary.splitlines()), 1 + len(named), summary)

    def test_bad_options_exit_2_with_one_line_naming_the_option(self):
        for args, option in ((["--runs", "0"], "--runs"), (["--cycles", "x"], "--cycles"),
                             (["--rows", "ring"], "--rows"), (["--rows", "torus,"], "--rows"),
                             (["--orthosim-scale", "0"], "--orthosim-scale"),
                             (["--orthosim", "/nonexistent/orthosim"], "--orthosim")):
            r = run(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn(option, r.stderr)
            self.assertEqual(r.stdout, "")


if __name__ == "__main__":
    SCRIPT, ORTHOSIM = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
