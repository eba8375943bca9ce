// The .mcp parser: a lazy lexer (so that errors come out in file order) and a line-oriented
// recursive-descent parser that expands node lists and collectives into transfers while it checks
// the per-step message rules. Grammar and semantics: docs/program-format.md.
#include "sw/program/parser.hpp"

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "sw/core/diagnostic.hpp"
#include "sw/core/input_file.hpp"

namespace orthosim::sw {

namespace {

enum class TokenKind {
  Name,       ///< [A-Za-z_][A-Za-z0-9_]*: keywords, N3, labels
  Integer,    ///< [0-9]+, or -[0-9]+ (only `shift` accepts the sign)
  Malformed,  ///< a digit followed by letters, e.g. 3abc: no rule accepts it
  String,     ///< "quoted", escapes \" \\ \n \t \r
  Comma,
  Range,  ///< ..
  Arrow,  ///< ->
  EndOfLine,
  EndOfFile,
};

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  std::string_view text;  ///< as written (for String: with the quotes)
  std::string value;      ///< String only: the unescaped contents
  std::uint32_t line = 1;
  std::uint32_t column = 1;

  [[nodiscard]] bool is(std::string_view name) const {
    return kind == TokenKind::Name && text == name;
  }
  [[nodiscard]] bool ends_statement() const {
    return kind == TokenKind::EndOfLine || kind == TokenKind::EndOfFile;
  }
};

/// Quotes user text for a message, cut short so that a pathological line cannot produce a
/// megabyte-long error.
std::string quoted(std::string_view text) {
  constexpr std::size_t kMax = 40;
  if (text.size() > kMax) {
    return "'" + std::string(text.substr(0, kMax)) + "...'";
  }
  return "'" + std::string(text) + "'";
}

/// How a token is named in "found ..." parts of messages.
std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::EndOfLine:
      return "end of line";
    case TokenKind::EndOfFile:
      return "end of file";
    case TokenKind::String:
      return "the string " + quoted(t.text);
    default:
      return quoted(t.text);
  }
}

std::string describe_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) {
    return "the character '" + std::string(1, c) + "'";
  }
  static const char* const kHex = "0123456789abcdef";
  return std::string("the byte 0x") + kHex[u >> 4] + kHex[u & 15];
}

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Value of a run of decimal digits, or nothing if it does not fit in 64 bits.
std::optional<std::uint64_t> to_u64(std::string_view digits) {
  std::uint64_t v = 0;
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  for (char c : digits) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (kMax - d) / 10) {
      return std::nullopt;
    }
    v = v * 10 + d;
  }
  return v;
}

std::string at(const SourceLocation& where) {
  return std::to_string(where.line) + ":" + std::to_string(where.column);
}

std::string node_name(NodeId n) { return "N" + std::to_string(n); }

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {
    // A UTF-8 byte order mark, as some editors write it, is not part of the program.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") {
      pos_ = 3;
    }
  }

  Token next() {
    skip_blanks_and_comment();
    Token t;
    t.line = line_;
    t.column = column_;
    if (pos_ >= text_.size()) {
      t.kind = TokenKind::EndOfFile;
      return t;
    }
    const std::size_t start = pos_;
    const char c = text_[pos_];
    if (c == '\n') {
      t.kind = TokenKind::EndOfLine;
      t.text = text_.substr(pos_, 1);
      ++pos_;
      ++line_;
      column_ = 1;
      return t;
    }
    if (is_word_char(c)) {
      while (pos_ < text_.size() && is_word_char(text_[pos_])) {
        advance();
      }
      t.text = text_.substr(start, pos_ - start);
      t.kind = classify_word(t.text);
      return t;
    }
    if (c == '-' && peek_char(1) == '>') {
      advance();
      advance();
      t.kind = TokenKind::Arrow;
    } else if (c == '-' && is_digit(peek_char(1))) {
      advance();
      while (pos_ < text_.size() && is_word_char(text_[pos_])) {
        advance();
      }
      t.kind = classify_word(text_.substr(start + 1, pos_ - start - 1)) == TokenKind::Integer
                   ? TokenKind::Integer
                   : TokenKind::Malformed;
    } else if (c == '.' && peek_char(1) == '.') {
      advance();
      advance();
      t.kind = TokenKind::Range;
    } else if (c == ',') {
      advance();
      t.kind = TokenKind::Comma;
    } else if (c == '"') {
      t.kind = TokenKind::String;
      t.value = lex_string();
    } else {
      fail_here("a name, a number, ',', '..', '->', a \"quoted string\" or '#'", describe_byte(c));
    }
    t.text = text_.substr(start, pos_ - start);
    return t;
  }

 private:
  static TokenKind classify_word(std::string_view w) {
    if (is_digit(w[0])) {
      for (char ch : w) {
        if (!is_digit(ch)) {
          return TokenKind::Malformed;
        }
      }
      return TokenKind::Integer;
    }
    return TokenKind::Name;
  }

  char peek_char(std::size_t ahead) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }

  /// Moves over one byte of the current line. Columns count bytes, so a tab is one column.
  void advance() {
    ++pos_;
    ++column_;
  }

  void skip_blanks_and_comment() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') {
          advance();
        }
      } else {
        break;
      }
    }
  }

  std::string lex_string() {
    advance();  // the opening quote
    std::string value;
    while (true) {
      if (pos_ >= text_.size() || text_[pos_] == '\n') {
        fail_here("a closing '\"'", pos_ >= text_.size() ? "end of file" : "end of line");
      }
      const char c = text_[pos_];
      if (c == '"') {
        advance();
        return value;
      }
      if (c == '\\') {
        const char e = peek_char(1);
        const char* const escapes = "\"\\ntr";
        const char* const meaning = "\"\\\n\t\r";
        std::size_t k = 0;
        while (escapes[k] != '\0' && escapes[k] != e) {
          ++k;
        }
        if (e == '\0' || escapes[k] == '\0') {
          fail_here("an escape \\\" \\\\ \\n \\t or \\r after '\\'",
                    pos_ + 1 < text_.size() ? describe_byte(e) : "end of file");
        }
        value += meaning[k];
        advance();
        advance();
        continue;
      }
      value += c;
      advance();
    }
  }

  [[noreturn]] void fail_here(const std::string& expected, const std::string& found) const {
    throw InputError({file_, line_, column_}, expected, found);
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
};

/// An expanded node list: distinct nodes, in the order written (ranges and `all` ascending).
struct NodeList {
  std::vector<NodeId> nodes;
  SourceLocation where;  ///< its first token
};

const char* const kStatements =
    "a statement (step, send, bcast, compute, broadcast, scatter, gather, allgather, alltoall, "
    "shift)";

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : lexer_(text, file), file_(file) {}

  McProgram run() {
    McProgram program;
    program.name = std::filesystem::path(file_).stem().string();
    skip_empty_lines();
    const Token first = take();
    if (!first.is("nodes")) {
      fail(first, "'nodes' as the first statement", describe(first));
    }
    nodes_where_ = where(first);
    program.nodes = static_cast<std::uint32_t>(
        count(take(), "a node count in 1.." + std::to_string(kMaxProgramNodes), 1,
              kMaxProgramNodes));
    m_ = program.nodes;
    expect_end_of_statement("end of line");
    pair_owner_.resize(m_);
    broadcast_owner_.assign(m_, 0);
    compute_owner_.assign(m_, 0);

    while (true) {
      skip_empty_lines();
      const Token t = take();
      if (t.kind == TokenKind::EndOfFile) {
        if (program.steps.empty()) {
          fail(t, "'step'", "end of file: a program has at least one step");
        }
        check_step_not_empty(program, t);
        return program;
      }
      statement(program, t);
    }
  }

 private:
  // ---- tokens ----

  const Token& peek() {
    if (!lookahead_) {
      lookahead_ = lexer_.next();
    }
    return *lookahead_;
  }

  Token take() {
    Token t = peek();
    lookahead_.reset();
    return t;
  }

  void skip_empty_lines() {
    while (peek().kind == TokenKind::EndOfLine) {
      take();
    }
  }

  SourceLocation where(const Token& t) const { return {file_, t.line, t.column}; }

  [[noreturn]] void fail(const Token& t, const std::string& expected,
                         const std::string& found) const {
    throw InputError(where(t), expected, found);
  }

  void expect_end_of_statement(const std::string& expected) {
    const Token t = take();
    if (!t.ends_statement()) {
      fail(t, expected, describe(t));
    }
  }

  /// A non-negative integer token in [min, max].
  std::uint64_t count(const Token& t, const std::string& expected, std::uint64_t min,
                      std::uint64_t max) const {
    if (t.kind != TokenKind::Integer || t.text[0] == '-') {
      fail(t, expected, describe(t));
    }
    const std::optional<std::uint64_t> v = to_u64(t.text);
    if (!v || *v < min || *v > max) {
      fail(t, expected, describe(t));
    }
    return *v;
  }

  // ---- statements ----

  void statement(McProgram& program, const Token& t) {
    if (t.kind != TokenKind::Name) {
      fail(t, kStatements, describe(t));
    }
    if (t.is("nodes")) {
      fail(t, "one 'nodes' statement", "a second one (the first is at " + at(nodes_where_) + ")");
    }
    if (t.is("words")) {
      words_statement(program, t);
      return;
    }
    if (t.is("step")) {
      step_statement(program, t);
      return;
    }
    const bool known = t.is("send") || t.is("bcast") || t.is("compute") || t.is("broadcast") ||
                       t.is("scatter") || t.is("gather") || t.is("allgather") || t.is("alltoall") ||
                       t.is("shift");
    if (!known) {
      fail(t, kStatements, describe(t));
    }
    if (program.steps.empty()) {
      fail(t, "'words' or 'step'", describe(t) + " before the first step");
    }
    ProgramStep& step = program.steps.back();
    if (t.is("compute")) {
      compute_statement(step, t);
    } else {
      transfer_statement(step, t);
    }
  }

  void words_statement(const McProgram& program, const Token& t) {
    if (!program.steps.empty()) {
      fail(t, "'words' before the first 'step'", "'words' after a step");
    }
    if (words_where_) {
      fail(t, "one 'words' statement", "a second one (the first is at " + at(*words_where_) + ")");
    }
    words_where_ = where(t);
    default_words_ =
        static_cast<std::uint32_t>(count(take(), words_expected(), 1, kMaxMessageWords));
    expect_end_of_statement("end of line");
  }

  void step_statement(McProgram& program, const Token& t) {
    check_step_not_empty(program, t);
    ProgramStep step;
    step.where = where(t);
    const Token& label = peek();
    if (label.kind == TokenKind::Name) {
      step.label = std::string(label.text);
      take();
    } else if (label.kind == TokenKind::String) {
      step.label = label.value;
      take();
    }
    expect_end_of_statement("a label (a name or a \"quoted string\") or end of line");
    program.steps.push_back(std::move(step));
    start_step();
  }

  /// A step must hold a statement: found at the next `step`, or at end of file for the last.
  void check_step_not_empty(const McProgram& program, const Token& t) const {
    if (program.steps.empty()) {
      return;
    }
    const ProgramStep& last = program.steps.back();
    if (last.transfers.empty() && last.computes.empty()) {
      fail(t, "a statement in the step at " + at(last.where), describe(t));
    }
  }

  void compute_statement(ProgramStep& step, const Token& keyword) {
    const NodeList list = node_list();
    const Token c = take();
    const std::uint64_t cycles =
        count(c,
              "',' or a cycle count (an integer in 0.." + std::to_string(kCycleLimit.count()) +
                  ", the emulator's cycle limit)",
              0, kCycleLimit.count());
    expect_end_of_statement("end of line");
    const SourceLocation here = where(keyword);
    count_expansion(list.nodes.size(), here);
    const std::uint32_t id = record_statement(here);
    for (NodeId n : list.nodes) {
      if (compute_owner_[n] != 0) {
        fail(keyword, "at most one compute for " + node_name(n) + " in a step",
             "a second one (the first is at " + at(statements_[compute_owner_[n] - 1]) + ")");
      }
      compute_owner_[n] = id;
      step.computes.push_back({n, Cycle{cycles}, here});
    }
  }

  void transfer_statement(ProgramStep& step, const Token& keyword) {
    const SourceLocation here = where(keyword);
    NodeList sources;
    NodeList destinations;
    bool broadcast = false;
    std::string end_expected = "',', 'words' or end of line";
    const std::string_view k = keyword.text;
    if (k == "send" || k == "bcast") {
      broadcast = k == "bcast";
      sources = node_list();
      const Token arrow = take();
      if (arrow.kind != TokenKind::Arrow) {
        fail(arrow, "',' or '->'", describe(arrow));
      }
      destinations = node_list();
    } else if (k == "broadcast" || k == "scatter") {
      broadcast = k == "broadcast";
      sources = node_list();
      destinations = all_nodes(sources.where);
    } else if (k == "gather") {
      destinations = node_list();
      sources = all_nodes(destinations.where);
    } else if (k == "allgather" || k == "alltoall") {
      broadcast = k == "allgather";
      sources = all_nodes(here);
      destinations = all_nodes(here);
      end_expected = "'words' or end of line";
    } else {  // shift
      shift_statement(step, here);
      return;
    }
    const std::uint32_t words = words_clause(end_expected);
    std::vector<Transfer> transfers;
    for (NodeId s : sources.nodes) {
      Transfer tr{s, {}, broadcast, words, here};
      for (NodeId d : destinations.nodes) {
        if (d != s) {
          tr.destinations.push_back(d);
        }
      }
      if (!tr.destinations.empty()) {
        transfers.push_back(std::move(tr));
      }
    }
    if (transfers.empty()) {
      // Only `send s -> s` and its relatives (m = 1) expand to no message at all.
      throw InputError(destinations.where, "a destination other than the source",
                       "only " + node_name(destinations.nodes.front()) + ", the source itself");
    }
    add_transfers(step, std::move(transfers), here);
  }

  void shift_statement(ProgramStep& step, const SourceLocation& here) {
    const Token t = take();
    const std::string expected =
        "a shift amount (an integer, not a multiple of the " + std::to_string(m_) + " nodes)";
    const bool negative = t.kind == TokenKind::Integer && t.text[0] == '-';
    const std::optional<std::uint64_t> magnitude =
        t.kind == TokenKind::Integer ? to_u64(t.text.substr(negative ? 1 : 0)) : std::nullopt;
    if (!magnitude || *magnitude % m_ == 0) {
      fail(t, expected, describe(t));
    }
    const std::uint64_t r = *magnitude % m_;
    const std::uint64_t k = negative ? m_ - r : r;  // K mod m, in 1..m-1
    const std::uint32_t words = words_clause("'words' or end of line");
    std::vector<Transfer> transfers;
    for (NodeId i = 0; i < m_; ++i) {
      const auto d = static_cast<NodeId>((i + k) % m_);
      transfers.push_back({i, {d}, false, words, here});
    }
    add_transfers(step, std::move(transfers), here);
  }

  /// `[words L]` then the end of the statement; returns L or the file's default.
  std::uint32_t words_clause(const std::string& end_expected) {
    std::uint32_t words = default_words_;
    if (peek().is("words")) {
      take();
      words = static_cast<std::uint32_t>(count(take(), words_expected(), 1, kMaxMessageWords));
      expect_end_of_statement("end of line");
    } else {
      expect_end_of_statement(end_expected);
    }
    return words;
  }

  static std::string words_expected() {
    return "a message length in 1.." + std::to_string(kMaxMessageWords) + " words";
  }

  /// Appends the transfers of one statement after checking them against the step so far:
  /// a (source, destination) pair carries at most one message and a source makes at most one
  /// broadcast ([PH91] Theorem 1, property 1).
  void add_transfers(ProgramStep& step, std::vector<Transfer> transfers,
                     const SourceLocation& here) {
    std::uint64_t messages = 0;
    for (const Transfer& tr : transfers) {
      messages += tr.destinations.size();
    }
    count_expansion(messages, here);
    const std::uint32_t id = record_statement(here);
    for (const Transfer& tr : transfers) {
      std::vector<std::uint32_t>& owners = pair_owner_[tr.source];
      if (owners.empty()) {
        owners.assign(m_, 0);
        touched_sources_.push_back(tr.source);
      }
      for (NodeId d : tr.destinations) {
        if (owners[d] != 0) {
          throw InputError(here,
                           "at most one message " + node_name(tr.source) + " -> " + node_name(d) +
                               " in a step",
                           "a second one (the first is at " + at(statements_[owners[d] - 1]) + ")");
        }
        owners[d] = id;
      }
      if (tr.broadcast) {
        if (broadcast_owner_[tr.source] != 0) {
          throw InputError(here,
                           "at most one broadcast from " + node_name(tr.source) + " in a step",
                           "a second one (the first is at " +
                               at(statements_[broadcast_owner_[tr.source] - 1]) + ")");
        }
        broadcast_owner_[tr.source] = id;
      }
    }
    for (Transfer& tr : transfers) {
      step.transfers.push_back(std::move(tr));
    }
  }

  /// Adds a statement's `items` (messages or compute phases) to the program's total, which may
  /// not pass kMaxProgramExpansion.
  void count_expansion(std::uint64_t items, const SourceLocation& here) {
    expanded_ += items;
    if (expanded_ > kMaxProgramExpansion) {
      throw InputError(here,
                       "at most " + std::to_string(kMaxProgramExpansion) +
                           " messages and compute phases in a program",
                       std::to_string(expanded_) + " with this statement");
    }
  }

  /// Remembers where a statement of the current step is; returns its 1-based id.
  std::uint32_t record_statement(const SourceLocation& here) {
    statements_.push_back(here);
    return static_cast<std::uint32_t>(statements_.size());
  }

  void start_step() {
    for (NodeId s : touched_sources_) {
      pair_owner_[s].clear();  // keeps its capacity; empty means "not used in this step"
    }
    touched_sources_.clear();
    broadcast_owner_.assign(m_, 0);
    compute_owner_.assign(m_, 0);
    statements_.clear();
  }

  // ---- node lists ----

  NodeList all_nodes(const SourceLocation& here) const {
    NodeList list;
    list.where = here;
    for (NodeId n = 0; n < m_; ++n) {
      list.nodes.push_back(n);
    }
    return list;
  }

  /// node_item { ',' node_item }; node_item = 'all' | node [ '..' node ].
  NodeList node_list() {
    NodeList list;
    list.where = where(peek());
    std::vector<bool> seen(m_, false);
    auto add = [&](NodeId n) {
      if (!seen[n]) {
        seen[n] = true;
        list.nodes.push_back(n);
      }
    };
    while (true) {
      const Token t = take();
      if (t.is("all")) {
        for (NodeId n = 0; n < m_; ++n) {
          add(n);
        }
      } else {
        const NodeId first = node(t);
        if (peek().kind == TokenKind::Range) {
          take();
          const Token end = take();
          const NodeId last = node(end);
          if (last < first) {
            fail(end, "a range end >= " + std::to_string(first), describe(end));
          }
          for (NodeId n = first; n <= last; ++n) {
            add(n);
          }
        } else {
          add(first);
        }
      }
      if (peek().kind != TokenKind::Comma) {
        return list;
      }
      take();
    }
  }

  /// A node reference: 3, N3 or n3, below m.
  NodeId node(const Token& t) const {
    std::string_view digits;
    if (t.kind == TokenKind::Integer && t.text[0] != '-') {
      digits = t.text;
    } else if (t.kind == TokenKind::Name && t.text.size() > 1 &&
               (t.text[0] == 'N' || t.text[0] == 'n')) {
      digits = t.text.substr(1);
      for (char c : digits) {
        if (!is_digit(c)) {
          digits = {};
          break;
        }
      }
    }
    if (digits.empty()) {
      fail(t, "a node (3, N3, a range 1..3 or all)", describe(t));
    }
    const std::optional<std::uint64_t> v = to_u64(digits);
    if (!v || *v >= m_) {
      fail(t,
           "a node in 0.." + std::to_string(m_ - 1) + " (the program has " + std::to_string(m_) +
               " nodes)",
           describe(t));
    }
    return static_cast<NodeId>(*v);
  }

  Lexer lexer_;
  const std::string& file_;
  std::optional<Token> lookahead_;
  std::uint32_t m_ = 0;
  std::uint32_t default_words_ = 1;
  SourceLocation nodes_where_;
  std::optional<SourceLocation> words_where_;
  std::uint64_t expanded_ = 0;  ///< messages and compute phases so far

  // Per-step state. Owners hold a 1-based index into statements_, 0 for none; pair owners are
  // allocated per source on first use, so a step costs what its messages cost, not m * m.
  std::vector<SourceLocation> statements_;
  std::vector<std::vector<std::uint32_t>> pair_owner_;
  std::vector<NodeId> touched_sources_;
  std::vector<std::uint32_t> broadcast_owner_;
  std::vector<std::uint32_t> compute_owner_;
};

}  // namespace

McProgram parse_program(std::string_view text, const std::string& file_name) {
  // Labels and comments may hold any byte the lexer does not look at; the canonical writer and
  // the JSON reports write labels back, so the whole text must be UTF-8.
  check_text(text, file_name, TextEncoding::Utf8);
  return Parser(text, file_name).run();
}

McProgram read_program_file(const std::string& path) {
  InputRules rules;
  rules.what = ".mcp file";
  rules.stdin_dash = true;
  InputFile input(path, rules);
  const std::string text = input.read_all();  // checked as UTF-8 text as it was read
  return Parser(text, input.name()).run();
}

}  // namespace orthosim::sw
