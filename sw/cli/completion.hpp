// `orthosim completion bash`: the bash completion script, generated from the command table and the
// same option descriptions `--help` prints, so that it cannot miss an option (docs/cli.md, Shell
// completion). The build writes it and `cmake --install` puts it in
// share/bash-completion/completions/orthosim.
#pragma once

#include <boost/program_options.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace orthosim::sw::cli {

/// What completion needs of one command.
struct CompletedCommand {
  std::string name;
  /// The words that may come first after the command: the lowercase alternatives of the first
  /// word of each form its usage shows, the forms separated by " | " ("export|stats|diff|plot
  /// FILE..." gives export, stats, diff and plot; "PATTERN|random --nodes M | shift --torus CxR"
  /// gives random and shift; placeholders, words with a capital, and forms that begin with an
  /// option are left out).
  std::vector<std::string> first_words;
  boost::program_options::options_description options;
};

/// The first words of `usage` as CompletedCommand::first_words describes them.
[[nodiscard]] std::vector<std::string> usage_first_words(const std::string& usage);

/// Writes the script: the function _orthosim, registered for `orthosim`, completing the command
/// name, then the command's options (and its first words), file names elsewhere.
void print_bash_completion(const std::vector<CompletedCommand>& commands, std::ostream& out);

}  // namespace orthosim::sw::cli
