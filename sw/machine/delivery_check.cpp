// Delivery check against recomputed payloads.
#include "sw/machine/delivery_check.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <tuple>

#include "sw/machine/payload.hpp"

namespace orthosim::sw {

namespace {
constexpr std::size_t kMaxReportedFailures = 8;

std::string hex(Word w) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", w);
  return buf;
}

std::string missing_note(bool run_ended) {
  return run_ended ? " (never written: message lost)"
                   : " (not delivered: the run stopped at the cycle limit)";
}

/// Counts message `m` failed at its word `w`, and names it while few are named.
void fail(DeliveryReport& report, const Message& m, std::uint32_t w, const std::string& what) {
  ++report.messages_failed;
  if (report.failures.size() < kMaxReportedFailures) {
    report.failures.push_back("message " + std::to_string(m.id) + " (P" + std::to_string(m.source) +
                              " -> P" + std::to_string(m.destination) + ", tag " +
                              std::to_string(m.payload.tag) + "): word " + std::to_string(w) +
                              " at P" + std::to_string(m.destination) + " local[" +
                              std::to_string(m.dst_address + w) + "] " + what);
  }
}

/// "expected X, found Y" with the note of a word never written.
std::string expected_found(const Message& m, std::uint32_t w, Word found, bool run_ended) {
  return "expected " + hex(payload_word(m.payload, w)) + ", found " + hex(found) +
         (found == kUnwrittenWord ? missing_note(run_ended) : "");
}
}  // namespace

DeliveryReport check_delivery(const MachineProgram& program, const LocalMemoryReader& read_local,
                              bool run_ended) {
  DeliveryReport report;
  for (const Message& m : program.messages) {
    ++report.messages_checked;
    report.words_checked += m.words;
    for (std::uint32_t w = 0; w < m.words; ++w) {
      const Word found = read_local(m.destination, m.dst_address + w);
      if (found != payload_word(m.payload, w)) {
        fail(report, m, w, expected_found(m, w, found, run_ended));
        break;
      }
    }
  }
  return report;
}

void ArrivalCheck::reset(std::size_t messages, std::uint32_t deliveries) {
  deliveries_ = deliveries;
  arrivals_.assign(messages, Arrivals{});
  arrivals_.shrink_to_fit();
  ahead_.clear();
}

void ArrivalCheck::arrive(const std::vector<Message>& manifest, std::size_t message,
                          std::uint32_t index, Word word) {
  const Message& m = manifest.at(message);
  Arrivals& a = arrivals_.at(message);
  if (a.fault != Arrivals::Fault::None) {
    return;  // the first fault is the one reported
  }
  const auto repeated = [&] {
    a.fault = Arrivals::Fault::Repeated;
    a.fault_index = index;
    ahead_.erase(message);
  };
  const std::uint32_t next = a.words % m.words;  // the word of this delivery expected next
  if (index >= m.words || index < next ||
      std::uint64_t{a.words} >= std::uint64_t{m.words} * deliveries_) {
    repeated();  // a word of this delivery already arrived (or one that does not exist)
    return;
  }
  if (word != payload_word(m.payload, index)) {
    a.fault = Arrivals::Fault::Wrong;
    a.fault_index = index;
    a.found = word;
    ahead_.erase(message);
    return;
  }
  if (index > next) {  // ahead of a word still in flight
    std::vector<bool>& ahead = ahead_[message];
    ahead.resize(m.words);
    if (ahead[index]) {
      repeated();
    } else {
      ahead[index] = true;
    }
    return;
  }
  ++a.words;
  const auto found = ahead_.find(message);
  if (found != ahead_.end()) {  // the gap closed: take the words that arrived ahead of it
    std::vector<bool>& ahead = found->second;
    while (a.words % m.words != 0 && ahead[a.words % m.words]) {
      ahead[a.words % m.words] = false;
      ++a.words;
    }
    if (std::none_of(ahead.begin(), ahead.end(), [](bool b) { return b; })) {
      ahead_.erase(found);
    }
  }
}

void ArrivalCheck::arrive(const std::vector<Message>& manifest, std::size_t message,
                          std::uint32_t index, std::uint32_t count, const Word* words) {
  const Message& m = manifest.at(message);
  Arrivals& a = arrivals_.at(message);
  std::uint32_t k = 0;
  // Words that continue this delivery in order, none ahead of them: each would take arrive()'s
  // in-order branch, so they are counted together up to the first wrong one.
  if (a.fault == Arrivals::Fault::None && index == a.words % m.words &&
      std::uint64_t{index} + count <= m.words &&
      std::uint64_t{a.words} + count <= std::uint64_t{m.words} * deliveries_ &&
      ahead_.count(message) == 0) {
    const PayloadWords payload(m.payload);
    while (k < count && words[k] == payload[index + k]) {
      ++k;
    }
    a.words += k;
  }
  for (; k < count; ++k) {
    arrive(manifest, message, index + k, words[k]);
  }
}

DeliveryReport ArrivalCheck::report(const std::vector<Message>& manifest, bool run_ended) const {
  DeliveryReport report;
  for (std::size_t i = 0; i < manifest.size(); ++i) {
    const Message& m = manifest[i];
    ++report.messages_checked;
    report.words_checked += m.words;
    const Arrivals& a = arrivals_.at(i);
    if (a.fault == Arrivals::Fault::Wrong) {
      fail(report, m, a.fault_index, expected_found(m, a.fault_index, a.found, run_ended));
    } else if (a.fault == Arrivals::Fault::Repeated) {
      fail(report, m, a.fault_index, "arrived twice");
    } else if (std::uint64_t{a.words} < std::uint64_t{m.words} * deliveries_) {
      const std::uint32_t missing = a.words % m.words;
      fail(report, m, missing, expected_found(m, missing, kUnwrittenWord, run_ended));
    }
  }
  return report;
}

void MessageMemory::load(const std::vector<Message>& manifest, std::uint32_t processors,
                         std::uint32_t deliveries) {
  manifest_ = &manifest;
  sources_.assign(processors, {});
  destinations_.assign(processors, {});
  for (std::size_t i = 0; i < manifest.size(); ++i) {
    const Message& m = manifest[i];
    const auto index = static_cast<std::uint32_t>(i);
    sources_.at(m.source).push_back({m.src_address, index});
    destinations_.at(m.destination).push_back({m.dst_address, index});
  }
  for (auto* per_processor : {&sources_, &destinations_}) {
    for (std::vector<Region>& regions : *per_processor) {
      // Messages of one payload may share a source region from the same word on with different
      // lengths (validate): the longest sorts last among them, so find() takes it and every
      // shared word is found in it.
      std::sort(regions.begin(), regions.end(), [&manifest](const Region& a, const Region& b) {
        return std::tie(a.begin, manifest[a.message].words, a.message) <
               std::tie(b.begin, manifest[b.message].words, b.message);
      });
      regions.shrink_to_fit();
    }
  }
  arrivals_.reset(manifest.size(), deliveries);
}

std::pair<const MessageMemory::Region*, MessageMemory::Run> MessageMemory::find(
    const std::vector<Region>& regions, std::uint32_t address, std::uint32_t count) const {
  // The last region starting at or before the address holds it, if any does; regions of one
  // local memory are disjoint (validate), except a source's shared by messages of one payload,
  // word for word. The same region is the last one for every word before the next region's
  // begin, so the run ends there or at the region's end.
  auto after = std::upper_bound(regions.begin(), regions.end(), address,
                                [](std::uint32_t a, const Region& r) { return a < r.begin; });
  std::uint64_t end = std::uint64_t{address} + count;
  if (after != regions.end()) {
    end = std::min<std::uint64_t>(end, after->begin);
  }
  const Region* holder = nullptr;
  if (after != regions.begin()) {
    const Region& r = *std::prev(after);
    const std::uint64_t region_end = std::uint64_t{r.begin} + (*manifest_)[r.message].words;
    if (address < region_end) {
      holder = &r;
      end = std::min(end, region_end);
    }
  }
  return {holder, Run{static_cast<std::uint32_t>(end - address), holder != nullptr}};
}

MessageMemory::Run MessageMemory::sent(ProcId p, std::uint32_t address, std::uint32_t count,
                                       Word* out) const {
  const auto [r, run] = find(sources_.at(p), address, count);
  if (r != nullptr) {
    const PayloadWords payload((*manifest_)[r->message].payload);
    const std::uint32_t first = address - r->begin;
    for (std::uint32_t k = 0; k < run.words; ++k) {
      out[k] = payload[first + k];
    }
  }
  return run;
}

MessageMemory::Run MessageMemory::receive(ProcId p, std::uint32_t address, std::uint32_t count,
                                          const Word* words) {
  const auto [r, run] = find(destinations_.at(p), address, count);
  if (r != nullptr) {
    arrivals_.arrive(*manifest_, r->message, address - r->begin, run.words, words);
  }
  return run;
}

DeliveryReport MessageMemory::report(bool run_ended) const {
  return arrivals_.report(*manifest_, run_ended);
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
