#!/usr/bin/env python3
"""scripts/rtl-cost.sh's parsing and arithmetic, without yosys (a few seconds).

Usage: rtl_cost_test.py SCRIPT_DIR ORTHOSIM. The script reads yosys logs written here by hand
(`--from-logs`): the oracles are the sums of their numbers done here, [PH91] Eq. (1)'s access
time for the all-to-all exchange of `orthosim access --kind iwr` (docs/cli.md, orthosim access),
and the hand-written Fig. 2 program (examples/fig2_sample.mcp) for the script's generated one.
The cell and flip-flop figures of the real blocks are measured (docs/rtl.md), not asserted.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPTS = ORTHOSIM = ""


def stat_block(modules, hierarchy=None):
    """A yosys `stat` printout: modules is [(name, cells, {cell kind: count})]; hierarchy, if
    given, is (cells, {kind: count}) of the design hierarchy's totals."""
    text = "5. Printing statistics.\n\n"
    for name, cells, kinds in modules:
        text += (f"=== {name} ===\n\n   Number of wires:                 99\n"
                 f"   Number of memories:               0\n"
                 f"   Number of processes:              0\n"
                 f"   Number of cells:              {cells}\n")
        text += "".join(f"     {kind:<30}{count}\n" for kind, count in kinds.items()) + "\n"
    if hierarchy:
        cells, kinds = hierarchy
        text += ("=== design hierarchy ===\n\n   top                               1\n"
                 "     sub                             1\n\n"
                 f"   Number of memories:               0\n"
                 f"   Number of processes:              0\n"
                 f"   Number of cells:              {cells}\n")
        text += "".join(f"     {kind:<30}{count}\n" for kind, count in kinds.items()) + "\n"
    return text


END = "End of script. Logfile hash: 0123456789, CPU: user 2.50s system 0.10s, MEM: 9.00 MB peak\n"

# Hand-chosen (cells, flip-flops) per block log at n = 4 and one virtual channel.
BLOCKS = {
    "processor-n4": (300, 40),
    "bus_controller-n4": (50, 7),
    "index_manipulator-n4": (200, 30),
    "sync_unit-n4": (111, 11),
    "module_array-n4": (2000, 260),
    "crossbar_array-n4": (1500, 250),
    "crossbar_array-1bus-n4": (400, 70),
    "network_interface": (800, 90),
    "router-v1": (3000, 120),
}


def write_logs(folder, broken=None):
    for name, (cells, ffs) in BLOCKS.items():
        # Flip-flops of three kinds, the other cells gates; the first statistics are stale (synth's
        # own, before the last `stat`), the module array's last ones end with the hierarchy's totals.
        kinds = {"$_AND_": cells - ffs, "$_DFF_P_": ffs - 3, "$_SDFFE_PN0P_": 2, "$_DFFE_PP_": 1}
        text = "-- Running command `synth` --\n" + stat_block([("top", cells + 7, {"$_DFF_P_": ffs + 5})])
        if name == "module_array-n4":
            sub = {"$_AND_": 60, "$_SDFF_PN0_": 5}
            own = {"$_AND_": cells - ffs - 60 + 1, "$_DFF_P_": ffs - 5, "sub": 1}
            text += stat_block([("sub", 65, sub), ("top", cells - 65 + 1, own)],
                               (cells, {"$_AND_": cells - ffs, "$_DFF_P_": ffs - 5, "$_SDFF_PN0_": 5}))
        else:
            text += stat_block([("top", cells, kinds)])
        if name == broken:
            text = text.replace("Number of processes:              0", "Number of processes:              2")
        with open(os.path.join(folder, name + ".log"), "w", encoding="utf-8") as f:
            f.write(text + END)


def run_script(*args):
    env = dict(os.environ, ORTHOSIM=ORTHOSIM)
    return subprocess.run([os.path.join(SCRIPTS, "rtl-cost.sh"), *args], env=env, capture_output=True,
                          text=True, timeout=60)


def table(output, first_column):
    """Rows of the Markdown table whose header starts with first_column, as lists of cells."""
    lines = output.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_column} |"))
    rows = []
    for line in lines[head + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def orthosim_cycles(*args):
    out = subprocess.run([ORTHOSIM, *args, "--json"], capture_output=True, text=True, check=True,
                         timeout=60).stdout
    return json.loads(out)["total_cycles"]


class RtlCost(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.logs = self.folder.name

    def tearDown(self):
        self.folder.cleanup()

    def test_yosys_stat_takes_the_last_statistics_and_the_hierarchy_totals(self):
        path = os.path.join(self.logs, "x.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write(stat_block([("top", 50, {"$_DFF_P_": 9})]) +
                    stat_block([("sub", 20, {"$_AND_": 15, "$_SDFFE_PN0P_": 5}),
                                ("top", 31, {"$_OR_": 20, "$_DFFE_PP_": 10, "sub": 1})],
                               (50, {"$_AND_": 15, "$_OR_": 20, "$_SDFFE_PN0P_": 5, "$_DFFE_PP_": 10})) +
                    END)
        out = subprocess.run(["awk", "-f", os.path.join(SCRIPTS, "yosys-stat.awk"), path],
                             capture_output=True, text=True, check=True).stdout.split()
        # 20 + 31 - 1 (the instance) cells; 5 + 10 flip-flop bits, not 9 (stale) or 30 (twice).
        self.assertEqual(out, ["50", "15", "0", "0", "2.50"])

    def test_systems_are_the_sums_of_their_blocks_beside_their_cycles(self):
        write_logs(self.logs)
        result = run_script("--n", "4", "--vcs", "1", "--logs", self.logs, "--from-logs")
        self.assertEqual(result.returncode, 0, result.stderr)
        n = 4
        node = sum(BLOCKS[b][0] for b in ("processor-n4", "bus_controller-n4", "index_manipulator-n4"))
        node_ffs = sum(BLOCKS[b][1] for b in ("processor-n4", "bus_controller-n4", "index_manipulator-n4"))
        memory = {"omp": "module_array-n4", "crossbar": "crossbar_array-n4", "bus": "crossbar_array-1bus-n4"}
        # [PH91] Eq. (1) terms at the defaults (alpha 16, beta 2, tau 1, gamma 8), d = n - 1, l = 4:
        # T = alpha + beta (l - 1) + d tau l, T1 the same with d = 1 (docs/cli.md, orthosim access).
        alpha, beta, tau, gamma, d, l = 16, 2, 1, 8, n - 1, 4
        t = alpha + beta * (l - 1) + d * tau * l
        t1 = alpha + beta * (l - 1) + tau * l
        all_to_all = {"omp": 2 * t + gamma, "crossbar": t + gamma + d * t1,
                      "bus": n * t + gamma + n * d * t1}
        rows = {row[0]: row for row in table(result.stdout, "system")}
        self.assertEqual(sorted(rows), ["bus", "crossbar", "omp"])
        for sys_name, row in rows.items():
            cells = n * node + BLOCKS["sync_unit-n4"][0] + BLOCKS[memory[sys_name]][0]
            ffs = n * node_ffs + BLOCKS["sync_unit-n4"][1] + BLOCKS[memory[sys_name]][1]
            fig2 = orthosim_cycles("run", os.path.join(SCRIPTS, "..", "examples", "fig2_sample.mcp"),
                                   "--arch", sys_name)
            self.assertEqual(row[1:5], [str(n), str(cells), str(ffs), str(fig2)], sys_name)
            self.assertEqual(row[5], f"{cells * fig2 / 1e6:.1f}", sys_name)
            self.assertEqual(row[6], str(all_to_all[sys_name]), sys_name)
            self.assertEqual(row[7], f"{cells * all_to_all[sys_name] / 1e6:.1f}", sys_name)
        [mesh] = table(result.stdout, "mesh")
        node_cells = BLOCKS["router-v1"][0] + BLOCKS["network_interface"][0]
        node_ffs = BLOCKS["router-v1"][1] + BLOCKS["network_interface"][1]
        fig2 = orthosim_cycles("run", os.path.join(SCRIPTS, "..", "examples", "fig2_sample.mcp"), "--arch",
                               "mesh", "--dims", "2x2", "--vcs", "1", "--buffers", "2", "--ports", "all")
        self.assertEqual(mesh[:8], ["2x2", "4", "1", str(node_cells), str(node_ffs), str(4 * node_cells),
                                    str(4 * node_ffs), str(fig2)])
        self.assertEqual(mesh[8], f"{4 * node_cells * fig2 / 1e6:.1f}")
        blocks = table(result.stdout, "block")
        self.assertEqual([(row[1], row[3], row[4]) for row in blocks],
                         [(name, str(c), str(f)) for name, (c, f) in BLOCKS.items()])

    def test_a_block_left_with_processes_fails(self):
        write_logs(self.logs, broken="sync_unit-n4")
        result = run_script("--n", "4", "--vcs", "1", "--logs", self.logs, "--from-logs")
        self.assertEqual(result.returncode, 1)
        self.assertIn("sync_unit-n4 not fully synthesized", result.stderr)

    def test_bad_options_exit_2_naming_the_option(self):
        for args, option in ((["--n", "6"], "--n"), (["--vcs", "0"], "--vcs"), (["--from-logs"], "--from-logs"),
                             (["--logs", os.path.join(self.logs, "none"), "--from-logs"], "--logs"),
                             (["--speed"], "--speed")):
            result = run_script(*args)
            self.assertEqual(result.returncode, 2, args)
            self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
            self.assertIn(option, result.stderr)
            self.assertEqual(result.stdout, "")


if __name__ == "__main__":
    SCRIPTS, ORTHOSIM = sys.argv[1], os.path.abspath(sys.argv[2])
    unittest.main(argv=sys.argv[:1])
