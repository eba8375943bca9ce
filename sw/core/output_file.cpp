// Classification, folders and write-then-rename of output files.
#include "sw/core/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace orthosim::sw {

namespace fs = std::filesystem;

namespace {

std::string kind_name(fs::file_type type) {
  switch (type) {
    case fs::file_type::regular:
      return "a regular file";
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::symlink:
      return "a symbolic link";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "not a regular file, device or FIFO";
  }
}

/// `path` without trailing separators ("a/b/" -> "a/b"), so that parent_path() climbs.
fs::path without_trailing_separator(fs::path path) {
  while (!path.has_filename() && path.has_relative_path()) {
    path = path.parent_path();
  }
  return path;
}

/// The folder `folder` of the output `output` must be a folder, or missing below one when it may
/// be created.
void check_folder(const std::string& output, const fs::path& folder, bool may_create) {
  for (fs::path p = without_trailing_separator(folder); !p.empty(); p = p.parent_path()) {
    std::error_code ec;
    const fs::file_type type = fs::status(p, ec).type();
    if (type == fs::file_type::directory) {
      return;
    }
    if (type != fs::file_type::not_found) {
      throw OutputPathError(output,
                            ec ? "cannot examine '" + p.string() + "': " + ec.message()
                               : "'" + p.string() + "' is " + kind_name(type) + ", not a folder");
    }
    if (!may_create) {
      throw OutputPathError(output, "its folder '" + folder.string() + "' does not exist");
    }
    if (p == p.parent_path()) {
      return;
    }
  }
}

/// PATH.partial may be left by an interrupted run (then it is ours to overwrite); anything else
/// there is not ours.
void check_partial(const std::string& output, const std::string& partial) {
  std::error_code ec;
  const fs::file_type type = fs::symlink_status(partial, ec).type();
  if (type != fs::file_type::not_found && type != fs::file_type::regular) {
    throw OutputPathError(output, "'" + partial + "' is in the way: " + kind_name(type));
  }
}

OutputMode stream_or_refuse(const std::string& path, fs::file_type type, OutputNeeds needs) {
  if (needs.seekable) {
    throw OutputPathError(path, kind_name(type) + ": this output is written with seeks and needs "
                                                  "a regular file");
  }
  return OutputMode::InPlace;
}

}  // namespace

OutputPathError::OutputPathError(const std::string& path, const std::string& reason)
    : std::runtime_error("'" + path + "' (" + reason + ")") {}

OutputMode classify_output(const std::string& path, OutputNeeds needs,
                           const std::string& partial_suffix) {
  if (path.empty()) {
    throw OutputPathError(path, "an empty path");
  }
  std::error_code ec;
  const fs::file_type type = fs::symlink_status(path, ec).type();
  switch (type) {
    case fs::file_type::not_found:
      if (!fs::path(path).has_filename()) {
        throw OutputPathError(path, "a folder name, not a file name");
      }
      check_folder(path, fs::path(path).parent_path(), needs.may_create_folder);
      check_partial(path, path + partial_suffix);
      return OutputMode::Replace;
    case fs::file_type::regular:
      check_partial(path, path + partial_suffix);
      return OutputMode::Replace;
    case fs::file_type::character:
    case fs::file_type::fifo:
      return stream_or_refuse(path, type, needs);
    case fs::file_type::symlink: {
      // Written through: the link stays, and nothing is created beside it.
      const fs::file_type target = fs::status(path, ec).type();
      if (target == fs::file_type::not_found || target == fs::file_type::regular) {
        return OutputMode::InPlace;
      }
      if (target == fs::file_type::character || target == fs::file_type::fifo) {
        return stream_or_refuse(path, target, needs);
      }
      throw OutputPathError(path, "a symbolic link to " + kind_name(target));
    }
    case fs::file_type::none:
      throw OutputPathError(path, "cannot examine it: " + ec.message());
    default:
      throw OutputPathError(path, kind_name(type));
  }
}

void check_output_folder(const std::string& path) {
  if (path.empty()) {
    throw OutputPathError(path, "an empty path");
  }
  check_folder(path, path, true);
}

CreatedFolders::~CreatedFolders() {
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    std::error_code ec;
    if (fs::symlink_status(*it, ec).type() == fs::file_type::directory && fs::is_empty(*it, ec)) {
      fs::remove(*it, ec);
    }
  }
}

void CreatedFolders::create(const std::string& folder) {
  std::vector<fs::path> missing;  // innermost first
  for (fs::path p = without_trailing_separator(folder); !p.empty(); p = p.parent_path()) {
    std::error_code ec;
    if (fs::status(p, ec).type() != fs::file_type::not_found || p == p.parent_path()) {
      break;
    }
    missing.push_back(p);
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    std::error_code ec;
    if (!fs::create_directory(*it, ec) || ec) {
      throw OutputPathError(folder, "cannot create '" + it->string() + "': " +
                                        (ec ? ec.message() : std::string("it is already there")));
    }
    created_.push_back(*it);
  }
}

void CreatedFolders::create_folder_of(const std::string& path) {
  const fs::path folder = fs::path(path).parent_path();
  if (!folder.empty()) {
    create(folder.string());
  }
}

OutputFile::OutputFile(std::string path, OutputNeeds needs, std::string partial_suffix)
    : path_(std::move(path)),
      mode_(classify_output(path_, needs, partial_suffix)),
      target_(mode_ == OutputMode::Replace ? path_ + partial_suffix : path_) {
  out_.open(target_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    const int error = errno;
    throw OutputPathError(path_, "cannot open '" + target_ + "': " + std::strerror(error));
  }
}

OutputFile::~OutputFile() {
  if (mode_ != OutputMode::Replace || committed_ || kept_) {
    return;
  }
  out_.close();
  std::error_code ec;
  if (fs::symlink_status(target_, ec).type() == fs::file_type::regular) {
    fs::remove(target_, ec);
  }
}

const std::string& OutputFile::hand_over() {
  out_.close();
  handed_over_ = true;
  return target_;
}

void OutputFile::commit() {
  if (!handed_over_) {
    out_.close();
    if (!out_) {
      throw std::runtime_error("cannot write " + target_);
    }
  }
  if (mode_ == OutputMode::Replace) {
    std::error_code ec;
    const fs::file_type now = fs::symlink_status(path_, ec).type();
    if (now != fs::file_type::not_found && now != fs::file_type::regular) {
      throw std::runtime_error("cannot put " + target_ + " in place: " + path_ + " is now " +
                               kind_name(now));
    }
    if (std::rename(target_.c_str(), path_.c_str()) != 0) {
      const int error = errno;
      throw std::runtime_error("cannot rename " + target_ + " to " + path_ + ": " +
                               std::strerror(error));
    }
  }
  committed_ = true;
}

}  // namespace orthosim::sw
