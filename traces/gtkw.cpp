// GTKWave save files.
#include "traces/gtkw.hpp"

#include <sstream>

namespace orthosim::traces {

namespace {

// GTKWave's trace flags (its analyzer.h): a group's begin and end markers (a blank line), open;
// bits in binary, vectors in decimal, right-justified.
constexpr const char* kGroupBegin = "@800200";
constexpr const char* kGroupEnd = "@1000200";
constexpr const char* kBit = "@28";
constexpr const char* kDecimal = "@24";

std::string file_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string gtkw_vcd_name(const std::string& path, std::uint32_t width) {
  return width > 1 ? path + "[" + std::to_string(width - 1) + ":0]" : path;
}

std::string gtkw_text(const std::string& dump_file, const std::string& save_file,
                      const std::vector<GtkwGroup>& groups) {
  std::ostringstream out;
  out << "[*] GTKWave save file written by orthosim: gtkwave " << file_name(dump_file) << ' '
      << file_name(save_file) << '\n'
      << "[dumpfile] \"" << file_name(dump_file) << "\"\n"
      << "[sst_width] 260\n"
      << "[signals_width] 260\n"
      << "[sst_expanded] 1\n";
  for (const GtkwGroup& group : groups) {
    out << kGroupBegin << "\n-" << group.name << '\n';
    for (const GtkwSignal& signal : group.signals) {
      out << (signal.width > 1 ? kDecimal : kBit) << '\n' << signal.path << '\n';
    }
    out << kGroupEnd << "\n-" << group.name << '\n';
  }
  out << "[pattern_trace] 1\n[pattern_trace] 0\n";
  return out.str();
}

std::string gtkw_path(const std::string& dump_path) {
  const std::size_t dot = dump_path.rfind('.');
  const std::size_t slash = dump_path.rfind('/');
  const bool has_extension =
      dot != std::string::npos && dot > 0 && (slash == std::string::npos || dot > slash + 1);
  return (has_extension ? dump_path.substr(0, dot) : dump_path) + ".gtkw";
}

GtkwFile::GtkwFile(std::string dump_path, std::string save_path, bool dump_streamed)
    : dump_path_(std::move(dump_path)), save_path_(std::move(save_path)) {
  if (!dump_streamed && save_path_ != dump_path_) {
    file_.emplace(save_path_);
  }
}

void GtkwFile::write(const std::vector<GtkwGroup>& groups) {
  if (file_) {
    file_->out() << gtkw_text(dump_path_, save_path_, groups);
    file_->commit();
  }
}

}  // namespace orthosim::traces
