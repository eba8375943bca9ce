// The version member inserted into every JSON output (sw/cli/json_output.hpp): right after the
// opening brace of an object, whatever the pieces the output is written in; nothing else changed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "sw/cli/json_output.hpp"
#include "sw/cli/version.hpp"

namespace orthosim::sw::cli {
namespace {

const std::string kMember = "\n  \"v\": 1";

/// `pieces` written one after the other through the inserter.
std::string through_inserter(const std::vector<std::string>& pieces) {
  std::ostringstream sink;
  {
    JsonMemberInserter inserter(sink, kMember);
    std::ostream out(&inserter);
    for (const std::string& piece : pieces) {
      out << piece;
    }
  }
  return sink.str();
}

TEST(JsonOutput, TheMemberComesFirstInTheObject) {
  const std::string json = "{\n  \"a\": [\n    {\n      \"b\": 2\n    }\n  ]\n}\n";
  const std::string expected = "{\n  \"v\": 1,\n  \"a\": [\n    {\n      \"b\": 2\n    }\n  ]\n}\n";
  EXPECT_EQ(through_inserter({json}), expected);
  // One character at a time, or split inside the white space after the brace.
  std::vector<std::string> characters;
  for (char c : json) {
    characters.emplace_back(1, c);
  }
  EXPECT_EQ(through_inserter(characters), expected);
  EXPECT_EQ(through_inserter({"{\n ", " \"a\"", ": [\n    {\n      \"b\": 2\n    }\n  ]\n}\n"}),
            expected);
}

TEST(JsonOutput, AnEmptyObjectGetsNoComma) {
  EXPECT_EQ(nlohmann::json::parse(through_inserter({"{}"})), nlohmann::json({{"v", 1}}));
  EXPECT_EQ(nlohmann::json::parse(through_inserter({"{", " \n}"})), nlohmann::json({{"v", 1}}));
}

// An output cut right after its brace (or the white space after it) still gets the member, and no
// comma: nothing follows it.
TEST(JsonOutput, AnOutputThatStopsAfterItsBraceGetsTheMemberAndNoComma) {
  EXPECT_EQ(through_inserter({"{"}), "{" + kMember);
  EXPECT_EQ(through_inserter({"{", "\n "}), "{" + kMember + "\n ");
}

TEST(JsonOutput, OutputThatIsNoObjectPassesUnchanged) {
  EXPECT_EQ(through_inserter({"[{\"a\": 1}]\n"}), "[{\"a\": 1}]\n");
  EXPECT_EQ(through_inserter({"orthosim run: {", "x}\n"}), "orthosim run: {x}\n");
  EXPECT_EQ(through_inserter({}), "");
}

// White space before the object's brace is passed on, and the member still follows the brace.
TEST(JsonOutput, WhiteSpaceBeforeTheObjectPassesAndTheMemberFollowsTheBrace) {
  EXPECT_EQ(through_inserter({" \n", "{\"a\": 1}"}), " \n{" + kMember + ",\"a\": 1}");
}

/// A string buffer that counts the flushes it is asked for.
class CountingBuffer : public std::stringbuf {
 public:
  int flushes = 0;

 protected:
  int sync() override {
    ++flushes;
    return std::stringbuf::sync();
  }
};

// A flush of the output reaches the sink (a progress line or an error may follow on another
// stream), and a sink that fails fails the output, written piece by piece or a character at a
// time (docs/cli.md: an output that cannot be written in full fails the command).
TEST(JsonOutput, FlushesReachTheSinkAndItsFailureIsTheOutputs) {
  CountingBuffer buffer;
  std::ostream sink(&buffer);
  {
    JsonMemberInserter inserter(sink, kMember);
    std::ostream out(&inserter);
    out << "{\"a\": 1}" << std::flush;
    EXPECT_EQ(buffer.flushes, 1);
    EXPECT_TRUE(out.good());
  }
  for (const bool whole : {true, false}) {
    std::ostringstream failing;
    failing.setstate(std::ios::badbit);
    JsonMemberInserter inserter(failing, kMember);
    std::ostream out(&inserter);
    const std::string json = "{\"a\": 1}";
    if (whole) {
      out << json;
    } else {
      for (const char c : json) {
        out.put(c);
      }
    }
    EXPECT_TRUE(out.bad()) << (whole ? "written whole" : "a character at a time");
  }
}

TEST(JsonOutput, TheVersionMemberIsJsonTextsLayoutOfTheVersionObject) {
  const nlohmann::json object = nlohmann::json::parse("{" + version_member() + "}");
  EXPECT_EQ(object, nlohmann::json({{"version", version_json()}}));
  EXPECT_EQ(version_member().rfind("\n  \"version\": {\n    \"", 0), 0u);
  // It ends at the version object's brace, where json_text puts the comma of the next member.
  EXPECT_EQ(version_member().substr(version_member().size() - 4), "\n  }");
  EXPECT_EQ(version_json().at("orthosim"), project_version());
}

}  // namespace
}  // namespace orthosim::sw::cli
