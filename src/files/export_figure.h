// Export of a heatmap or matrix for papers and further analysis: PNG (at a chosen scale,
// for print), SVG (vector: one <rect class="cell"> per visible cell, token labels as text,
// the colour scale with its range), CSV, JSON and .npy. The same bytes go to the page's
// downloads, the desktop and `attnlab-cli export` (the app's scene: app/scene_export.h).
//
// It deliberately draws only the matrix, its labels and its scale, from the data: not a
// screenshot of the panel around it.
#pragma once

#include "core/attention/pipeline.h"
#include "core/base/types.h"
#include "files/colormap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

enum class ExportFormat { Png, Svg, Csv, Json, Npy };

// "png", "svg", "csv", "json", "npy" (the file extension); anything else is refused.
Status parse_export_format(const std::string& name, ExportFormat& out);
const char* export_extension(ExportFormat f);
const char* export_mime_type(ExportFormat f);

inline constexpr int kExportMaxScale = 8;
inline constexpr std::int64_t kExportMaxPixels = std::int64_t{64} << 20;  // 64 Mpx (256 MiB RGBA)

struct ExportRequest {
  ExportFormat format = ExportFormat::Png;
  int scale = 1;      // PNG: every pixel becomes scale x scale pixels (1 to kExportMaxScale)
  int cell_px = 8;    // PNG: pixels per cell at scale 1
  Colormap colormap = Colormap::Sequential;  // Sequential: [0, 1]; Diverging: +-max|finite|
  std::vector<std::string> row_labels, col_labels;  // empty: indices
  std::string title;  // SVG and JSON
};

// The file's bytes; on error empty and `status` says why (too many pixels, bad scale).
std::vector<std::uint8_t> export_matrix(const Mat& m, const ExportRequest& request, Status& status);

// A stage of one head of a trace by the page's getMatrix names: "weights", "q", "k", "v",
// "rawScores", "scaledScores", "mask", "maskedScores", "output". Null when there is no such
// matrix (or it is empty: weights-only imports) or the trace failed.
const Mat* stage_matrix(const PipelineTrace& trace, const std::string& name, int head);

// A request for that stage with the colour scale the panels use, `rows` (the query tokens) as
// row labels and `keys` as column labels of the stages over keys, and the title "<name>, layer
// <layer>, head <head>" followed by " (<source>)" when a source (a file's name) is given.
ExportRequest stage_export_request(const std::string& name, ExportFormat format, int scale,
                                   const std::vector<std::string>& rows, const std::vector<std::string>& keys,
                                   int layer, int head, const std::string& source);

}  // namespace attn
