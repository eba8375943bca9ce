// The functional contract: every message of the manifest arrived exactly once, with the sent
// payload, at the right place. Works on any final state the caller can read words from.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sw/machine/machine_program.hpp"

namespace orthosim::sw {

struct DeliveryReport {
  std::size_t messages_checked = 0;
  std::uint64_t words_checked = 0;
  std::size_t messages_failed = 0;
  /// One line per failed message (the first few), naming it and its first wrong word.
  std::vector<std::string> failures;

  [[nodiscard]] bool ok() const { return messages_failed == 0; }
};

/// Reads word `address` of processor `p`'s local memory.
using LocalMemoryReader = std::function<Word(ProcId p, std::uint32_t address)>;

/// Compares every destination region of the manifest with the recomputed payload. `run_ended`:
/// the run ended by itself, so a word never written was lost; else it stopped at the cycle limit
/// and such a word was not delivered yet.
[[nodiscard]] DeliveryReport check_delivery(const MachineProgram& program,
                                            const LocalMemoryReader& read_local,
                                            bool run_ended = true);

/// The same check made as the words arrive, for a run that keeps neither the words it sent nor
/// the words it received: each word is compared with the recomputed payload when it arrives and
/// then dropped. Per message it keeps the words arrived and its first fault, so memory follows
/// the manifest, not the traffic. A message whose words arrive once each and intact is delivered;
/// the report names the first wrong, repeated or missing word of every other one. Words may
/// arrive out of order (the packets of one message overtake each other on a network with several
/// virtual channels): a word that arrives ahead of an earlier one still in flight is remembered
/// until the gap closes, so only messages with words overtaken hold more than their count.
class ArrivalCheck {
 public:
  /// Forgets every arrival: `messages` messages are expected, each `deliveries` times in a row
  /// (MachineProgram::deliveries), none arrived.
  void reset(std::size_t messages, std::uint32_t deliveries = 1);
  /// Word `index` of message `manifest[message]` arrived holding `word`.
  void arrive(const std::vector<Message>& manifest, std::size_t message, std::uint32_t index,
              Word word);
  /// Words `index` + k of message `manifest[message]` arrived holding words[k], for k < count,
  /// in that order: as many arrive() calls, with the words that continue the message in order
  /// checked in one pass.
  void arrive(const std::vector<Message>& manifest, std::size_t message, std::uint32_t index,
              std::uint32_t count, const Word* words);
  /// The outcome over `manifest` (the one arrive() was given): as check_delivery's, with a
  /// message that arrived twice failed too. `run_ended` as check_delivery's.
  [[nodiscard]] DeliveryReport report(const std::vector<Message>& manifest,
                                      bool run_ended = true) const;

 private:
  /// What arrived of one message: `words` words in order (its words, `deliveries_` times), then
  /// perhaps a fault at `fault_index`.
  struct Arrivals {
    std::uint32_t words = 0;
    std::uint32_t fault_index = 0;
    Word found = 0;  ///< the wrong word, at fault_index
    enum class Fault : std::uint8_t { None, Wrong, Repeated } fault = Fault::None;
  };
  std::vector<Arrivals> arrivals_;
  /// Per message whose words arrived out of order: which words of its current delivery arrived
  /// ahead of the next one expected (by index); erased when the gap closes.
  std::unordered_map<std::size_t, std::vector<bool>> ahead_;
  std::uint32_t deliveries_ = 1;

 public:
  /// What the check holds per message (for footprint estimates).
  static constexpr std::size_t kBytesPerMessage = sizeof(Arrivals);
};

/// The words of a manifest's messages in the processors' local memories, without holding them:
/// a sender's words are generated from their message when read, a receiver's are checked by an
/// ArrivalCheck when written and then dropped. Other local words are the caller's to store.
class MessageMemory {
 public:
  /// Takes `manifest` (which must outlive this), each message delivered `deliveries` times, and
  /// forgets every arrival.
  void load(const std::vector<Message>& manifest, std::uint32_t processors,
            std::uint32_t deliveries = 1);
  /// Consecutive words of a local memory that are all one message's or all nobody's.
  struct Run {
    std::uint32_t words = 0;
    bool message = false;
  };
  /// The first run of words [address, address + count) of P(p)'s local memory (count >= 1):
  /// where a message is sent from, its words are generated into out[0, words); elsewhere `out`
  /// is left for the caller's own words.
  Run sent(ProcId p, std::uint32_t address, std::uint32_t count, Word* out) const;
  /// words[k] written to word `address` + k of P(p)'s local memory, k < count (count >= 1): the
  /// first run of them. Where a message lands, its words are checked; elsewhere they are left
  /// for the caller to store.
  Run receive(ProcId p, std::uint32_t address, std::uint32_t count, const Word* words);
  /// The delivery check of the loaded manifest (ArrivalCheck::report).
  [[nodiscard]] DeliveryReport report(bool run_ended) const;

 private:
  /// A message's words in one local memory: from `begin`, its `words`.
  struct Region {
    std::uint32_t begin = 0;
    std::uint32_t message = 0;  ///< index into the manifest
  };
  /// The first run of [address, address + count) in `regions` (sorted by begin), and the region
  /// that holds it (null if none does).
  [[nodiscard]] std::pair<const Region*, Run> find(const std::vector<Region>& regions,
                                                   std::uint32_t address,
                                                   std::uint32_t count) const;

  const std::vector<Message>* manifest_ = nullptr;
  std::vector<std::vector<Region>> sources_;       ///< per processor
  std::vector<std::vector<Region>> destinations_;  ///< per processor
  ArrivalCheck arrivals_;

 public:
  /// What it holds per message (for footprint estimates): its two regions and its arrivals.
  static constexpr std::size_t kBytesPerMessage =
      2 * sizeof(Region) + ArrivalCheck::kBytesPerMessage;
};

/// Calls `store(p, address, word)` for every word the senders hold before the run.
void for_each_initial_word(const MachineProgram& program,
                           const std::function<void(ProcId, std::uint32_t, Word)>& store);

}  // namespace orthosim::sw
