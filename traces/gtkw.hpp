// GTKWave save files (.gtkw) written next to every waveform (docs/waveforms.md), so that
// `gtkwave run.vcd run.gtkw` opens with the signals grouped per block in the order the system is
// built: per system its buses, processors and bus controllers, then each router with its ports
// (routers by coordinate). Single bits are shown as bits, vectors in decimal.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/core/output_file.hpp"

namespace orthosim::traces {

struct GtkwSignal {
  std::string path;  ///< dot-separated, the name GTKWave gives it ("omp.rb0.master[15:0]")
  std::uint32_t width = 1;
};

struct GtkwGroup {
  std::string name;  ///< "omp buses", "torus.r(1,0)"
  std::vector<GtkwSignal> signals;
};

/// The name GTKWave gives a signal declared as `path` of `width` bits in a VCD without a bit range
/// in its reference: the path, and "[width-1:0]" for a vector.
[[nodiscard]] std::string gtkw_vcd_name(const std::string& path, std::uint32_t width);

/// The save file's text for the waveform `dump_file` (named by its file name, as GTKWave finds it
/// beside the save file), saved as `save_file`: one group per element of `groups`, in order.
[[nodiscard]] std::string gtkw_text(const std::string& dump_file, const std::string& save_file,
                                    const std::vector<GtkwGroup>& groups);

/// The save file of a VCD at `dump_path`: its extension replaced by .gtkw ("run.vcd" ->
/// "run.gtkw"), or .gtkw appended when it has none. An FST's is its path with .gtkw appended
/// ("run.fst.gtkw"), so that a run's VCD and FST of one name do not share one.
[[nodiscard]] std::string gtkw_path(const std::string& dump_path);

/// The save file `save_path` beside the waveform `dump_path`: opened with the waveform (a path
/// that cannot be written fails the run before it starts); none when the waveform goes to a device
/// or FIFO (a stream has no "beside") or would be its own save file (--vcd run.gtkw). write() puts
/// the text in place.
class GtkwFile {
 public:
  GtkwFile(std::string dump_path, std::string save_path, bool dump_streamed);
  void write(const std::vector<GtkwGroup>& groups);

 private:
  std::string dump_path_;
  std::string save_path_;
  std::optional<sw::OutputFile> file_;
};

}  // namespace orthosim::traces
