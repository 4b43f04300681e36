// attnlab-cli rollout: attention rollout (core/attention/rollout.h) of an imported attention
// file, for batch use.
//   rollout --in FILE.npz|.npy|.json [--batch B] [--bfloat16] [--heads mean|max] [--residual A]
//           --out FILE.npy
// The file is read as the import reads it (weights (L, H, n, n), or with a batch axis, of which
// --batch picks one, 0 by default). Writes R as float32 (L, n, n), R[l] = Ã_l ... Ã_0 with
// Ã_l = rownormalise((1 - A) * pooled heads of layer l + A * I), A = --residual (default 0.5).
// Cross-attention (n_q != n_k) is refused: rollout has no meaning there. Prints one JSON line.
#include "cli/cli_common.h"
#include "core/io/io_messages.h"
#include "core/attention/rollout.h"

#include <cstdio>
#include <cstdlib>

namespace attn::cli {
namespace {

Outcome run_rollout(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--in", "--batch", "--heads", "--residual", "--out"}, {"--bfloat16"}, o); !r.ok())
    return r;
  if (!o.has("--in") || !o.has("--out")) return Outcome::usage("rollout needs --in FILE and --out FILE.npy");
  const std::string heads = o.has("--heads") ? o.get("--heads") : "mean";
  if (heads != "mean" && heads != "max") return Outcome::usage("--heads must be mean or max, not '" + heads + "'");
  float residual = 0.5f;
  if (o.has("--residual") && (!parse_float(o.get("--residual"), residual) || !(residual >= 0.0f && residual <= 1.0f)))
    return Outcome::usage("--residual must be a number from 0 to 1");

  ImportedAttention d;
  std::string name;
  long long batch = 0;
  if (Outcome r = read_imported_attention(o, d, name, batch); !r.ok()) return r;
  if (!d.has_weights) return Status::error(msg::io_import_needs_weights, "rollout").within(name);
  if (d.cross_attention())
    return Status::error(name + ": rollout needs self-attention; this file has " + std::to_string(d.n_q) +
                         " queries and " + std::to_string(d.n_k) + " keys (cross-attention)");
  std::vector<std::vector<Mat>> layers(static_cast<std::size_t>(d.layers));
  for (int l = 0; l < d.layers; ++l)
    for (int h = 0; h < d.heads; ++h) layers[static_cast<std::size_t>(l)].push_back(d.head_weights(l, h));
  std::vector<Mat> rolled;
  if (Status s = attention_rollout(layers, heads == "max" ? HeadPool::Max : HeadPool::Mean, residual, rolled); !s.ok)
    return s.within(name);
  const std::int64_t n = d.n_q;
  std::vector<float> values;
  values.reserve(static_cast<std::size_t>(d.layers * n * n));
  for (const Mat& r : rolled) values.insert(values.end(), r.data(), r.data() + r.size());  // row-major
  const std::string& out = o.get("--out");
  if (Status s = write_npy_file(out, NpyArray::from_float({d.layers, n, n}, values.data())); !s.ok) return s;
  nlohmann::json j = {{"out", out}, {"layers", d.layers}, {"heads", d.heads}, {"n", n}, {"pool", heads},
                      {"residual", residual}, {"batch", batch}};
  std::printf("%s\n", json_text(j).c_str());
  return Status::success();
}

}  // namespace

ATTNLAB_CLI_COMMAND(rollout, "rollout",
                    "  rollout --in FILE.npz|.npy|.json --out FILE.npy [--heads mean|max] [--residual A]\n"
                    "          [--batch B] [--bfloat16]      attention rollout across layers, (L, n, n)\n",
                    "  Attention rollout across layers of an imported attention file (weights (L, H, n, n)):\n"
                    "  R[l] = A~_l ... A~_0 with A~_l = rownormalise((1 - A) * pooled heads + A * I).\n"
                    "  --heads mean|max   how heads are pooled (default mean)\n"
                    "  --residual A       0 to 1 (default 0.5)\n"
                    "  --batch B          the file's batch entry (default 0)    --bfloat16  uint16 arrays are bfloat16\n"
                    "  Writes R as float32 (L, n, n); cross-attention files are refused. Prints one JSON line.\n",
                    run_rollout);

}  // namespace attn::cli
