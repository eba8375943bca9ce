// The stream every command's --json output goes through (cli.cpp): it writes the build's version
// object as the first member of the JSON object the command prints, so that every JSON output
// says which build wrote it (docs/cli.md, Version) without any command adding it.
#pragma once

#include <ostream>
#include <streambuf>
#include <string>

namespace orthosim::sw::cli {

/// Forwards what is written to `sink`, with `member` (`"name": value` in the layout of
/// json_text(value, 2), preceded by its line break and indentation) inserted right after the
/// opening brace of the output when the output is a JSON object. Output that does not begin with
/// '{' passes unchanged.
class JsonMemberInserter final : public std::streambuf {
 public:
  JsonMemberInserter(std::ostream& sink, std::string member);
  JsonMemberInserter(const JsonMemberInserter&) = delete;
  JsonMemberInserter& operator=(const JsonMemberInserter&) = delete;
  ~JsonMemberInserter() override;

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int sync() override;

 private:
  enum class State { BeforeObject, AfterBrace, Passing };
  void put(char c);
  void insert_member(bool more_follow);

  std::ostream& sink_;
  std::string member_;
  State state_ = State::BeforeObject;
  std::string held_;  ///< the white space after the opening brace, until the next character
};

/// The `"version": {...}` member every JSON output carries: the fields of `orthosim --version`.
[[nodiscard]] std::string version_member();

}  // namespace orthosim::sw::cli
