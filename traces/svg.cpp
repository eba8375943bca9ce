// SVG output.
#include "traces/svg.hpp"

#include <iomanip>
#include <stdexcept>

#include "sw/core/output_file.hpp"

namespace orthosim::traces {

namespace {
/// Coordinates with two decimals: enough for a screen, and the same bytes for the same input.
std::string num(double v) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(2) << v;
  return s.str();
}
}  // namespace

SvgWriter::SvgWriter(double width, double height) : width_(width), height_(height) {}

std::string SvgWriter::escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void SvgWriter::open_group(const std::string& id) {
  body_ << "<g id=\"" << escape(id) << "\">\n";
  ++open_groups_;
}

void SvgWriter::close_group() {
  if (open_groups_ == 0) {
    throw std::logic_error("SVG: close_group without open_group");
  }
  body_ << "</g>\n";
  --open_groups_;
}

void SvgWriter::rect(double x, double y, double w, double h, const std::string& fill,
                     const std::string& title) {
  body_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w)
        << "\" height=\"" << num(h) << "\" fill=\"" << escape(fill) << '"';
  if (title.empty()) {
    body_ << "/>\n";
  } else {
    body_ << "><title>" << escape(title) << "</title></rect>\n";
  }
}

void SvgWriter::line(double x1, double y1, double x2, double y2, const std::string& stroke,
                     double width) {
  body_ << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\""
        << num(y2) << "\" stroke=\"" << escape(stroke) << "\" stroke-width=\"" << num(width)
        << "\"/>\n";
}

void SvgWriter::polyline(const std::vector<std::pair<double, double>>& points,
                         const std::string& stroke, double width) {
  body_ << "<polyline fill=\"none\" stroke=\"" << escape(stroke) << "\" stroke-width=\""
        << num(width) << "\" points=\"";
  for (std::size_t i = 0; i < points.size(); ++i) {
    body_ << (i > 0 ? " " : "") << num(points[i].first) << ',' << num(points[i].second);
  }
  body_ << "\"/>\n";
}

void SvgWriter::circle(double cx, double cy, double r, const std::string& fill,
                       const std::string& title) {
  body_ << "<circle cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" r=\"" << num(r)
        << "\" fill=\"" << escape(fill) << '"';
  if (title.empty()) {
    body_ << "/>\n";
  } else {
    body_ << "><title>" << escape(title) << "</title></circle>\n";
  }
}

void SvgWriter::text(double x, double y, const std::string& text, double size,
                     const std::string& anchor) {
  body_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << num(size)
        << "\" font-family=\"sans-serif\" text-anchor=\"" << escape(anchor) << "\">" << escape(text)
        << "</text>\n";
}

std::string SvgWriter::str() const {
  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width_) << "\" height=\""
    << num(height_) << "\" viewBox=\"0 0 " << num(width_) << ' ' << num(height_) << "\">\n"
    << "<rect x=\"0\" y=\"0\" width=\"" << num(width_) << "\" height=\"" << num(height_)
    << "\" fill=\"white\"/>\n"
    << body_.str();
  for (int g = 0; g < open_groups_; ++g) {
    s << "</g>\n";
  }
  s << "</svg>\n";
  return s.str();
}

void SvgWriter::save(const std::string& path) const {
  sw::OutputFile file(path);
  file.out() << str();
  file.commit();
}

}  // namespace orthosim::traces
