// Structural connectivity of the omp, crossbar and single-bus configurations ([PH91] section
// 3.1, Fig. 4), checked by brute force over every bus, slot, module and processor for n = 1..8:
// M(i,j) sits on RB(i) and CB(j), BC(i) drives RB(i) and CB(i) only (errata), and every crossbar or
// single-bus controller drives every bus. Also the names, parse_arch and SystemConfig::validate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sw/arch/architecture.hpp"
#include "sw/arch/implementation.hpp"
#include "sw/arch/system_config.hpp"
#include "sw/core/diagnostic.hpp"

namespace orthosim {
namespace {

using sw::Arch;
using sw::BusKind;
using sw::BusRef;
using sw::MemoryOrganization;

constexpr Arch kArchs[] = {Arch::Omp, Arch::Crossbar, Arch::Bus};
constexpr std::uint32_t kMaxN = 8;

std::string label(Arch arch, std::uint32_t n) {
  return to_string(arch) + " n=" + std::to_string(n);
}

std::pair<int, std::uint32_t> key(BusRef b) { return {static_cast<int>(b.kind), b.index}; }

/// Every bus reference that could be named for n processors, existing or not.
std::vector<BusRef> all_bus_refs(std::uint32_t n) {
  std::vector<BusRef> out;
  for (BusKind kind : {BusKind::Row, BusKind::Column, BusKind::Shared}) {
    for (std::uint32_t i = 0; i <= n; ++i) {
      out.push_back({kind, i});
    }
  }
  return out;
}

/// The buses of Fig. 4 for each configuration, written out.
std::vector<BusRef> expected_buses(Arch arch, std::uint32_t n) {
  std::vector<BusRef> out;
  if (arch == Arch::Omp) {
    for (std::uint32_t i = 0; i < n; ++i) {
      out.push_back({BusKind::Row, i});
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      out.push_back({BusKind::Column, i});
    }
  } else if (arch == Arch::Crossbar) {
    for (std::uint32_t i = 0; i < n; ++i) {
      out.push_back({BusKind::Shared, i});
    }
  } else {
    out.push_back({BusKind::Shared, 0});
  }
  return out;
}

TEST(Architecture, BusesAndModuleCountFollowFigure4) {
  for (Arch arch : kArchs) {
    for (std::uint32_t n = 1; n <= kMaxN; ++n) {
      const MemoryOrganization org(arch, n);
      EXPECT_EQ(org.buses(), expected_buses(arch, n)) << label(arch, n);
      EXPECT_EQ(org.module_count(), arch == Arch::Bus ? n : n * n) << label(arch, n);
      EXPECT_EQ(org.slots_per_bus(), n) << label(arch, n);
      const std::vector<BusRef> exist = org.buses();
      for (BusRef b : all_bus_refs(n)) {
        const bool listed = std::find(exist.begin(), exist.end(), b) != exist.end();
        EXPECT_EQ(org.has_bus(b), listed)
            << label(arch, n) << " kind " << to_string(b.kind) << " index " << b.index;
      }
    }
  }
}

// Brute force: collect, for every module, the buses on whose slots it appears; that set must be
// exactly buses_of(module).
TEST(Architecture, EveryModuleIsReachableFromExactlyTheBusesItLists) {
  for (Arch arch : kArchs) {
    for (std::uint32_t n = 1; n <= kMaxN; ++n) {
      const MemoryOrganization org(arch, n);
      std::map<sw::ModuleId, std::set<std::pair<int, std::uint32_t>>> reached;
      for (BusRef b : org.buses()) {
        for (std::uint32_t slot = 0; slot < n; ++slot) {
          const sw::ModuleId m = org.module_at(b, slot);
          ASSERT_LT(m, org.module_count()) << label(arch, n);
          reached[m].insert(key(b));
        }
      }
      ASSERT_EQ(reached.size(), org.module_count()) << label(arch, n);
      for (sw::ModuleId m = 0; m < org.module_count(); ++m) {
        std::set<std::pair<int, std::uint32_t>> listed;
        for (BusRef b : org.buses_of(m)) {
          listed.insert(key(b));
        }
        EXPECT_EQ(reached[m], listed) << label(arch, n) << " " << org.module_name(m);
        EXPECT_EQ(org.buses_of(m).size(), arch == Arch::Omp ? 2u : 1u) << label(arch, n);
      }
    }
  }
}

TEST(Architecture, OmpSlotJOfRowIAndSlotIOfColumnJAreModuleIJ) {
  for (std::uint32_t n = 1; n <= kMaxN; ++n) {
    const MemoryOrganization org(Arch::Omp, n);
    for (std::uint32_t i = 0; i < n; ++i) {
      for (std::uint32_t j = 0; j < n; ++j) {
        const std::string mij = "M(" + std::to_string(i) + "," + std::to_string(j) + ")";
        const sw::ModuleId on_row = org.module_at({BusKind::Row, i}, j);
        const sw::ModuleId on_column = org.module_at({BusKind::Column, j}, i);
        EXPECT_EQ(on_row, on_column) << "n=" << n << " " << mij;
        EXPECT_EQ(org.module_name(on_row), mij) << "n=" << n;
      }
    }
  }
}

TEST(Architecture, CrossbarAndBusSlotLayout) {
  for (std::uint32_t n = 1; n <= kMaxN; ++n) {
    const MemoryOrganization crossbar(Arch::Crossbar, n);
    const MemoryOrganization bus(Arch::Bus, n);
    for (std::uint32_t j = 0; j < n; ++j) {
      for (std::uint32_t b = 0; b < n; ++b) {
        EXPECT_EQ(crossbar.module_name(crossbar.module_at({BusKind::Shared, b}, j)),
                  "M(" + std::to_string(b) + "," + std::to_string(j) + ")")
            << "n=" << n;
      }
      EXPECT_EQ(bus.module_name(bus.module_at({BusKind::Shared, 0}, j)),
                "M(" + std::to_string(j) + ")")
          << "n=" << n;
    }
  }
}

// Over the buses of one kind (row, column, or shared) every module appears exactly once.
TEST(Architecture, ModuleAtCoversEachModuleOncePerBusKind) {
  for (Arch arch : kArchs) {
    for (std::uint32_t n = 1; n <= kMaxN; ++n) {
      const MemoryOrganization org(arch, n);
      std::map<int, std::vector<int>> hits;  // bus kind -> hits per module
      for (BusRef b : org.buses()) {
        auto& h = hits[static_cast<int>(b.kind)];
        h.resize(org.module_count());
        for (std::uint32_t slot = 0; slot < n; ++slot) {
          ++h[org.module_at(b, slot)];
        }
      }
      EXPECT_EQ(hits.size(), arch == Arch::Omp ? 2u : 1u) << label(arch, n);
      for (const auto& [kind, h] : hits) {
        for (std::size_t m = 0; m < h.size(); ++m) {
          EXPECT_EQ(h[m], 1) << label(arch, n) << " kind " << kind << " module " << m;
        }
      }
    }
  }
}

TEST(Architecture, ModuleAtRejectsMissingBusOrSlot) {
  for (Arch arch : kArchs) {
    for (std::uint32_t n = 1; n <= kMaxN; ++n) {
      const MemoryOrganization org(arch, n);
      for (BusRef b : all_bus_refs(n)) {
        if (!org.has_bus(b)) {
          EXPECT_THROW((void)org.module_at(b, 0), std::out_of_range) << label(arch, n);
        } else {
          EXPECT_THROW((void)org.module_at(b, n), std::out_of_range) << label(arch, n);
        }
      }
    }
  }
}

// [PH91] section 3.1 with its errata: RB(i) and CB(i) are both controlled by BC(i). On the
// crossbar and the single bus every controller can drive every bus.
TEST(Architecture, CanDriveRules) {
  for (Arch arch : kArchs) {
    for (std::uint32_t n = 1; n <= kMaxN; ++n) {
      const MemoryOrganization org(arch, n);
      for (sw::ProcId p = 0; p <= n; ++p) {
        for (BusRef b : all_bus_refs(n)) {
          bool expected = false;
          if (p < n) {
            switch (arch) {
              case Arch::Omp:
                expected = b.kind != BusKind::Shared && b.index == p;
                break;
              case Arch::Crossbar:
                expected = b.kind == BusKind::Shared && b.index < n;
                break;
              case Arch::Bus:
                expected = b.kind == BusKind::Shared && b.index == 0;
                break;
            }
          }
          EXPECT_EQ(org.can_drive(p, b), expected) << label(arch, n) << " P" << p << " kind "
                                                   << to_string(b.kind) << " index " << b.index;
        }
      }
    }
  }
}

TEST(Architecture, BusIndexIsABijectionOntoBusPositions) {
  for (Arch arch : kArchs) {
    for (std::uint32_t n = 1; n <= kMaxN; ++n) {
      const MemoryOrganization org(arch, n);
      const std::vector<BusRef> buses = org.buses();
      std::vector<int> seen(buses.size(), 0);
      for (std::size_t k = 0; k < buses.size(); ++k) {
        const std::uint32_t index = org.bus_index(buses[k]);
        ASSERT_LT(index, buses.size()) << label(arch, n);
        EXPECT_EQ(index, k) << label(arch, n) << " " << org.bus_name(buses[k]);
        ++seen[index];
      }
      for (std::size_t k = 0; k < seen.size(); ++k) {
        EXPECT_EQ(seen[k], 1) << label(arch, n) << " index " << k;
      }
      for (BusRef b : all_bus_refs(n)) {
        if (!org.has_bus(b)) {
          EXPECT_THROW((void)org.bus_index(b), std::out_of_range) << label(arch, n);
        }
      }
    }
  }
}

TEST(Architecture, Names) {
  const MemoryOrganization omp(Arch::Omp, 3);
  EXPECT_EQ(omp.bus_name({BusKind::Row, 2}), "RB(2)");
  EXPECT_EQ(omp.bus_name({BusKind::Column, 0}), "CB(0)");
  EXPECT_EQ(omp.module_name(omp.module_at({BusKind::Row, 1}, 2)), "M(1,2)");
  EXPECT_EQ(omp.bus_tag({BusKind::Row, 2}), "rb2");
  EXPECT_EQ(omp.bus_tag({BusKind::Column, 0}), "cb0");

  const MemoryOrganization crossbar(Arch::Crossbar, 3);
  EXPECT_EQ(crossbar.bus_name({BusKind::Shared, 1}), "B(1)");
  EXPECT_EQ(crossbar.bus_tag({BusKind::Shared, 1}), "b1");
  EXPECT_EQ(crossbar.module_name(crossbar.module_at({BusKind::Shared, 2}, 0)), "M(2,0)");

  const MemoryOrganization bus(Arch::Bus, 4);
  EXPECT_EQ(bus.bus_name({BusKind::Shared, 0}), "B0");
  EXPECT_EQ(bus.module_name(bus.module_at({BusKind::Shared, 0}, 3)), "M(3)");

  EXPECT_EQ(to_string(Arch::Omp), "omp");
  EXPECT_EQ(to_string(Arch::Crossbar), "crossbar");
  EXPECT_EQ(to_string(Arch::Bus), "bus");
}

// Names are unique inside one configuration, so waveforms and messages are unambiguous.
TEST(Architecture, BusAndModuleNamesAreUnique) {
  for (Arch arch : kArchs) {
    for (std::uint32_t n = 1; n <= kMaxN; ++n) {
      const MemoryOrganization org(arch, n);
      std::set<std::string> bus_names, bus_tags, module_names;
      for (BusRef b : org.buses()) {
        bus_names.insert(org.bus_name(b));
        bus_tags.insert(org.bus_tag(b));
      }
      for (sw::ModuleId m = 0; m < org.module_count(); ++m) {
        module_names.insert(org.module_name(m));
      }
      EXPECT_EQ(bus_names.size(), org.buses().size()) << label(arch, n);
      EXPECT_EQ(bus_tags.size(), org.buses().size()) << label(arch, n);
      EXPECT_EQ(module_names.size(), org.module_count()) << label(arch, n);
    }
  }
}

TEST(Architecture, ParseArchRoundTrip) {
  for (Arch arch : kArchs) {
    Arch parsed = arch == Arch::Omp ? Arch::Bus : Arch::Omp;
    ASSERT_TRUE(sw::parse_arch(to_string(arch), parsed)) << to_string(arch);
    EXPECT_EQ(parsed, arch);
  }
}

TEST(Architecture, ParseArchRejectsOtherText) {
  for (const std::string text : {"", "OMP", "Omp", " omp", "omp ", "xbar", "buses", "b", "foo"}) {
    Arch out = Arch::Crossbar;
    EXPECT_FALSE(sw::parse_arch(text, out)) << "'" << text << "'";
    EXPECT_EQ(out, Arch::Crossbar) << "'" << text << "' changed the output";
  }
}

TEST(Architecture, ZeroProcessorsIsRejected) {
  for (Arch arch : kArchs) {
    EXPECT_THROW(MemoryOrganization(arch, 0), std::invalid_argument) << to_string(arch);
  }
}

// ---- SystemConfig::validated ---------------------------------------------------------------

// Only SystemConfig::validated() makes a Validated<SystemConfig>, so what takes one (the systems,
// the runner's requests) cannot be handed a configuration that skipped the check.
static_assert(!std::is_constructible_v<sw::Validated<sw::SystemConfig>, sw::SystemConfig>);
static_assert(!std::is_convertible_v<sw::SystemConfig, sw::Validated<sw::SystemConfig>>);

TEST(SystemConfig, DefaultsAreValid) {
  EXPECT_NO_THROW(static_cast<void>(sw::SystemConfig{}.validated()));
}

TEST(SystemConfig, ZeroCostsOtherThanTauAreValid) {
  sw::SystemConfig c;
  c.timing.alpha = 0;
  c.timing.beta = 0;
  c.timing.gamma = 0;
  c.sync.activate = 0;
  c.sync.barrier = 0;
  EXPECT_NO_THROW(static_cast<void>(c.validated()));
}

TEST(SystemConfig, ProcessorCountBounds) {
  sw::SystemConfig c;
  c.n = sw::kMaxProcessors;
  EXPECT_NO_THROW(static_cast<void>(c.validated()));
  c.n = 1;
  EXPECT_NO_THROW(static_cast<void>(c.validated()));
  for (std::uint32_t bad : {0u, sw::kMaxProcessors + 1}) {
    c.n = bad;
    try {
      static_cast<void>(c.validated());
      ADD_FAILURE() << "n = " << bad << " accepted";
    } catch (const sw::ParameterError& e) {
      // The command line puts the option (--n) or the variant field before it.
      EXPECT_EQ(e.parameter(), "n") << e.what();
      EXPECT_EQ(std::string(e.what()),
                "expected 1..256 processors, found '" + std::to_string(bad) + "'");
    }
  }
}

// Keyed by the parameter, which the command line spells before the message as it spells the
// network's refusals: "--tau: expected at least 1 cycle per word on the bus, found '0'". One,
// the least, is accepted.
TEST(SystemConfig, EachZeroSizeIsRejectedSayingWhatWasExpectedAndFound) {
  struct Case {
    std::string parameter;
    void (*set)(sw::SystemConfig&, std::uint32_t);
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"tau", [](sw::SystemConfig& c, std::uint32_t v) { c.timing.tau = v; },
       "at least 1 cycle per word on the bus"},
      {"buffer-words", [](sw::SystemConfig& c, std::uint32_t v) { c.buffer_words = v; },
       "at least 1 word per data buffer"},
      {"index-sets", [](sw::SystemConfig& c, std::uint32_t v) { c.index_sets = v; },
       "at least 1 index set in the index memory"},
      {"module-words", [](sw::SystemConfig& c, std::uint32_t v) { c.module_words = v; },
       "at least 1 word per memory module"},
      {"local-words", [](sw::SystemConfig& c, std::uint32_t v) { c.local_words = v; },
       "at least 1 word of local memory"},
      {"clock-ns", [](sw::SystemConfig& c, std::uint32_t v) { c.clock_period_ns = v; },
       "at least 1 ns"},
  };
  for (const Case& k : cases) {
    sw::SystemConfig c;
    k.set(c, 1);
    EXPECT_NO_THROW(static_cast<void>(c.validated())) << k.parameter << " = 1";
    k.set(c, 0);
    try {
      static_cast<void>(c.validated());
      ADD_FAILURE() << k.parameter << " = 0 accepted";
    } catch (const sw::ParameterError& e) {
      EXPECT_EQ(e.parameter(), k.parameter) << e.what();
      EXPECT_EQ(std::string(e.what()), "expected " + k.expected + ", found '0'") << k.parameter;
    }
  }
}

TEST(SystemConfig, OrganizationFollowsArchAndN) {
  sw::SystemConfig c;
  c.arch = Arch::Crossbar;
  c.n = 5;
  const MemoryOrganization org = c.organization();
  EXPECT_EQ(org.arch(), Arch::Crossbar);
  EXPECT_EQ(org.n(), 5u);
}

// --impl: one implementation for every block, or block=impl pairs over a base.
TEST(Implementations, OneWordSetsEveryBlock) {
  const sw::SourceLocation where{"--impl"};
  const sw::Implementations rtl = sw::Implementations::parse("rtl", where);
  for (sw::BlockType b :
       {sw::BlockType::IndexManipulator, sw::BlockType::BusController, sw::BlockType::Memory,
        sw::BlockType::Router, sw::BlockType::NetworkInterface, sw::BlockType::Processor,
        sw::BlockType::Sync, sw::BlockType::Interconnect}) {
    EXPECT_EQ(rtl.of(b), sw::Impl::Rtl) << sw::to_string(b);
  }
  EXPECT_EQ(rtl.to_string(), "rtl");
  EXPECT_TRUE(sw::Implementations{}.all_model());
  EXPECT_FALSE(rtl.all_model());
}

TEST(Implementations, PairsChangeOnlyTheBlocksNamed) {
  const sw::SourceLocation where{"--impl"};
  const sw::Implementations base = sw::Implementations::parse("cosim", where);
  const sw::Implementations i = sw::Implementations::parse("router=rtl,bus=model", where, base);
  EXPECT_EQ(i.router, sw::Impl::Rtl);
  EXPECT_EQ(i.bus_controller, sw::Impl::Model);
  EXPECT_EQ(i.index_manipulator, sw::Impl::Cosim);
  EXPECT_EQ(i.memory, sw::Impl::Cosim);
  EXPECT_EQ(i.network_interface, sw::Impl::Cosim);
  EXPECT_EQ(i.processor, sw::Impl::Cosim);
  EXPECT_EQ(i.to_string(),
            "im=cosim,bus=model,memory=cosim,router=rtl,ni=cosim,processor=cosim,sync=cosim,"
            "interconnect=cosim");
  EXPECT_EQ(sw::Implementations::parse(i.to_string(), where).to_string(), i.to_string());
}

// Each block's pair reaches that block and no other, whatever its place in the list; a machine
// with any block not the model (rtl or cosim) is not all model.
TEST(Implementations, EachBlocksPairSetsThatBlockAlone) {
  const sw::SourceLocation where{"--impl"};
  const std::vector<std::pair<const char*, sw::BlockType>> blocks = {
      {"im", sw::BlockType::IndexManipulator}, {"bus", sw::BlockType::BusController},
      {"memory", sw::BlockType::Memory},       {"router", sw::BlockType::Router},
      {"ni", sw::BlockType::NetworkInterface}, {"processor", sw::BlockType::Processor},
      {"sync", sw::BlockType::Sync},           {"interconnect", sw::BlockType::Interconnect}};
  for (const auto& [name, block] : blocks) {
    for (const char* impl : {"rtl", "cosim"}) {
      const std::string spec = std::string(name) + "=" + impl;
      const sw::Implementations i = sw::Implementations::parse(spec, where);
      for (const auto& [other_name, other] : blocks) {
        EXPECT_EQ(sw::to_string(i.of(other)), std::string(other == block ? impl : "model"))
            << spec << ": " << other_name;
      }
      EXPECT_FALSE(i.all_model()) << spec;
    }
  }
  EXPECT_FALSE(sw::Implementations::parse("cosim", where).all_model());
}

TEST(Implementations, BadSpecsNameTheOptionAndTheItem) {
  const sw::SourceLocation where{"--impl"};
  for (const char* bad : {"fast", "router=fast", "cpu=rtl", "router=rtl,", "router"}) {
    try {
      (void)sw::Implementations::parse(bad, where);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const sw::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--impl"), std::string::npos) << e.what();
    }
  }
  // A word that is no implementation and no pair is told what either would be.
  try {
    (void)sw::Implementations::parse("fast", where);
    ADD_FAILURE() << "fast was accepted";
  } catch (const sw::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--impl: expected model, rtl or cosim, or block=impl "
                                         "pairs such as bus=rtl,im=model or router=rtl,ni=model, "
                                         "found 'fast'"),
              std::string::npos)
        << e.what();
  }
}

// A block named twice would let the last pair win silently, whatever the order meant.
TEST(Implementations, ABlockNamedTwiceIsRefused) {
  const sw::SourceLocation where{"--impl"};
  const std::pair<const char*, const char*> cases[] = {
      {"im=rtl,im=model",
       "--impl: expected each block once, found 'im' again in 'im=rtl,im=model'"},
      {"bus=rtl,im=rtl,bus=rtl", "found 'bus' again in 'bus=rtl,im=rtl,bus=rtl'"},
  };
  for (const auto& [spec, says] : cases) {
    try {
      (void)sw::Implementations::parse(spec, where);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const sw::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace orthosim
