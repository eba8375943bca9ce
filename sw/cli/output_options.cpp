// Output options checked up front.
#include "sw/cli/output_options.hpp"

#include "sw/core/diagnostic.hpp"
#include "sw/core/output_file.hpp"

namespace orthosim::sw::cli {

void check_output_options(const std::string& command,
                          const boost::program_options::variables_map& vm) {
  // The runner creates the missing folders of these commands' outputs (app/system_runner.cpp).
  const bool creates_folders = command == "run" || command == "demo";
  // For these commands --out is the folder the files go into.
  const bool out_is_folder = command == "demo" || command == "trace";
  for (const std::string name : {"vcd", "trace", "perfetto", "fst", "out"}) {
    if (!vm.count(name)) {
      continue;
    }
    const std::string path = vm[name].as<std::string>();
    if (name == "out" && out_is_folder) {
      try {
        check_output_folder(path);
      } catch (const OutputPathError& e) {
        throw InputError({"--out"}, "a writable folder", e.what());
      }
      continue;
    }
    OutputNeeds needs;
    needs.seekable = name == "fst";
    needs.may_create_folder = creates_folders;
    try {
      classify_output(path, needs);
    } catch (const OutputPathError& e) {
      throw InputError({"--" + name}, "a writable file path", e.what());
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
