// Validation and packet arithmetic of a network's parameters.
#include "sw/routed/network_config.hpp"

#include <algorithm>
#include <optional>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw {

std::string to_string(Switching s) { return s == Switching::Wormhole ? "wormhole" : "saf"; }

std::string to_string(NodePorts p) { return p == NodePorts::One ? "one" : "all"; }

std::uint32_t default_vcs(const Topology& topology) {
  return default_vc_policy(topology).default_vcs();
}

Validated<NetworkConfig> NetworkConfig::validated() const {
  require_parameter(router.buffer_flits >= 1 && router.buffer_flits <= 1024, "buffers",
                    "1..1024 flits per virtual channel", quoted(router.buffer_flits));
  require_parameter(router.vcs >= 1 && router.vcs <= 16, "vcs", "1..16 virtual channels",
                    quoted(router.vcs));
  require_parameter(router.delay >= 1 && router.delay <= 1000, "router-delay", "1..1000 cycles",
                    quoted(router.delay));
  if (!routing.empty()) {
    const std::vector<std::string> runs = routing_names(topology);
    require_parameter(!hand_built && std::find(runs.begin(), runs.end(), routing) != runs.end(),
                      "routing",
                      "a routing of the " + to_string(topology.kind()) + " (" + runs.front() +
                          (runs.size() > 1 ? " or " + runs.back() : std::string()) + ")",
                      "'" + routing + "'");
    // The verilated router computes the e-cube and dimension-order port in hardware (rtl/router.sv).
    require_parameter(routing == runs.front() || impl.router == Impl::Model, "routing",
                      runs.front() + ", the one routing of the RTL router that {impl} asks for (" +
                          routing + " runs on the model routers)",
                      "'" + routing + "'");
  }
  // The verilated interfaces hand their flits to verilated routers and take theirs (a node is
  // interface plus router in RTL); the model routers work with the model's interfaces.
  require_parameter(
      impl.network_interface == Impl::Model || impl.router != Impl::Model, "impl",
      std::string("router=rtl or router=cosim with ni=") + to_string(impl.network_interface) +
          " (the verilated interfaces exchange flits with verilated routers, the model "
          "routers with the model's interfaces)",
      "'router=model'");
  if (const std::optional<std::string> expected = vc_policy().check_vcs(router.vcs)) {
    require_parameter(false, "vcs", *expected, quoted(router.vcs));
  }
  require_parameter(ni.packet_flits == 0 || ni.packet_flits >= 2, "packet-flits",
                    "0 (one packet per message) or at least 2 (a header and a word)",
                    quoted(ni.packet_flits));
  require_parameter(clock_period_ns >= 1, "clock-ns", "at least 1 ns", quoted(clock_period_ns));
  require_parameter(watchdog_cycles >= 1, "watchdog", "at least 1 cycle", quoted(watchdog_cycles));
  return Validated<NetworkConfig>(*this);
}

std::uint64_t NetworkConfig::message_packets(std::uint64_t words) const {
  if (ni.packet_flits == 0 || words == 0) {
    return 1;
  }
  const std::uint64_t per_packet = ni.packet_flits - 1;
  return (words + per_packet - 1) / per_packet;
}

std::uint64_t NetworkConfig::message_flits(std::uint64_t words) const {
  return words + message_packets(words);
}

std::optional<std::uint64_t> NetworkConfig::lone_message_cycles(std::uint32_t hops,
                                                                std::uint64_t words) const {
  if (message_packets(words) != 1) {
    return std::nullopt;
  }
  const std::uint64_t flits = message_flits(words);
  const std::uint64_t routers = std::uint64_t{hops} + 1;
  if (router.switching == Switching::StoreAndForward) {
    return ni.startup + flits + routers * (router.delay + flits - 1);
  }
  return ni.startup + routers * router.delay + flits;
}

}  // namespace orthosim::sw
