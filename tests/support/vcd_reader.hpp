// A minimal VCD reader for tests: the value of every variable (by dotted path) at any time.
// Independent of traces/vcd_writer, so that a writer bug cannot hide behind a matching reader.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace orthosim::testing_support {

class VcdReader {
 public:
  explicit VcdReader(const std::string& file) {
    std::ifstream in(file);
    if (!in) {
      throw std::runtime_error("cannot read " + file);
    }
    std::vector<std::string> scope;
    std::map<std::string, std::string> code_to_path;
    std::string token;
    std::uint64_t now = 0;
    while (in >> token) {
      if (token == "$scope") {
        std::string kind, name;
        in >> kind >> name >> token;
        scope.push_back(name);
      } else if (token == "$upscope") {
        in >> token;
        scope.pop_back();
      } else if (token == "$var") {
        std::string kind, width, code, name;
        in >> kind >> width >> code >> name >> token;
        std::string path;
        for (const std::string& s : scope) {
          path += s + ".";
        }
        code_to_path[code] = path + name;
        history_[path + name];
        widths_[path + name] = static_cast<std::uint32_t>(std::stoul(width));
      } else if (token == "$date") {
        has_date_ = true;
        while (in >> token && token != "$end") {
        }
      } else if (token[0] == '$') {
        if (token == "$timescale") {
          in >> timescale_;
        }
        if (token != "$dumpvars" && token != "$end" && token != "$enddefinitions") {
          while (in >> token && token != "$end") {
          }
        }
      } else if (token[0] == '#') {
        now = std::stoull(token.substr(1));
        end_time_ = now;
      } else if (token[0] == 'b') {
        std::string code;
        in >> code;
        // A vector wider than 64 bits (an FST's 128-bit bus read back) keeps its low 64 bits.
        const std::string bits = token.substr(1);
        record(code_to_path.at(code), now,
               std::stoull(bits.size() > 64 ? bits.substr(bits.size() - 64) : bits, nullptr, 2));
      } else if (token[0] == '0' || token[0] == '1') {
        record(code_to_path.at(token.substr(1)), now, token[0] == '1' ? 1 : 0);
      }
    }
  }

  [[nodiscard]] bool has(const std::string& path) const { return history_.count(path) != 0; }
  /// The width its $var declares, in bits.
  [[nodiscard]] std::uint32_t width(const std::string& path) const { return widths_.at(path); }
  /// Every signal's path, in path order.
  [[nodiscard]] std::vector<std::string> paths() const {
    std::vector<std::string> all;
    for (const auto& entry : history_) {
      all.push_back(entry.first);
    }
    return all;
  }
  [[nodiscard]] bool has_date() const { return has_date_; }
  [[nodiscard]] const std::string& timescale() const { return timescale_; }
  [[nodiscard]] std::uint64_t end_time() const { return end_time_; }

  /// The value of `path` at `time` (after all changes at `time`).
  [[nodiscard]] std::uint64_t at(const std::string& path, std::uint64_t time) const {
    const auto& h = history_.at(path);
    std::uint64_t value = 0;
    for (const auto& [t, v] : h) {
      if (t > time) {
        break;
      }
      value = v;
    }
    return value;
  }
  /// Every (time, value) change of `path`.
  [[nodiscard]] const std::vector<std::pair<std::uint64_t, std::uint64_t>>& changes(
      const std::string& path) const {
    return history_.at(path);
  }

 private:
  void record(const std::string& path, std::uint64_t time, std::uint64_t value) {
    history_[path].emplace_back(time, value);
  }

  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> history_;
  std::map<std::string, std::uint32_t> widths_;
  bool has_date_ = false;
  std::string timescale_;
  std::uint64_t end_time_ = 0;
};

}  // namespace orthosim::testing_support
