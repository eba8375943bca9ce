// The network model's timing under contention against an independent model of it: with one
// virtual channel per port and wormhole switching, a worm owns each output channel from its
// header's grant until its tail has passed, no other flit competes for that link or for the
// buffer's one input, and every flit's move follows from the grants by a max-plus recurrence
// (docs/networks.md, "Timing under contention"; docs/performance.md, "The schedule of one-VC
// worms").
// Number the flits that pass through a buffer in the order they enter it. Flit i of a worm
// leaves the j-th buffer of its path (j = 0: its source's injection buffer) in cycle
//
//   d_j(i) = max( d_j(i-1) + 1,   one flit per cycle out of a buffer (d_j(-1) + 1 = G_j, the
//                                 cycle its header was granted its output channel),
//                 a_j(i) + 1,     it entered in cycle a_j(i) = d_{j-1}(i) (a_0(i): taken from
//                                 the interface),
//                 d'(q - B) )     the flit B places ahead of it in the next buffer (q is its
//                                 place there) has left, in the same cycle at the latest (a flit
//                                 may enter a full buffer in the cycle its head leaves);
//
// the last buffer's flits leave by the ejection channel, which always has room. A header is
// granted in the first cycle c >= a_j(0) + D (the router delay) in which it is at its buffer's
// head (the flit ahead left before c), its output channel is free (the last owner's tail left
// before c), and no older header of the same router (earlier a_j(0), then the lower input port)
// asks for the same channel. The interface takes flit i in the first cycle after flit i-1 in
// which the injection buffer has room (same rule), a message's header t_s cycles after it
// reached the front of the queue. The message is delivered one cycle after its tail ejects.
//
// The model here computes those cycles message by message, without buffers or flits, and the
// test compares them with the Fabric's deliveries on every way of stepping it, from light to
// saturating load, over router delays, buffer depths, packet lengths and start-ups.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sc_models/net/fabric.hpp"
#include "sw/topology/routing.hpp"
#include "sw/topology/topology_description.hpp"

namespace orthosim {
namespace {

using sw::Topology;

constexpr std::int64_t kUnknown = -1;

struct Send {
  std::uint64_t cycle = 0;  ///< submitted before the cycle is stepped
  std::uint32_t src = 0;
  std::uint32_t dst = 0;
  std::uint32_t words = 0;
};

/// The recurrence above, cycle by cycle for the grants, flit by flit for the moves.
class WormSchedule {
 public:
  WormSchedule(const sw::NetworkConfig& config, const std::vector<Send>& sends)
      : description_(config.description()),
        delay_(static_cast<std::int64_t>(config.router.delay)),
        depth_(config.router.buffer_flits),
        startup_(static_cast<std::int64_t>(config.ni.startup)),
        messages_(sends.size()) {
    const sw::TopologyDescription& d = *description_;
    buffers_.resize(d.total_ports() + d.routers());
    free_from_.assign(d.total_ports() + d.routers(), 0);
    owned_.assign(d.total_ports() + d.routers(), false);
    queues_.resize(d.nodes());
    // A message of w words goes in packets of at most packet_flits - 1 words each (all of them
    // in one packet when packet_flits is 0), one after the other from its interface; only its
    // first packet pays the start-up.
    const std::uint32_t per_packet = config.ni.packet_flits == 0 ? 0 : config.ni.packet_flits - 1;
    for (std::size_t m = 0; m < sends.size(); ++m) {
      std::uint32_t left = sends[m].words;
      do {
        const std::uint32_t words = per_packet == 0 ? left : std::min(left, per_packet);
        worms_.push_back(route(sends[m], words, m, left == sends[m].words));
        left -= words;
      } while (left > 0);
    }
  }

  /// The cycle each message is delivered in (the order of `sends`): its last packet's.
  std::vector<std::uint64_t> deliveries() {
    std::size_t next_send = 0;
    std::size_t delivered = 0;
    for (std::int64_t c = 0; delivered < worms_.size(); ++c) {
      if (c > 1'000'000) {
        ADD_FAILURE() << "the schedule does not end";
        break;
      }
      for (; next_send < worms_.size() && worms_[next_send].sent == c; ++next_send) {
        queues_[worms_[next_send].src].push_back(next_send);
        in_flight_.push_back(next_send);
      }
      grant_headers(c);
      propagate();
      inject(c);
      propagate();
      delivered =
          static_cast<std::size_t>(std::count_if(worms_.begin(), worms_.end(), [](const Worm& w) {
            return w.hops.back().leave.back() != kUnknown;
          }));
    }
    std::vector<std::uint64_t> out(messages_, 0);
    for (const Worm& w : worms_) {
      out[w.message] =
          std::max(out[w.message], static_cast<std::uint64_t>(w.hops.back().leave.back() + 1));
    }
    return out;
  }

  /// Of the schedule deliveries() made: the headers granted their output channel that left
  /// later, when the flit B places ahead of them in the next buffer left (d_j(0) = d'(q - B)).
  [[nodiscard]] std::size_t headers_held_by_the_buffer_ahead() const {
    return held_by_the_buffer_ahead_;
  }

 private:
  /// A worm's stay in the j-th buffer of its path.
  struct Hop {
    std::uint32_t buffer = 0;  ///< an input port: network ports, then the injection buffers
    std::uint32_t router = 0;
    std::uint32_t in_port = 0;  ///< the port's number in its router: ties go to the lower one
    std::uint32_t channel = 0;  ///< the output channel it takes (network port or ejection)
    bool ejects = false;
    std::size_t place = 0;  ///< the place of its header among the flits of the buffer
    std::int64_t granted = kUnknown;
    std::vector<std::int64_t> leave;  ///< d_j(i)
  };
  struct Worm {
    std::size_t message = 0;
    bool first = true;  ///< its message's first packet
    std::int64_t sent = 0;
    std::uint32_t src = 0;
    std::vector<std::int64_t> taken;  ///< a_0(i)
    std::vector<Hop> hops;
    bool started = false;
    std::int64_t front_since = 0;
  };
  /// The flits that entered a buffer, in order: (worm, hop, flit).
  using Entry = std::tuple<std::size_t, std::size_t, std::uint32_t>;

  Worm route(const Send& s, std::uint32_t words, std::size_t message, bool first) {
    const sw::TopologyDescription& d = *description_;
    Worm w;
    w.message = message;
    w.first = first;
    w.sent = static_cast<std::int64_t>(s.cycle);
    w.src = s.src;
    const std::uint32_t flits = words + 1;
    w.taken.assign(flits, kUnknown);
    std::uint32_t router = d.attachment(s.src).router;
    std::optional<std::uint32_t> in;  // none: the injection buffer
    sw::PortCandidates candidates;
    while (true) {
      Hop h;
      h.router = router;
      h.in_port = in ? *in : d.ports(router);
      h.buffer = in ? d.port_offset(router) + *in : d.total_ports() + router;
      h.leave.assign(flits, kUnknown);
      if (d.attachment(s.dst).router == router) {
        h.ejects = true;
        h.channel = d.total_ports() + router;
        w.hops.push_back(h);
        return w;
      }
      d.routing().route(d, router, in, s.dst, candidates);
      const std::uint32_t q = candidates.front();
      h.channel = d.port_offset(router) + q;
      w.hops.push_back(h);
      const sw::PortLink next = *d.link(router, q);
      router = next.router;
      in = next.port;
    }
  }

  /// d of the flit `place` places into `buffer`: -infinity before the first, unknown when it has
  /// not entered yet or its move is not known.
  std::optional<std::int64_t> left(std::uint32_t buffer, std::int64_t place) const {
    if (place < 0) {
      return std::numeric_limits<std::int64_t>::min() / 2;
    }
    const std::vector<Entry>& flits = buffers_[buffer];
    if (static_cast<std::size_t>(place) >= flits.size()) {
      return std::nullopt;
    }
    const auto& [worm, hop, flit] = flits[static_cast<std::size_t>(place)];
    const std::int64_t d = worms_[worm].hops[hop].leave[flit];
    return d == kUnknown ? std::nullopt : std::optional(d);
  }

  void enter(std::size_t worm, std::size_t hop) {
    Hop& h = worms_[worm].hops[hop];
    std::vector<Entry>& flits = buffers_[h.buffer];
    h.place = flits.size();
    for (std::uint32_t i = 0; i < h.leave.size(); ++i) {
      flits.emplace_back(worm, hop, i);
    }
  }

  void grant_headers(std::int64_t c) {
    // (router, arrival, input port, worm, hop) of every header that asks in cycle c.
    std::vector<std::tuple<std::uint32_t, std::int64_t, std::uint32_t, std::size_t, std::size_t>>
        asks;
    for (const std::size_t m : in_flight_) {
      const Worm& w = worms_[m];
      for (std::size_t j = 0; j < w.hops.size(); ++j) {
        const Hop& h = w.hops[j];
        if (h.granted != kUnknown) {
          continue;
        }
        const std::int64_t arrived = j == 0 ? w.taken[0] : w.hops[j - 1].leave[0];
        const std::optional<std::int64_t> ahead =
            left(h.buffer, static_cast<std::int64_t>(h.place) - 1);
        if (arrived != kUnknown && c >= arrived + delay_ && ahead && c > *ahead) {
          asks.emplace_back(h.router, arrived, h.in_port, m, j);
        }
        break;
      }
    }
    std::sort(asks.begin(), asks.end());
    for (const auto& [router, arrived, in_port, m, j] : asks) {
      Hop& h = worms_[m].hops[j];
      if (owned_[h.channel] || c < free_from_[h.channel]) {
        continue;
      }
      owned_[h.channel] = true;
      h.granted = c;
      if (!h.ejects) {
        enter(m, j + 1);
      }
    }
  }

  /// Every d that its terms give, until none is added.
  void propagate() {
    for (bool more = true; more;) {
      more = false;
      for (const std::size_t m : in_flight_) {
        Worm& w = worms_[m];
        for (std::size_t j = 0; j < w.hops.size() && w.hops[j].granted != kUnknown; ++j) {
          Hop& h = w.hops[j];
          for (std::uint32_t i = 0; i < h.leave.size(); ++i) {
            if (h.leave[i] != kUnknown) {
              continue;
            }
            const std::int64_t arrived = j == 0 ? w.taken[i] : w.hops[j - 1].leave[i];
            if (arrived == kUnknown) {
              break;
            }
            std::int64_t room = std::numeric_limits<std::int64_t>::min() / 2;
            if (!h.ejects) {
              const Hop& next = w.hops[j + 1];
              const std::optional<std::int64_t> freed =
                  left(next.buffer, static_cast<std::int64_t>(next.place + i) -
                                        static_cast<std::int64_t>(depth_));
              if (!freed) {
                break;
              }
              room = *freed;
            }
            const std::int64_t after = i == 0 ? h.granted : h.leave[i - 1] + 1;
            h.leave[i] = std::max({after, arrived + 1, room});
            held_by_the_buffer_ahead_ += i == 0 && room > std::max(after, arrived + 1) ? 1 : 0;
            more = true;
            if (i + 1 == h.leave.size()) {
              owned_[h.channel] = false;
              free_from_[h.channel] = h.leave[i] + 1;
            }
          }
        }
      }
    }
    in_flight_.erase(std::remove_if(in_flight_.begin(), in_flight_.end(),
                                    [this](std::size_t m) {
                                      return worms_[m].hops.back().leave.back() != kUnknown;
                                    }),
                     in_flight_.end());
  }

  /// The interfaces, after the routers' moves of cycle c.
  void inject(std::int64_t c) {
    for (std::deque<std::size_t>& queue : queues_) {
      if (queue.empty()) {
        continue;
      }
      const std::size_t m = queue.front();
      Worm& w = worms_[m];
      if (!w.started) {
        w.started = true;
        w.front_since = c;
        enter(m, 0);
      }
      if (c < w.front_since + (w.first ? startup_ : 0)) {
        continue;
      }
      const auto i = static_cast<std::size_t>(std::find(w.taken.begin(), w.taken.end(), kUnknown) -
                                              w.taken.begin());
      const Hop& first = w.hops[0];
      const std::optional<std::int64_t> freed =
          left(first.buffer,
               static_cast<std::int64_t>(first.place + i) - static_cast<std::int64_t>(depth_));
      if (freed && *freed <= c) {
        w.taken[i] = c;
        if (i + 1 == w.taken.size()) {
          queue.pop_front();
        }
      }
    }
  }

  std::shared_ptr<const sw::TopologyDescription> description_;
  std::int64_t delay_;
  std::uint32_t depth_;
  std::int64_t startup_;
  std::size_t messages_;
  std::vector<Worm> worms_;
  std::vector<std::vector<Entry>> buffers_;      ///< [network input port, then injection buffer]
  std::vector<std::int64_t> free_from_;          ///< [output channel]: free from this cycle on
  std::vector<bool> owned_;                      ///< [output channel]
  std::vector<std::deque<std::size_t>> queues_;  ///< [node]: its messages, oldest first
  std::vector<std::size_t> in_flight_;
  std::size_t held_by_the_buffer_ahead_ = 0;
};

/// The cycle each message is delivered in, and its words: word `index` of message `message` is
/// message * 2^16 + index + 1 (never the header's 0), so a word delivered for another message or
/// another index, or twice, or not at all, is seen.
class DeliveryLog final : public sc::net::FabricClient {
 public:
  explicit DeliveryLog(std::size_t messages) : delivered_(messages, 0), words_(messages, 0) {}
  static sw::Word word_of(std::uint32_t message, std::uint32_t index) {
    return (message << 16) + index + 1;
  }
  sw::Word read_word(std::uint32_t message, std::uint32_t index) override {
    return word_of(message, index);
  }
  void deliver_word(std::uint32_t message, std::uint32_t index, sw::Word word) override {
    ++words_[message];
    wrong_words_ += word == word_of(message, index) ? 0 : 1;
  }
  void message_delivered(std::uint32_t message, sw::Cycle at) override {
    delivered_[message] = at.count();
  }
  [[nodiscard]] const std::vector<std::uint64_t>& delivered() const { return delivered_; }
  /// Words delivered, per message.
  [[nodiscard]] const std::vector<std::uint32_t>& words() const { return words_; }
  /// Words that were not the word of their message and index.
  [[nodiscard]] std::size_t wrong_words() const { return wrong_words_; }
  /// The deliveries before a reset.
  void forget() {
    std::fill(delivered_.begin(), delivered_.end(), 0);
    std::fill(words_.begin(), words_.end(), 0);
    wrong_words_ = 0;
  }

 private:
  std::vector<std::uint64_t> delivered_;
  std::vector<std::uint32_t> words_;
  std::size_t wrong_words_ = 0;
};

/// Messages of 1 to `most_words` words (`most_words` words each with `fixed`) between random
/// pairs: a light phase (a message per node every `light_every` cycles on average), then a
/// saturating one (one every 4).
std::vector<Send> traffic(std::uint32_t nodes, std::uint32_t most_words, std::uint32_t light_every,
                          std::uint64_t seed, bool fixed = false) {
  std::mt19937_64 rng(seed);
  std::vector<Send> sends;
  for (std::uint64_t c = 0; c < 400; ++c) {
    for (std::uint32_t src = 0; src < nodes; ++src) {
      if (rng() % (c >= 250 ? 4 : light_every) == 0) {
        const auto dst = static_cast<std::uint32_t>((src + 1 + rng() % (nodes - 1)) % nodes);
        sends.push_back(
            {c, src, dst, fixed ? most_words : static_cast<std::uint32_t>(1 + rng() % most_words)});
      }
    }
  }
  return sends;
}

/// kScheduled: the client takes deliveries in any order and sends packets as long as the buffers
/// are deep (a traffic run): the schedule of runs steps the network.
enum class Stepping { kOwnPath, kObserved, kGeneralPath, kDeepWormsAtAnyDelay, kScheduled };

/// What a run delivered and counted: each message's delivery cycle, the counters of every
/// cycle, and each channel's peak occupancy and messages.
struct Outcome {
  std::vector<std::uint64_t> delivered;
  std::vector<std::uint64_t> counters;
  std::vector<std::tuple<std::string, std::uint32_t, std::uint64_t>> channels;
  bool scheduled = false;
};

/// Appends the fabric's counters now (those it keeps across a reset: since `since`) to `out`, and
/// each channel's figures with `channels`.
/// `SeenFabric`: Fabric or const Fabric, for either overload of channels() (each tells the peaks
/// of the flits that wait).
template <class SeenFabric>
void record(SeenFabric& fabric, Outcome& out, bool channels,
            const sc::net::FabricStats& since = {}) {
  const sc::net::FabricStats& s = fabric.stats();
  out.counters.insert(out.counters.end(),
                      {s.flits_moved - since.flits_moved, s.flit_hops - since.flit_hops,
                       s.flits_ejected - since.flits_ejected,
                       s.packets_delivered - since.packets_delivered,
                       s.header_wait_cycles - since.header_wait_cycles,
                       s.router_steps - since.router_steps, fabric.last_move().count(),
                       static_cast<std::uint64_t>(fabric.has_flits()), fabric.queued_packets()});
  if (!channels) {
    return;
  }
  out.counters.push_back(fabric.channels().peak_occupancy());
  for (const sw::ChannelSummary& channel : fabric.channels().reports()) {
    out.channels.emplace_back(channel.name, channel.peak_flits, channel.messages);
  }
}

/// `read_every`: the counters and the channels' figures are recorded every `read_every` cycles
/// too (none: only at the end; a read of the channels tells the peaks of the flits that wait).
/// `before_reset`: other sends are stepped first, up to the cycle of the last one, then the
/// fabric is reset with flits in flight, and the run of `sends` is recorded from cycle 0 on.
Outcome fabric_run(const sw::NetworkConfig& config, const std::vector<Send>& sends,
                   Stepping stepping, std::uint64_t read_every = 0,
                   const std::vector<Send>& before_reset = {}) {
  DeliveryLog log(std::max(sends.size(), before_reset.size()));
  sc::net::Fabric fabric(config.validated(), log);
  fabric.observe(stepping == Stepping::kObserved);
  if (stepping == Stepping::kGeneralPath) {
    fabric.use_general_path();
  } else if (stepping == Stepping::kDeepWormsAtAnyDelay) {
    fabric.move_deep_worms_at_any_delay();
  } else if (stepping == Stepping::kScheduled) {
    fabric.deliveries_in_any_order(true, config.router.buffer_flits);
  }
  std::size_t next = 0;
  const auto step = [&fabric, &next](const std::vector<Send>& of, std::uint64_t c) {
    for (; next < of.size() && of[next].cycle == c; ++next) {
      fabric.submit(static_cast<std::uint32_t>(next), of[next].src, of[next].dst, of[next].words);
    }
    fabric.begin_cycle(sw::Cycle{c});
  };
  sc::net::FabricStats since;
  if (!before_reset.empty()) {
    for (std::uint64_t c = 0; next < before_reset.size(); ++c) {
      step(before_reset, c);
    }
    EXPECT_TRUE(fabric.has_flits()) << "nothing in flight at the reset";
    fabric.reset();
    since = fabric.stats();
    log.forget();
    next = 0;
  }
  Outcome out;
  std::uint64_t c = 0;
  for (; next < sends.size() || fabric.has_flits() || fabric.queued_packets() > 0; ++c) {
    step(sends, c);
    out.scheduled = out.scheduled || fabric.scheduled();
    // The figures in the middle of the run, flits in flight; every 5 cycles through a const
    // Fabric.
    if (read_every == 5 && c % read_every == 0) {
      record(std::as_const(fabric), out, true, since);
    } else if (read_every > 0 && c % read_every == 0) {
      record(fabric, out, true, since);
    }
    if (c > 1'000'000) {
      ADD_FAILURE() << "the network does not drain";
      break;
    }
  }
  out.delivered = log.delivered();
  out.delivered.resize(sends.size());
  EXPECT_EQ(log.wrong_words(), 0U) << "words delivered for another message or index";
  std::size_t miscounted = 0;
  for (std::size_t m = 0; m < sends.size(); ++m) {
    miscounted += log.words()[m] == sends[m].words ? 0 : 1;
  }
  EXPECT_EQ(miscounted, 0U) << "messages whose words did not each arrive once";
  record(fabric, out, true, since);
  return out;
}

/// Links from `src`'s router to `dst`'s under the network's routing.
std::uint32_t hop_count(const sw::TopologyDescription& d, std::uint32_t src, std::uint32_t dst) {
  std::uint32_t router = d.attachment(src).router;
  std::optional<std::uint32_t> in;
  sw::PortCandidates candidates;
  std::uint32_t hops = 0;
  for (; router != d.attachment(dst).router; ++hops) {
    d.routing().route(d, router, in, dst, candidates);
    const sw::PortLink next = *d.link(router, candidates.front());
    router = next.router;
    in = next.port;
  }
  return hops;
}

struct Case {
  std::string name;
  Topology topology;
  std::uint32_t delay;
  std::uint32_t depth;
  std::uint32_t most_words;
  std::uint64_t startup;
  std::uint32_t packet_flits = 0;  ///< 0: a message in one packet
};

void expect_deliveries(const std::vector<Send>& sends, const std::vector<std::uint64_t>& got,
                       const std::vector<std::uint64_t>& expected) {
  std::size_t differ = 0;
  for (std::size_t m = 0; m < sends.size(); ++m) {
    if (got[m] != expected[m] && ++differ <= 3) {
      ADD_FAILURE() << "message " << m << " (" << sends[m].src << " -> " << sends[m].dst << ", "
                    << sends[m].words << " words, sent in cycle " << sends[m].cycle
                    << "): delivered in cycle " << got[m] << ", the schedule gives " << expected[m];
    }
  }
  EXPECT_EQ(differ, 0U) << "of " << sends.size() << " messages";
}

/// The one-VC network of a case.
sw::NetworkConfig network_of(const Case& test) {
  sw::NetworkConfig config;
  config.topology = test.topology;
  config.router.vcs = 1;
  config.router.delay = test.delay;
  config.router.buffer_flits = test.depth;
  config.ni.startup = test.startup;
  config.ni.packet_flits = test.packet_flits;
  return config;
}

void expect_the_schedule(const Case& test) {
  const sw::NetworkConfig config = network_of(test);
  const std::vector<Send> sends = traffic(test.topology.nodes(), test.most_words, 30, 7);
  const std::vector<std::uint64_t> expected = WormSchedule(config, sends).deliveries();
  // Contention, or nothing was compared that the zero-load formula does not already give.
  const auto description = config.description();
  std::size_t waited = 0;
  std::size_t one_packet = 0;
  for (std::size_t m = 0; m < sends.size(); ++m) {
    const std::uint32_t hops = hop_count(*description, sends[m].src, sends[m].dst);
    if (const std::optional<std::uint64_t> alone =
            config.lone_message_cycles(hops, sends[m].words)) {
      ++one_packet;
      waited += expected[m] > sends[m].cycle + *alone ? 1 : 0;
    }
  }
  EXPECT_GT(waited, one_packet / 4) << "of " << one_packet << " one-packet messages waited";
  for (const Stepping stepping : {Stepping::kOwnPath, Stepping::kObserved, Stepping::kGeneralPath,
                                  Stepping::kDeepWormsAtAnyDelay}) {
    SCOPED_TRACE(test.name + ", stepping " + std::to_string(static_cast<int>(stepping)));
    const Outcome got = fabric_run(config, sends, stepping);
    expect_deliveries(sends, got.delivered, expected);
  }
}

/// The same counters in every record and the same channels' figures as `expected` (`what`).
/// `after_a_reset`: `got` was reset before its run, and kept the cycle of the last move (figure 6)
/// until its first move (figure 0 of the record: no flit moved yet).
void expect_the_figures(const Outcome& got, const Outcome& expected, const std::string& what,
                        bool after_a_reset = false) {
  EXPECT_EQ(got.counters.size(), expected.counters.size());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < std::min(got.counters.size(), expected.counters.size()); ++k) {
    if (after_a_reset && k % 10 == 6 && expected.counters[k - 6] == 0) {
      continue;
    }
    if (got.counters[k] != expected.counters[k] && ++differ <= 3) {
      ADD_FAILURE() << "figure " << k % 10 << " of record " << k / 10 << ": " << got.counters[k]
                    << ", " << what << " " << expected.counters[k];
    }
  }
  EXPECT_EQ(got.channels, expected.channels);
}

// With packets exactly as long as the buffers are deep every stay is a run (d_j(i) = o_j + i):
// the schedule of runs steps such a traffic run. Its deliveries against the max-plus model, its
// counters and its channels' figures against the general path's, read in every cycle (where the
// flits that wait tell their peaks), every 5 cycles and only at the end (where the runs tell
// theirs). Headers whose first flit waited for the buffer ahead (its packet ahead there had not
// started to leave) are among them: there the run is delayed, and its buffer fills.
void expect_the_runs(const Case& test) {
  const sw::NetworkConfig config = network_of(test);
  const std::vector<Send> sends = traffic(test.topology.nodes(), test.depth - 1, 30, 11, true);
  WormSchedule schedule(config, sends);
  const std::vector<std::uint64_t> expected = schedule.deliveries();
  SCOPED_TRACE(test.name);
  EXPECT_GT(schedule.headers_held_by_the_buffer_ahead(), 0U);
  for (const std::uint64_t read_every : {1, 5, 0}) {
    SCOPED_TRACE("read every " + std::to_string(read_every) + " cycles");
    const Outcome general = fabric_run(config, sends, Stepping::kGeneralPath, read_every);
    const Outcome got = fabric_run(config, sends, Stepping::kScheduled, read_every);
    EXPECT_TRUE(got.scheduled);
    expect_deliveries(sends, got.delivered, expected);
    expect_the_figures(got, general, "the general path");
  }
}

// Every message's delivery cycle, from light load to saturation, on meshes and hypercubes with
// router delays 1 to 4, buffers shallower and deeper than the packets, start-ups, and messages
// cut into packets (only the first pays the start-up; the message arrives with its last).
TEST(WormSchedule, EveryDeliveryIsTheMaxPlusScheduleOfTheGrants) {
  const std::vector<Case> cases{
      {"mesh 4x4, D 4, 8-flit buffers, 8-flit packets", Topology::mesh({4, 4}), 4, 8, 7, 0},
      {"mesh 4x4, D 1, 1-flit buffers", Topology::mesh({4, 4}), 1, 1, 5, 0},
      {"mesh 4x4, D 2, 3-flit buffers, t_s 2", Topology::mesh({4, 4}), 2, 3, 6, 2},
      {"mesh 4x4, D 3, 2-flit buffers, long packets", Topology::mesh({4, 4}), 3, 2, 9, 0},
      {"mesh 8 (a line), D 4, 4-flit buffers", Topology::mesh({8}), 4, 4, 7, 1},
      {"4-cube, D 1, 8-flit buffers", Topology::hypercube(4), 1, 8, 7, 0},
      {"4-cube, D 4, 1-flit buffers", Topology::hypercube(4), 4, 1, 4, 0},
      {"mesh 4x4, D 2, 2-flit buffers, packets of 3 flits, t_s 3", Topology::mesh({4, 4}), 2, 2, 8,
       3, 3},
      {"4-cube, D 1, 4-flit buffers, packets of 4 flits", Topology::hypercube(4), 1, 4, 9, 0, 4},
  };
  for (const Case& test : cases) {
    expect_the_schedule(test);
  }
}

TEST(WormSchedule, RunsOfPacketsAsLongAsTheBuffersAreDeepAreTheMaxPlusSchedule) {
  const std::vector<Case> cases{
      {"mesh 4x4, D 4, 8-flit buffers and packets", Topology::mesh({4, 4}), 4, 8, 0, 0},
      {"mesh 4x4, D 1, 2-flit buffers and packets, t_s 2", Topology::mesh({4, 4}), 1, 2, 0, 2},
      {"mesh 3x5, D 3, 4-flit buffers and packets", Topology::mesh({3, 5}), 3, 4, 0, 1},
      {"mesh 8 (a line), D 2, 5-flit buffers and packets", Topology::mesh({8}), 2, 5, 0, 0},
      {"4-cube, D 4, 8-flit buffers and packets", Topology::hypercube(4), 4, 8, 0, 0},
      {"4-cube, D 1, 2-flit buffers and packets", Topology::hypercube(4), 1, 2, 0, 0},
  };
  for (const Case& test : cases) {
    expect_the_runs(test);
  }
}

/// The line of 4 routers with D = 1, 4-flit buffers, one virtual channel and no start-up: a
/// message 0 -> 3 of 3 words arrives in t_s + (h + 1) D + F = 0 + 4 * 1 + 4 = 8 cycles.
sw::NetworkConfig line_of_four_scheduled() {
  sw::NetworkConfig config;
  config.topology = Topology::mesh({4});
  config.router.vcs = 1;
  config.router.delay = 1;
  config.router.buffer_flits = 4;
  config.ni.startup = 0;
  return config;
}

/// Steps `fabric` from cycle `c` (at least one cycle) until it holds nothing; `c` ends past it.
void drain_from(sc::net::Fabric& fabric, std::uint64_t& c) {
  for (const std::uint64_t first = c;
       c == first || fabric.has_flits() || fabric.queued_packets() > 0; ++c) {
    fabric.begin_cycle(sw::Cycle{c});
    ASSERT_LT(c, first + 200) << "the network does not drain";
  }
}

// A client that turns the schedule off without a reset hands the network to the flit paths once
// it is empty; the channels the last runs held are free for them (the tail of the ejection run
// leaves in the cycle before the network is empty, its channel is freed by the next cycle's
// calendar entry, which the schedule no longer steps). A message sent then over the same path
// arrives in the zero-load time t_s + (h + 1) D + F: on the line of 4 routers with D = 1 and
// 4-flit buffers, 0 -> 3 with 3 words is 0 + 4 * 1 + 4 = 8 cycles.
TEST(WormSchedule, TheFlitPathsFindTheChannelsFreeWhenTheClientTurnsTheScheduleOff) {
  DeliveryLog log(2);
  sc::net::Fabric fabric(line_of_four_scheduled().validated(), log);
  fabric.deliveries_in_any_order(true, 4);
  std::uint64_t c = 0;
  fabric.submit(0, 0, 3, 3);
  drain_from(fabric, c);
  EXPECT_EQ(log.delivered()[0], 8U);
  EXPECT_TRUE(fabric.scheduled());
  fabric.deliveries_in_any_order(false, 0);
  const std::uint64_t sent = c;
  fabric.submit(1, 0, 3, 3);
  drain_from(fabric, c);
  EXPECT_FALSE(fabric.scheduled());
  EXPECT_EQ(log.delivered()[1], sent + 8);
}

// A client does not step an empty network (the Multicomputer skips its idle cycles): the next
// cycle stepped first does the events of the cycles skipped, among them the ends of the last
// runs, which free their channels. A message sent over the same path after 20 idle cycles
// arrives in the zero-load time t_s + (h + 1) D + F: on the line of 4 routers with D = 1 and
// 4-flit buffers, 0 -> 3 with 3 words is 0 + 4 * 1 + 4 = 8 cycles, the first message's too.
TEST(WormSchedule, AMessageSentAfterIdleCyclesFindsTheChannelsOfTheLastRunsFree) {
  DeliveryLog log(2);
  sc::net::Fabric fabric(line_of_four_scheduled().validated(), log);
  fabric.deliveries_in_any_order(true, 4);
  std::uint64_t c = 0;
  fabric.submit(0, 0, 3, 3);
  drain_from(fabric, c);
  EXPECT_EQ(log.delivered()[0], 8U);
  c += 20;
  const std::uint64_t sent = c;
  fabric.submit(1, 0, 3, 3);
  drain_from(fabric, c);
  EXPECT_TRUE(fabric.scheduled());
  EXPECT_EQ(log.delivered()[1], sent + 8);
}

// An observer sees every hop, which the schedule of runs does not tell: attaching one is refused
// while a scheduled network holds flits, from its first flit on, and allowed once it is empty.
// The first cycle with flits in the routers holds exactly one: the only message's interface
// pushes one flit per cycle into its injection buffer.
TEST(WormSchedule, AnObserverIsRefusedFromTheFirstFlitOfAScheduledNetwork) {
  sw::NetworkConfig config;
  config.topology = Topology::mesh({4});
  config.router.vcs = 1;
  config.router.delay = 1;
  config.router.buffer_flits = 4;
  config.ni.startup = 0;
  DeliveryLog log(1);
  sc::net::Fabric fabric(config.validated(), log);
  fabric.deliveries_in_any_order(true, 4);
  fabric.submit(0, 0, 3, 3);
  std::uint64_t c = 0;
  for (; !fabric.has_flits(); ++c) {
    fabric.begin_cycle(sw::Cycle{c});
    ASSERT_LT(c, 10U) << "the header never enters";
  }
  ASSERT_TRUE(fabric.scheduled());
  EXPECT_THROW(fabric.observe(true), std::logic_error);
  for (; fabric.has_flits(); ++c) {
    fabric.begin_cycle(sw::Cycle{c});
    ASSERT_LT(c, 100U) << "the network does not drain";
  }
  EXPECT_NO_THROW(fabric.observe(true));
}

// The choice between the schedule and the flit paths is made on an empty network: neither holds
// the other's state. Refused while a message waits in its interface, while flits are in the
// routers and the interface has nothing left, and while both; taken once the network drained.
TEST(WormSchedule, TheOrderOfDeliveriesIsChosenOnlyOnAnEmptyNetwork) {
  DeliveryLog log(1);
  sc::net::Fabric fabric(line_of_four_scheduled().validated(), log);
  fabric.submit(0, 0, 3, 3);
  ASSERT_EQ(fabric.queued_packets(), 1U);
  ASSERT_FALSE(fabric.has_flits());
  EXPECT_THROW(fabric.deliveries_in_any_order(true, 4), std::logic_error);
  std::uint64_t c = 0;
  fabric.begin_cycle(sw::Cycle{c++});
  ASSERT_TRUE(fabric.has_flits());
  ASSERT_EQ(fabric.queued_packets(), 1U) << "the header entered, three flits wait";
  EXPECT_THROW(fabric.deliveries_in_any_order(true, 4), std::logic_error);
  for (; fabric.queued_packets() > 0; ++c) {
    fabric.begin_cycle(sw::Cycle{c});
    ASSERT_LT(c, 10U) << "the interface never empties";
  }
  ASSERT_TRUE(fabric.has_flits());
  EXPECT_THROW(fabric.deliveries_in_any_order(true, 4), std::logic_error);
  drain_from(fabric, c);
  EXPECT_NO_THROW(fabric.deliveries_in_any_order(true, 4));
}

// The schedule of runs holds only where every stay is a run and it describes all a client sees
// (fabric_schedule.cpp): one virtual channel (no flits of another packet between a packet's),
// wormhole (a store-and-forward header waits for its tail), packets exactly as deep as the
// buffers, a route per (router, destination) from the route table (the schedule walks a whole
// path at a header's injection), a mesh or hypercube of the command line (no cycle of channels a
// deadlock could close: the schedule keeps no buffers to describe one), and no observer (it tells
// no hop or buffer change). Each condition broken alone leaves the network to the flit paths.
TEST(WormSchedule, EachConditionOfTheRunsBrokenAloneTurnsTheScheduleOff) {
  struct Choice {
    std::string name;
    sw::NetworkConfig config;
    std::uint32_t packet_flits = 4;
    bool any_order = true;
    bool routes_per_header = false;
    bool observed = false;
    bool scheduled = false;
  };
  sw::NetworkConfig mesh;
  mesh.topology = Topology::mesh({4, 4});
  mesh.router.vcs = 1;
  mesh.router.buffer_flits = 4;
  std::vector<Choice> choices;
  const auto add = [&choices](Choice choice) { choices.push_back(std::move(choice)); };
  add({"4x4 mesh, 1 VC, wormhole, 4-flit buffers and packets", mesh, 4, true, false, false, true});
  sw::NetworkConfig cube = mesh;
  cube.topology = Topology::hypercube(4);
  add({"4-cube, e-cube routing", cube, 4, true, false, false, true});
  add({"deliveries in order", mesh, 4, false});
  add({"packets of 3 flits in 4-flit buffers", mesh, 3});
  sw::NetworkConfig two_vcs = mesh;
  two_vcs.router.vcs = 2;
  add({"2 VCs", two_vcs});
  sw::NetworkConfig store_and_forward = mesh;
  store_and_forward.router.switching = sw::Switching::StoreAndForward;
  add({"store-and-forward", store_and_forward});
  sw::NetworkConfig p_cube = cube;
  p_cube.routing = "p-cube";
  add({"4-cube, p-cube routing (adaptive: no route table)", p_cube});
  add({"routes asked per header", mesh, 4, true, true});
  sw::NetworkConfig hand_built = mesh;
  hand_built.hand_built = mesh.description();
  add({"the 4x4 mesh hand-built", hand_built});
  sw::NetworkConfig torus = mesh;
  torus.topology = Topology::torus({4, 4});
  torus.router.dateline = false;  // one virtual channel: a wrap-around closes a cycle
  add({"4x4 torus, 1 VC", torus});
  add({"observed", mesh, 4, true, false, true});
  for (const Choice& choice : choices) {
    SCOPED_TRACE(choice.name);
    DeliveryLog log(0);
    sc::net::Fabric fabric(choice.config.validated(), log);
    if (choice.routes_per_header) {
      fabric.compute_routes_per_header();
    }
    fabric.observe(choice.observed);
    fabric.deliveries_in_any_order(choice.any_order, choice.packet_flits);
    fabric.begin_cycle(sw::Cycle{0});
    EXPECT_EQ(fabric.scheduled(), choice.scheduled);
  }
}

// A reset with packets in flight forgets the schedule (the calendar, the runs, the buffers'
// entrants, the channels' waiting headers and decisions, the peaks told, the routers' stays):
// stepped again from cycle 0, the network makes what a new one makes, every delivery, every
// counter of every cycle and every channel's figures (a new Fabric the second implementation).
TEST(WormSchedule, AResetWithRunsInFlightSteppedAgainFromCycleZeroIsANewNetwork) {
  const std::vector<Case> cases{
      {"mesh 4x4, D 4, 8-flit buffers and packets", Topology::mesh({4, 4}), 4, 8, 0, 0},
      {"4-cube, D 1, 2-flit buffers and packets, t_s 2", Topology::hypercube(4), 1, 2, 0, 2},
  };
  for (const Case& test : cases) {
    SCOPED_TRACE(test.name);
    const sw::NetworkConfig config = network_of(test);
    // Reset in saturating traffic (many packets queued and in flight, with high packet ids),
    // then light traffic: what the reset should have forgotten is not written over, and the
    // cycles of the run before the reset come again.
    const auto until = [](std::vector<Send> sends, std::uint64_t cycle) {
      sends.erase(std::find_if(sends.begin(), sends.end(),
                               [cycle](const Send& s) { return s.cycle >= cycle; }),
                  sends.end());
      return sends;
    };
    const std::uint32_t nodes = test.topology.nodes();
    const std::vector<Send> saturating = until(traffic(nodes, test.depth - 1, 4, 11, true), 100);
    const std::vector<Send> light = until(traffic(nodes, test.depth - 1, 30, 12, true), 250);
    const Outcome fresh = fabric_run(config, light, Stepping::kScheduled, 1);
    const Outcome reused = fabric_run(config, light, Stepping::kScheduled, 1, saturating);
    EXPECT_TRUE(reused.scheduled);
    expect_deliveries(light, reused.delivered, fresh.delivered);
    expect_the_figures(reused, fresh, "a new network", true);
  }
}

// The schedule's calendar holds 64 cycles from the cycle stepped and grows, keeping each event at
// its cycle's place, when an event falls later: with 64-flit buffers and packets the end of the
// first run falls 64 cycles after its start, with a router delay of 70 cycles the first header's
// request 70 cycles after its injection. With a delay of 40 the first run comes when the requests
// of the headers injected after the first fill the calendar's next 40 cycles, past a multiple of
// 64 (a calendar twice as large keeps them at other places).
TEST(WormSchedule, RunsThatEndBeyondTheCalendarAreTheMaxPlusSchedule) {
  const std::vector<Case> cases{
      {"mesh 4x4, D 40, 64-flit buffers and packets", Topology::mesh({4, 4}), 40, 64, 0, 0},
      {"mesh 8 (a line), D 70, 64-flit buffers and packets, t_s 5", Topology::mesh({8}), 70, 64, 0,
       5},
      {"4-cube, D 1, 64-flit buffers and packets", Topology::hypercube(4), 1, 64, 0, 0},
  };
  for (const Case& test : cases) {
    expect_the_runs(test);
  }
}

}  // namespace
}  // namespace orthosim
