// The version member of every JSON output.
#include "sw/cli/json_output.hpp"

#include <cctype>

#include "sw/cli/version.hpp"
#include "sw/core/json_text.hpp"

namespace orthosim::sw::cli {

JsonMemberInserter::JsonMemberInserter(std::ostream& sink, std::string member)
    : sink_(sink), member_(std::move(member)) {}

JsonMemberInserter::~JsonMemberInserter() {
  // An output that stopped right after its brace still gets the member.
  if (state_ == State::AfterBrace) {
    insert_member(false);
    sink_ << held_;
  }
}

void JsonMemberInserter::insert_member(bool more_follow) {
  sink_ << member_ << (more_follow ? "," : "");
  state_ = State::Passing;
}

void JsonMemberInserter::put(char c) {
  const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
  switch (state_) {
    case State::BeforeObject:
      if (c == '{') {
        state_ = State::AfterBrace;
      } else if (!space) {
        state_ = State::Passing;
      }
      sink_.put(c);
      return;
    case State::AfterBrace:
      if (space) {
        held_ += c;
        return;
      }
      insert_member(c != '}');
      sink_ << held_;
      sink_.put(c);
      return;
    case State::Passing:
      sink_.put(c);
      return;
  }
}

JsonMemberInserter::int_type JsonMemberInserter::overflow(int_type ch) {
  if (!traits_type::eq_int_type(ch, traits_type::eof())) {
    put(traits_type::to_char_type(ch));
  }
  return sink_ ? traits_type::not_eof(ch) : traits_type::eof();
}

std::streamsize JsonMemberInserter::xsputn(const char* text, std::streamsize count) {
  std::streamsize k = 0;
  for (; k < count && state_ != State::Passing; ++k) {
    put(text[k]);
  }
  sink_.write(text + k, count - k);
  return sink_ ? count : 0;
}

int JsonMemberInserter::sync() {
  sink_.flush();
  return sink_ ? 0 : -1;
}

std::string version_member() {
  // {"version": {...}} in json_text's layout, without its outer braces and last line break.
  const std::string object = json_text(nlohmann::json{{"version", version_json()}}, 2);
  return object.substr(1, object.size() - 3);
}

}  // namespace orthosim::sw::cli
