// VCD writer with a reorder buffer.
#include "traces/vcd_writer.hpp"

#include <algorithm>
#include <stdexcept>

namespace orthosim::traces {

namespace {
/// Identifier codes use the printable characters '!'..'~' (base 94), as the standard allows.
std::string id_code(std::uint32_t index) {
  std::string code;
  do {
    code.push_back(static_cast<char>('!' + index % 94));
    index /= 94;
  } while (index != 0);
  return code;
}

std::vector<std::string> split_scope(const std::string& scope) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= scope.size() && !scope.empty()) {
    const std::size_t dot = scope.find('.', start);
    parts.push_back(scope.substr(start, dot - start));
    if (dot == std::string::npos) {
      break;
    }
    start = dot + 1;
  }
  return parts;
}
}  // namespace

VcdWriter::VcdWriter(std::string path, std::uint32_t timescale_ns)
    : file_(std::move(path)), out_(file_.out()), timescale_ns_(timescale_ns) {}

VcdWriter::VarId VcdWriter::add_var(const std::string& path, std::uint32_t width) {
  if (header_written_) {
    throw std::logic_error("VCD variable " + path + " declared after the first change");
  }
  const std::size_t dot = path.rfind('.');
  Var v;
  v.scope = dot == std::string::npos ? "" : path.substr(0, dot);
  v.name = dot == std::string::npos ? path : path.substr(dot + 1);
  v.width = width;
  v.code = id_code(static_cast<std::uint32_t>(vars_.size()));
  vars_.push_back(v);
  return static_cast<VarId>(vars_.size() - 1);
}

void VcdWriter::add_comment(const std::string& text) {
  if (header_written_) {
    throw std::logic_error("VCD comment after the first change");
  }
  comments_.push_back(text);
}

void VcdWriter::write_header() {
  out_ << "$version orthosim $end\n";
  for (const std::string& c : comments_) {
    out_ << "$comment " << c << " $end\n";
  }
  out_ << "$timescale " << timescale_ns_ << "ns $end\n";
  // Variables are grouped by scope, scopes in order of first declaration.
  std::vector<std::string> scopes;
  for (const Var& v : vars_) {
    if (std::find(scopes.begin(), scopes.end(), v.scope) == scopes.end()) {
      scopes.push_back(v.scope);
    }
  }
  std::vector<std::string> open;
  for (const std::string& scope : scopes) {
    const std::vector<std::string> parts = split_scope(scope);
    std::size_t common = 0;
    while (common < open.size() && common < parts.size() && open[common] == parts[common]) {
      ++common;
    }
    while (open.size() > common) {
      out_ << "$upscope $end\n";
      open.pop_back();
    }
    for (std::size_t i = common; i < parts.size(); ++i) {
      out_ << "$scope module " << parts[i] << " $end\n";
      open.push_back(parts[i]);
    }
    for (const Var& v : vars_) {
      if (v.scope == scope) {
        out_ << "$var wire " << v.width << ' ' << v.code << ' ' << v.name << " $end\n";
      }
    }
  }
  while (!open.empty()) {
    out_ << "$upscope $end\n";
    open.pop_back();
  }
  out_ << "$enddefinitions $end\n";
  out_ << "#0\n$dumpvars\n";
  for (const Var& v : vars_) {
    write_value(v, 0);
  }
  out_ << "$end\n";
  header_written_ = true;
  any_time_written_ = true;
  last_written_time_ = 0;
}

void VcdWriter::write_value(const Var& var, std::uint64_t value) {
  if (var.width == 1) {
    out_ << (value & 1u) << var.code << '\n';
    return;
  }
  out_ << 'b';
  bool leading = true;
  for (std::uint32_t bit = var.width; bit-- > 0;) {
    const bool one = bit < 64 && ((value >> bit) & 1u);
    if (one || !leading || bit == 0) {
      out_ << (one ? '1' : '0');
      leading = false;
    }
  }
  out_ << ' ' << var.code << '\n';
}

void VcdWriter::change(std::uint64_t time, VarId var, std::uint64_t value) {
  if (header_written_ && time < last_written_time_) {
    throw std::logic_error("VCD change at " + std::to_string(time) + " after time " +
                           std::to_string(last_written_time_) + " was written");
  }
  pending_[time].emplace_back(var, value);
}

void VcdWriter::flush_time(std::uint64_t time,
                           const std::vector<std::pair<VarId, std::uint64_t>>& changes) {
  // Last announcement wins; then write in variable order so the bytes do not depend on the order
  // in which same-time changes were announced.
  std::map<VarId, std::uint64_t> last;
  for (const auto& [var, value] : changes) {
    last[var] = value;
  }
  bool stamped = false;
  for (const auto& [var, value] : last) {
    Var& v = vars_[var];
    const std::uint64_t masked = v.width >= 64 ? value : value & ((1ull << v.width) - 1);
    if (masked == v.value) {
      continue;
    }
    if (!stamped && (!any_time_written_ || time != last_written_time_)) {
      out_ << '#' << time << '\n';
    }
    stamped = true;
    write_value(v, masked);
    v.value = masked;
  }
  if (stamped) {
    last_written_time_ = time;
    any_time_written_ = true;
  }
}

void VcdWriter::flush_before(std::uint64_t time) {
  if (!header_written_) {
    write_header();
  }
  while (!pending_.empty() && pending_.begin()->first < time) {
    flush_time(pending_.begin()->first, pending_.begin()->second);
    pending_.erase(pending_.begin());
  }
}

void VcdWriter::commit(std::uint64_t end_time) {
  flush_before(UINT64_MAX);
  if (end_time > last_written_time_) {
    out_ << '#' << end_time << '\n';
  }
  file_.commit();
}

}  // namespace orthosim::traces
