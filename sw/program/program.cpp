// Node-level messages of a step and their payload keys.
#include "sw/program/program.hpp"

namespace orthosim::sw {

std::vector<NodeMessage> messages_of(const ProgramStep& step, std::uint32_t step_index) {
  std::vector<NodeMessage> out;
  for (std::size_t t = 0; t < step.transfers.size(); ++t) {
    const Transfer& tr = step.transfers[t];
    for (NodeId d : tr.destinations) {
      out.push_back(
          {tr.source, d, tr.words, tr.broadcast, step_index, static_cast<std::uint32_t>(t)});
    }
  }
  return out;
}

PayloadKey payload_key(const NodeMessage& m) {
  return {m.source, m.broadcast ? PayloadKey::kBroadcast : m.destination, m.step};
}

Message manifest_entry(const NodeMessage& m, std::uint32_t id, ProcId from, ProcId to,
                       std::uint32_t src_address, std::uint32_t dst_address) {
  Message msg;
  msg.id = id;
  msg.source = from;
  msg.destination = to;
  msg.payload = payload_key(m);
  msg.words = m.words;
  msg.src_address = src_address;
  msg.dst_address = dst_address;
  return msg;
}

}  // namespace orthosim::sw
