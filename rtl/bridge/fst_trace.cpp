// FST tracing of the verilated blocks. Verilator's headers come first (toolchain fact 4).
// systemc.h before verilated.h, as the generated headers do: its own include block, so that the
// format's include sorting keeps the order.
#include "verilated_sc.h"

#include "verilated_fst_sc.h"

#include "gtkwave/fstapi.h"

#include <stdexcept>

#include "rtl/bridge/fst_trace.hpp"

namespace orthosim::rtl {

struct FstTrace::File {
  VerilatedFstSc fst;
};

namespace {

/// The save file's groups of the FST file at `path`, read back from its hierarchy: one per
/// verilated block, the signals of its top module (its ports and own registers; the submodules'
/// are a click away in GTKWave's tree), parameters left out.
std::vector<traces::GtkwGroup> gtkw_groups(const std::string& path) {
  void* reader = fstReaderOpen(path.c_str());
  if (reader == nullptr) {
    throw std::runtime_error("cannot read back the FST file " + path);
  }
  std::vector<traces::GtkwGroup> groups;
  std::vector<std::string> scopes;
  while (const fstHier* h = fstReaderIterateHier(reader)) {
    if (h->htyp == FST_HT_SCOPE) {
      scopes.emplace_back(h->u.scope.name, h->u.scope.name_length);
    } else if (h->htyp == FST_HT_UPSCOPE && !scopes.empty()) {
      scopes.pop_back();
    } else if (h->htyp == FST_HT_VAR && h->u.var.typ != FST_VT_VCD_PARAMETER) {
      std::string scope;
      for (const std::string& part : scopes) {
        scope += (scope.empty() ? "" : ".") + part;
      }
      const bool in_submodule = !groups.empty() && scope.rfind(groups.back().name + ".", 0) == 0;
      if (in_submodule) {
        continue;
      }
      if (groups.empty() || groups.back().name != scope) {
        groups.push_back({scope, {}});
      }
      // Verilator names a vector "req [3:0]"; GTKWave shows it as "req[3:0]".
      std::string name(h->u.var.name, h->u.var.name_length);
      if (const std::size_t space = name.find(" ["); space != std::string::npos) {
        name.erase(space, 1);
      }
      groups.back().signals.push_back({scope + "." + name, h->u.var.length});
    }
  }
  fstReaderClose(reader);
  return groups;
}

}  // namespace

FstTrace::FstTrace(std::string path)
    : output_(std::move(path), sw::OutputNeeds{/*seekable=*/true}),
      gtkw_(output_.path(), output_.path() + ".gtkw", false) {
  Verilated::traceEverOn(true);
}

// A run that did not end (a co-simulation mismatch, an error) leaves FILE.partial for inspection.
FstTrace::~FstTrace() {
  if (file_) {
    file_->fst.close();
    output_.keep_partial();
  }
}

void FstTrace::add(std::function<void(VerilatedFstC&)> attach) {
  if (file_) {
    throw std::logic_error("FstTrace::add after open");
  }
  attach_.push_back(std::move(attach));
}

void FstTrace::open() {
  file_ = std::make_unique<File>();
  for (const auto& attach : attach_) {
    attach(file_->fst);
  }
  file_->fst.open(output_.hand_over().c_str());
}

void FstTrace::close() {
  if (!file_) {
    return;
  }
  file_->fst.flush();
  file_->fst.close();
  file_.reset();
  output_.commit();
  gtkw_.write(gtkw_groups(output_.path()));
}

}  // namespace orthosim::rtl
