// Embind bindings of attention as current models run it, behind web/attnlab-core-modern.mjs:
// grouped-query attention (core/attention/grouped.h) and FlashAttention's tiled forward pass
// with its steps (core/attention/flash.h). Caps as in core_limits.h; a refused argument
// answers {error}.
#include "bindings/core_limits.h"
#include "bindings/js_interop.h"
#include "core/attention/flash.h"
#include "core/attention/grouped.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <vector>

using emscripten::val;
using attn::bindings::ArgumentCheck;
using attn::bindings::error_result;
using attn::bindings::float32_copy;

namespace {

// `count` matrices (n, d), head-major in one typed array.
std::vector<attn::Mat> read_heads(ArgumentCheck& check, const char* name, const val& array, int count, int n, int d) {
  attn::Mat all;
  check.matrix(name, array, count * n, d, all);
  std::vector<attn::Mat> out;
  if (check.refused()) return out;
  for (int h = 0; h < count; ++h) out.push_back(all.middleRows(static_cast<Eigen::Index>(h) * n, n));
  return out;
}

// groupedQueryAttention({q, k, v, n, dk, dv, heads, kvHeads, causal})
//   q: heads*n*dk, k: kvHeads*n*dk, v: kvHeads*n*dv -> {output (heads, n, dv), weights: [per head n*n],
//   kvHeadOf: [the key/value head of each query head]} | {error}
val grouped_query_attention_js(val args) {
  ArgumentCheck check;
  const int n = check.dimension("n", args["n"]), dk = check.dimension("dk", args["dk"]), dv = check.dimension("dv", args["dv"]);
  const int heads = check.whole_int("heads", args["heads"], 1, 256);
  const int kv_heads = check.whole_int("kvHeads", args["kvHeads"], 1, 256);
  if (!check.refused() && heads % kv_heads != 0)
    check.refuse("kvHeads = " + std::to_string(kv_heads) + " must divide heads = " + std::to_string(heads));
  check.at_most_power_of_two("heads*n*n", static_cast<double>(heads) * n * n, attn::bindings::kMaxWeightsLog2, " weights");
  check.at_most_power_of_two("heads*n*dk", static_cast<double>(heads) * n * dk, attn::bindings::kMaxDrawsLog2, " values of q");
  check.at_most_power_of_two("kvHeads*n*dv", static_cast<double>(kv_heads) * n * dv, attn::bindings::kMaxDrawsLog2, " values of v");
  const std::vector<attn::Mat> q = read_heads(check, "q", args["q"], heads, n, dk);
  const std::vector<attn::Mat> k = read_heads(check, "k", args["k"], kv_heads, n, dk);
  const std::vector<attn::Mat> v = read_heads(check, "v", args["v"], kv_heads, n, dv);
  if (check.refused()) return check.error();
  attn::AttentionOptions options;
  options.causal = args["causal"].as<bool>();
  const attn::GroupedQueryResult r = attn::grouped_query_attention(q, k, v, options);
  if (!r.status.ok) return error_result(r.status.message);
  attn::Mat output(static_cast<Eigen::Index>(heads) * n, dv);
  val weights = val::array(), kv_of = val::array();
  for (int h = 0; h < heads; ++h) {
    output.middleRows(static_cast<Eigen::Index>(h) * n, n) = r.heads[static_cast<std::size_t>(h)].output;
    weights.set(h, float32_copy(r.heads[static_cast<std::size_t>(h)].weights.data(), r.heads[static_cast<std::size_t>(h)].weights.size()));
    kv_of.set(h, r.kv_head_of[static_cast<std::size_t>(h)]);
  }
  val out = val::object();
  out.set("output", float32_copy(output.data(), output.size()));
  out.set("weights", weights);
  out.set("kvHeadOf", kv_of);
  return out;
}

// flashAttention({q, k, v, nq, nk, dk, dv, causal, scale, blockQ, blockK})
//   -> {output (nq*dv), steps: [{qTile, kTile, qBegin, qEnd, kBegin, kEnd, m, l, rescale}],
//       scale, workingFloats} | {error}; at most kMaxFlashSteps steps.
val flash_attention_js(val args) {
  ArgumentCheck check;
  const int nq = check.dimension("nq", args["nq"]), nk = check.dimension("nk", args["nk"]);
  const int dk = check.dimension("dk", args["dk"]), dv = check.dimension("dv", args["dv"]);
  attn::FlashOptions fo;
  fo.block_q = check.whole_int("blockQ", args["blockQ"], 1, attn::bindings::kMaxDim);
  fo.block_k = check.whole_int("blockK", args["blockK"], 1, attn::bindings::kMaxDim);
  check.at_most_power_of_two("nq*dk", static_cast<double>(nq) * dk, attn::bindings::kMaxDrawsLog2, " values of q");
  check.at_most_power_of_two("nk*dk", static_cast<double>(nk) * dk, attn::bindings::kMaxDrawsLog2, " values of k");
  check.at_most_power_of_two("nk*dv", static_cast<double>(nk) * dv, attn::bindings::kMaxDrawsLog2, " values of v");
  attn::Mat q, k, v;
  check.matrix("q", args["q"], nq, dk, q);
  check.matrix("k", args["k"], nk, dk, k);
  check.matrix("v", args["v"], nk, dv, v);
  if (check.refused()) return check.error();
  fo.causal = args["causal"].as<bool>();
  const val scale = args["scale"];
  if (!scale.isUndefined() && !scale.isNull()) fo.scale = scale.as<float>();
  const attn::FlashResult r = attn::flash_attention(q, k, v, fo);
  if (!r.status.ok) return error_result(r.status.message);
  val steps = val::array();
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    const attn::FlashStep& s = r.steps[i];
    val step = val::object();
    step.set("qTile", s.q_tile);
    step.set("kTile", s.k_tile);
    step.set("qBegin", s.q_begin);
    step.set("qEnd", s.q_end);
    step.set("kBegin", s.k_begin);
    step.set("kEnd", s.k_end);
    step.set("m", float32_copy(s.m.data(), s.m.size()));
    step.set("l", float32_copy(s.l.data(), s.l.size()));
    step.set("rescale", float32_copy(s.rescale.data(), s.rescale.size()));
    steps.set(i, step);
  }
  val out = val::object();
  out.set("output", float32_copy(r.output.data(), r.output.size()));
  out.set("steps", steps);
  out.set("scale", r.scale);
  out.set("workingFloats", static_cast<double>(r.working_floats));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_core_modern) {
  emscripten::function("groupedQueryAttention", &grouped_query_attention_js);
  emscripten::function("flashAttention", &flash_attention_js);
}
