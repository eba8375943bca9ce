// The table and JSON of `orthosim tables`.
#include "sw/cli/tables_report.hpp"

#include <iomanip>
#include <sstream>

#include "sw/cli/network_report.hpp"
#include "sw/cli/report.hpp"

namespace orthosim::sw::cli {

using experiments::TableRow;
using experiments::TablesRun;
using experiments::TablesSetup;

namespace {

bool one_to_all(paper::TablePattern p) {
  return p == paper::TablePattern::OneToAllBroadcast ||
         p == paper::TablePattern::OneToAllPersonalized;
}

std::string fixed(double value, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << value;
  return s.str();
}

std::string status(const TableRow& r) {
  std::string out;
  if (!r.omp.payload_ok()) {
    out += r.omp.completed ? " omp:PAYLOAD" : " omp:DEADLOCK";
  }
  if (!r.native.payload_ok()) {
    out += r.native.completed ? " native:PAYLOAD" : " native:DEADLOCK";
  }
  if (!r.native_direct.payload_ok()) {
    out += r.native_direct.completed ? " direct:PAYLOAD" : " direct:DEADLOCK";
  }
  return out;
}

}  // namespace

nlohmann::json tables_json(const TablesRun& run) {
  const TablesSetup& s = run.setup;
  nlohmann::json j;
  j["command"] = "tables";
  j["topology"] = to_string(s.topology);
  j["m"] = s.m;
  j["n"] = s.n;
  j["l"] = s.l;
  j["alpha"] = s.omp.timing.alpha;
  j["beta"] = s.omp.timing.beta;
  j["tau"] = s.omp.timing.tau;
  j["gamma"] = s.omp.timing.gamma;
  j["sync"] = "iwr";
  j["clustering"] = s.clustering;
  j["normalization"] = s.topology == TopologyKind::Torus ? "Eq. 3" : "Eq. 2";
  j["k1"] = s.k1;
  j["k2"] = s.k2;
  j["k3"] = s.norm.k3;
  j["delta"] = s.norm.delta;
  j["startup_cycles"] = s.network->ni.startup;
  j["flits_per_word"] = s.flits_per_word;
  j["network"] = network_json(s.network);
  j["paper_table"] = s.paper_table();
  j["ok"] = run.ok();
  nlohmann::json rows = nlohmann::json::array();
  for (const TableRow& r : run.rows) {
    nlohmann::json row;
    row["pattern"] = paper::to_string(r.pattern);
    row["table1"] = paper::table1_name(r.pattern);
    row["m"] = s.m;
    row["n"] = s.n;
    row["l"] = s.l;
    row["d"] = r.d;
    row["lambda"] = r.lambda;
    row["source"] = r.source;
    row["destination"] = r.destination ? nlohmann::json(*r.destination) : nlohmann::json();
    row["same_cluster"] = r.same_cluster;
    row["formula_cycles"] = r.formula.count();
    row["omp_cycles"] = r.omp.cycles.count();
    row["native_cycles"] = r.native.cycles.count();
    row["native_algorithm"] = r.native_algorithm;
    row["native_direct_cycles"] = r.native_direct.cycles.count();
    const std::optional<double> measured = r.measured_ratio();
    row["measured_ratio"] = measured ? nlohmann::json(*measured) : nlohmann::json();
    const std::optional<double> direct = r.direct_ratio();
    row["direct_ratio"] = direct ? nlohmann::json(*direct) : nlohmann::json();
    row["paper_cost"] = r.paper_cost;
    row["paper_vectorized_cost"] = r.paper_vectorized;
    row["paper_ratio"] = r.paper_ratio;
    row["omp_ok"] = r.omp.payload_ok();
    row["native_ok"] = r.native.payload_ok();
    row["native_direct_ok"] = r.native_direct.payload_ok();
    row["native_messages"] = r.native.delivery.messages_checked;
    rows.push_back(row);
  }
  j["rows"] = rows;
  return j;
}

void print_tables(const TablesRun& run, std::ostream& out) {
  const TablesSetup& s = run.setup;
  const BusTiming& t = s.omp.timing;
  const bool torus = s.topology == TopologyKind::Torus;
  out << "orthosim tables: " << to_string(s.topology) << " programs of m = " << s.m
      << " nodes on an n = " << s.n << " processor omp, messages of l = " << s.l << " word"
      << (s.l == 1 ? "" : "s") << " ([PH91] Table 2 and " << s.paper_table() << ")\n";
  out << "  omp     alpha " << t.alpha << ", beta " << t.beta << ", tau " << t.tau << ", gamma "
      << t.gamma << " cycles; IWR steps (--sync iwr); " << s.clustering << '\n';
  out << "  native  " << describe(s.network) << '\n';
  out << "  " << (torus ? "Eq. 3 " : "Eq. 2 ")
      << "  k3 = (alpha - beta)/tau = " << fixed(s.norm.k3, 2)
      << ", delta = beta/tau = " << fixed(s.norm.delta, 2) << ", k1 = " << s.k1 << ", k2 = " << s.k2
      << ": start-up t_h = k1 k3 tau = " << s.network->ni.startup
      << " cycles, tau_h = k2 tau = " << s.flits_per_word << " cycles per word (each word sent as "
      << s.flits_per_word << " flit" << (s.flits_per_word == 1 ? "" : "s")
      << ", plus one header flit per message)\n\n";
  out << "  " << std::left << std::setw(25) << "pattern" << std::right << std::setw(5) << "d"
      << std::setw(7) << "lambda" << std::setw(12) << "T(d,lam l)" << std::setw(9) << "omp"
      << std::setw(10) << "native" << std::setw(11) << "native/omp" << std::setw(12)
      << "paper ratio" << std::setw(10) << "direct" << std::setw(11) << "direct/omp"
      << "   native algorithm; paper: network / vectorized, tau units\n";
  for (const TableRow& r : run.rows) {
    const std::optional<double> measured = r.measured_ratio();
    const std::optional<double> direct = r.direct_ratio();
    out << "  " << std::left << std::setw(25) << paper::to_string(r.pattern) << std::right
        << std::setw(5) << r.d << std::setw(7) << r.lambda << std::setw(10) << r.formula.count()
        << (one_to_all(r.pattern) ? " *" : "  ") << std::setw(9) << r.omp.cycles.count()
        << std::setw(10) << r.native.cycles.count() << std::setw(11)
        << (measured ? fixed(*measured, 2) : std::string("-")) << std::setw(12)
        << fixed(r.paper_ratio, 2) << std::setw(10) << r.native_direct.cycles.count()
        << std::setw(11) << (direct ? fixed(*direct, 2) : std::string("-")) << "   "
        << r.native_algorithm << "; " << fixed(r.paper_cost, 1) << " / "
        << fixed(r.paper_vectorized, 1) << status(r) << '\n';
  }
  out << "\n  one-to-one: node " << (run.rows.empty() ? 0 : run.rows.front().source) << " -> node "
      << (run.rows.empty() || !run.rows.front().destination ? 0 : *run.rows.front().destination)
      << " (the node farthest from it on the " << to_string(s.topology)
      << ", in another cluster); one-to-all rows from node 0.\n"
      << "  * the omp reads a one-to-all pattern's messages from one module per receiver (d = 1),"
         " so it\n    takes less than Table 2's T(n-1, lambda l): the table is an upper bound"
         " there.\n"
      << "  native: the collective named last on the row, the fastest of those tried"
         " (docs/tables.md);\n    direct: the same pattern, every message sent directly (a"
         " broadcast one message per\n    destination). The paper's network column assumes"
         " the algorithms of its reference [21].\n"
      << "  paper ratio: the network column over the vectorized column (Eq. 1, without gamma)";
  if (torus) {
    out << ";\n    the vectorized column follows Eq. 1 and Table 2, not the printed Table 5"
           " (errata of [PH91], docs/references.md)";
  }
  out << ".\n";
  for (const TableRow& r : run.rows) {
    if (!r.ok()) {
      out << "  " << paper::to_string(r.pattern) << ":\n";
      // A failed native run is always the direct run (a collective is taken only when its
      // payload arrived), so its problems are the direct run's, listed once.
      print_problems(r.omp, out);
      print_problems(r.native_direct, out);
    }
  }
}

}  // namespace orthosim::sw::cli
