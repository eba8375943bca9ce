// FST tracing of the verilated blocks. Verilator's headers come first (toolchain fact 4).
// systemc.h before verilated.h, as the generated headers do: its own include block, so that the
// format's include sorting keeps the order.
#include "verilated_sc.h"

#include "verilated_fst_sc.h"

#include <stdexcept>

#include "rtl/bridge/fst_trace.hpp"

namespace orthosim::rtl {

struct FstTrace::File {
  VerilatedFstSc fst;
};

FstTrace::FstTrace(std::string path)
    : output_(std::move(path), sw::OutputNeeds{/*seekable=*/true}) {
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
}

}  // namespace orthosim::rtl
