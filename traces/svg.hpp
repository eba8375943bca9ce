// A small SVG writer (no dependency): rectangles, lines, polylines, circles and text, with
// escaping, written through sw::OutputFile (PATH.partial renamed when complete, or a stream).
#pragma once

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace orthosim::traces {

class SvgWriter {
 public:
  SvgWriter(double width, double height);

  /// Opens a group (`<g id=...>`); every open() needs a close().
  void open_group(const std::string& id);
  void close_group();
  /// A rectangle; `title` (may be empty) is shown as a tooltip.
  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& title = "");
  void line(double x1, double y1, double x2, double y2, const std::string& stroke,
            double width = 1);
  void polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke,
                double width = 2);
  void circle(double cx, double cy, double r, const std::string& fill,
              const std::string& title = "");
  /// `anchor`: start, middle or end.
  void text(double x, double y, const std::string& text, double size = 12,
            const std::string& anchor = "start");

  /// The document so far, closed.
  [[nodiscard]] std::string str() const;
  /// Writes the document; throws std::runtime_error naming the path if it cannot.
  void save(const std::string& path) const;

  [[nodiscard]] static std::string escape(const std::string& text);

 private:
  double width_;
  double height_;
  std::ostringstream body_;
  int open_groups_ = 0;
};

}  // namespace orthosim::traces
