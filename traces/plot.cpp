// SVG plots of event traces and traffic sweeps.
#include "traces/plot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "sw/core/diagnostic.hpp"
#include "sw/core/input_file.hpp"
#include "sw/core/json_text.hpp"
#include "traces/event_trace.hpp"
#include "traces/event_trace_reader.hpp"
#include "traces/svg.hpp"
#include "traces/trace_stats.hpp"

namespace orthosim::traces {

namespace {

constexpr double kLeft = 190;    ///< room for the row labels
constexpr double kWidth = 1000;  ///< the plot area
constexpr double kTop = 50;
constexpr std::size_t kCategories = 12;  ///< the activities, and one for a busy bus
constexpr std::size_t kBusy = 11;

/// Colors per activity code (recorder.hpp), and for a busy bus.
const std::array<const char*, kCategories> kColors = {"#f2f2f2", "#4e79a7", "#59a14f", "#8cd17d",
                                                      "#f28e2b", "#e15759", "#ffbe7d", "#b07aa1",
                                                      "#ff9da7", "#9c755f", "#edc948", "#76b7b2"};

std::string fmt(double v, int precision = 0) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(precision) << v;
  return s.str();
}

/// A "nice" tick step for an axis of `span` units with about `ticks` ticks.
double tick_step(double span, int ticks) {
  if (span <= 0) {
    return 1;
  }
  const double raw = span / ticks;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= raw) {
      return m * p;
    }
  }
  return 10 * p;
}

void x_axis(SvgWriter& svg, double y, double max_value, const std::string& label, double left,
            double width) {
  svg.line(left, y, left + width, y, "black");
  const double step = tick_step(max_value, 8);
  for (double v = 0; v <= max_value + 1e-9; v += step) {
    const double x = left + width * (max_value <= 0 ? 0 : v / max_value);
    svg.line(x, y, x, y + 4, "black");
    svg.text(x, y + 16, fmt(v, step < 1 ? 2 : 0), 10, "middle");
  }
  svg.text(left + width / 2, y + 32, label, 12, "middle");
}

void y_axis(SvgWriter& svg, double x, double top, double height, double max_value,
            const std::string& label) {
  svg.line(x, top, x, top + height, "black");
  const double step = tick_step(max_value, 6);
  for (double v = 0; v <= max_value + 1e-9; v += step) {
    const double y = top + height - height * (max_value <= 0 ? 0 : v / max_value);
    svg.line(x - 4, y, x, y, "black");
    svg.text(x - 6, y + 4, fmt(v, step < 1 ? 2 : 0), 10, "end");
  }
  svg.text(x - 50, top - 10, label, 12, "start");
}

std::string join(const std::string& dir, const std::string& file) {
  return dir.empty() || dir.back() == '/' ? dir + file : dir + "/" + file;
}

/// Per row, the time of each category in each column.
class Columns {
 public:
  Columns(std::size_t rows, std::uint64_t cycles)
      : columns_(static_cast<std::size_t>(std::clamp<std::uint64_t>(cycles, 1, 1000))),
        width_(static_cast<double>(std::max<std::uint64_t>(cycles, 1)) /
               static_cast<double>(columns_)),
        cells_(rows * columns_) {}

  void add(std::size_t row, std::size_t category, std::uint64_t from, std::uint64_t to) {
    if (to <= from) {
      return;
    }
    const double a = static_cast<double>(from) / width_;
    const double b = static_cast<double>(to) / width_;
    const auto first = static_cast<std::size_t>(a);
    const auto last = std::min(columns_ - 1, static_cast<std::size_t>(std::ceil(b)) - 1);
    for (std::size_t c = first; c <= last && c < columns_; ++c) {
      const double lo = std::max(a, static_cast<double>(c));
      const double hi = std::min(b, static_cast<double>(c + 1));
      if (hi > lo) {
        cells_[row * columns_ + c][category] += hi - lo;
      }
    }
  }
  /// The activity that took most of the column, idle left out, or 0 (idle) when none ran in it:
  /// a short access in a long idle stretch stays visible.
  [[nodiscard]] std::size_t dominant(std::size_t row, std::size_t column) const {
    const std::array<double, kCategories>& cell = cells_[row * columns_ + column];
    std::size_t best = 0;
    double most = 0;
    for (std::size_t k = 1; k < kCategories; ++k) {
      if (cell[k] > most) {
        most = cell[k];
        best = k;
      }
    }
    return best;
  }
  [[nodiscard]] std::size_t columns() const { return columns_; }
  [[nodiscard]] double cycles_per_column() const { return width_; }

 private:
  std::size_t columns_;
  double width_;
  std::vector<std::array<double, kCategories>> cells_;
};

void write_timeline(const std::string& trace_path, const TraceStats& stats,
                    const std::string& out) {
  EventTraceReader reader(trace_path);
  const TraceHeader& h = reader.header();
  std::vector<std::size_t> row_of(h.sources.size(), SIZE_MAX);
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < h.sources.size(); ++i) {
    if (h.sources[i].kind == SourceKind::Processor || h.sources[i].kind == SourceKind::Bus) {
      row_of[i] = rows.size();
      rows.push_back(h.sources[i].path);
    }
  }
  // Cycles count as in trace stats: from the first run's start when the trace begins with it.
  TraceEvent e;
  std::uint64_t origin = 0;
  bool first_run = true;
  Columns columns(rows.size(), stats.cycles);
  struct Doing {
    std::size_t what = 0;
    std::uint64_t since = 0;
  };
  std::vector<Doing> doing(h.sources.size());
  std::uint64_t end = 0;
  const auto rel = [&origin](std::uint64_t c) { return c > origin ? c - origin : 0; };
  while (reader.next(e)) {
    const std::uint64_t at = e.at.count();
    if (e.kind == TraceEvent::Kind::Run && first_run) {
      first_run = false;
      origin = e.line == h.sources.size() + 3 ? at : 0;  // as trace stats counts cycles
    } else if (e.kind == TraceEvent::Kind::Activity) {
      Doing& d = doing[e.source];
      columns.add(row_of[e.source], d.what, rel(d.since), rel(at));
      d = {static_cast<std::size_t>(e.activity), at};
    } else if (e.kind == TraceEvent::Kind::Access) {
      columns.add(row_of[e.access.bus], kBusy, rel(at), rel(e.end.count()));
    } else if (e.kind == TraceEvent::Kind::End) {
      end = at;
    }
  }
  for (std::size_t i = 0; i < h.sources.size(); ++i) {
    if (h.sources[i].kind == SourceKind::Processor) {
      columns.add(row_of[i], doing[i].what, rel(doing[i].since), rel(end));
    }
  }
  const double row_h = rows.size() > 80 ? 8 : 18;
  const double height = kTop + static_cast<double>(rows.size()) * row_h + 100;
  SvgWriter svg(kLeft + kWidth + 20, height);
  svg.text(kLeft, 24,
           "Timeline: " + trace_path + " (" + std::to_string(stats.cycles) + " cycles, " +
               fmt(columns.cycles_per_column(), 2) + " cycles per column)",
           14);
  const double col_w = kWidth / static_cast<double>(columns.columns());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double y = kTop + static_cast<double>(r) * row_h;
    svg.open_group("row-" + rows[r]);
    svg.text(kLeft - 6, y + row_h * 0.75, rows[r], row_h > 10 ? 11 : 7, "end");
    svg.rect(kLeft, y + 1, kWidth, row_h - 2, kColors[0]);
    std::size_t c = 0;
    while (c < columns.columns()) {
      const std::size_t what = columns.dominant(r, c);
      std::size_t c2 = c + 1;
      while (c2 < columns.columns() && columns.dominant(r, c2) == what) {
        ++c2;
      }
      if (what != 0) {
        const double from = static_cast<double>(c) * columns.cycles_per_column();
        const double to = static_cast<double>(c2) * columns.cycles_per_column();
        const std::string name =
            what == kBusy ? "busy" : activity_name(static_cast<Activity>(what));
        svg.rect(kLeft + static_cast<double>(c) * col_w, y + 1, static_cast<double>(c2 - c) * col_w,
                 row_h - 2, kColors[what],
                 rows[r] + ": " + name + " " + fmt(from) + ".." + fmt(to));
      }
      c = c2;
    }
    svg.close_group();
  }
  const double axis_y = kTop + static_cast<double>(rows.size()) * row_h + 4;
  x_axis(svg, axis_y, static_cast<double>(stats.cycles), "cycle", kLeft, kWidth);
  double lx = kLeft;
  for (std::size_t k = 1; k < kCategories; ++k) {
    const std::string name = k == kBusy ? "bus busy" : activity_name(static_cast<Activity>(k));
    svg.rect(lx, axis_y + 44, 10, 10, kColors[k]);
    svg.text(lx + 13, axis_y + 53, name, 10);
    lx += 13 + 7.0 * static_cast<double>(name.size()) + 12;
  }
  svg.save(out);
}

/// The heat map's colour of a fraction `f` of the peak: white (idle) to dark red (the busiest).
std::string heat_color(double f) {
  std::ostringstream color;
  color << "rgb(255," << static_cast<int>(255 * (1 - f)) << ',' << static_cast<int>(255 * (1 - f))
        << ')';
  return color.str();
}

constexpr std::size_t kScaleSteps = 10;  ///< the colour scale's boxes
constexpr double kScaleBox = 16;         ///< a box's side

/// The heat map's colour scale at (x, top): kScaleSteps boxes from 0 (bottom) to `peak` (top),
/// each the colour of its upper bound, labelled at both ends and the middle.
void heat_scale(SvgWriter& svg, double x, double top, double peak) {
  const double box = kScaleBox;
  svg.open_group("colour-scale");
  svg.text(x, top - 8, "flits/cycle", 10);
  for (std::size_t k = 0; k < kScaleSteps; ++k) {
    const double f = static_cast<double>(kScaleSteps - k) / static_cast<double>(kScaleSteps);
    svg.rect(x, top + box * static_cast<double>(k), box, box, heat_color(f),
             "up to " + fmt(f * peak, 3) + " flits/cycle");
  }
  svg.close_group();
  const double bottom = top + box * static_cast<double>(kScaleSteps);
  svg.text(x + box + 4, top + 10, fmt(peak, 3), 10);
  svg.text(x + box + 4, (top + bottom) / 2 + 4, fmt(peak / 2, 3), 10);
  svg.text(x + box + 4, bottom, "0", 10);
}

void write_channels(const std::string& trace_path, const TraceStats& stats,
                    const std::string& out) {
  EventTraceReader reader(trace_path);
  const TraceHeader& h = reader.header();
  std::vector<std::string> routers;
  std::vector<std::string> ports;
  std::map<std::pair<std::string, std::string>, double> util;
  std::map<std::string, std::uint64_t> flits;
  for (const Usage& u : stats.channels) {
    flits[u.name] = u.busy;
  }
  for (const Source& s : h.sources) {
    if (s.kind != SourceKind::Channel) {
      continue;
    }
    const std::size_t dot = s.path.rfind('.');
    const std::string router = s.path.substr(0, dot);
    const std::string port = s.path.substr(dot + 1);
    if (routers.empty() || routers.back() != router) {
      routers.push_back(router);
    }
    if (std::find(ports.begin(), ports.end(), port) == ports.end()) {
      ports.push_back(port);
    }
    const auto it = flits.find(s.path);
    util[{router, port}] =
        it == flits.end() || stats.cycles == 0
            ? 0.0
            : static_cast<double>(it->second) / static_cast<double>(stats.cycles);
  }
  double peak = 0;
  for (const auto& [key, u] : util) {
    peak = std::max(peak, u);
  }
  const double cell_w = 60;
  const double cell_h = routers.size() > 64 ? 6 : 16;
  const double width = kLeft + cell_w * static_cast<double>(ports.size()) + 220;
  // The rows, or the colour scale beside them where it is the taller (fewer than 10 routers).
  const double body = std::max(cell_h * static_cast<double>(routers.size()),
                               kScaleBox * static_cast<double>(kScaleSteps));
  const double height = kTop + 30 + body + 40;
  SvgWriter svg(width, height);
  svg.text(10, 24,
           "Channel utilization (flits per cycle): " + trace_path + ", peak " + fmt(peak, 3), 14);
  for (std::size_t p = 0; p < ports.size(); ++p) {
    svg.text(kLeft + cell_w * (static_cast<double>(p) + 0.5), kTop + 20, ports[p], 11, "middle");
  }
  for (std::size_t r = 0; r < routers.size(); ++r) {
    const double y = kTop + 30 + cell_h * static_cast<double>(r);
    svg.open_group("router-" + routers[r]);
    svg.text(kLeft - 6, y + cell_h * 0.8, routers[r], cell_h > 10 ? 11 : 6, "end");
    for (std::size_t p = 0; p < ports.size(); ++p) {
      const double u = util[{routers[r], ports[p]}];
      svg.rect(kLeft + cell_w * static_cast<double>(p), y, cell_w - 2, cell_h - 1,
               heat_color(peak > 0 ? u / peak : 0),
               routers[r] + "." + ports[p] + ": " + fmt(u, 3) + " flits/cycle");
    }
    svg.close_group();
  }
  heat_scale(svg, kLeft + cell_w * static_cast<double>(ports.size()) + 40, kTop + 30, peak);
  svg.save(out);
}

/// Whether the trace shows processors or buses at work: what the timeline draws. A traffic run's
/// trace has only messages.
bool has_activity(const std::string& trace_path) {
  EventTraceReader reader(trace_path);
  TraceEvent e;
  while (reader.next(e)) {
    if ((e.kind == TraceEvent::Kind::Activity && e.activity != Activity::Idle) ||
        e.kind == TraceEvent::Kind::Access) {
      return true;
    }
  }
  return false;
}

/// The network over time, for a trace with messages and no processor activity (synthetic
/// traffic): packets in flight (injected, not yet ejected) at the end of each column, and the
/// channels' utilization in it (flits that crossed a channel, per channel and cycle).
void write_network_over_time(const std::string& trace_path, const TraceStats& stats,
                             const std::string& out) {
  EventTraceReader reader(trace_path);
  const TraceHeader& h = reader.header();
  std::size_t channels = 0;
  for (const Source& s : h.sources) {
    channels += s.kind == SourceKind::Channel ? 1 : 0;
  }
  const std::uint64_t cycles = std::max<std::uint64_t>(stats.cycles, 1);
  const std::size_t columns = static_cast<std::size_t>(std::min<std::uint64_t>(cycles, 500));
  const double per_column = static_cast<double>(cycles) / static_cast<double>(columns);
  std::vector<std::int64_t> in_flight(columns, 0);  ///< injections minus ejections in the column
  std::vector<double> flits(columns, 0);            ///< flits that crossed a channel
  TraceEvent e;
  std::uint64_t origin = 0;
  bool first_run = true;
  std::uint64_t hopped = 0;
  while (reader.next(e)) {
    const std::uint64_t at = e.at.count();
    if (e.kind == TraceEvent::Kind::Run && first_run) {
      first_run = false;
      origin = e.line == h.sources.size() + 3 ? at : 0;  // as trace stats counts cycles
    }
    if (e.kind != TraceEvent::Kind::Message) {
      continue;
    }
    const std::uint64_t rel = at > origin ? at - origin : 0;
    const std::size_t c =
        std::min(columns - 1, static_cast<std::size_t>(static_cast<double>(rel) / per_column));
    if (e.message.what == MessageEvent::Inject) {
      ++in_flight[c];
    } else if (e.message.what == MessageEvent::Eject) {
      --in_flight[c];
    } else if (e.message.what == MessageEvent::Hop) {
      flits[c] += e.message.size;
      hopped += e.message.size;
    }
  }
  std::vector<double> packets(columns, 0);
  std::vector<double> utilization(columns, 0);
  std::int64_t running = 0;
  double peak_packets = 0;
  double peak_utilization = 0;
  for (std::size_t c = 0; c < columns; ++c) {
    running += in_flight[c];
    packets[c] = static_cast<double>(running);
    utilization[c] = channels == 0 ? 0 : flits[c] / (static_cast<double>(channels) * per_column);
    peak_packets = std::max(peak_packets, packets[c]);
    peak_utilization = std::max(peak_utilization, utilization[c]);
  }
  const double mean_utilization =
      channels == 0 ? 0
                    : static_cast<double>(hopped) /
                          (static_cast<double>(channels) * static_cast<double>(cycles));
  const double panel_h = 220;
  const double left = 90;
  const double width = kWidth;
  SvgWriter svg(left + width + 40, kTop + 2 * (panel_h + 80) + 20);
  svg.text(left, 24,
           "Network over time: " + trace_path + " (" + std::to_string(stats.cycles) + " cycles, " +
               fmt(per_column, 2) + " cycles per column)",
           14);
  const auto panel = [&](double top, const std::vector<double>& values, double peak,
                         const std::string& id, const std::string& label,
                         const std::string& heading, const std::string& color) {
    const double scale = peak > 0 ? peak * 1.05 : 1;
    svg.text(left, top - 22, heading, 12);
    svg.open_group(id);
    std::vector<std::pair<double, double>> points;
    for (std::size_t c = 0; c < columns; ++c) {
      const double x0 = left + width * static_cast<double>(c) / static_cast<double>(columns);
      const double x1 = left + width * static_cast<double>(c + 1) / static_cast<double>(columns);
      const double y = top + panel_h - panel_h * values[c] / scale;
      points.emplace_back(x0, y);
      points.emplace_back(x1, y);
    }
    svg.polyline(points, color);
    svg.close_group();
    y_axis(svg, left, top, panel_h, scale, label);
    x_axis(svg, top + panel_h, static_cast<double>(stats.cycles), "cycle", left, width);
  };
  panel(kTop + 40, packets, peak_packets, "packets-in-flight", "packets",
        "Packets in flight (injected, not yet ejected): peak " + fmt(peak_packets), "#4e79a7");
  panel(kTop + 40 + panel_h + 80, utilization, peak_utilization, "channel-utilization",
        "flits/cycle",
        "Channel utilization (flits per channel per cycle): mean " + fmt(mean_utilization, 4) +
            ", peak column " + fmt(peak_utilization, 4),
        "#e15759");
  svg.save(out);
}

void write_latency(const TraceStats& stats, const std::string& trace_path, const std::string& out) {
  const LatencySummary& l = stats.latency;
  const double top = kTop + 20;
  const double plot_h = 300;
  SvgWriter svg(kLeft + kWidth / 2 + 60, top + plot_h + 80);
  svg.text(60, 24, "Message latency (cycles, send to delivery): " + trace_path, 14);
  svg.text(60, 42,
           std::to_string(l.count) + " messages: min " + std::to_string(l.min) + ", mean " +
               fmt(l.mean, 2) + ", p50 " + std::to_string(l.p50) + ", p99 " +
               std::to_string(l.p99) + ", max " + std::to_string(l.max),
           12);
  std::uint64_t peak = 1;
  for (std::uint64_t c : l.histogram) {
    peak = std::max(peak, c);
  }
  const double left = 80;
  const double width = kWidth / 2 + 80;
  const double bar_w = width / static_cast<double>(std::max<std::size_t>(l.histogram.size(), 1));
  svg.open_group("histogram");
  for (std::size_t k = 0; k < l.histogram.size(); ++k) {
    const double h = plot_h * static_cast<double>(l.histogram[k]) / static_cast<double>(peak);
    const std::uint64_t lo = l.min + k * l.bin_width;
    svg.rect(left + bar_w * static_cast<double>(k), top + plot_h - h, bar_w - 1, h, "#4e79a7",
             std::to_string(lo) + ".." + std::to_string(lo + l.bin_width - 1) + ": " +
                 std::to_string(l.histogram[k]));
  }
  svg.close_group();
  y_axis(svg, left, top, plot_h, static_cast<double>(peak), "messages");
  svg.line(left, top + plot_h, left + width, top + plot_h, "black");
  for (std::size_t k = 0; k <= l.histogram.size();
       k += std::max<std::size_t>(1, l.histogram.size() / 10)) {
    const double x = left + bar_w * static_cast<double>(k);
    svg.line(x, top + plot_h, x, top + plot_h + 4, "black");
    svg.text(x, top + plot_h + 16, std::to_string(l.min + k * l.bin_width), 10, "middle");
  }
  svg.text(left + width / 2, top + plot_h + 34, "latency (cycles)", 12, "middle");
  svg.save(out);
}

}  // namespace

std::vector<std::string> plot_event_trace(const std::string& trace_path, const std::string& dir) {
  const TraceStats stats = event_trace_stats(trace_path);
  std::vector<std::string> written;
  // A trace of messages alone (synthetic traffic) would give an empty timeline: the network over
  // time instead.
  if (stats.latency.count > 0 && !has_activity(trace_path)) {
    write_network_over_time(trace_path, stats, join(dir, kNetworkSvg));
    written.push_back(join(dir, kNetworkSvg));
  } else {
    write_timeline(trace_path, stats, join(dir, kTimelineSvg));
    written.push_back(join(dir, kTimelineSvg));
  }
  if (!stats.channels.empty()) {
    write_channels(trace_path, stats, join(dir, kChannelsSvg));
    written.push_back(join(dir, kChannelsSvg));
  }
  if (stats.latency.count > 0) {
    write_latency(stats, trace_path, join(dir, kLatencySvg));
    written.push_back(join(dir, kLatencySvg));
  }
  return written;
}

namespace {

/// One rate of a traffic sweep.
struct TrafficPoint {
  double accepted;
  double offered;
  double mean;
  double p99;
};

/// The output of `orthosim traffic --json` (one rate or a sweep), its points by offered load.
struct TrafficSweep {
  std::string network;
  std::string pattern;
  std::int64_t flits = 0;
  std::vector<TrafficPoint> points;
};

/// The JSON document of a file; a syntax error throws InputError at its line and column, naming
/// `what` the file should hold.
nlohmann::json read_json_document(const std::string& json_path, const std::string& what) {
  sw::InputRules rules;
  rules.what = "JSON file";
  const std::string text = sw::read_input_file(json_path, rules);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // The parser counts bytes; report the line and column of that byte.
    std::uint32_t line = 1;
    std::uint32_t column = 1;
    for (std::size_t i = 1; i < e.byte && i <= text.size(); ++i) {
      column = text[i - 1] == '\n' ? 1 : column + 1;
      line += text[i - 1] == '\n' ? 1 : 0;
    }
    // Say what the file is when it is plainly not JSON: nothing, or a waveform.
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    throw sw::InputError({json_path, line, column}, what,
                         first == std::string::npos ? "an empty file"
                         : text.compare(first, 8, "$version") == 0
                             ? "'$version', a VCD (trace stats reads waveforms; trace plot draws "
                               "event traces and traffic JSONs)"
                             : "a syntax error");
  }
}

TrafficSweep read_traffic_json(const std::string& json_path) {
  nlohmann::json j = read_json_document(json_path, "the JSON of orthosim traffic --json");
  if (j.is_object() && !j.contains("points") && j.contains("latency_avg")) {
    j["points"] = nlohmann::json::array({j});  // one rate: the figures are at the top level
  }
  if (!j.is_object() || j.value("command", "") != "traffic" || !j.contains("points") ||
      !j["points"].is_array()) {
    throw sw::InputError({json_path, 1, 1},
                         "the output of orthosim traffic --json (\"command\": \"traffic\" with "
                         "\"points\")",
                         "another document");
  }
  TrafficSweep sweep;
  sweep.network = j.value("network", std::string());
  sweep.pattern = j.value("pattern", std::string());
  sweep.flits = j.value("flits", std::int64_t{0});
  for (const nlohmann::json& p : j["points"]) {
    const auto number = [&p](const char* key) { return p.contains(key) && p[key].is_number(); };
    if (!number("accepted") || !number("latency_avg") || !number("latency_p99") ||
        !number("offered")) {
      throw sw::InputError({json_path, 1, 1},
                           "points with offered, accepted, latency_avg and latency_p99 numbers",
                           sw::json_text(p));
    }
    sweep.points.push_back({p["accepted"].get<double>(), p["offered"].get<double>(),
                            p["latency_avg"].get<double>(), p["latency_p99"].get<double>()});
  }
  std::sort(sweep.points.begin(), sweep.points.end(),
            [](const TrafficPoint& a, const TrafficPoint& b) { return a.offered < b.offered; });
  return sweep;
}

/// A logarithmic latency axis from 10^low to 10^high cycles: ticks at 1, 2 and 5 of each decade.
void log_y_axis(SvgWriter& svg, double x, double top, double height, int low, int high,
                const std::string& label) {
  svg.line(x, top, x, top + height, "black");
  for (int e = low; e <= high; ++e) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, e);
      const double at = (std::log10(v) - low) / (high - low);
      if (at > 1 + 1e-9) {
        break;
      }
      const double y = top + height - height * at;
      svg.line(x - (m == 1.0 ? 6 : 3), y, x, y, "black");
      svg.text(x - 8, y + 4, fmt(v, 0), 10, "end");
    }
  }
  svg.text(x - 50, top - 10, label, 12, "start");
}

/// A point of a curve, already in SVG coordinates, with its tooltip.
struct CurvePoint {
  double x;
  double y;
  std::string tip;
};
struct Curve {
  std::string label;
  std::vector<CurvePoint> points;
};

/// The curves of a figure: the K-th in the group `curve-K` (its circles, its line, its key entry
/// at (key_x, key_y + 16 (K - 1))), each in a colour of its own.
void draw_curves(SvgWriter& svg, const std::vector<Curve>& curves, double key_x, double key_y) {
  static const std::array<const char*, 8> kCurveColors = {"#4e79a7", "#e15759", "#59a14f",
                                                          "#f28e2b", "#b07aa1", "#76b7b2",
                                                          "#9c755f", "#edc948"};
  for (std::size_t f = 0; f < curves.size(); ++f) {
    const char* color = kCurveColors[f % kCurveColors.size()];
    std::vector<std::pair<double, double>> line;
    svg.open_group("curve-" + std::to_string(f + 1));
    for (const CurvePoint& p : curves[f].points) {
      line.emplace_back(p.x, p.y);
      svg.circle(p.x, p.y, 4, color, p.tip);
    }
    svg.polyline(line, color);
    const double y = key_y + 16 * static_cast<double>(f);
    svg.rect(key_x, y, 10, 10, color);
    svg.text(key_x + 14, y + 9, curves[f].label, 11);
    svg.close_group();
  }
}

/// A base-2 logarithmic axis from 2^low to 2^high: a tick at every power of two.
void log2_x_axis(SvgWriter& svg, double y, double left, double width, int low, int high,
                 const std::string& label) {
  svg.line(left, y, left + width, y, "black");
  for (int e = low; e <= high; ++e) {
    const double x = left + width * (e - low) / std::max(1, high - low);
    svg.line(x, y, x, y + 4, "black");
    svg.text(x, y + 16, fmt(std::ldexp(1.0, e), 0), 10, "middle");
  }
  svg.text(left + width / 2, y + 32, label, 12, "middle");
}

/// One output of `orthosim calmant --complete-exchange --json`: per block size the cycles of the
/// original CC-cube, of CALMANT at its best Q and of the direct method (when it ran).
struct ExchangeSweep {
  std::string network;
  std::uint64_t startup = 0;
  struct Point {
    double block;
    double cc_cube;
    double calmant;
    std::optional<double> direct;
  };
  std::vector<Point> points;
};

constexpr const char* kExchangeJson =
    "the output of orthosim calmant --complete-exchange --json (\"complete_exchange\" with "
    "block_words, cc_cube_cycles, calmant_cycles and direct per block size)";

ExchangeSweep read_exchange_json(const std::string& json_path) {
  const nlohmann::json j = read_json_document(json_path, kExchangeJson);
  if (!j.is_object() || j.value("command", "") != "calmant" || !j.contains("complete_exchange") ||
      !j["complete_exchange"].is_array() || j["complete_exchange"].empty()) {
    throw sw::InputError({json_path, 1, 1}, kExchangeJson, "another document");
  }
  ExchangeSweep sweep;
  sweep.network = j.value("network", std::string());
  sweep.startup = j.value("startup", std::uint64_t{0});
  for (const nlohmann::json& p : j["complete_exchange"]) {
    const auto positive = [&p](const char* key) {
      return p.contains(key) && p[key].is_number() && p[key].get<double>() > 0;
    };
    const bool direct = p.contains("direct") && p["direct"].is_object();
    if (!positive("block_words") || !positive("cc_cube_cycles") || !positive("calmant_cycles") ||
        (direct && !(p["direct"].contains("emulated_cycles") &&
                     p["direct"]["emulated_cycles"].is_number()))) {
      throw sw::InputError({json_path, 1, 1}, kExchangeJson, sw::json_text(p));
    }
    sweep.points.push_back(
        {p["block_words"].get<double>(), p["cc_cube_cycles"].get<double>(),
         p["calmant_cycles"].get<double>(),
         direct ? std::optional<double>(p["direct"]["emulated_cycles"].get<double>())
                : std::nullopt});
  }
  std::sort(sweep.points.begin(), sweep.points.end(),
            [](const ExchangeSweep::Point& a, const ExchangeSweep::Point& b) {
              return a.block < b.block;
            });
  return sweep;
}

}  // namespace

std::vector<std::string> plot_traffic_json(const std::string& json_path, const std::string& dir) {
  const TrafficSweep sweep = read_traffic_json(json_path);
  double max_x = 0;
  double max_y = 0;
  for (const TrafficPoint& p : sweep.points) {
    max_x = std::max({max_x, p.accepted, p.offered});
    max_y = std::max(max_y, p.p99);
  }
  max_x = max_x > 0 ? max_x * 1.05 : 1;
  max_y = max_y > 0 ? max_y * 1.05 : 1;
  const double left = 90;
  const double top = kTop + 30;
  const double width = 700;
  const double height = 400;
  SvgWriter svg(left + width + 60, top + height + 90);
  svg.text(left, 24, "Latency against accepted throughput: " + json_path, 14);
  svg.text(left, 42,
           sweep.network + ", " + sweep.pattern + " traffic, " + std::to_string(sweep.flits) +
               "-flit packets",
           12);
  const auto sx = [&](double v) { return left + width * v / max_x; };
  const auto sy = [&](double v) { return top + height - height * v / max_y; };
  std::vector<std::pair<double, double>> mean_line;
  std::vector<std::pair<double, double>> p99_line;
  svg.open_group("points");
  for (const TrafficPoint& p : sweep.points) {
    mean_line.emplace_back(sx(p.accepted), sy(p.mean));
    p99_line.emplace_back(sx(p.accepted), sy(p.p99));
    svg.circle(sx(p.accepted), sy(p.mean), 4, "#4e79a7",
               "offered " + fmt(p.offered, 4) + ", accepted " + fmt(p.accepted, 4) + ", mean " +
                   fmt(p.mean, 2));
    svg.circle(sx(p.accepted), sy(p.p99), 4, "#e15759",
               "offered " + fmt(p.offered, 4) + ", accepted " + fmt(p.accepted, 4) + ", p99 " +
                   fmt(p.p99, 0));
  }
  svg.close_group();
  svg.polyline(mean_line, "#4e79a7");
  svg.polyline(p99_line, "#e15759");
  x_axis(svg, top + height, max_x, "accepted throughput (flits per node per cycle)", left, width);
  y_axis(svg, left, top, height, max_y, "latency (cycles)");
  svg.rect(left + width - 150, top + 6, 10, 10, "#4e79a7");
  svg.text(left + width - 136, top + 15, "mean latency", 11);
  svg.rect(left + width - 150, top + 22, 10, 10, "#e15759");
  svg.text(left + width - 136, top + 31, "p99 latency", 11);
  const std::string out = join(dir, kLatencyThroughputSvg);
  svg.save(out);
  return {out};
}

std::vector<std::string> plot_traffic_jsons(const std::vector<std::string>& json_paths,
                                            const std::vector<std::string>& labels,
                                            const std::string& title, const std::string& dir) {
  if (labels.size() != json_paths.size()) {
    throw std::invalid_argument("plot_traffic_jsons: one label per file");
  }
  std::vector<TrafficSweep> sweeps;
  for (const std::string& path : json_paths) {
    sweeps.push_back(read_traffic_json(path));  // every file read before anything is drawn
  }
  double max_x = 0;
  double min_y = 0;
  double max_y = 0;
  for (const TrafficSweep& sweep : sweeps) {
    for (const TrafficPoint& p : sweep.points) {
      max_x = std::max({max_x, p.accepted, p.offered});
      if (p.mean > 0) {
        min_y = min_y > 0 ? std::min(min_y, p.mean) : p.mean;
      }
      max_y = std::max(max_y, p.mean);
    }
  }
  max_x = max_x > 0 ? max_x * 1.05 : 1;
  // Latencies of saturated and contention-free placements differ by orders of magnitude: the
  // axis is logarithmic, from the decade below the least mean latency to the one above the most.
  const int low = min_y > 0 ? static_cast<int>(std::floor(std::log10(min_y))) : 0;
  const int high =
      std::max(low + 1, max_y > 0 ? static_cast<int>(std::ceil(std::log10(max_y))) : low + 1);
  const double left = 90;
  const double top = kTop + 30;
  const double width = 700;
  const double height = 400;
  SvgWriter svg(left + width + 60, top + height + 90);
  svg.text(left, 24, title.empty() ? "Mean latency against accepted throughput" : title, 14);
  svg.text(left, 42,
           sweeps.front().network + ", " + std::to_string(sweeps.front().flits) +
               "-flit packets, " + std::to_string(sweeps.size()) + " runs",
           12);
  const auto sx = [&](double v) { return left + width * v / max_x; };
  const auto sy = [&](double v) {
    const double at = v > 0 ? (std::log10(v) - low) / (high - low) : 0;
    return top + height - height * std::clamp(at, 0.0, 1.0);
  };
  std::vector<Curve> curves;
  for (std::size_t f = 0; f < sweeps.size(); ++f) {
    Curve curve{labels[f], {}};
    for (const TrafficPoint& p : sweeps[f].points) {
      curve.points.push_back({sx(p.accepted), sy(p.mean),
                              labels[f] + ": offered " + fmt(p.offered, 4) + ", accepted " +
                                  fmt(p.accepted, 4) + ", mean " + fmt(p.mean, 2)});
    }
    curves.push_back(std::move(curve));
  }
  draw_curves(svg, curves, left + 12, top + 6);
  x_axis(svg, top + height, max_x, "accepted throughput (flits per node per cycle)", left, width);
  log_y_axis(svg, left, top, height, low, high, "mean latency (cycles, logarithmic)");
  const std::string out = join(dir, kLatencyThroughputSvg);
  svg.save(out);
  return {out};
}

bool is_complete_exchange_json(const std::string& json_path) {
  try {
    const nlohmann::json j = read_json_document(json_path, kExchangeJson);
    return j.is_object() && j.value("command", "") == "calmant" && j.contains("complete_exchange");
  } catch (const std::exception&) {
    return false;  // not JSON at all: the other readers say why
  }
}

std::vector<std::string> plot_complete_exchange_jsons(const std::vector<std::string>& json_paths,
                                                      const std::vector<std::string>& labels,
                                                      const std::string& title,
                                                      const std::string& dir) {
  if (labels.size() != json_paths.size()) {
    throw std::invalid_argument("plot_complete_exchange_jsons: one label per file");
  }
  std::vector<ExchangeSweep> sweeps;
  for (const std::string& path : json_paths) {
    sweeps.push_back(read_exchange_json(path));  // every file read before anything is drawn
  }
  double least = 0;
  double most = 0;
  double max_y = 1;
  for (const ExchangeSweep& sweep : sweeps) {
    for (const ExchangeSweep::Point& p : sweep.points) {
      least = least > 0 ? std::min(least, p.block) : p.block;
      most = std::max(most, p.block);
      max_y = std::max(max_y, p.cc_cube / p.calmant);
      if (p.direct) {
        max_y = std::max(max_y, p.cc_cube / *p.direct);
      }
    }
  }
  const int low = static_cast<int>(std::floor(std::log2(least)));
  const int high = std::max(low + 1, static_cast<int>(std::ceil(std::log2(most))));
  max_y *= 1.1;
  const double left = 90;
  const double top = kTop + 30;
  const double width = 700;
  const double height = 400;
  SvgWriter svg(left + width + 60, top + height + 90);
  svg.text(left, 24,
           title.empty() ? "Complete exchange: speed-up over the original CC-cube" : title, 14);
  svg.text(left, 42,
           "[CALMANT] section 5 on the emulated one-port wormhole mesh, lockstep steps; " +
               std::to_string(sweeps.size()) + " runs",
           12);
  const auto sx = [&](double block) {
    return left + width * (std::log2(block) - low) / (high - low);
  };
  const auto sy = [&](double v) { return top + height - height * v / max_y; };
  svg.line(left, sy(1), left + width, sy(1), "#bbbbbb");  // the CC-cube itself
  std::vector<Curve> curves;
  for (std::size_t f = 0; f < sweeps.size(); ++f) {
    Curve calmant{labels[f] + " CALMANT", {}};
    Curve direct{labels[f] + " direct", {}};
    for (const ExchangeSweep::Point& p : sweeps[f].points) {
      const std::string at = labels[f] + ", B = " + fmt(p.block, 0) + ": ";
      calmant.points.push_back({sx(p.block), sy(p.cc_cube / p.calmant),
                                at + "CALMANT " + fmt(p.cc_cube / p.calmant, 2)});
      if (p.direct) {
        direct.points.push_back({sx(p.block), sy(p.cc_cube / *p.direct),
                                 at + "direct " + fmt(p.cc_cube / *p.direct, 2)});
      }
    }
    curves.push_back(std::move(calmant));
    if (!direct.points.empty()) {
      curves.push_back(std::move(direct));
    }
  }
  draw_curves(svg, curves, left + 12, top + 6);
  log2_x_axis(svg, top + height, left, width, low, high, "block size B (words, logarithmic)");
  y_axis(svg, left, top, height, max_y, "speed-up over the original CC-cube");
  const std::string out = join(dir, kSpeedupSvg);
  svg.save(out);
  return {out};
}

}  // namespace orthosim::traces
