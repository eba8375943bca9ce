// Vectorizability from the structural connectivity of MemoryOrganization ([PH91] section 4.2).
#include "sw/mapping/vectorize.hpp"

#include <algorithm>

namespace orthosim::sw {

ModuleId mailbox(const MemoryOrganization& org, ProcId source, ProcId destination) {
  switch (org.arch()) {
    case Arch::Bus:
      return org.module_at({BusKind::Shared, 0}, destination);
    case Arch::Crossbar:
      return org.module_at({BusKind::Shared, source}, destination);
    case Arch::Omp:
      return org.module_at({BusKind::Row, source}, destination);
  }
  return 0;
}

std::optional<AccessRoute> route(const MemoryOrganization& org, ProcId p,
                                 const std::vector<ModuleId>& modules) {
  if (modules.empty() ||
      std::set<ModuleId>(modules.begin(), modules.end()).size() != modules.size()) {
    return std::nullopt;
  }
  for (const BusRef& bus : org.buses_of(modules.front())) {
    if (!org.can_drive(p, bus)) {
      continue;
    }
    AccessRoute r{bus, {}};
    for (ModuleId m : modules) {
      for (std::uint32_t slot = 0; slot < org.slots_per_bus(); ++slot) {
        if (org.module_at(bus, slot) == m) {
          r.slots.push_back(slot);
          break;
        }
      }
    }
    if (r.slots.size() == modules.size()) {
      return r;
    }
  }
  return std::nullopt;
}

HalfShape half_shape(const MemoryOrganization& org, const HalfDemand& demand) {
  std::set<std::uint32_t> buses;
  std::set<ModuleId> modules;
  bool vector = false;
  for (const auto& [p, wanted] : demand) {
    const std::optional<AccessRoute> r = route(org, p, wanted);
    if (!r || !buses.insert(org.bus_index(r->bus)).second) {
      return HalfShape::Multiple;
    }
    for (ModuleId m : wanted) {
      if (!modules.insert(m).second) {
        return HalfShape::Multiple;
      }
    }
    vector = vector || wanted.size() > 1;
  }
  return vector ? HalfShape::SingleVector : HalfShape::SingleScalar;
}

bool listed_as_pattern(HalfShape self, HalfShape other) {
  switch (self) {
    case HalfShape::SingleVector:
      return true;
    case HalfShape::SingleScalar:
      return other != HalfShape::Multiple;
    case HalfShape::Multiple:
      return false;
  }
  return false;
}

std::vector<std::pair<ProcId, ProcId>> canonical_instance(Pattern basic, std::uint32_t n) {
  std::vector<std::pair<ProcId, ProcId>> pairs;
  switch (basic) {
    case Pattern::C1:
      pairs.emplace_back(1, 0);
      break;
    case Pattern::C2:
      for (ProcId i = 0; i < n; ++i) {
        pairs.emplace_back(i, (i + 1) % n);
      }
      break;
    case Pattern::C3:
    case Pattern::C4:
      for (ProcId d = 1; d < n; ++d) {
        pairs.emplace_back(0, d);
      }
      break;
    case Pattern::C5:
      for (ProcId s = 1; s < n; ++s) {
        pairs.emplace_back(s, 0);
      }
      break;
    default:  // C6, C7: all to all
      for (ProcId s = 0; s < n; ++s) {
        for (ProcId d = 0; d < n; ++d) {
          if (s != d) {
            pairs.emplace_back(s, d);
          }
        }
      }
      break;
  }
  return pairs;
}

namespace {
HalfDemand demand(const MemoryOrganization& org,
                  const std::vector<std::pair<ProcId, ProcId>>& messages, bool by_source) {
  HalfDemand out;
  for (const auto& [s, d] : messages) {
    const ProcId p = by_source ? s : d;
    auto it = std::find_if(out.begin(), out.end(), [p](const auto& e) { return e.first == p; });
    if (it == out.end()) {
      out.push_back({p, {}});
      it = out.end() - 1;
    }
    it->second.push_back(mailbox(org, s, d));
  }
  return out;
}
}  // namespace

HalfDemand send_demand(const MemoryOrganization& org,
                       const std::vector<std::pair<ProcId, ProcId>>& messages) {
  return demand(org, messages, true);
}

HalfDemand receive_demand(const MemoryOrganization& org,
                          const std::vector<std::pair<ProcId, ProcId>>& messages) {
  return demand(org, messages, false);
}

MemoryCommunicationSets derive_mcs(Arch arch, std::uint32_t n) {
  const MemoryOrganization org(arch, n);
  MemoryCommunicationSets sets;
  for (int c = 1; c <= 7; ++c) {
    const auto basic = static_cast<Pattern>(c);
    const auto messages = canonical_instance(basic, n);
    const HalfShape send = half_shape(org, send_demand(org, messages));
    const HalfShape recv = half_shape(org, receive_demand(org, messages));
    const auto add = [&](HalfShape self, HalfShape other, const char* side) {
      if (!listed_as_pattern(self, other)) {
        return;
      }
      (self == HalfShape::SingleVector ? sets.vector : sets.scalar)
          .push_back(to_string(basic) + side);
    };
    add(send, recv, "_send");
    add(recv, send, "_recv");
  }
  return sets;
}

}  // namespace orthosim::sw
