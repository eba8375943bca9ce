// Mesh, torus and hypercube: numbering, neighbours, the default routing's paths, the dateline and
// the command-line parser ([LCC] sections 2.1 and 2.3, [CALMANT] section 2.1).
#include "sw/topology/topology.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "sw/core/diagnostic.hpp"
#include "sw/topology/routing.hpp"

namespace orthosim::sw {

namespace {

std::string quoted(const std::string& text) { return "'" + text + "'"; }

/// A decimal number of at most 9 digits (so it fits std::uint32_t); false for anything else.
bool parse_number(const std::string& text, std::uint32_t& out) {
  if (text.empty() || text.size() > 9) {
    return false;
  }
  std::uint32_t value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') {
      return false;
    }
    value = value * 10 + static_cast<std::uint32_t>(ch - '0');
  }
  out = value;
  return true;
}

std::string join_radices(const std::vector<std::uint32_t>& radices) {
  std::string out;
  for (std::size_t i = 0; i < radices.size(); ++i) {
    out += (i == 0 ? "" : "x") + std::to_string(radices[i]);
  }
  return out;
}

/// Product of the radices, saturated just above the node limit so that it cannot overflow.
std::uint64_t node_count(const std::vector<std::uint32_t>& radices) {
  std::uint64_t n = 1;
  for (std::uint32_t k : radices) {
    n *= k;
    if (n > Topology::max_nodes) {
      return std::uint64_t{Topology::max_nodes} + 1;
    }
  }
  return n;
}

std::vector<std::uint32_t> parse_dims(const std::string& text) {
  const std::string expected = "radices separated by 'x', e.g. 8x8 or 4x4x4";
  std::vector<std::uint32_t> radices;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('x', start);
    const std::string token = text.substr(start, end == std::string::npos ? end : end - start);
    std::uint32_t k = 0;
    if (!parse_number(token, k)) {
      if (!token.empty() && token.find_first_not_of("0123456789") == std::string::npos) {
        // Digits too many for a radix: the form is right, the size is not.
        throw ParameterError("dims", "at most " + std::to_string(Topology::max_nodes) + " nodes",
                             "a radix of " + std::to_string(token.size()) + " digits in " +
                                 quoted(text));
      }
      throw ParameterError("dims", expected, quoted(text));
    }
    radices.push_back(k);
    if (end == std::string::npos) {
      break;
    }
    start = end + 1;
  }
  if (radices.size() > Topology::max_grid_dims) {
    throw ParameterError("dims", "1 to 3 dimensions",
                         std::to_string(radices.size()) + " in " + quoted(text));
  }
  for (std::uint32_t k : radices) {
    if (k < 2) {
      throw ParameterError("dims", "every radix at least 2",
                           std::to_string(k) + " in " + quoted(text));
    }
  }
  if (node_count(radices) > Topology::max_nodes) {
    // Radices have at most 9 digits, so the exact count can overflow 64 bits: say so.
    std::uint64_t exact = 1;
    bool overflow = false;
    for (std::uint32_t k : radices) {
      overflow = overflow || exact > std::numeric_limits<std::uint64_t>::max() / k;
      exact *= k;
    }
    throw ParameterError("dims", "at most " + std::to_string(Topology::max_nodes) + " nodes",
                         (overflow ? std::string("more than 2^64") : std::to_string(exact)) +
                             " nodes in " + quoted(text));
  }
  return radices;
}

void check_grid(const std::vector<std::uint32_t>& radices, const char* what) {
  if (radices.empty() || radices.size() > Topology::max_grid_dims) {
    throw std::invalid_argument(std::string("a ") + what + " has 1 to 3 dimensions");
  }
  for (std::uint32_t k : radices) {
    if (k < 2) {
      throw std::invalid_argument(std::string("every radix of a ") + what + " is at least 2");
    }
  }
  if (node_count(radices) > Topology::max_nodes) {
    throw std::invalid_argument(std::string("a ") + what + " has at most 65536 nodes");
  }
}

}  // namespace

std::string to_string(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::Mesh:
      return "mesh";
    case TopologyKind::Torus:
      return "torus";
    case TopologyKind::Hypercube:
      return "hypercube";
  }
  return "?";
}

std::vector<std::string> topology_kind_names() {
  return {to_string(TopologyKind::Mesh), to_string(TopologyKind::Torus),
          to_string(TopologyKind::Hypercube)};
}

Topology::Topology(TopologyKind kind, std::vector<std::uint32_t> radices)
    : kind_(kind), radices_(std::move(radices)) {
  nodes_ = static_cast<std::uint32_t>(node_count(radices_));
}

Topology Topology::mesh(std::vector<std::uint32_t> radices) {
  check_grid(radices, "mesh");
  return Topology(TopologyKind::Mesh, std::move(radices));
}

Topology Topology::torus(std::vector<std::uint32_t> radices) {
  check_grid(radices, "torus");
  return Topology(TopologyKind::Torus, std::move(radices));
}

Topology Topology::hypercube(std::uint32_t d) {
  if (d < 1 || d > max_hypercube_dim) {
    throw std::invalid_argument("a hypercube has dimension 1 to 10");
  }
  return Topology(TopologyKind::Hypercube, std::vector<std::uint32_t>(d, 2));
}

Topology Topology::parse(const std::string& kind, const std::optional<std::string>& dims,
                         const std::optional<std::string>& dim, const std::string& kind_parameter) {
  if (kind == "mesh" || kind == "torus") {
    if (dim) {
      throw ParameterError("dim", "no {dim} for a " + kind + " (its size is {dims}, e.g. 8x8)",
                           "{dim} " + *dim);
    }
    if (!dims) {
      throw ParameterError("dims", "the radices of the " + kind + ", e.g. {dims} 8x8", "no {dims}");
    }
    std::vector<std::uint32_t> radices = parse_dims(*dims);
    return kind == "mesh" ? mesh(std::move(radices)) : torus(std::move(radices));
  }
  if (kind == "hypercube") {
    if (dims) {
      throw ParameterError("dims", "no {dims} for a hypercube (its size is {dim}, e.g. 8)",
                           "{dims} " + *dims);
    }
    if (!dim) {
      throw ParameterError("dim", "the hypercube dimension d, e.g. {dim} 8", "no {dim}");
    }
    std::uint32_t d = 0;
    if (!parse_number(*dim, d) || d < 1 || d > max_hypercube_dim) {
      throw ParameterError("dim", "a hypercube dimension d from 1 to 10", quoted(*dim));
    }
    return hypercube(d);
  }
  throw ParameterError(kind_parameter, "mesh, torus or hypercube", quoted(kind));
}

std::optional<std::uint32_t> Topology::address_bits() const {
  std::uint32_t bits = 0;
  while ((std::uint32_t{1} << bits) < nodes_) {
    ++bits;
  }
  if ((std::uint32_t{1} << bits) != nodes_) {
    return std::nullopt;
  }
  return bits;
}

void Topology::check_node(std::uint32_t node) const {
  if (node >= nodes_) {
    throw std::out_of_range("node " + std::to_string(node) + " outside the " + to_string() + " (" +
                            std::to_string(nodes_) + " nodes)");
  }
}

void Topology::check_port(Port p) const {
  if (p.dim >= dimensions() || (kind_ == TopologyKind::Hypercube && !p.positive)) {
    throw std::out_of_range("no port " + std::to_string(p.dim) + (p.positive ? "+" : "-") +
                            " on the " + to_string());
  }
}

std::vector<std::uint32_t> Topology::coordinates(std::uint32_t node) const {
  check_node(node);
  std::vector<std::uint32_t> coords(radices_.size());
  for (std::size_t i = 0; i < radices_.size(); ++i) {
    coords[i] = node % radices_[i];
    node /= radices_[i];
  }
  return coords;
}

std::uint32_t Topology::coordinate(std::uint32_t node, std::uint32_t dim) const {
  check_node(node);
  const std::uint32_t radix = radices_.at(dim);
  for (std::uint32_t i = 0; i < dim; ++i) {
    node /= radices_[i];
  }
  return node % radix;
}

std::uint32_t Topology::node_at(const std::vector<std::uint32_t>& coords) const {
  if (coords.size() != radices_.size()) {
    throw std::out_of_range(std::to_string(coords.size()) + " coordinates for the " + to_string());
  }
  std::uint32_t node = 0;
  for (std::size_t i = radices_.size(); i-- > 0;) {
    if (coords[i] >= radices_[i]) {
      throw std::out_of_range("coordinate " + std::to_string(coords[i]) + " in dimension " +
                              std::to_string(i) + " of the " + to_string());
    }
    node = node * radices_[i] + coords[i];
  }
  return node;
}

std::vector<Port> Topology::ports() const {
  std::vector<Port> out;
  for (std::uint32_t i = 0; i < dimensions(); ++i) {
    out.push_back({i, true});
    if (kind_ != TopologyKind::Hypercube) {
      out.push_back({i, false});
    }
  }
  return out;
}

std::uint32_t Topology::port_index(Port p) const {
  check_port(p);
  if (kind_ == TopologyKind::Hypercube) {
    return p.dim;
  }
  return 2 * p.dim + (p.positive ? 0 : 1);
}

Port Topology::port_at(std::uint32_t index) const {
  if (kind_ == TopologyKind::Hypercube) {
    check_port({index, true});
    return {index, true};
  }
  const Port p{index / 2, index % 2 == 0};
  check_port(p);
  return p;
}

std::string Topology::port_name(Port p) const {
  check_port(p);
  if (kind_ == TopologyKind::Hypercube) {
    return "d" + std::to_string(p.dim);
  }
  return std::string(1, "xyz"[p.dim]) + (p.positive ? "+" : "-");
}

std::optional<std::uint32_t> Topology::neighbor(std::uint32_t node, Port p) const {
  check_node(node);
  check_port(p);
  if (kind_ == TopologyKind::Hypercube) {
    return node ^ (std::uint32_t{1} << p.dim);
  }
  std::vector<std::uint32_t> c = coordinates(node);
  const std::uint32_t k = radices_[p.dim];
  std::uint32_t& x = c[p.dim];
  if (p.positive) {
    if (x + 1 < k) {
      ++x;
    } else if (kind_ == TopologyKind::Torus) {
      x = 0;
    } else {
      return std::nullopt;
    }
  } else {
    if (x > 0) {
      --x;
    } else if (kind_ == TopologyKind::Torus) {
      x = k - 1;
    } else {
      return std::nullopt;
    }
  }
  return node_at(c);
}

std::optional<Port> Topology::next_port(std::uint32_t at, std::uint32_t dest,
                                        HalfRingTie tie) const {
  check_node(at);
  check_node(dest);
  return default_next_port(*this, at, dest, tie);
}

std::vector<std::pair<std::uint32_t, Port>> Topology::route(std::uint32_t src, std::uint32_t dest,
                                                            HalfRingTie tie) const {
  std::vector<std::pair<std::uint32_t, Port>> out;
  std::uint32_t at = src;
  while (std::optional<Port> p = next_port(at, dest, tie)) {
    out.emplace_back(at, *p);
    at = *neighbor(at, *p);
  }
  return out;
}

std::uint32_t Topology::hops(std::uint32_t src, std::uint32_t dest) const {
  check_node(src);
  check_node(dest);
  if (kind_ == TopologyKind::Hypercube) {
    std::uint32_t diff = src ^ dest;
    std::uint32_t count = 0;
    for (; diff != 0; diff &= diff - 1) {
      ++count;
    }
    return count;
  }
  const std::vector<std::uint32_t> a = coordinates(src);
  const std::vector<std::uint32_t> b = coordinates(dest);
  std::uint32_t total = 0;
  for (std::size_t i = 0; i < radices_.size(); ++i) {
    const std::uint32_t dx = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
    total += kind_ == TopologyKind::Torus ? std::min(dx, radices_[i] - dx) : dx;
  }
  return total;
}

bool Topology::crosses_dateline(std::uint32_t node, Port p) const {
  check_node(node);
  check_port(p);
  if (kind_ != TopologyKind::Torus) {
    return false;
  }
  const std::uint32_t x = coordinate(node, p.dim);
  return p.positive ? x == radices_[p.dim] - 1 : x == 0;
}

std::string Topology::to_string() const {
  switch (kind_) {
    case TopologyKind::Mesh:
      return (radices_.size() == 1 ? "line " : "mesh ") + join_radices(radices_);
    case TopologyKind::Torus:
      return (radices_.size() == 1 ? "ring " : "torus ") + join_radices(radices_);
    case TopologyKind::Hypercube:
      return "hypercube d=" + std::to_string(radices_.size());
  }
  return "?";
}

}  // namespace orthosim::sw
