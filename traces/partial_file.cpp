// Write-then-rename output files.
#include "traces/partial_file.hpp"

#include <cstdio>
#include <stdexcept>

namespace orthosim::traces {

PartialFile::PartialFile(std::string path, std::string what)
    : path_(std::move(path)), partial_path_(path_ + ".partial"), what_(std::move(what)) {
  out_.open(partial_path_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    throw std::runtime_error("cannot write " + what_ + " " + path_);
  }
  std::remove(path_.c_str());
}

PartialFile::~PartialFile() {
  if (!committed_) {
    out_.close();
    std::remove(partial_path_.c_str());
  }
}

void PartialFile::commit() {
  out_.close();
  if (!out_ || std::rename(partial_path_.c_str(), path_.c_str()) != 0) {
    throw std::runtime_error("cannot finish " + what_ + " " + path_);
  }
  committed_ = true;
}

}  // namespace orthosim::traces
