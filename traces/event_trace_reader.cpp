// Parsing the event trace, line by line.
#include "traces/event_trace_reader.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "sw/core/diagnostic.hpp"
#include "traces/event_trace.hpp"

namespace orthosim::traces {

namespace {
const std::string kMagic = "orthosim-trace";
}  // namespace

sw::InputRules trace_input_rules(std::string what) {
  sw::InputRules rules;
  rules.what = std::move(what);
  rules.encoding = sw::TextEncoding::Bytes;
  rules.regular_only = true;
  rules.max_bytes = 0;
  return rules;
}

bool EventTraceReader::looks_like(const std::string& path) {
  sw::InputFile in(path, trace_input_rules("trace file"));
  std::string first;
  return in.read_line(first) && first.substr(0, first.find(' ')) == kMagic;
}

EventTraceReader::EventTraceReader(const std::string& path)
    : EventTraceReader(sw::InputFile(path, trace_input_rules("event trace file"))) {}

EventTraceReader::EventTraceReader(sw::InputFile input) : in_(std::move(input)), path_(in_.name()) {
  if (!read_line() || tokens_.empty() || tokens_[0].text != kMagic) {
    fail(1, "'" + kMagic + " " + std::to_string(kEventTraceVersion) + "' as the first line",
         tokens_.empty() ? "'" + line_ + "'" : "'" + tokens_[0].text + "'");
  }
  expect_count(2);
  header_.version = number32(1, "a format version");
  if (header_.version != kEventTraceVersion) {
    fail(tokens_[1].column, "format version " + std::to_string(kEventTraceVersion),
         tokens_[1].text);
  }
  if (!read_line() || tokens_.empty() || tokens_[0].text != "clock-ns") {
    fail(1, "'clock-ns N' as the second line", tokens_.empty() ? "end of file" : tokens_[0].text);
  }
  expect_count(2);
  header_.clock_ns = number32(1, "the clock period in ns");
  if (header_.clock_ns == 0) {  // every event would be at time 0 (orthosim writes at least 1)
    fail(tokens_[1].column, "the clock period in ns, at least 1", "'" + tokens_[1].text + "'");
  }
  while (read_line()) {
    if (tokens_.empty() || tokens_[0].text != "source") {
      next_step_.assign(header_.sources.size(), 0);
      pending_ = true;
      return;
    }
    expect_count(4);
    const std::uint32_t id = number32(1, "the source's id");
    if (id != header_.sources.size()) {
      fail(tokens_[1].column, "source id " + std::to_string(header_.sources.size()),
           tokens_[1].text);
    }
    const std::optional<SourceKind> kind = parse_source_kind(tokens_[2].text);
    if (!kind) {
      fail(tokens_[2].column, "processor, controller, bus or channel", "'" + tokens_[2].text + "'");
    }
    header_.sources.push_back({tokens_[3].text, *kind});
  }
  fail(1, "events and an 'end' line", "end of file");
}

bool EventTraceReader::read_line() {
  if (!in_.read_line(line_)) {
    return false;
  }
  ++line_no_;
  tokens_.clear();
  std::size_t i = 0;
  while (i < line_.size()) {
    if (line_[i] == ' ') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < line_.size() && line_[i] != ' ') {
      ++i;
    }
    tokens_.push_back({line_.substr(start, i - start), static_cast<std::uint32_t>(start + 1)});
  }
  return true;
}

void EventTraceReader::fail(std::uint32_t column, const std::string& expected,
                            const std::string& found) const {
  // An empty file has no line read yet; its error is still at a position, 1:1.
  const auto line = static_cast<std::uint32_t>(std::max<std::uint64_t>(line_no_, 1));
  throw sw::InputError({path_, line, column}, expected, found);
}

const EventTraceReader::Token& EventTraceReader::token(std::size_t i,
                                                       const std::string& expected) const {
  if (i >= tokens_.size()) {
    fail(static_cast<std::uint32_t>(line_.size() + 1), expected, "end of line");
  }
  return tokens_[i];
}

std::uint64_t EventTraceReader::number(std::size_t i, const std::string& expected) const {
  const Token& t = token(i, expected);
  std::uint64_t v = 0;
  for (char ch : t.text) {
    if (ch < '0' || ch > '9' || v > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) {
      fail(t.column, expected + " (a non-negative integer)", "'" + t.text + "'");
    }
    v = v * 10 + static_cast<std::uint64_t>(ch - '0');
  }
  return v;
}

std::uint32_t EventTraceReader::number32(std::size_t i, const std::string& expected) const {
  const std::uint64_t v = number(i, expected);
  if (v > std::numeric_limits<std::uint32_t>::max()) {
    fail(tokens_[i].column, expected + " below 2^32", tokens_[i].text);
  }
  return static_cast<std::uint32_t>(v);
}

SourceId EventTraceReader::source(std::size_t i, SourceKind kind) const {
  const std::string what = std::string("the id of a ") + source_kind_name(kind) + " source";
  const std::uint32_t id = number32(i, what);
  if (id >= header_.sources.size() || header_.sources[id].kind != kind) {
    fail(tokens_[i].column, what, tokens_[i].text);
  }
  return id;
}

void EventTraceReader::expect_count(std::size_t n) const {
  if (tokens_.size() > n) {
    fail(tokens_[n].column, "end of line", "'" + tokens_[n].text + "'");
  }
  if (tokens_.size() < n) {
    fail(static_cast<std::uint32_t>(line_.size() + 1), std::to_string(n) + " fields",
         std::to_string(tokens_.size()));
  }
}

bool EventTraceReader::next(TraceEvent& e) {
  if (ended_) {
    return false;
  }
  if (!pending_ && !read_line()) {
    fail(1, "an 'end' line (the trace is incomplete)", "end of file");
  }
  pending_ = false;
  e = TraceEvent{};
  e.line = line_no_;
  e.text = line_;
  e.at = Cycle{number(0, "the event's cycle")};
  if (e.at < last_) {
    fail(1, "a cycle no earlier than " + std::to_string(last_.count()), tokens_[0].text);
  }
  last_ = e.at;
  const std::string& kind = token(1, "an event (act, acc, intr, step, run, send, inject, hop, "
                                     "eject, deliver, recv, end)")
                                .text;
  if (kind == "act") {
    expect_count(5);
    e.kind = TraceEvent::Kind::Activity;
    e.source = source(2, SourceKind::Processor);
    const std::optional<Activity> a = parse_activity(tokens_[3].text);
    if (!a) {
      fail(tokens_[3].column, "an activity (idle, compute, read, ...)",
           "'" + tokens_[3].text + "'");
    }
    e.activity = *a;
    e.op_index = number32(4, "the op index");
  } else if (kind == "acc") {
    expect_count(13);
    e.kind = TraceEvent::Kind::Access;
    e.end = Cycle{number(2, "the access's end cycle")};
    if (e.end < e.at) {
      fail(tokens_[2].column, "an end no earlier than the start", tokens_[2].text);
    }
    e.source = source(3, SourceKind::BusController);
    e.access.bus = source(4, SourceKind::Bus);
    const std::optional<BusMode> mode = parse_bus_mode(tokens_[5].text);
    if (!mode || *mode == BusMode::Idle) {
      fail(tokens_[5].column, "row or column", "'" + tokens_[5].text + "'");
    }
    e.access.mode = *mode;
    if (tokens_[6].text != "r" && tokens_[6].text != "w") {
      fail(tokens_[6].column, "r or w", "'" + tokens_[6].text + "'");
    }
    e.access.write = tokens_[6].text == "w";
    e.access.master = number32(7, "the master processor");
    e.access.requested = Cycle{number(8, "the request cycle")};
    if (e.access.requested > e.at) {
      fail(tokens_[8].column, "a request no later than the grant", tokens_[8].text);
    }
    e.access.index_set = number32(9, "the index set");
    e.access.address = number32(10, "the address");
    e.access.vectors = number32(11, "the vector count");
    const Token& slots = tokens_[12];
    if (slots.text != "-") {
      std::size_t start = 0;
      while (true) {
        const std::size_t comma = slots.text.find(',', start);
        const std::string part = slots.text.substr(start, comma - start);
        std::uint32_t v = 0;
        if (part.empty() || part.size() > 9 ||
            part.find_first_not_of("0123456789") != std::string::npos) {
          fail(static_cast<std::uint32_t>(slots.column + start), "a module slot", "'" + part + "'");
        }
        v = static_cast<std::uint32_t>(std::stoul(part));
        e.slots.push_back(v);
        if (comma == std::string::npos) {
          break;
        }
        start = comma + 1;
      }
    }
  } else if (kind == "intr") {
    expect_count(4);
    e.kind = TraceEvent::Kind::Interrupt;
    e.source = source(2, SourceKind::Processor);
    e.requested = Cycle{number(3, "the request cycle")};
    if (e.requested > e.at) {
      fail(tokens_[3].column, "a request no later than the grant", tokens_[3].text);
    }
  } else if (kind == "step") {
    expect_count(4);
    e.kind = TraceEvent::Kind::Step;
    e.source = source(2, SourceKind::Processor);
    e.step = number32(3, "the step index");
    if (e.step > next_step_[e.source]) {
      fail(tokens_[3].column,
           "a step index at most " + std::to_string(next_step_[e.source]) +
               " (a processor passes its steps in order)",
           tokens_[3].text);
    }
    next_step_[e.source] = e.step + 1;
  } else if (kind == "run") {
    e.kind = TraceEvent::Kind::Run;
    e.label = line_.substr(token(2, "the run's label").column - 1);
  } else if (kind == "end") {
    expect_count(2);
    e.kind = TraceEvent::Kind::End;
    ended_ = true;
    std::string rest;
    if (in_.read_line(rest)) {
      ++line_no_;
      fail(1, "nothing after the 'end' line", "'" + rest + "'");
    }
  } else if (const std::optional<MessageEvent> m = parse_message_event(kind)) {
    e.kind = TraceEvent::Kind::Message;
    e.message.what = *m;
    e.message.message = number32(2, "the message id");
    switch (*m) {
      case MessageEvent::Send:
        expect_count(7);
        e.message.node = number32(3, "the source node");
        e.message.dst = number32(4, "the destination node");
        e.message.size = number32(5, "the message's words");
        if (tokens_[6].text != "0" && tokens_[6].text != "1") {
          fail(tokens_[6].column, "0 or 1 (measured)", "'" + tokens_[6].text + "'");
        }
        e.message.measured = tokens_[6].text == "1";
        break;
      case MessageEvent::Inject:
      case MessageEvent::Eject:
        expect_count(5);
        e.message.node = number32(3, "the router");
        e.message.size = number32(4, "the packet's flits");
        break;
      case MessageEvent::Hop:
        expect_count(6);
        e.message.channel = source(3, SourceKind::Channel);
        e.message.vc = number32(4, "the virtual channel");
        e.message.size = number32(5, "the packet's flits");
        break;
      case MessageEvent::Deliver:
        expect_count(5);
        e.message.node = number32(3, "the destination node");
        e.message.visible = Cycle{number(4, "the cycle the destination sees the message")};
        if (e.message.visible < e.at) {
          fail(tokens_[4].column, "a cycle no earlier than the event's", tokens_[4].text);
        }
        break;
      case MessageEvent::Receive:
        expect_count(4);
        e.message.node = number32(3, "the node");
        break;
    }
  } else {
    fail(tokens_[1].column,
         "an event (act, acc, intr, step, run, send, inject, hop, eject, deliver, recv, end)",
         "'" + kind + "'");
  }
  return true;
}

}  // namespace orthosim::traces
