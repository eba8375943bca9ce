// The output options of every command, checked before anything runs (docs/cli.md, "Output
// files"): the same classification the writers apply when they open the files (sw::OutputFile).
#pragma once

#include <boost/program_options.hpp>
#include <filesystem>
#include <string>

namespace orthosim::sw::cli {

/// Throws an InputError naming the option ("--vcd: expected a writable file path, found 'adir' (a
/// directory)") for the first output option of `command` in `vm` whose path cannot be written:
/// --vcd, --trace, --perfetto, --fst (a regular file: FST is written with seeks) and --out (a file
/// for gen and sweep, a folder for demo and trace plot). run and demo create missing folders.
/// Also refused: two options naming one regular file (both would write it), an output on a file
/// the command reads (PROGRAM, --variant, --variants, --embedding, trace's FILEs), and with --json
/// an output on standard output, where the JSON goes.
void check_output_options(const std::string& command,
                          const boost::program_options::variables_map& vm);

/// The path as the file system will resolve it, to tell when two paths name one file ("x.vcd",
/// "./x.vcd" and a symbolic link to it); never throws (a removed working folder leaves it as given).
std::filesystem::path resolved_path(const std::string& path);

/// Writes `text` to the output file `path` that the option `option` ("--out") gave, as an
/// sw::OutputFile (PATH.partial renamed when complete, or a stream for a device or FIFO); a path
/// refused when it is opened is an InputError naming the option.
void write_output_text(const std::string& option, const std::string& path, const std::string& text);

}  // namespace orthosim::sw::cli
