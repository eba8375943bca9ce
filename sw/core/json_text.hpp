// JSON text for every JSON output (--json, trace export). Strings from the user's input can hold
// bytes that are not UTF-8 (a file name, a trace's label), which JSON cannot carry: they are
// written as U+FFFD, the replacement character, instead of failing the whole output.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace orthosim::sw {

/// `value` as JSON text, indented by `indent` spaces per level (-1: on one line).
[[nodiscard]] inline std::string json_text(const nlohmann::json& value, int indent = -1) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace orthosim::sw
