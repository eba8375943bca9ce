// Delivery check against recomputed payloads.
#include "sw/machine/delivery_check.hpp"

#include <cstdio>

#include "sw/machine/payload.hpp"

namespace orthosim::sw {

namespace {
constexpr std::size_t kMaxReportedFailures = 8;

std::string hex(Word w) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", w);
  return buf;
}
}  // namespace

DeliveryReport check_delivery(const MachineProgram& program, const LocalMemoryReader& read_local,
                              bool run_ended) {
  const std::string missing = run_ended ? " (never written: message lost)"
                                        : " (not delivered: the run stopped at the cycle limit)";
  DeliveryReport report;
  for (const Message& m : program.messages) {
    ++report.messages_checked;
    report.words_checked += m.words;
    for (std::uint32_t w = 0; w < m.words; ++w) {
      const Word expected = payload_word(m.payload, w);
      const Word found = read_local(m.destination, m.dst_address + w);
      if (found == expected) {
        continue;
      }
      ++report.messages_failed;
      if (report.failures.size() < kMaxReportedFailures) {
        report.failures.push_back(
            "message " + std::to_string(m.id) + " (P" + std::to_string(m.source) + " -> P" +
            std::to_string(m.destination) + ", tag " + std::to_string(m.payload.tag) + "): word " +
            std::to_string(w) + " at P" + std::to_string(m.destination) + " local[" +
            std::to_string(m.dst_address + w) + "] expected " + hex(expected) + ", found " +
            hex(found) + (found == kUnwrittenWord ? missing : ""));
      }
      break;
    }
  }
  return report;
}

void for_each_initial_word(const MachineProgram& program,
                           const std::function<void(ProcId, std::uint32_t, Word)>& store) {
  for (const Message& m : program.messages) {
    for (std::uint32_t w = 0; w < m.words; ++w) {
      store(m.source, m.src_address + w, payload_word(m.payload, w));
    }
  }
}

}  // namespace orthosim::sw
