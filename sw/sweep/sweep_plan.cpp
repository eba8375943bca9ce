// Points, child command lines and CSV rows of a sweep.
#include "sw/sweep/sweep_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "sw/core/diagnostic.hpp"
#include "sw/core/input_file.hpp"

namespace orthosim::sw::sweep {

namespace {

constexpr const char* kTrafficPrefix = "traffic:";

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) {
      return parts;
    }
    start = end + 1;
  }
}

/// The parameter that sets variant field `key`, if any (`arch` is --topology for traffic).
const Param* param_for_field(const SweepSpec& spec, const std::string& key) {
  for (const Param& p : spec.params) {
    if (p.name == key || (key == "arch" && p.name == "topology")) {
      return &p;
    }
  }
  return nullptr;
}

bool is_field_param(const Param& p) {
  return find_variant_field(p.name) != nullptr || p.name == "topology";
}

/// FNV-1a of a file's bytes: enough to tell a changed file from the same one. Every point's
/// child reads the file again, so it must be a regular file: a FIFO would be empty by then.
std::string content_hash(const std::string& path) {
  InputRules rules;
  rules.what = "sweep input";
  rules.encoding = TextEncoding::Bytes;  // its reader has checked the text already
  rules.regular_only = true;
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : read_input_file(path, rules)) {
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

/// A JSON scalar as CSV text: numbers as JSON writes them, booleans as true/false, absent empty.
std::string scalar_text(const nlohmann::json& j, const std::string& key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    return "";
  }
  return it->is_string() ? it->get<std::string>() : it->dump();
}

}  // namespace

Param parse_param(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw ParameterError("param", "NAME=V1,V2,... (e.g. alpha=8,16,32)", "'" + text + "'");
  }
  Param p{text.substr(0, eq), split(text.substr(eq + 1), ',')};
  for (std::size_t k = 0; k < p.values.size(); ++k) {
    if (p.values[k].empty()) {
      throw ParameterError("param", "values separated by single commas", "'" + text + "'");
    }
    // A value twice would run its points twice, as a variant file twice would.
    if (std::find(p.values.begin(), p.values.begin() + static_cast<std::ptrdiff_t>(k),
                  p.values[k]) != p.values.begin() + static_cast<std::ptrdiff_t>(k)) {
      throw ParameterError("param", "distinct values",
                           "'" + p.values[k] + "' twice in '" + text + "'");
    }
  }
  return p;
}

TargetKind target_kind(const std::string& target) {
  return target.rfind(kTrafficPrefix, 0) == 0 ? TargetKind::Traffic : TargetKind::Program;
}

std::string traffic_pattern(const std::string& target) {
  return target.substr(std::string(kTrafficPrefix).size());
}

std::string child_command(TargetKind kind) {
  return kind == TargetKind::Traffic ? "traffic" : "run";
}

std::vector<Point> enumerate_points(const SweepSpec& spec) {
  std::vector<Point> points;
  for (std::size_t v = 0; v < spec.variant_paths.size(); ++v) {
    Point p;
    p.variant = v;
    p.values.assign(spec.params.size(), 0);
    while (true) {
      p.index = points.size();
      points.push_back(p);
      // Odometer over the parameters, the last one fastest.
      std::size_t k = spec.params.size();
      while (k > 0 && ++p.values[k - 1] == spec.params[k - 1].values.size()) {
        p.values[k - 1] = 0;
        --k;
      }
      if (k == 0) {
        break;
      }
    }
  }
  return points;
}

const std::vector<std::string>& figure_columns(TargetKind kind) {
  static const std::vector<std::string> program = {"status",
                                                   "completed",
                                                   "payload_ok",
                                                   "cycles",
                                                   "predicted_cycles",
                                                   "time_ns",
                                                   "messages_sent",
                                                   "messages_delivered",
                                                   "words",
                                                   "conflicts",
                                                   "conflict_wait_cycles",
                                                   "max_channel_contention",
                                                   "peak_channel_occupancy"};
  static const std::vector<std::string> traffic = {"status",
                                                   "offered",
                                                   "accepted",
                                                   "latency_avg",
                                                   "latency_p50",
                                                   "latency_p99",
                                                   "latency_max",
                                                   "sustainable",
                                                   "deadlocked",
                                                   "sim_cycles",
                                                   "measured_packets",
                                                   "flits_delivered",
                                                   "flit_hops",
                                                   "max_channel_contention",
                                                   "peak_channel_occupancy"};
  return kind == TargetKind::Traffic ? traffic : program;
}

std::vector<std::string> header(const SweepSpec& spec) {
  std::vector<std::string> h{"point", "variant"};
  for (const VariantFieldSpec& f : variant_fields()) {
    h.push_back(f.key);
  }
  for (const Param& p : spec.params) {
    if (!is_field_param(p)) {
      h.push_back(p.name);
    }
  }
  const std::vector<std::string>& figures = figure_columns(spec.kind);
  h.insert(h.end(), figures.begin(), figures.end());
  h.push_back("wall_s");
  return h;
}

std::vector<std::string> row(const SweepSpec& spec, const Point& point, int exit_code,
                             const std::string& json_text, double wall_seconds) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error("point " + std::to_string(point.index) +
                             ": the child printed no JSON");
  }
  std::vector<std::string> r{std::to_string(point.index), spec.variant_paths.at(point.variant)};
  const Variant& variant = spec.variants.at(point.variant);
  for (const VariantFieldSpec& f : variant_fields()) {
    const Param* p = param_for_field(spec, f.key);
    const std::size_t k = p == nullptr ? 0 : static_cast<std::size_t>(p - spec.params.data());
    const VariantValue* v = variant.find(f.key);
    r.push_back(p != nullptr ? p->values[point.values[k]] : v != nullptr ? v->text : "");
  }
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    if (!is_field_param(spec.params[k])) {
      r.push_back(spec.params[k].values[point.values[k]]);
    }
  }
  for (const std::string& column : figure_columns(spec.kind)) {
    if (column == "status") {
      r.push_back(exit_code == 0 ? "ok" : "failed");
    } else if (column == "cycles") {
      r.push_back(scalar_text(j, "total_cycles"));
    } else {
      r.push_back(scalar_text(j, column));
    }
  }
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.3f", wall_seconds);
  r.emplace_back(wall);
  return r;
}

std::string signature(const SweepSpec& spec) {
  std::ostringstream s;
  s << "orthosim sweep v1; " << child_command(spec.kind) << ' ' << spec.target;
  if (spec.kind == TargetKind::Program) {
    s << '@' << content_hash(spec.target);
  }
  s << "; variants";
  for (const std::string& v : spec.variant_paths) {
    s << ' ' << v << '@' << content_hash(v);
  }
  s << "; params";
  for (const Param& p : spec.params) {
    s << ' ' << p.name << '=';
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      s << (i ? "," : "") << p.values[i];
    }
  }
  return s.str();
}

}  // namespace orthosim::sw::sweep
