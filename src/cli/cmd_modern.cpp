// attnlab-cli commands on attention as current models run it:
//   gqa    grouped-query attention: H query heads over G key/value heads (core/attention/grouped.h)
//   flash  FlashAttention's tiled forward pass, with every step's running max and sum
//          (core/attention/flash.h)
//   kv-cache  the KV cache of token-by-token decoding: its bytes per token, and one decoding
//          step's measured time with the cache (the new token's query against n cached keys)
//          and without it (every row of the prefix recomputed), with their log-log slopes
#include "cli/cli_common.h"
#include "core/attention/flash.h"
#include "core/attention/grouped.h"
#include "core/efficient/cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

namespace attn::cli {
namespace {

using json = nlohmann::json;

// A (count, n, d) array as count matrices (n, d); the message names the file.
Status read_stack(const std::string& path, const char* what, std::vector<Mat>& out, std::int64_t& n, std::int64_t& d) {
  NpyArray a;
  std::vector<float> values;
  if (Status st = read_float_array(path, a, values); !st.ok) return st;
  if (a.shape.size() != 3)
    return Status::error(path + ": " + what + " must have 3 dimensions (heads, n, d), has shape " + npy_shape_string(a.shape));
  n = a.shape[1];
  d = a.shape[2];
  if (a.shape[0] < 1 || n < 1 || d < 1) return Status::error(path + ": " + what + " must not be empty");
  for (std::int64_t h = 0; h < a.shape[0]; ++h) out.push_back(matrix_at(values, h * n * d, n, d));
  return Status::success();
}

Outcome run_gqa(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--q", "--k", "--v", "--out"}, {"--causal"}, o); !r.ok()) return r;
  if (Outcome r = o.require("gqa", {"--q", "--k", "--v", "--out"}); !r.ok()) return r;
  std::vector<Mat> q, k, v;
  std::int64_t n_q = 0, d_k = 0, n_k = 0, d_k2 = 0, n_v = 0, d_v = 0;
  if (Status st = read_stack(o.get("--q"), "Q", q, n_q, d_k); !st.ok) return st;
  if (Status st = read_stack(o.get("--k"), "K", k, n_k, d_k2); !st.ok) return st;
  if (Status st = read_stack(o.get("--v"), "V", v, n_v, d_v); !st.ok) return st;
  if (d_k2 != d_k) return Status::error(o.get("--k") + ": d_k = " + std::to_string(d_k2) + ", Q has " + std::to_string(d_k));
  if (v.size() != k.size() || n_v != n_k)
    return Status::error(o.get("--v") + ": must be (kvHeads, n_k, d_v) = (" + std::to_string(k.size()) + ", " + std::to_string(n_k) + ", d_v) like K");
  const std::int64_t heads = static_cast<std::int64_t>(q.size());
  if (heads * n_q * n_k > (1ll << 26)) return Status::error("heads x n_q x n_k is over the cap of 2^26 weights");
  AttentionOptions options;
  options.causal = o.flag("--causal");
  const GroupedQueryResult r = grouped_query_attention(q, k, v, options);
  if (!r.status.ok) return Status::error("gqa: " + r.status.message);
  std::vector<float> output, weights;
  for (const AttentionResult& h : r.heads) {
    output.insert(output.end(), h.output.data(), h.output.data() + h.output.size());
    weights.insert(weights.end(), h.weights.data(), h.weights.data() + h.weights.size());
  }
  return write_outputs(o.get("--out"), {{"output.npy", NpyArray::from_float({heads, n_q, d_v}, output.data())},
                                        {"weights.npy", NpyArray::from_float({heads, n_q, n_k}, weights.data())}});
}

// Two dimensions (n, d) of one head.
Status read_matrix(const std::string& path, const char* what, Mat& m) {
  NpyArray a;
  std::vector<float> values;
  if (Status st = read_float_array(path, a, values); !st.ok) return st;
  if (a.shape.size() != 2) return Status::error(path + ": " + what + " must have 2 dimensions (n, d), has shape " + npy_shape_string(a.shape));
  m = matrix_at(values, 0, a.shape[0], a.shape[1]);
  return Status::success();
}

Outcome run_flash(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--q", "--k", "--v", "--block-q", "--block-k", "--scale", "--out"}, {"--causal"}, o); !r.ok())
    return r;
  if (Outcome r = o.require("flash", {"--q", "--k", "--v", "--out"}); !r.ok()) return r;
  FlashOptions fo;
  for (Outcome r : {o.whole("--block-q", 1, 1 << 20, fo.block_q), o.whole("--block-k", 1, 1 << 20, fo.block_k)})
    if (!r.ok()) return r;
  if (o.has("--scale") && !parse_float(o.get("--scale"), fo.scale)) return Outcome::usage("--scale needs a finite number");
  fo.causal = o.flag("--causal");
  Mat q, k, v;
  if (Status st = read_matrix(o.get("--q"), "Q", q); !st.ok) return st;
  if (Status st = read_matrix(o.get("--k"), "K", k); !st.ok) return st;
  if (Status st = read_matrix(o.get("--v"), "V", v); !st.ok) return st;
  if (q.rows() * v.cols() > (1ll << 26) || k.rows() * k.cols() > (1ll << 26)) return Status::error("Q, K or V is over the cap of 2^26 values");
  const FlashResult r = flash_attention(q, k, v, fo);
  if (!r.status.ok) return Status::error("flash: " + r.status.message);
  if (Status st = write_outputs(o.get("--out"), {{"output.npy", NpyArray::from_float({q.rows(), v.cols()}, r.output.data())}}); !st.ok)
    return st;
  // One JSON line: the tiles of each step and m, l per query row after it.
  json steps = json::array();
  for (const FlashStep& s : r.steps)
    steps.push_back({{"qTile", s.q_tile}, {"kTile", s.k_tile}, {"qBegin", s.q_begin}, {"qEnd", s.q_end},
                     {"kBegin", s.k_begin}, {"kEnd", s.k_end}, {"m", s.m}, {"l", s.l}, {"rescale", s.rescale}});
  const json line = {{"scale", r.scale}, {"workingFloats", r.working_floats}, {"steps", steps}};
  std::printf("%s\n", json_text(line).c_str());
  return Status::success();
}

Outcome parse_ns(const std::string& text, std::vector<double>& ns) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    long long n = 0;
    if (!parse_long(item, 1, 1 << 16, n)) return Outcome::usage("--n needs token counts from 1 to 65536, separated by commas");
    ns.push_back(static_cast<double>(n));
  }
  if (ns.empty()) return Outcome::usage("--n needs at least one token count");
  return {};
}

Outcome run_kv_cache(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--heads", "--kv-heads", "--dk", "--layers", "--bytes", "--n", "--measurements"}, {}, o); !r.ok())
    return r;
  long long heads = 8, kv_heads = 2, dk = 64, layers = 1, bytes = 2, measurements = 5;
  for (Outcome r : {o.whole("--heads", 1, 256, heads), o.whole("--kv-heads", 1, 256, kv_heads), o.whole("--dk", 1, 1024, dk),
                    o.whole("--layers", 1, 1024, layers), o.whole("--bytes", 1, 8, bytes),
                    o.whole("--measurements", 1, 101, measurements)})
    if (!r.ok()) return r;
  std::vector<double> ns;
  if (Outcome r = parse_ns(o.has("--n") ? o.get("--n") : "256,512,1024,2048,4096", ns); !r.ok()) return r;
  if (heads % kv_heads != 0) return Status::error("--kv-heads " + std::to_string(kv_heads) + " must divide --heads " + std::to_string(heads));
  const double per_token = kv_cache_bytes_per_token(static_cast<int>(kv_heads), static_cast<int>(dk), static_cast<int>(layers), static_cast<int>(bytes));
  // One layer is timed (layers multiply both costs alike); projections are left out of both.
  DecodingCostConfig config;
  config.heads = static_cast<int>(heads);
  config.kv_heads = static_cast<int>(kv_heads);
  config.d_k = static_cast<int>(dk);
  config.ns.assign(ns.begin(), ns.end());
  config.timing.measurements = static_cast<int>(measurements);
  const DecodingCost cost = measure_decoding_cost(config);
  if (!cost.status.ok) return cost.status;
  json rows = json::array();
  for (const DecodingStep& step : cost.steps)
    rows.push_back({{"n", step.n}, {"cacheBytes", per_token * step.n}, {"stepSecondsWithCache", step.seconds_with_cache},
                    {"stepSecondsWithoutCache", step.seconds_without_cache}});
  const double slope_with = cost.slope_with_cache, slope_without = cost.slope_without_cache;
  const auto number = [](double x) { return std::isfinite(x) ? json(x) : json(nullptr); };
  const json line = {{"heads", heads}, {"kvHeads", kv_heads}, {"dk", dk}, {"layers", layers}, {"bytesPerValue", bytes},
                     {"bytesPerToken", per_token}, {"steps", rows}, {"slopeWithCache", number(slope_with)},
                     {"slopeWithoutCache", number(slope_without)}};
  std::printf("%s\n", json_text(line).c_str());
  return Status::success();
}

}  // namespace

ATTNLAB_CLI_COMMAND(kv_cache, "kv-cache",
                    "  kv-cache [--heads H] [--kv-heads G] [--dk D] [--layers L] [--bytes B] [--n 256,512,...]\n"
                    "           [--measurements M]               KV cache bytes per token, and a decoding step's time\n"
                    "                                            with and without the cache per n (JSON, log-log slopes)\n",
                    "  The KV cache of token-by-token decoding: its bytes per token (2 x G x d_k x layers x bytes)\n"
                    "  and one decoding step's measured time per n with the cache and without it, with log-log slopes.\n"
                    "  Defaults: --heads 8 --kv-heads 2 --dk 64 --layers 1 --bytes 2 --n 256,512,1024,2048,4096\n"
                    "  --measurements 5 (the median is reported). One JSON line.\n",
                    run_kv_cache);
ATTNLAB_CLI_COMMAND(gqa, "gqa",
                    "  gqa --q Q.npy (heads, n, dk) --k K.npy (kvHeads, n, dk) --v V.npy (kvHeads, n, dv)\n"
                    "      [--causal] --out DIR                  writes output.npy (heads, n, dv), weights.npy (heads, n, n)\n",
                    "  Grouped-query attention: H query heads share G key/value heads (G divides H; head h reads\n"
                    "  group h / (H / G)). --causal masks future keys. Writes DIR/output.npy (heads, n, d_v) and\n"
                    "  DIR/weights.npy (heads, n, n).\n",
                    run_gqa);
ATTNLAB_CLI_COMMAND(flash, "flash",
                    "  flash --q Q.npy (nq, dk) --k K.npy (nk, dk) --v V.npy (nk, dv) [--block-q B] [--block-k B]\n"
                    "        [--causal] [--scale S] --out DIR   writes output.npy; prints each tile step's m and l (JSON)\n",
                    "  FlashAttention's tiled forward pass on one head: Q, K, V in tiles of --block-q x --block-k\n"
                    "  (default 16 x 16) with a running row max m and sum l. --causal, --scale S (default 1/sqrt(d_k)).\n"
                    "  Writes DIR/output.npy and prints one JSON line with every tile step's m and l.\n",
                    run_flash);

}  // namespace attn::cli
