// Sections: 1 formats  2 colours  3 PNG  4 SVG  5 CSV and JSON  6 a stage's matrix
#include "files/export_figure.h"

#include "core/io/npy.h"
#include "files/files_messages.h"
#include "files/json_text.h"
#include "files/png_writer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attn {

// ---- 1 formats ------------------------------------------------------------------------------

Status parse_export_format(const std::string& name, ExportFormat& out) {
  if (name == "png") out = ExportFormat::Png;
  else if (name == "svg") out = ExportFormat::Svg;
  else if (name == "csv") out = ExportFormat::Csv;
  else if (name == "json") out = ExportFormat::Json;
  else if (name == "npy") out = ExportFormat::Npy;
  else return Status::error(msg::files_export_format, name);
  return Status::success();
}

const char* export_extension(ExportFormat f) {
  switch (f) {
    case ExportFormat::Png: return "png";
    case ExportFormat::Svg: return "svg";
    case ExportFormat::Csv: return "csv";
    case ExportFormat::Json: return "json";
    case ExportFormat::Npy: return "npy";
  }
  return "bin";
}

const char* export_mime_type(ExportFormat f) {
  switch (f) {
    case ExportFormat::Png: return "image/png";
    case ExportFormat::Svg: return "image/svg+xml";
    case ExportFormat::Csv: return "text/csv";
    case ExportFormat::Json: return "application/json";
    case ExportFormat::Npy: return "application/octet-stream";
  }
  return "application/octet-stream";
}

// ---- 2 colours ------------------------------------------------------------------------------
namespace {

// The range the panels use: [0, 1] for weights, symmetric around 0 for signed matrices.
std::pair<float, float> range_of(const Mat& m, Colormap map) {
  if (map == Colormap::Sequential) return {0.0f, 1.0f};
  float hi = 0.0f;
  for (Eigen::Index i = 0; i < m.size(); ++i)
    if (std::isfinite(m.data()[i])) hi = std::max(hi, std::fabs(m.data()[i]));
  if (hi == 0.0f) hi = 1.0f;
  return {-hi, hi};
}

// A cell's colour; non-finite (masked) cells get the masked grey.
Rgb8 cell_colour(float v, Colormap map, std::pair<float, float> range) {
  if (!std::isfinite(v)) return kMaskedStripeA;
  return colormap_at(map, (v - range.first) / (range.second - range.first));
}

std::string hex(Rgb8 c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

std::string xml_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string label(const std::vector<std::string>& labels, int i) {
  return i < static_cast<int>(labels.size()) ? labels[i] : std::to_string(i);
}

// ---- 3 PNG ----------------------------------------------------------------------------------

std::vector<std::uint8_t> png_bytes(const Mat& m, const ExportRequest& r, Status& status) {
  const std::int64_t px = static_cast<std::int64_t>(r.cell_px) * r.scale;
  const std::int64_t w = m.cols() * px, h = m.rows() * px;
  if (w * h > kExportMaxPixels) {
    status = Status::error(msg::files_export_pixels, w, h, kExportMaxPixels >> 20);
    return {};
  }
  const auto range = range_of(m, r.colormap);
  std::vector<std::uint8_t> rgba(static_cast<size_t>(w * h * 4));
  for (std::int64_t y = 0; y < h; ++y) {
    for (std::int64_t x = 0; x < w; ++x) {
      const Rgb8 c = cell_colour(m(static_cast<int>(y / px), static_cast<int>(x / px)), r.colormap, range);
      std::uint8_t* p = &rgba[static_cast<size_t>((y * w + x) * 4)];
      p[0] = c.r;
      p[1] = c.g;
      p[2] = c.b;
      p[3] = 255;
    }
  }
  return encode_png_rgba(rgba.data(), static_cast<int>(w), static_cast<int>(h));
}

// ---- 4 SVG ----------------------------------------------------------------------------------
// Cells are unit squares in a group scaled to 12 user units per cell; labels sit left of
// the rows and above the columns (rotated); the colour scale is a column of 32 rects.

std::vector<std::uint8_t> svg_bytes(const Mat& m, const ExportRequest& r) {
  const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
  const double cell = 12.0, left = 90.0, top = 90.0, scale_w = 70.0;
  const double width = left + cols * cell + scale_w, height = top + rows * cell + 10.0;
  const auto range = range_of(m, r.colormap);
  std::string s;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"sans-serif\" font-size=\"9\">\n",
                width, height, width, height);
  s += buf;
  if (!r.title.empty()) s += "<title>" + xml_escaped(r.title) + "</title>\n";
  std::snprintf(buf, sizeof buf, "<g class=\"cells\" transform=\"translate(%.0f %.0f) scale(%.0f)\" shape-rendering=\"crispEdges\">\n",
                left, top, cell);
  s += buf;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      std::snprintf(buf, sizeof buf, "<rect class=\"cell\" x=\"%d\" y=\"%d\" width=\"1\" height=\"1\" fill=\"%s\"/>\n", j, i,
                    hex(cell_colour(m(i, j), r.colormap, range)).c_str());
      s += buf;
    }
  }
  s += "</g>\n<g class=\"row-labels\" text-anchor=\"end\">\n";
  for (int i = 0; i < rows; ++i) {
    std::snprintf(buf, sizeof buf, "<text x=\"%.0f\" y=\"%.1f\">", left - 3, top + (i + 0.75) * cell);
    s += buf + xml_escaped(label(r.row_labels, i)) + "</text>\n";
  }
  s += "</g>\n<g class=\"col-labels\">\n";
  for (int j = 0; j < cols; ++j) {
    const double x = left + (j + 0.75) * cell, y = top - 3;
    std::snprintf(buf, sizeof buf, "<text transform=\"translate(%.1f %.1f) rotate(-60)\">", x, y);
    s += buf + xml_escaped(label(r.col_labels, j)) + "</text>\n";
  }
  s += "</g>\n<g class=\"colour-scale\">\n";
  const double sx = left + cols * cell + 15, sh = std::max(60.0, rows * cell);
  for (int k = 0; k < 32; ++k) {
    const float t = 1.0f - (k + 0.5f) / 32.0f;
    std::snprintf(buf, sizeof buf, "<rect x=\"%.1f\" y=\"%.2f\" width=\"10\" height=\"%.2f\" fill=\"%s\"/>\n", sx,
                  top + k * sh / 32, sh / 32 + 0.05, hex(colormap_at(r.colormap, t)).c_str());
    s += buf;
  }
  std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\">%.3g</text>\n<text x=\"%.1f\" y=\"%.1f\">%.3g</text>\n", sx + 13,
                top + 8, range.second, sx + 13, top + sh, range.first);
  s += buf;
  s += "</g>\n</svg>\n";
  return std::vector<std::uint8_t>(s.begin(), s.end());
}

// ---- 5 CSV and JSON ------------------------------------------------------------------------

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number_text(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);  // 9 significant digits round-trip a float
  return buf;
}

std::vector<std::uint8_t> csv_bytes(const Mat& m, const ExportRequest& r) {
  std::string s = "query\\key";
  for (int j = 0; j < m.cols(); ++j) {
    s += ',';
    s += csv_field(label(r.col_labels, j));
  }
  s += "\n";
  for (int i = 0; i < m.rows(); ++i) {
    s += csv_field(label(r.row_labels, i));
    for (int j = 0; j < m.cols(); ++j) {
      s += ',';
      s += number_text(m(i, j));
    }
    s += "\n";
  }
  return std::vector<std::uint8_t>(s.begin(), s.end());
}

std::vector<std::uint8_t> json_bytes(const Mat& m, const ExportRequest& r) {
  nlohmann::json j;
  j["name"] = r.title;
  j["rows"] = m.rows();
  j["cols"] = m.cols();
  nlohmann::json rl = nlohmann::json::array(), cl = nlohmann::json::array();
  for (int i = 0; i < m.rows(); ++i) rl.push_back(label(r.row_labels, i));
  for (int j2 = 0; j2 < m.cols(); ++j2) cl.push_back(label(r.col_labels, j2));
  j["rowLabels"] = rl;
  j["colLabels"] = cl;
  j["values"] = rows_json(m.data(), static_cast<int>(m.rows()), static_cast<int>(m.cols()));  // null: masked scores
  const std::string s = json_text(j);
  return std::vector<std::uint8_t>(s.begin(), s.end());
}

}  // namespace

std::vector<std::uint8_t> export_matrix(const Mat& m, const ExportRequest& r, Status& status) {
  status = Status::success();
  if (m.rows() == 0 || m.cols() == 0) {
    status = Status::error(msg::files_export_nothing);
    return {};
  }
  if (r.scale < 1 || r.scale > kExportMaxScale || r.cell_px < 1 || r.cell_px > 64) {
    status = Status::error(msg::files_export_scale, kExportMaxScale);
    return {};
  }
  switch (r.format) {
    case ExportFormat::Png: return png_bytes(m, r, status);
    case ExportFormat::Svg: return svg_bytes(m, r);
    case ExportFormat::Csv: return csv_bytes(m, r);
    case ExportFormat::Json: return json_bytes(m, r);
    case ExportFormat::Npy: return serialize_npy(NpyArray::from_float({m.rows(), m.cols()}, m.data()));
  }
  return {};
}

// ---- 6 a stage's matrix ----------------------------------------------------------------

const Mat* stage_matrix(const PipelineTrace& t, const std::string& name, int head) {
  if (name == "concat" || name == "final") return nullptr;  // not a stage of one head
  const Mat* m = trace_matrix(t, name, head);
  return m && m->size() > 0 ? m : nullptr;
}

ExportRequest stage_export_request(const std::string& name, ExportFormat format, int scale,
                                   const std::vector<std::string>& rows, const std::vector<std::string>& keys,
                                   int layer, int head, const std::string& source) {
  ExportRequest r;
  r.format = format;
  r.scale = scale;
  r.colormap = name == "weights" ? Colormap::Sequential : Colormap::Diverging;
  r.row_labels = rows;
  const bool key_columns = name == "weights" || name == "rawScores" || name == "scaledScores" || name == "mask" ||
                           name == "maskedScores";
  if (key_columns) r.col_labels = keys;
  r.title = name + ", layer " + std::to_string(layer) + ", head " + std::to_string(head);
  if (!source.empty()) r.title += " (" + source + ")";
  return r;
}

}  // namespace attn
