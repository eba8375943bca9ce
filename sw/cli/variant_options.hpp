// `--variant FILE` on the running commands: the file's fields fill the options the command line
// left out (an option given explicitly wins), and an error about a value that came from the file
// points at the field's line and column instead of the option.
#pragma once

#include <boost/program_options.hpp>
#include <map>
#include <string>

#include "sw/core/diagnostic.hpp"
#include "sw/variant/variant.hpp"

namespace orthosim::sw::cli {

namespace po = boost::program_options;

/// --variant: the option group of the commands that take a variant file.
po::options_description variant_options();

/// The options a variant filled, by option name ("alpha", "topology"), with the field they came
/// from.
using VariantOrigins = std::map<std::string, VariantValue>;

/// Reads the variant file named by --variant and stores each field as the option of the same
/// name (`arch` as --arch or --topology) into `vm`, unless the command line gave that option
/// (variables_map::defaulted() does not count as given). `options` are the command's; `command`
/// names it in errors. Throws InputError at the field for a field the command does not take or
/// one that does not apply to the architecture in force.
VariantOrigins apply_variant(const po::options_description& options, po::variables_map& vm,
                             const std::string& command);

/// `e` pointed at the field when it is about an option a variant filled, else `e` itself.
InputError relocate(const InputError& e, const VariantOrigins& origins);
/// The one place a parameter's name becomes a position: the variant file's field when the file
/// gave the value, else the option of the same name (`alpha` is --alpha). The parameters the
/// message names in braces are spelled by spell_parameters.
InputError locate(const ParameterError& e, const VariantOrigins& origins);
/// `message` with each parameter it names in braces ({buffer-words}) spelled as the user gave it:
/// the variant file's field at its position when the file gave the value (buffer-words at
/// FILE:LINE:COL), else the option (--buffer-words).
std::string spell_parameters(const std::string& message, const VariantOrigins& origins);

}  // namespace orthosim::sw::cli
