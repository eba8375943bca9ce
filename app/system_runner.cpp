// SystemC-backed Runner.
#include "app/system_runner.hpp"

#include <filesystem>
#include <memory>

#include "sc_models/multiprocessor/multiprocessor.hpp"
#include "sw/core/diagnostic.hpp"
#include "traces/vcd_recorder.hpp"

namespace orthosim::app {

namespace {

/// A run that has not ended after this many cycles is stopped and reported as blocked.
constexpr sw::Cycle kCycleLimit{1'000'000'000'000ull};

sw::RunSummary summarize(const sc::RunResult& r) {
  sw::RunSummary s;
  s.completed = r.completed;
  s.cycles = r.cycles;
  s.blocked = r.blocked;
  s.payload_ok = r.completed && r.delivery.ok();
  s.messages = r.delivery.messages_checked;
  s.words = r.delivery.words_checked;
  s.delivery_failures = r.delivery.failures;
  s.conflicts = r.conflicts;
  s.conflict_wait_cycles = r.conflict_wait_cycles;
  s.stats = r.stats;
  return s;
}

/// Opens the waveform before anything is elaborated, so that a bad path fails first.
std::unique_ptr<traces::VcdRecorder> open_vcd(const std::string& option, const std::string& path,
                                              std::uint32_t clock_period_ns) {
  try {
    return std::make_unique<traces::VcdRecorder>(path, clock_period_ns);
  } catch (const std::runtime_error&) {
    throw sw::InputError({option}, "a writable file path", "'" + path + "'");
  }
}

sw::Cycle last_end(const std::vector<sc::Multiprocessor*>& systems) {
  sw::Cycle end;
  for (const sc::Multiprocessor* s : systems) {
    end = std::max(end, s->clock().now());
  }
  return end;
}

}  // namespace

sw::RunSummary SystemRunner::run_access(const sw::AccessRequest& request) {
  sw::MachineProgram program = sw::make_access_program(request.config, request.workload);
  traces::Recorder silent;
  std::unique_ptr<traces::VcdRecorder> vcd;
  if (request.vcd_path) {
    vcd = open_vcd("--vcd", *request.vcd_path, request.config.clock_period_ns);
  }
  traces::Recorder& recorder = vcd ? static_cast<traces::Recorder&>(*vcd) : silent;
  sc::Multiprocessor system(sw::to_string(request.config.arch).c_str(), request.config, recorder);
  system.load(std::move(program));
  sc::run_systems({&system}, kCycleLimit);
  if (vcd) {
    vcd->finish(last_end({&system}));
  }
  return summarize(system.result());
}

std::vector<sw::RunSummary> SystemRunner::run_side_by_side(const sw::DemoRequest& request) {
  std::error_code ec;
  std::filesystem::create_directories(request.out_dir, ec);
  if (ec) {
    throw sw::InputError({"--out"}, "a folder that can be created", "'" + request.out_dir + "'");
  }
  std::vector<sw::MachineProgram> programs;
  for (const sw::SystemConfig& c : request.configs) {
    programs.push_back(sw::make_access_program(c, request.workload));
  }
  auto vcd = open_vcd("--out", request.vcd_path, request.configs.front().clock_period_ns);
  std::vector<std::unique_ptr<sc::Multiprocessor>> systems;
  std::vector<sc::Multiprocessor*> raw;
  for (std::size_t i = 0; i < request.configs.size(); ++i) {
    const sw::SystemConfig& c = request.configs[i];
    systems.push_back(
        std::make_unique<sc::Multiprocessor>(sw::to_string(c.arch).c_str(), c, *vcd));
    raw.push_back(systems.back().get());
  }
  for (std::size_t i = 0; i < systems.size(); ++i) {
    systems[i]->load(std::move(programs[i]));
  }
  sc::run_systems(raw, kCycleLimit);
  vcd->finish(last_end(raw));
  std::vector<sw::RunSummary> out;
  for (const auto& s : systems) {
    out.push_back(summarize(s->result()));
  }
  return out;
}

}  // namespace orthosim::app
