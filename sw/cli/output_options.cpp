// Output options checked up front.
#include "sw/cli/output_options.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <utility>
#include <vector>

#include "sw/cli/commands.hpp"
#include "sw/core/diagnostic.hpp"
#include "sw/core/output_file.hpp"
#include "sw/sweep/csv_journal.hpp"
#include "traces/gtkw.hpp"
#include "traces/plot.hpp"

namespace orthosim::sw::cli {

namespace {

/// Whether `path` is the file standard output writes to (/dev/stdout, or a file the shell
/// redirected the output into): the command line's report goes to std::cout, file descriptor 1.
/// The null device does not count: what both write there is discarded, nothing is mixed.
bool is_standard_output(const std::string& path) {
  struct stat target {};
  struct stat out {};
  struct stat null {};
  if (::stat(path.c_str(), &target) != 0 || ::fstat(STDOUT_FILENO, &out) != 0 ||
      target.st_dev != out.st_dev || target.st_ino != out.st_ino) {
    return false;
  }
  return !(S_ISCHR(target.st_mode) && ::stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
           target.st_rdev == null.st_rdev);
}

/// An input file of the command line and who reads it ("PROGRAM", "--variant").
struct Input {
  std::string reader;
  std::string path;
};

/// The files the command reads: PROGRAM (run, map; sweep's when it is not traffic:PATTERN), the
/// FILEs of trace, --variant, --variants and --embedding. Standard input ('-') is none.
std::vector<Input> input_files(const std::string& command,
                               const boost::program_options::variables_map& vm) {
  std::vector<Input> inputs;
  const auto add = [&inputs](const std::string& reader, const std::string& path) {
    if (path != "-") {
      inputs.push_back({reader, path});
    }
  };
  for (const char* name : {"program", "target"}) {
    if (vm.count(name)) {
      add("PROGRAM", vm[name].as<std::string>());
    }
  }
  if (command == "trace" && vm.count("args")) {
    const auto& args = vm["args"].as<std::vector<std::string>>();
    for (std::size_t i = 1; i < args.size(); ++i) {  // args[0] is the action
      add("FILE", args[i]);
    }
  }
  for (const char* name : {"variant", "embedding"}) {
    if (vm.count(name)) {
      add(std::string("--") + name, vm[name].as<std::string>());
    }
  }
  if (vm.count("variants")) {
    for (const std::string& path : vm["variants"].as<std::vector<std::string>>()) {
      add("--variants", path);
    }
  }
  return inputs;
}

/// Whether `output` names the file at `input`: the same resolved path, or the same file by
/// another name (a hard link).
bool same_file(const std::filesystem::path& output, const std::string& input) {
  std::error_code ec;
  return output == resolved_path(input) || std::filesystem::equivalent(output, input, ec);
}

/// Whether `folder` is one of the folders above `file` (both resolved).
bool is_above(const std::filesystem::path& folder, const std::filesystem::path& file) {
  for (std::filesystem::path up = file.parent_path(); !up.empty() && up != up.parent_path();
       up = up.parent_path()) {
    if (up == folder) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::filesystem::path resolved_path(const std::string& path) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  absolute = (ec ? std::filesystem::path(path) : absolute).lexically_normal();
  const std::filesystem::path p = std::filesystem::weakly_canonical(absolute, ec);
  return ec ? absolute : p;
}

void check_output_options(const std::string& command,
                          const boost::program_options::variables_map& vm) {
  // The runner creates the missing folders of these commands' outputs (app/system_runner.cpp).
  const bool creates_folders = command == "run" || command == "demo";
  // For these commands --out is the folder the files go into.
  const bool out_is_folder = command == "demo" || command == "trace";
  // The files written as PATH.partial and renamed, and who writes each ("--vcd"): two on one path
  // would both write PATH.partial, and the second rename fails after the run.
  struct Replaced {
    std::string writer;
    std::filesystem::path file;  ///< resolved
    std::string path;            ///< as given
  };
  std::vector<Replaced> replaced;
  // A file the command reads is not an output: the run would replace it (run p.mcp --trace p.mcp),
  // or write into it through a symbolic link. A device or FIFO is a stream, not replaced.
  const std::vector<Input> inputs = input_files(command, vm);
  // sweep writes its CSV through a journal, OUT.partial, and then OUT.sorted.partial.
  const std::vector<std::string> first_written =
      command == "sweep" ? std::vector<std::string>{".partial", sweep::kSortedSuffix}
                         : std::vector<std::string>{".partial"};
  const auto refuse_inputs = [&inputs, &first_written](const std::string& option,
                                                       const std::filesystem::path& file,
                                                       const std::string& path, bool via_partial) {
    std::error_code ec;
    const auto type = std::filesystem::status(file, ec).type();
    if (type != std::filesystem::file_type::regular &&
        type != std::filesystem::file_type::not_found) {
      return;
    }
    for (const Input& input : inputs) {
      if (same_file(file, input.path)) {
        throw InputError({option}, "a path of its own (" + input.reader + " reads that file)",
                         "'" + path + "'");
      }
      // A file replaced is written to PATH.partial first and renamed over PATH. PATH is `file`,
      // which `path` names only for the message (a waveform's save file is named by the --vcd).
      for (const std::string& suffix : first_written) {
        if (via_partial && same_file(resolved_path(file.string() + suffix), input.path)) {
          throw InputError({option},
                           "a path of its own (" + input.reader + " reads '" + input.path +
                               "', which the output is written to first)",
                           "'" + path + "'");
        }
      }
    }
  };
  const auto claim = [&replaced,
                      &refuse_inputs](const std::string& option, const std::string& writer,
                                      const std::filesystem::path& file, const std::string& path) {
    refuse_inputs(option, file, path, true);
    // Each is written to FILE.partial and renamed: one's FILE.partial must not be another's FILE
    // either (--trace w --vcd w.partial: the VCD, renamed to w.partial, was then renamed to w).
    const std::filesystem::path partial = resolved_path(file.string() + ".partial");
    for (const auto& [other_writer, other_file, other_path] : replaced) {
      if (other_file == file) {
        throw InputError({option}, "a path of its own (" + other_writer + " writes that file)",
                         "'" + path + "'");
      }
      if (other_file == partial) {
        throw InputError({option},
                         "a path of its own (" + other_writer + " writes '" + path +
                             ".partial', where this output is written first)",
                         "'" + path + "'");
      }
      if (resolved_path(other_file.string() + ".partial") == file) {
        throw InputError({option},
                         "a path of its own (" + other_writer + " is written to that file first)",
                         "'" + path + "'");
      }
      // A folder the other output is written in (created for it if missing) is no file path:
      // it was refused only once created, as a directory the user never had.
      if (is_above(file, other_file)) {
        throw InputError({option},
                         "a file path, not a folder of another output (" + other_writer +
                             " writes '" + other_path + "' in it)",
                         "'" + path + "'");
      }
      if (is_above(other_file, file)) {
        throw InputError({option},
                         "a file path in a folder, not in another output (" + other_writer +
                             " writes '" + other_path + "')",
                         "'" + path + "'");
      }
    }
    replaced.push_back({writer, file, path});
  };
  if (command == "demo") {  // the waveforms in its --out folder, each with its save file
    for (const Arch arch : kDemoArchs) {
      const std::string vcd = demo_waveform(vm["out"].as<std::string>(), arch);
      claim("--out", "--out", resolved_path(vcd), vcd);
      claim("--out", "--out, as a waveform's GTKWave save file",
            resolved_path(traces::gtkw_path(vcd)), traces::gtkw_path(vcd));
    }
  }
  for (const std::string name : {"vcd", "trace", "perfetto", "fst", "out"}) {
    if (!vm.count(name)) {
      continue;
    }
    const std::string path = vm[name].as<std::string>();
    // '-' reads standard input as a PROGRAM; as an output it would quietly become a file named '-'.
    if (path == "-") {
      throw InputError({"--" + name}, "a path ('-' is not standard output here; /dev/stdout is)",
                       "'-'");
    }
    if (name == "out" && out_is_folder) {
      try {
        check_output_folder(path);
      } catch (const OutputPathError& e) {
        throw InputError({"--out"}, "a writable folder", e.what());
      }
      // The pictures trace plot may write there replace a FILE it reads by that name.
      if (command == "trace") {
        for (const char* picture : traces::kPlotFiles) {
          const std::string file = (std::filesystem::path(path) / picture).string();
          refuse_inputs("--out", resolved_path(file), file, true);
        }
      }
      continue;
    }
    OutputNeeds needs;
    needs.seekable = name == "fst";
    needs.may_create_folder = creates_folders;
    OutputMode mode{};
    try {
      mode = classify_output(path, needs);
    } catch (const OutputPathError& e) {
      throw InputError({"--" + name}, "a writable file path", e.what());
    }
    // The JSON on standard output must stay JSON: a waveform or trace streamed into it would not.
    if (vm.count("json") && is_standard_output(path)) {
      throw InputError({"--" + name}, "a path other than standard output, where --json writes",
                       "'" + path + "'");
    }
    if (mode != OutputMode::Replace) {  // written in place: through a link, into its target
      refuse_inputs("--" + name, resolved_path(path), path, false);
    } else {
      claim("--" + name, "--" + name, resolved_path(path), path);
      // A waveform written to a file brings its GTKWave save file beside it (traces/gtkw.hpp).
      if (name == "vcd" && traces::gtkw_path(path) != path) {
        claim("--vcd", "--vcd, as a waveform's GTKWave save file",
              resolved_path(traces::gtkw_path(path)), path);
      }
    }
  }
}

void write_output_text(const std::string& option, const std::string& path,
                       const std::string& text) {
  try {
    OutputFile file(path);
    file.out() << text;
    file.commit();
  } catch (const OutputPathError& e) {
    throw InputError({option}, "a writable file path", e.what());
  }
}

}  // namespace orthosim::sw::cli
