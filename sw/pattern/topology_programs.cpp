// Hypercube exchanges and torus shifts as programs ([PH91] section 5).
#include "sw/pattern/topology_programs.hpp"

#include <algorithm>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

McProgram hypercube_exchange(std::uint32_t nodes, const std::vector<std::uint32_t>& dims,
                             std::uint32_t words, bool together) {
  if (nodes < 2 || (nodes & (nodes - 1)) != 0) {
    throw ParameterError("nodes", "a power of two (a hypercube of 2^p nodes)",
                         std::to_string(nodes));
  }
  std::uint32_t p = 0;
  while ((1u << p) < nodes) {
    ++p;
  }
  if (dims.empty()) {
    throw ParameterError("dims", "at least one dimension", "none");
  }
  std::vector<std::uint32_t> seen;
  for (std::uint32_t k : dims) {
    if (k >= p) {
      throw ParameterError("dims", "dimensions 0.." + std::to_string(p - 1), std::to_string(k));
    }
    if (std::find(seen.begin(), seen.end(), k) != seen.end()) {
      throw ParameterError("dims", "each dimension once", std::to_string(k) + " twice");
    }
    seen.push_back(k);
  }
  if (words == 0) {
    throw ParameterError("len", "at least one word per message", "0");
  }
  McProgram out;
  std::string list;
  for (std::uint32_t k : dims) {
    list += (list.empty() ? "x" : ",x") + std::to_string(k);
  }
  out.name = "exchange " + list + " m=" + std::to_string(nodes) + (together ? " together" : "");
  out.nodes = nodes;
  const auto step_over = [&](const std::vector<std::uint32_t>& ks) {
    ProgramStep step;
    step.label = "exchange";
    for (NodeId i = 0; i < nodes; ++i) {
      Transfer t;
      t.source = i;
      t.words = words;
      for (std::uint32_t k : ks) {
        t.destinations.push_back(i ^ (1u << k));
      }
      step.transfers.push_back(t);
    }
    out.steps.push_back(step);
  };
  if (together) {
    step_over(dims);
  } else {
    for (std::uint32_t k : dims) {
      step_over({k});
    }
  }
  return out;
}

McProgram cc_cube(std::uint32_t dim, const std::vector<std::uint32_t>& dims, std::uint32_t words,
                  Cycle compute) {
  if (dim < 1 || dim > 16) {
    throw ParameterError("dim", "a cube dimension 1..16", std::to_string(dim));
  }
  McProgram out = hypercube_exchange(1U << dim, dims, words, false);
  std::string list;
  for (std::uint32_t k : dims) {
    list += (list.empty() ? "" : ",") + std::to_string(k);
  }
  out.name = "cc-cube d=" + std::to_string(dim) + " dims " + list +
             " len=" + std::to_string(words) + " compute=" + std::to_string(compute.count());
  for (std::size_t s = 0; s < out.steps.size(); ++s) {
    ProgramStep& step = out.steps[s];
    step.label = "stage" + std::to_string(s);
    if (compute > Cycle{0}) {
      for (NodeId n = 0; n < out.nodes; ++n) {
        step.computes.push_back(ComputePhase{n, compute, {}});
      }
    }
  }
  return out;
}

std::string to_string(ShiftDirection d) {
  switch (d) {
    case ShiftDirection::East:
      return "east";
    case ShiftDirection::West:
      return "west";
    case ShiftDirection::North:
      return "north";
    case ShiftDirection::South:
      return "south";
  }
  return "?";
}

ShiftDirection parse_shift_direction(const std::string& text) {
  for (ShiftDirection d :
       {ShiftDirection::East, ShiftDirection::West, ShiftDirection::North, ShiftDirection::South}) {
    if (text == to_string(d)) {
      return d;
    }
  }
  throw ParameterError("direction", "east, west, north or south", "'" + text + "'");
}

McProgram torus_shift(std::uint32_t columns, std::uint32_t rows, ShiftDirection direction,
                      std::uint32_t distance, std::uint32_t words) {
  const bool horizontal = direction == ShiftDirection::East || direction == ShiftDirection::West;
  const std::uint32_t ring = horizontal ? columns : rows;
  if (ring < 2 || columns * rows == 0) {
    throw ParameterError("torus",
                         horizontal ? "at least 2 columns for an east or west shift"
                                    : "at least 2 rows for a north or south shift",
                         "'" + std::to_string(columns) + "x" + std::to_string(rows) + "'");
  }
  if (distance % ring == 0) {
    throw ParameterError("distance", "a shift of 1.." + std::to_string(ring - 1) + " nodes",
                         std::to_string(distance));
  }
  if (words == 0) {
    throw ParameterError("len", "at least one word per message", "0");
  }
  const std::uint32_t forward = distance % ring;
  const std::uint32_t step = direction == ShiftDirection::East || direction == ShiftDirection::North
                                 ? forward
                                 : ring - forward;
  McProgram out;
  out.name = to_string(direction) + " " + std::to_string(distance) + " on " +
             std::to_string(columns) + "x" + std::to_string(rows);
  out.nodes = columns * rows;
  ProgramStep s;
  s.label = to_string(direction);
  for (std::uint32_t y = 0; y < rows; ++y) {
    for (std::uint32_t x = 0; x < columns; ++x) {
      const std::uint32_t tx = horizontal ? (x + step) % columns : x;
      const std::uint32_t ty = horizontal ? y : (y + step) % rows;
      s.transfers.push_back({x + columns * y, {tx + columns * ty}, false, words, {}});
    }
  }
  out.steps.push_back(s);
  return out;
}

}  // namespace orthosim::sw
