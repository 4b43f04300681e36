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

Outcome run_export(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--in", "--layer", "--head", "--matrix", "--format", "--scale", "--batch", "--out"},
                                 {"--bfloat16", "--hide-special", "--renormalise"}, o);
      !r.ok())
    return r;
  if (!o.has("--in") || !o.has("--out") || !o.has("--format")) return Outcome::usage("export needs --in FILE, --format and --out PATH");
  ExportFormat format;
  if (Status s = parse_export_format(o.get("--format"), format); !s.ok) return Outcome::usage(s.message);
  long long layer = 0, head = 0, scale = 1, batch = 0;
  for (Outcome r : {o.whole("--layer", 0, kImportMaxLayers - 1, layer), o.whole("--head", 0, kImportMaxHeads - 1, head),
                    o.whole("--scale", 1, kExportMaxScale, scale)})
    if (!r.ok()) return r;
  const std::string matrix = o.has("--matrix") ? o.get("--matrix") : "weights";

  ImportedAttention d;
  std::string name;
  if (Outcome r = read_imported_attention(o, d, name, batch); !r.ok()) return r;
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
                    "  One matrix of an imported attention file (.npz, .npy or JSON, read as the app's Import button\n"
                    "  reads it) written as a picture or as numbers, for batch use.\n"
                    "  --layer L, --head H   which one (default 0, 0)      --matrix   default weights\n"
                    "  --scale S   pixels per cell for png/svg (default 1) --batch B  the file's batch entry (default 0)\n"
                    "  --bfloat16  uint16 arrays are bfloat16              --hide-special  leave out [CLS], <s>, <|...|>\n"
                    "  --renormalise  rows summed to 1 again after hiding. Prints one JSON line: what was written.\n",
                    run_export);

}  // namespace attn::cli
