// Applying a variant file to a command's options.
#include "sw/cli/variant_options.hpp"

#include <algorithm>
#include <cctype>

namespace orthosim::sw::cli {

po::options_description variant_options() {
  po::options_description o("Variant");
  o.add_options()("variant", po::value<std::string>(),
                  "a variant file (YAML, docs/variants.md): its fields set the options of the "
                  "same name; an option given here wins over the file");
  return o;
}

VariantOrigins apply_variant(const po::options_description& options, po::variables_map& vm,
                             const std::string& command) {
  VariantOrigins origins;
  if (!vm.count("variant")) {
    return origins;
  }
  const Variant variant = read_variant_file(vm["variant"].as<std::string>());
  const auto given = [&vm](const std::string& option) {
    return vm.count(option) > 0 && !vm[option].defaulted();
  };
  // `arch` is --arch where the command has it (access, run) and --topology for traffic. demo
  // has neither: it runs the omp, the crossbar and the bus, and a variant of any of them gives
  // the costs and sizes of all three.
  const bool has_arch = options.find_nothrow("arch", false) != nullptr;
  const bool has_topology = options.find_nothrow("topology", false) != nullptr;
  const std::string arch_option = has_arch ? "arch" : has_topology ? "topology" : "";
  std::string arch = variant.arch().text;
  std::string arch_from = variant.arch().where.to_string();
  if (!arch_option.empty() && given(arch_option)) {
    arch = vm[arch_option].as<std::string>();
    arch_from = "--" + arch_option;
  }
  const std::uint8_t bit = arch_bit(arch);
  // The architectures the command runs: traffic (--topology) the networks, run all six, access
  // and demo the multiprocessors.
  const std::uint8_t family = arch_option == "topology" ? kNetworks
                              : command == "run"        ? kEveryArch
                                                        : kSharedMemory;
  if (!given(arch_option) && (bit & family) == 0) {
    throw InputError(variant.arch().where,
                     (family == kNetworks ? "a network (" : "a multiprocessor (") +
                         arch_names(family) + ") for orthosim " + command +
                         (arch_option.empty()
                              ? ", which runs all three with the variant's costs and sizes"
                              : ""),
                     "'" + arch + "'");
  }
  // An architecture on the command line that the command does not run is that option's error
  // (its check names it): the file's fields are not judged against it.
  const std::uint8_t judged_against = (bit & family) != 0 ? bit : 0;
  for (const VariantValue& value : variant.values) {
    if (value.key == "arch" && arch_option.empty()) {
      continue;  // demo: the family was checked above
    }
    const std::string option = value.key == "arch" ? arch_option : value.key;
    const VariantFieldSpec& spec = *find_variant_field(value.key);
    if (judged_against != 0 && (spec.archs & judged_against) == 0) {
      throw InputError(value.key_where,
                       "a field of the " + arch + " (the architecture set by " + arch_from + "; " +
                           value.key + " belongs to " + arch_names(spec.archs) + ")",
                       "'" + value.key + "'");
    }
    const po::option_description* description = options.find_nothrow(option, false);
    if (description == nullptr) {
      throw InputError(value.key_where,
                       "a field orthosim " + command + " takes (it has no --" + option + ")",
                       "'" + value.key + "'");
    }
    if (given(option)) {
      continue;
    }
    boost::any parsed;
    description->semantic()->parse(parsed, {value.text}, true);
    vm.erase(option);
    vm.insert({option, po::variable_value(parsed, false)});
    origins.emplace(option, value);
  }
  return origins;
}

InputError relocate(const InputError& e, const VariantOrigins& origins) {
  const SourceLocation& where = e.where();
  if (where.line != 0 || where.file.rfind("--", 0) != 0) {
    return e;
  }
  const auto origin = origins.find(where.file.substr(2));
  if (origin == origins.end()) {
    return e;
  }
  const std::string body = std::string(e.what()).substr(where.to_string().size() + 2);
  return InputError(origin->second.where, origin->second.key + ": " + body);
}

InputError locate(const ParameterError& e, const VariantOrigins& origins) {
  return relocate(InputError({"--" + e.parameter()}, spell_parameters(e.what(), origins)), origins);
}

std::string spell_parameters(const std::string& message, const VariantOrigins& origins) {
  const auto is_name = [](const std::string& text) {
    return !text.empty() && std::islower(static_cast<unsigned char>(text.front())) != 0 &&
           std::all_of(text.begin(), text.end(), [](char c) {
             return std::islower(static_cast<unsigned char>(c)) != 0 ||
                    std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '-';
           });
  };
  std::string out;
  std::size_t from = 0;
  for (std::size_t open = message.find('{'); open != std::string::npos;
       open = message.find('{', open + 1)) {
    const std::size_t close = message.find('}', open);
    if (close == std::string::npos) {
      break;
    }
    const std::string name = message.substr(open + 1, close - open - 1);
    if (!is_name(name)) {
      continue;
    }
    const auto origin = origins.find(name);
    out += message.substr(from, open - from);
    out += origin == origins.end() ? "--" + name : name + " at " + origin->second.where.to_string();
    from = close + 1;
  }
  return out + message.substr(from);
}

}  // namespace orthosim::sw::cli
