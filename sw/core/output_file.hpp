// Output paths (docs/cli.md, "Output files"): an output touches only what it owns. A regular file
// (or a path where nothing is yet) is written to PATH.partial and renamed over PATH when complete;
// a character device, a FIFO (/dev/null, /dev/stdout) or a symbolic link is written through PATH
// as a stream and never removed or renamed; a directory or anything else is refused. Every writer
// opens its output through OutputFile, and the command line classifies every output option with
// the same functions before anything runs.
#pragma once

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace orthosim::sw {

/// How an output is written.
enum class OutputMode {
  Replace,  ///< nothing there yet, or a regular file: PATH.partial, renamed over PATH at the end
  InPlace,  ///< a character device, a FIFO or a symbolic link: written through PATH as a stream
};

/// What a writer asks of its output path.
struct OutputNeeds {
  bool seekable = false;           ///< the writer seeks (FST): character devices and FIFOs refused
  bool may_create_folder = false;  ///< a missing folder will be created before the file is opened
};

/// Why a path cannot be an output. what() is the path and the reason, "'adir' (a directory)",
/// ready to be the `found` part of an InputError naming the option.
class OutputPathError : public std::runtime_error {
 public:
  OutputPathError(const std::string& path, const std::string& reason);
};

/// How `path` is written. Throws OutputPathError when it is empty, names a folder, is a directory,
/// a block device, a socket or anything else that is not a regular file, character device, FIFO
/// or symbolic link to one of those; when its folder is not a folder (or is missing and
/// `needs.may_create_folder` is false); or when PATH`partial_suffix` is there and not a regular
/// file. Looks only: nothing is created.
OutputMode classify_output(const std::string& path, OutputNeeds needs = {},
                           const std::string& partial_suffix = ".partial");

/// Checks a folder that outputs go into (`demo --out`, `trace plot --out`): an existing folder,
/// or a missing one (with any missing parents) whose nearest existing parent is a folder. Throws
/// OutputPathError otherwise.
void check_output_folder(const std::string& path);

/// The folders created for a command's outputs. The ones still empty when it is destroyed are
/// removed again, so that a command that fails leaves no empty folder of its own behind; a folder
/// the user had is never touched. Destroy it after the outputs in its folders.
class CreatedFolders {
 public:
  CreatedFolders() = default;
  CreatedFolders(const CreatedFolders&) = delete;
  CreatedFolders& operator=(const CreatedFolders&) = delete;
  ~CreatedFolders();

  /// Creates `folder` and its missing parents; throws OutputPathError if it cannot.
  void create(const std::string& folder);
  /// Creates the folder of the file `path` (nothing if it has none).
  void create_folder_of(const std::string& path);

 private:
  std::vector<std::filesystem::path> created_;  ///< in the order created, outermost first
};

/// One output file, opened as classify_output says. With OutputMode::Replace nothing is at PATH
/// until commit(): a command that fails leaves PATH as it was and no PATH.partial.
class OutputFile {
 public:
  /// Opens PATH.partial (Replace) or PATH (InPlace; a FIFO waits here for its reader). Throws
  /// OutputPathError if the path is refused or cannot be opened.
  explicit OutputFile(std::string path, OutputNeeds needs = {},
                      std::string partial_suffix = ".partial");
  /// Removes PATH.partial unless committed or kept.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  [[nodiscard]] std::ofstream& out() { return out_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] OutputMode mode() const { return mode_; }

  /// For a writer that opens the file itself (Verilator's FST writer): closes this stream and
  /// returns the path to write, PATH.partial or PATH. commit() then only puts it in place.
  [[nodiscard]] const std::string& hand_over();
  /// Closes the file and, with Replace, renames PATH.partial over PATH; throws std::runtime_error
  /// if the bytes could not be written or PATH has meanwhile become something else than a file.
  void commit();
  /// Leaves PATH.partial for inspection (a run stopped by a co-simulation mismatch).
  void keep_partial() { kept_ = true; }

 private:
  std::string path_;
  OutputMode mode_;
  std::string target_;  ///< where the bytes go: PATH.partial or PATH
  std::ofstream out_;
  bool handed_over_ = false;
  bool committed_ = false;
  bool kept_ = false;
};

}  // namespace orthosim::sw
