// The one place that builds a multiprocessor's blocks as model, rtl or cosim.
#include "sc_models/cosim/cosim_wiring.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

#include "rtl/bridge/multiprocessor_rtl.hpp"
#include "rtl/limits.hpp"
#include "sc_models/cosim/program_image.hpp"
#include "sw/core/diagnostic.hpp"

namespace orthosim::sc {

namespace {

using sw::quoted;
using sw::require_parameter;

/// "'name=impl'": a block's choice as a refusal quotes it.
std::string choice(const std::string& block, sw::Impl impl) {
  return "'" + block + "=" + sw::to_string(impl) + "'";
}

/// The whole machine verilated as one unit (rtl/multiprocessor.sv): the processors drive their
/// bus controllers, index manipulators and the sync unit, and the controllers the memory side,
/// through pins there and through calls in the models, so no block of it can be a model while
/// another is verilated.
void validate_whole_machine(const sw::SystemConfig& config) {
  const sw::Implementations& impl = config.impl;
  const bool omp = config.arch == sw::Arch::Omp;
  // Refusals of the choice itself are keyed by impl; a size the verilated blocks do not have by
  // its own parameter, naming {impl} that asked for them.
  require_parameter(omp || impl.memory == sw::Impl::Model, "impl",
                    "interconnect=... for the " + sw::to_string(config.arch) +
                        "'s memory side (memory= is the omp's module array)",
                    choice("memory", impl.memory));
  require_parameter(!omp || impl.interconnect == sw::Impl::Model, "impl",
                    "memory=... for the omp's memory side, its module array (interconnect= is "
                    "the crossbar's and the bus's)",
                    choice("interconnect", impl.interconnect));
  const sw::Impl machine = impl.processor;
  const char* memory_side = omp ? "memory" : "interconnect";
  const std::string why =
      " (the processors, sync unit, bus controllers, index manipulators and the memory side are "
      "verilated as one unit, rtl/multiprocessor.sv: they talk through pins there and through "
      "calls in the models)";
  if (machine == sw::Impl::Model) {
    const bool sync = impl.sync != sw::Impl::Model;
    const sw::Impl block = sync ? impl.sync : impl.interconnect;
    throw sw::ParameterError("impl",
                             std::string("processor=") + sw::to_string(block) + " with " +
                                 (sync ? "sync=" : "interconnect=") + sw::to_string(block) + why,
                             choice(sync ? "sync" : "interconnect", block) +
                                 " with 'processor=model'");
  }
  const std::string all = std::string("=") + sw::to_string(machine);
  const std::string need = "im" + all + ", bus" + all + ", sync" + all + " and " + memory_side +
                           all + " with processor" + all + why;
  const std::pair<const char*, sw::Impl> blocks[] = {{"sync", impl.sync},
                                                     {"im", impl.index_manipulator},
                                                     {"bus", impl.bus_controller},
                                                     {memory_side,
                                                      omp ? impl.memory : impl.interconnect}};
  for (const auto& [name, block] : blocks) {
    require_parameter(block == machine, "impl", need, choice(name, block));
  }
  const rtl::MultiprocessorArch arch = verilated_arch(config.arch);
  const std::string built = rtl::MultiprocessorRtl::built_list(arch);
  // Which pairs are verilated is a configure-time choice (rtl/limits.cmake, docs/rtl.md).
  const std::string pair = sw::to_string(config.arch) + ":" + std::to_string(config.n);
  const auto& ns = rtl::limits::kProcessors;
  const std::string how = std::find(ns.begin(), ns.end(), config.n) != ns.end()
                              ? "to add " + pair + ", configure with -DORTHOSIM_RTL_MP_MODELS=\"" +
                                    rtl::limits::kMultiprocessorModelsOption + ";" + pair +
                                    "\" and build again"
                              : std::string("the RTL's n are ") + rtl::limits::kProcessorList;
  require_parameter(rtl::MultiprocessorRtl::built(arch, config.n), "n",
                    (built.empty() ? std::string("a number of processors")
                                   : built + " processors, the sizes") +
                        " of the RTL " + sw::to_string(config.arch) +
                        " that {impl} asks for (this build verilates " +
                        rtl::limits::kMultiprocessorModels + "; " + how + ")",
                    quoted(config.n));
}

}  // namespace

void validate_rtl(const sw::SystemConfig& config) {
  const sw::Implementations& impl = config.impl;
  if (impl.processor != sw::Impl::Model || impl.sync != sw::Impl::Model ||
      impl.interconnect != sw::Impl::Model) {
    validate_whole_machine(config);
    return;
  }
  if (impl.memory != sw::Impl::Model) {
    require_parameter(config.arch == sw::Arch::Omp, "impl",
                      "memory=model on the " + sw::to_string(config.arch) +
                          " (the module array, rtl/module_array.sv, is the omp's n x n modules on "
                          "row and column buses; the crossbar and the bus organise their modules "
                          "otherwise)",
                      choice("memory", impl.memory));
    require_parameter(impl.memory == sw::Impl::Cosim || impl.bus_controller == sw::Impl::Rtl,
                      "impl",
                      "bus=rtl with memory=rtl (the modules take the words cycle by cycle, the "
                      "model bus controller moves an access's words at its grant), or "
                      "memory=cosim",
                      choice("memory", impl.memory) + " with " +
                          choice("bus", impl.bus_controller));
    require_parameter(rtl::ModuleArrayRtl::supports(config.n), "n",
                      std::string(rtl::limits::kProcessorList) +
                          " processors, the sizes of the RTL module array that {impl} asks for",
                      quoted(config.n));
    require_parameter(
        config.module_words <= rtl::ModuleArrayRtl::kModuleWords, "module-words",
        "at most " + std::to_string(rtl::ModuleArrayRtl::kModuleWords) +
            " words per module, the depth of the RTL module array that {impl} asks for",
        quoted(config.module_words));
    require_parameter(config.clock_period_ns >= 2, "clock-ns",
                      "at least 2 ns: the RTL module array that {impl} asks for is evaluated at "
                      "half a cycle",
                      quoted(config.clock_period_ns));
  }
  if (impl.bus_controller == sw::Impl::Model) {
    require_parameter(impl.index_manipulator == sw::Impl::Model, "impl",
                      std::string("bus=rtl or bus=cosim with im=") +
                          sw::to_string(impl.index_manipulator) +
                          " (the model bus controller moves an access's words at its grant, the "
                          "RTL index manipulator takes them cycle by cycle)",
                      choice("im", impl.index_manipulator) + " with 'bus=model'");
    return;
  }
  require_parameter(
      !(impl.bus_controller == sw::Impl::Cosim && impl.index_manipulator == sw::Impl::Rtl), "impl",
      "im=cosim with bus=cosim (the model performs the access, so the model index manipulator "
      "must too), or bus=rtl",
      "'im=rtl' with 'bus=cosim'");
  require_parameter(rtl::BusControllerRtl::supports(config.n), "n",
                    std::string(rtl::limits::kProcessorList) +
                        " processors, the sizes of the RTL bus controller that {impl} asks for",
                    quoted(config.n));
  const std::string registers = ", what the RTL bus controller that {impl} asks for holds";
  require_parameter(config.buffer_words <= rtl::BusControllerRtl::kBufferWords, "buffer-words",
                    "at most " + std::to_string(rtl::BusControllerRtl::kBufferWords) +
                        " words per data buffer" + registers,
                    quoted(config.buffer_words));
  require_parameter(config.index_sets <= rtl::BusControllerRtl::kIndexSets, "impl",
                    "a program of at most " + std::to_string(rtl::BusControllerRtl::kIndexSets) +
                        " index sets per processor" + registers,
                    std::to_string(config.index_sets) + " index sets");
  require_parameter(config.module_words <= rtl::BusControllerRtl::kModuleWords, "module-words",
                    "at most " + std::to_string(rtl::BusControllerRtl::kModuleWords) +
                        " words per memory module" + registers,
                    quoted(config.module_words));
  const std::pair<const char*, std::uint64_t> timing[] = {{"alpha", config.timing.alpha},
                                                          {"beta", config.timing.beta},
                                                          {"tau", config.timing.tau},
                                                          {"gamma", config.timing.gamma}};
  for (const auto& [name, value] : timing) {
    require_parameter(value <= rtl::BusControllerRtl::kTimingMax, name,
                      "at most " + std::to_string(rtl::BusControllerRtl::kTimingMax) +
                          " cycles, what the timing registers of the RTL bus controller that "
                          "{impl} asks for hold",
                      quoted(value));
  }
}

namespace {

/// P(p)'s buffers with their verilated twin: every load reaches the twin through its backdoor;
/// with im = rtl the twin answers the StoreBuffer reads.
class TwinnedBuffers final : public DataBuffers {
 public:
  TwinnedBuffers(IndexManipulator& model, bool twin_answers)
      : model_(model), twin_answers_(twin_answers) {}
  void set_twin(rtl::IndexManipulatorRtl& twin) { twin_ = &twin; }

  void load(const std::vector<sw::IndexSet>& index_sets) override {
    model_.load(index_sets);
    for (std::uint32_t set = 0; set < index_sets.size(); ++set) {
      twin_->set_index_set(set, index_sets[set]);
    }
    twin_->fill(sw::kUnwrittenWord);
  }
  void write_word(std::uint32_t b, std::uint32_t word, Word value) override {
    model_.write_word(b, word, value);
    twin_->set_word(b, word, value);
  }
  [[nodiscard]] Word read_word(std::uint32_t b, std::uint32_t word) const override {
    const Word model = model_.read_word(b, word);  // checks the address
    return twin_answers_ ? twin_->word(b, word) : model;
  }
  void write_words(std::uint32_t b, std::uint32_t word, std::uint32_t count,
                   const Word* values) override {
    model_.write_words(b, word, count, values);
    twin_->set_words(b, word, count, values);
  }
  void read_words(std::uint32_t b, std::uint32_t word, std::uint32_t count,
                  Word* out) const override {
    model_.read_words(b, word, count, out);  // checks the addresses
    if (twin_answers_) {
      twin_->words(b, word, count, out);
    }
  }

 private:
  IndexManipulator& model_;
  const bool twin_answers_;
  rtl::IndexManipulatorRtl* twin_ = nullptr;
};

/// bus = rtl: granted in place of the model controller, the verilated one performs the access
/// and reports its words and its end to the model controller's bookkeeping.
class RtlController final : public Grantee, public RtlAccessListener {
 public:
  RtlController(BusController& model, RtlDatapath& datapath) : model_(model), datapath_(datapath) {}

  void granted(Cycle now) override {
    model_.perform_begin(now);
    grant_ = now;
    datapath_.run(model_.access(), *this);
  }
  [[nodiscard]] std::string grantee_name() const override { return model_.grantee_name(); }
  void rtl_beat(Cycle at, std::uint32_t slot, std::uint32_t address, Word word) override {
    model_.perform_word(at, slot, address, word);
  }
  void rtl_last(Cycle at) override { model_.perform_end(grant_, at); }

 private:
  BusController& model_;
  RtlDatapath& datapath_;
  Cycle grant_;
};

/// memory = cosim: the module array hears each grant of the model arbiter before the grantee.
class GrantRelay final : public Grantee {
 public:
  GrantRelay(RtlMemory& memory, sw::ProcId p) : memory_(memory), p_(p) {}
  void to(Grantee& grantee) { grantee_ = &grantee; }
  void delay_with(LateGrant& late) { late_ = &late; }

  void granted(Cycle now) override {
    if (late_ == nullptr || !late_->holds_back(now, [this](Cycle at) { deliver(at); })) {
      deliver(now);
    }
  }
  [[nodiscard]] std::string grantee_name() const override { return grantee_->grantee_name(); }

 private:
  void deliver(Cycle at) {
    memory_.granted(p_);
    grantee_->granted(at);
  }

  RtlMemory& memory_;
  const sw::ProcId p_;
  Grantee* grantee_ = nullptr;
  LateGrant* late_ = nullptr;
};

/// The model controller's schedules go to the module array (memory = cosim: its stimulus and
/// reference) and to the verilated controller beside it (bus = cosim: its reference).
class ScheduleFanout final : public AccessObserver {
 public:
  ScheduleFanout(RtlMemory* memory, RtlDatapath* datapath) : memory_(memory), datapath_(datapath) {}
  void performed(sw::ProcId p, const sw::MemoryAccess& access, ModelAccess schedule) override {
    if (memory_ != nullptr) {
      memory_->schedule(p, schedule);
    }
    if (datapath_ != nullptr) {
      datapath_->shadow(access, std::move(schedule));
    }
  }

 private:
  RtlMemory* memory_;
  RtlDatapath* datapath_;
};

}  // namespace

/// What the wiring keeps of one processor.
struct CosimWiring::Lane {
  BusController* controller = nullptr;
  Grantee* performer = nullptr;  ///< granted the accesses: the model controller or the RTL's
  std::unique_ptr<TwinnedBuffers> buffers;
  std::unique_ptr<RtlDatapath> datapath;
  std::unique_ptr<rtl::IndexManipulatorRtl> manipulator;
  std::unique_ptr<RtlController> rtl_controller;
  std::unique_ptr<GrantRelay> relay;
  std::unique_ptr<ScheduleFanout> schedules;
  std::unique_ptr<FaultTap> fault;
  std::unique_ptr<LateGrant> late_grant;
};

CosimWiring::CosimWiring(rtl::FstTrace* fst) : fst_(fst) {}

CosimWiring::~CosimWiring() = default;

MemoryGrants& CosimWiring::memory(const SystemParts& system) {
  if (system_) {
    throw std::logic_error("a CosimWiring wires one system");
  }
  system_.emplace(system);
  const sw::SystemConfig& config = system.config;
  for (sw::ProcId p = 0; p < config.n; ++p) {
    lanes_.push_back(std::make_unique<Lane>());
  }
  if (config.impl.memory != sw::Impl::Model && !config.impl.whole_machine()) {
    // The verilated module array "modules" (<system>.modules.array.rtl in the FST).
    ResourceArbiter& arbiter = system.arbiter;
    memory_ = std::make_unique<RtlMemory>(
        "modules", system.name + ".modules", config, system.clock, fst_,
        [this](const Mismatch& m) { on_mismatch(m); },
        [&arbiter](std::uint64_t grants, std::uint64_t conflicts, std::uint64_t wait) {
          arbiter.count(grants, conflicts, wait);
        });
    for (sw::ProcId p = 0; p < config.n; ++p) {
      lanes_[p]->relay = std::make_unique<GrantRelay>(*memory_, p);
    }
  }
  return *this;
}

DataBuffers& CosimWiring::buffers(sw::ProcId p, IndexManipulator& model) {
  const sw::Impl im = system_->config.impl.index_manipulator;
  if (im == sw::Impl::Model || system_->config.impl.whole_machine()) {
    return model;
  }
  Lane& lane = *lanes_.at(p);
  lane.buffers = std::make_unique<TwinnedBuffers>(model, im == sw::Impl::Rtl);
  return *lane.buffers;
}

void CosimWiring::attach(sw::ProcId p, BusController& controller, IndexManipulator& model) {
  const sw::SystemConfig& config = system_->config;
  Lane& lane = *lanes_.at(p);
  lane.controller = &controller;
  lane.performer = &controller;
  if (const auto fault = faults_.find(p); fault != faults_.end()) {
    inject_fault(p, fault->second);
  }
  // The whole machine verilated is one unit (machine()): no block of it is bridged alone.
  const sw::Impl bus = config.impl.whole_machine() ? sw::Impl::Model : config.impl.bus_controller;
  if (bus != sw::Impl::Model) {
    const std::string id = std::to_string(p);
    // The datapath "bc<i>_rtl" (its verilated controller is <system>.bc<i>_rtl.bc.rtl in the FST)
    // and the index manipulator "im<i>" (<system>.im<i>.rtl).
    if (!stepper_) {
      stepper_ = std::make_unique<DatapathStepper>("datapaths", system_->clock);
    }
    lane.datapath =
        std::make_unique<RtlDatapath>(("bc" + id + "_rtl").c_str(), system_->name + ".bc" + id, p,
                                      config, system_->clock, system_->modules, model, fst_,
                                      [this](const Mismatch& m) { on_mismatch(m); }, *stepper_);
    if (memory_) {
      lane.datapath->attach_memory(*memory_);
      memory_->attach_stepper(*stepper_);
    }
    if (bus == sw::Impl::Rtl) {
      lane.rtl_controller = std::make_unique<RtlController>(controller, *lane.datapath);
      lane.performer = lane.rtl_controller.get();
    }
    const sw::Impl im = config.impl.index_manipulator;
    if (im != sw::Impl::Model) {
      lane.manipulator =
          std::make_unique<rtl::IndexManipulatorRtl>(("im" + id).c_str(), config.n, fst_);
      lane.datapath->attach_index_manipulator(*lane.manipulator, im, system_->name + ".im" + id);
      lane.buffers->set_twin(*lane.manipulator);
    }
  }
  if (lane.relay) {
    lane.relay->to(*lane.performer);
  }
  const bool memory_cosim = memory_ && config.impl.memory == sw::Impl::Cosim;
  if (bus == sw::Impl::Cosim || (memory_cosim && bus == sw::Impl::Model)) {
    lane.schedules =
        std::make_unique<ScheduleFanout>(memory_cosim ? memory_.get() : nullptr,
                                         bus == sw::Impl::Cosim ? lane.datapath.get() : nullptr);
    controller.observe(lane.schedules.get());
  }
}

void CosimWiring::request(sw::ProcId p, const std::vector<ResourceId>& resources,
                          const sw::MemoryAccess& access, Grantee& /*grantee*/) {
  // The grantee is the model controller; the lane knows who performs its accesses.
  Lane& lane = *lanes_[p];
  if (memory_ && memory_->impl() == sw::Impl::Rtl) {
    memory_->request(p, access, lane.performer);  // the module array grants
    return;
  }
  if (!memory_) {
    system_->arbiter.request(p, resources, *lane.performer);
    return;
  }
  system_->arbiter.request(p, resources, *lane.relay);
  memory_->request(p, access, nullptr);
}

void CosimWiring::release(sw::ProcId p, const std::vector<ResourceId>& resources) {
  if (!memory_ || memory_->impl() != sw::Impl::Rtl) {
    system_->arbiter.release(resources);
  }
  if (memory_) {
    memory_->release(p);
  }
}

void CosimWiring::load() {
  if (memory_) {
    memory_->load();
  }
}

MachineTwin* CosimWiring::machine(const sw::SystemConfig& config, const std::string& name,
                                  const ClockDomain& clock, traces::Recorder& recorder) {
  if (!config.impl.whole_machine()) {
    return nullptr;
  }
  // "machine" (its verilated unit is <system>.machine in the FST).
  machine_ = std::make_unique<RtlMachine>(
      "machine", config, name, clock, recorder, fst_, [this](const Mismatch& m) { on_mismatch(m); },
      machine_fault_);
  return machine_.get();
}

std::optional<Mismatch> CosimWiring::mismatch(Cycle now) const {
  if (!mismatch_ && memory_ && memory_->impl() == sw::Impl::Cosim) {
    // The array's counters against the model arbiter's figures, once the run is over.
    return memory_->check_figures(now);
  }
  return mismatch_;
}

void CosimWiring::on_mismatch(const Mismatch& m) {
  // Blocks that differ in the same cycle report in the kernel's process order, which IEEE 1666
  // leaves open: the first instance by name is kept, so the report does not depend on it.
  if (!mismatch_ ||
      std::tie(m.cycle, m.instance) < std::tie(mismatch_->cycle, mismatch_->instance)) {
    mismatch_ = m;
  }
  // The caller reports the mismatch; the kernel's own note would go to stdout.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  sc_core::sc_stop();
}

void CosimWiring::inject_fault(sw::ProcId p, const ModelFault& fault) {
  if (p >= lanes_.size() || lanes_[p]->controller == nullptr) {
    faults_[p] = fault;  // tapped when P(p)'s controller is attached
    return;
  }
  Lane& lane = *lanes_[p];
  lane.fault = std::make_unique<FaultTap>(fault, system_->config.timing.tau);
  lane.controller->tap(lane.fault.get());
}

void CosimWiring::inject_late_grant(sw::ProcId p, Cycle at) {
  Lane& lane = *lanes_.at(p);
  if (!lane.relay) {
    throw std::logic_error("a late grant is caught by memory=cosim only");
  }
  lane.late_grant =
      std::make_unique<LateGrant>(sc_core::sc_gen_unique_name("late_grant"), at, system_->clock);
  lane.relay->delay_with(*lane.late_grant);
}

std::uint64_t CosimWiring::rtl_edges() const {
  std::uint64_t edges = 0;
  for (const auto& lane : lanes_) {
    edges += lane->datapath ? lane->datapath->edges() : 0;
  }
  return edges;
}

}  // namespace orthosim::sc
