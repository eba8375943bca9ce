// The FST waveform of the verilated blocks (--fst FILE): one file for every verilated block of a
// run, written through Verilator's tracing (verilate(... TRACE_FST), VerilatedFstSc). Each bridge
// registers its verilated model while the system is elaborated; the file is opened once
// elaboration is complete and written as FILE.partial, renamed to FILE when closed, so that an
// interrupted run never leaves a file that looks complete (sw::OutputFile). The FST writer seeks:
// a character device or FIFO is refused (a symbolic link to a regular file is written through).
//
// Verilator's FST writer puts the wall-clock date into the header (toolchain fact 5): two runs give the
// same signals and values but not the same bytes. Compare FST files after fst2vcd, without the
// $date section.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sw/core/output_file.hpp"
#include "traces/gtkw.hpp"

class VerilatedFstC;

namespace orthosim::rtl {

class FstTrace {
 public:
  /// Turns Verilator's tracing on (it must be on before a traced model is built) and opens
  /// `path` as a seekable sw::OutputFile (sw::OutputPathError if it cannot be).
  explicit FstTrace(std::string path);
  ~FstTrace();
  FstTrace(const FstTrace&) = delete;
  FstTrace& operator=(const FstTrace&) = delete;

  /// Registers one verilated model: `attach` calls its trace() on the file. Bridges call this
  /// while the system is elaborated; other blocks (routers) register the same way.
  void add(std::function<void(VerilatedFstC&)> attach);
  /// Opens the file with every registered model. Needs a complete elaboration: call it after
  /// sc_core::sc_start(sc_core::SC_ZERO_TIME), before the run.
  void open();
  /// Flushes and closes the file and puts it in place, and its GTKWave save file beside it
  /// (traces/gtkw.hpp): one group per block, its signals as the file declares them.
  void close();
  [[nodiscard]] std::size_t models() const { return attach_.size(); }

 private:
  struct File;
  sw::OutputFile output_;
  traces::GtkwFile gtkw_;
  std::vector<std::function<void(VerilatedFstC&)>> attach_;
  std::unique_ptr<File> file_;
};

}  // namespace orthosim::rtl
