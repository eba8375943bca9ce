// Deadlock freedom of P-cube routing under saturating traffic, measured ([LCC] section 6.1's
// routers: wormhole, one virtual channel, 1-flit buffers, router delay 1, one-port interfaces).
// Every node of a hypercube injects whenever its injection channel lets it (rate 1: a message is
// always waiting at its interface), uniform random destinations or the transpose, for a number of
// cycles; then no new message is made and the network drains. Prints the messages injected and
// delivered, the accepted throughput, the drain and the wall time; exits 1 when a message is lost
// or no flit moves for 10^4 cycles (a deadlock), 0 otherwise.
//   pcube_saturation [CYCLES [DIM]]   (default 10^6 cycles on the 8-cube)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <systemc>
#include <vector>

#include "sc_models/net/fabric.hpp"
#include "sw/routed/network_config.hpp"

namespace {

namespace sc = orthosim::sc;
namespace sw = orthosim::sw;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kWords = 19;  ///< 20-flit messages, as [LCC] section 6.1

/// Notes the nodes whose message has just been injected entirely, so that the driver gives them
/// the next one, and counts the deliveries.
class SaturatingClient final : public sc::net::FabricClient {
 public:
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    if (index + 1 == kWords) {
      injected.push_back(source[message]);
    }
    return message;
  }
  void deliver_word(std::uint32_t, std::uint32_t, sw::Word) override {}
  void message_delivered(std::uint32_t, sw::Cycle) override { ++delivered; }

  std::vector<std::uint32_t> source;    ///< [message]
  std::vector<std::uint32_t> injected;  ///< sources whose last word left this cycle
  std::uint64_t delivered = 0;
};

bool saturate(std::uint32_t dim, bool transpose, std::uint64_t cycles) {
  sw::NetworkConfig config;
  config.topology = sw::Topology::hypercube(dim);
  config.routing = "p-cube";
  SaturatingClient client;
  sc::net::Fabric fabric(config.validated(), client);
  const std::uint32_t nodes = 1U << dim;
  const std::uint32_t half = dim / 2;
  std::mt19937_64 random(1);
  std::uniform_int_distribution<std::uint32_t> other(1, nodes - 1);
  const auto send = [&](std::uint32_t src) {
    const std::uint32_t dst = transpose ? (src >> half) | ((src & ((1U << half) - 1)) << half)
                                        : (src + other(random)) % nodes;
    if (dst == src) {
      return;  // the transpose's fixed points send nothing
    }
    const auto message = static_cast<std::uint32_t>(client.source.size());
    client.source.push_back(src);
    fabric.submit(message, src, dst, kWords);
  };
  // Two messages per node: while one is injected, the next waits.
  for (std::uint32_t src = 0; src < nodes; ++src) {
    send(src);
    send(src);
  }
  const Clock::time_point start = Clock::now();
  sw::Cycle c{0};
  bool stuck = false;
  for (; c.count() < cycles && !stuck; c = c + sw::Cycle{1}) {
    fabric.begin_cycle(c);
    for (const std::uint32_t src : client.injected) {
      send(src);
    }
    client.injected.clear();
    stuck = c.count() > fabric.last_move().count() + 10'000;
  }
  const std::uint64_t delivered_in_window = client.delivered;
  const sw::Cycle drain_start = c;
  for (std::optional<sw::Cycle> next = c; next && !stuck; next = fabric.next_cycle(c)) {
    c = *next;
    fabric.begin_cycle(c);
    client.injected.clear();
    stuck = c.count() > fabric.last_move().count() + 10'000;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const std::uint64_t made = client.source.size();
  const bool ok = !stuck && client.delivered == made;
  std::printf("%u-cube, %-9s p-cube, %llu cycles: %llu messages made, %llu delivered (%llu in the "
              "window), accepted %.3f flits/node/cycle, drained in %llu cycles, %.1f s%s\n",
              dim, transpose ? "transpose" : "uniform", static_cast<unsigned long long>(cycles),
              static_cast<unsigned long long>(made),
              static_cast<unsigned long long>(client.delivered),
              static_cast<unsigned long long>(delivered_in_window),
              static_cast<double>(delivered_in_window * (kWords + 1)) /
                  (static_cast<double>(nodes) * static_cast<double>(cycles)),
              static_cast<unsigned long long>((c - drain_start).count()), seconds,
              stuck ? ("  DEADLOCK: " + fabric.describe_deadlock()).c_str()
              : ok  ? ""
                    : "  (MESSAGES LOST)");
  return ok;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  const std::uint64_t cycles = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
  const auto dim = static_cast<std::uint32_t>(argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 8);
  bool ok = saturate(dim, false, cycles);
  ok = saturate(dim, true, cycles) && ok;
  return ok ? 0 : 1;
}

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
