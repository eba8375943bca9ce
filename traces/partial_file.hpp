// An output file that is written as PATH.partial and renamed to PATH only when complete, so that a
// run (or an export) that fails leaves nothing that looks like a result. An older PATH is removed
// when the new file is opened: it would look like this run's.
#pragma once

#include <fstream>
#include <string>

namespace orthosim::traces {

class PartialFile {
 public:
  /// Opens PATH.partial; throws std::runtime_error "cannot write WHAT PATH" if it cannot.
  PartialFile(std::string path, std::string what);
  /// Removes PATH.partial unless committed.
  ~PartialFile();
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;

  [[nodiscard]] std::ofstream& out() { return out_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  /// Closes the file and renames it to PATH; throws std::runtime_error if either fails.
  void commit();

 private:
  std::string path_;
  std::string partial_path_;
  std::string what_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace orthosim::traces
