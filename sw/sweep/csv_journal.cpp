// CSV quoting and the sweep journal.
#include "sw/sweep/csv_journal.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "sw/core/diagnostic.hpp"

namespace orthosim::sw::sweep {

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    line += i == 0 ? "" : ",";
    if (f.find_first_of(",\"\r\n") == std::string::npos) {
      line += f;
      continue;
    }
    line += '"';
    for (char c : f) {
      line += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    line += '"';
  }
  return line;
}

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) {
    throw std::invalid_argument("an unterminated quote");
  }
  return fields;
}

Journal::Journal(const std::string& out, const std::string& signature,
                 const std::vector<std::string>& header, std::size_t points)
    : out_(out), partial_(out + ".partial"), header_(csv_line(header)) {
  try {
    mode_ = classify_output(out_);
  } catch (const OutputPathError& e) {
    throw ParameterError("out", "a writable file path", e.what());
  }
  if (mode_ == OutputMode::InPlace) {
    return;  // a stream: no journal beside it, the rows go out at the end
  }
  const std::string first = "# " + signature;
  std::ifstream in(partial_, std::ios::binary);
  if (in) {
    std::stringstream text;
    text << in.rdbuf();
    const std::string all = text.str();
    // Only lines ended by a newline were written whole; a kill may have cut the last one.
    const std::size_t complete = all.rfind('\n') == std::string::npos ? 0 : all.rfind('\n') + 1;
    std::istringstream lines(all.substr(0, complete));
    std::string line;
    std::uint32_t number = 0;
    const auto reject = [&](const std::string& expected, const std::string& found) {
      throw InputError({partial_, number, 1},
                       expected + " (the journal of this sweep; remove it to start over)", found);
    };
    while (std::getline(lines, line)) {
      ++number;
      if (number == 1 && line != first) {
        reject("'" + first + "'", "'" + line + "', another sweep's");
      } else if (number == 2 && line != header_) {
        reject("the header '" + header_ + "'", "'" + line + "'");
      } else if (number > 2) {
        std::vector<std::string> fields;
        try {
          fields = csv_fields(line);
        } catch (const std::invalid_argument&) {
          reject("a row of " + std::to_string(header.size()) + " columns", "an unterminated quote");
        }
        if (fields.size() != header.size()) {
          reject("a row of " + std::to_string(header.size()) + " columns",
                 std::to_string(fields.size()));
        }
        // Digits and nothing else (std::stoul alone takes " 1", "1x" and "+1" for 1).
        const std::string& index = fields[0];
        std::size_t point = points;
        if (!index.empty() && index.size() <= 18 &&
            std::all_of(index.begin(), index.end(),
                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
          point = std::stoul(index);
        }
        if (point >= points) {
          reject("a point index below " + std::to_string(points), "'" + fields[0] + "'");
        }
        rows_.emplace(point, line);
      }
    }
    in.close();
    // A journal cut before its header was whole is started again below.
    if (number >= 2) {
      std::filesystem::resize_file(partial_, complete);
      file_.open(partial_, std::ios::binary | std::ios::app);
    }
  }
  if (!file_.is_open()) {
    file_.open(partial_, std::ios::binary | std::ios::trunc);
    file_ << first << '\n' << header_ << '\n';
    file_.flush();
  }
  if (!file_) {
    throw ParameterError("out", "a writable file path", "'" + out + "'");
  }
}

void Journal::append(std::size_t point, const std::string& line) {
  rows_.emplace(point, line);
  if (!file_.is_open()) {
    return;
  }
  file_ << line << '\n';
  file_.flush();
  if (!file_) {
    throw std::runtime_error("cannot write " + partial_);
  }
}

void Journal::discard_if_empty() {
  if (!file_.is_open() || !rows_.empty()) {
    return;
  }
  file_.close();
  std::error_code ignored;  // gone already: nothing is left either way
  std::filesystem::remove(partial_, ignored);
}

void Journal::finish() {
  std::optional<OutputFile> file;
  try {
    file.emplace(out_, OutputNeeds{}, kSortedSuffix);
  } catch (const OutputPathError& e) {
    throw ParameterError("out", "a writable file path", e.what());
  }
  file->out() << header_ << '\n';
  for (const auto& [point, line] : rows_) {
    file->out() << line << '\n';
  }
  file->commit();
  if (file_.is_open()) {
    file_.close();
    std::error_code ec;
    if (std::filesystem::symlink_status(partial_, ec).type() ==
        std::filesystem::file_type::regular) {
      std::filesystem::remove(partial_, ec);
    }
  }
}

}  // namespace orthosim::sw::sweep
