// attnlab-cli export: a heatmap or matrix of an imported attention file, for batch use.
//   export --in FILE [--layer L] [--head H] [--matrix weights|q|k|v|rawScores|...] --format
//          png|svg|csv|json|npy [--scale S] [--batch B] [--bfloat16] [--hide-special]
//          [--renormalise] --out PATH
// The file is read and its layer made a trace as the app's imported scene does
// (files/import_view.h); with Q/K/V the score matrices are recomputed with the default math.
// Prints one JSON line: the shape written. Needs the core and src/files only, not the app.
#include "cli/cli_common.h"
#include "core/io/io_messages.h"
#include "files/export_figure.h"
#include "files/import_view.h"

#include <cstdio>

namespace attn::cli {
namespace {

Status run_export(const Args& args) {
  Options o;
  if (Status s = Options::parse(args, {"--in", "--layer", "--head", "--matrix", "--format", "--scale", "--batch", "--out"},
                                {"--bfloat16", "--hide-special", "--renormalise"}, o);
      !s.ok)
    return s;
  if (!o.has("--in") || !o.has("--out") || !o.has("--format")) return Status::error("export needs --in FILE, --format and --out PATH");
  ExportFormat format;
  if (Status s = parse_export_format(o.get("--format"), format); !s.ok) return s;
  long long layer = 0, head = 0, scale = 1, batch = 0;
  if (o.has("--layer") && !parse_long(o.get("--layer"), 0, kImportMaxLayers - 1, layer)) return Status::error("--layer must be a layer index");
  if (o.has("--head") && !parse_long(o.get("--head"), 0, kImportMaxHeads - 1, head)) return Status::error("--head must be a head index");
  if (o.has("--scale") && !parse_long(o.get("--scale"), 1, kExportMaxScale, scale))
    return Status::error("--scale must be 1 to " + std::to_string(kExportMaxScale));
  const std::string matrix = o.has("--matrix") ? o.get("--matrix") : "weights";

  ImportedAttention d;
  std::string name;
  if (Status s = read_imported_attention(o, d, name, batch); !s.ok) return s;
  if (!d.has_weights) return Status::error(msg::io_import_needs_weights, "export").within(name);
  if (layer >= d.layers) return Status::error("--layer " + std::to_string(layer) + ": the file has " + std::to_string(d.layers) + " layers");
  if (head >= d.heads) return Status::error("--head " + std::to_string(head) + ": the file has " + std::to_string(d.heads) + " heads");
  const VisibleTokens visible = visible_tokens(d, o.flag("--hide-special"));
  const PipelineTrace trace =
      imported_layer_trace(d, static_cast<int>(layer), visible, o.flag("--renormalise"), PipelineConfig{}, nullptr);
  const Mat* m = stage_matrix(trace, matrix, static_cast<int>(head));
  if (!m) return Status::error("no matrix '" + matrix + "' in this file (score matrices need q, k and v)");
  std::vector<std::string> rows, keys;
  for (int i : visible.rows) rows.push_back(d.query_tokens[i]);
  for (int j : visible.cols) keys.push_back(d.key_tokens[j]);
  const ExportRequest request = stage_export_request(matrix, format, static_cast<int>(scale), rows, keys,
                                                     static_cast<int>(layer), static_cast<int>(head), name);
  Status s;
  const std::vector<std::uint8_t> bytes = export_matrix(*m, request, s);
  if (!s.ok) return s;
  const std::string& out = o.get("--out");
  std::FILE* f = std::fopen(out.c_str(), "wb");
  if (!f) return Status::error(out + ": cannot write");
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !written) {
    std::remove(out.c_str());
    return Status::error(out + ": write failed");
  }
  nlohmann::json j = {{"out", out}, {"format", export_extension(format)}, {"rows", m->rows()}, {"cols", m->cols()},
                      {"layer", layer}, {"head", head}, {"matrix", matrix}, {"bytes", bytes.size()}};
  std::printf("%s\n", json_text(j).c_str());
  return Status::success();
}

}  // namespace

ATTNLAB_CLI_COMMAND(export_matrix, "export",
                    "  export --in FILE.npz|.npy|.json --format png|svg|csv|json|npy --out PATH [--layer L]\n"
                    "        [--head H] [--matrix weights|q|k|v|rawScores|scaledScores|output] [--scale S]\n"
                    "        [--batch B] [--bfloat16] [--hide-special] [--renormalise]\n"
                    "                                            one heatmap/matrix of an imported file\n",
                    run_export);

}  // namespace attn::cli
