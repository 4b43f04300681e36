// Embind bindings of the math core, behind web/attnlab-core.mjs: attention, the generator,
// the tokenizer, softmax and multi-head attention. Each checks its arguments against the
// module's caps (core_limits.h) and answers {error} for a refused one, which the wrapper
// throws. Other groups live in core_*.cpp files of their own, each with its own
// EMSCRIPTEN_BINDINGS block.
#include "core/attention/attention.h"
#include "core/attention/pipeline.h"
#include "core/attention/positional.h"
#include "core/base/rng.h"
#include "core/attention/softmax.h"
#include "core/attention/streaming.h"
#include "core/attention/tokenizer.h"
#include "bindings/core_limits.h"
#include "bindings/js_interop.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

using emscripten::val;
using attn::bindings::ArgumentCheck;
using attn::bindings::error_result;
using attn::bindings::float32_copy;
using attn::bindings::float32_result;

namespace {

// The positions inside attention, as the JS wrapper normalised them: null, or {kind: 'rope',
// base, pairing: 'half' | 'interleaved'} or {kind: 'alibi', slope}; the values are checked by
// the core (validate_positional).
attn::PositionalOptions positional_options(const val& p) {
  attn::PositionalOptions out;
  if (p.isUndefined() || p.isNull()) return out;
  const std::string kind = p["kind"].as<std::string>();
  if (kind == "rope") {
    out.kind = attn::PositionalKind::Rope;
    out.rope_base = p["base"].as<float>();
    const attn::RopePairingInfo* pairing = attn::choice_from_name(attn::kRopePairings, p["pairing"].as<std::string>());
    if (pairing) out.rope_pairing = pairing->value;  // the wrapper checked the name
  } else if (kind == "alibi") {
    out.kind = attn::PositionalKind::Alibi;
    out.alibi_slope = p["slope"].as<float>();
  }
  return out;
}

// attention({q, k, v, nq, nk, dk, dv, causal, scale, returnWeights, positional, into})
//   -> {scores, weights, output, scale} | {error}
//   into: undefined or the caller's arrays to write results into (float32_result)
//   returnWeights false: streaming attention (online softmax, no n x n matrix) -> {output}
val attention_js(val args) {
  ArgumentCheck check;
  const int nq = check.dimension("nq", args["nq"]), nk = check.dimension("nk", args["nk"]);
  const int dk = check.dimension("dk", args["dk"]), dv = check.dimension("dv", args["dv"]);
  attn::Mat q, k, v;
  check.matrix("q", args["q"], nq, dk, q);
  check.matrix("k", args["k"], nk, dk, k);
  check.matrix("v", args["v"], nk, dv, v);
  const bool with_weights = !args["returnWeights"].isFalse();
  if (with_weights)
    check.at_most_power_of_two("nq*nk", static_cast<double>(nq) * nk, attn::bindings::kMaxWeightsLog2,
                               " with weights: pass returnWeights: false");
  if (check.refused()) return check.error();
  attn::AttentionOptions options;
  options.causal = args["causal"].as<bool>();
  const val scale = args["scale"];
  if (!scale.isUndefined() && !scale.isNull()) options.scale = scale.as<float>();
  options.positional = positional_options(args["positional"]);
  if (!with_weights) {
    // Same checks as the full path (shapes, finite inputs, positions), then the streaming kernel.
    const attn::Status st = attn::validate_attention_inputs(q, k, v, options);
    if (!st.ok) return error_result(st.message);
    if (options.positional.kind == attn::PositionalKind::Alibi)
      return error_result("positional alibi needs returnWeights: true (the streaming kernels add no bias)");
    if (options.positional.kind == attn::PositionalKind::Rope) {
      q = attn::apply_rope(q, 0, options.positional.rope_base, options.positional.rope_pairing);
      k = attn::apply_rope(k, 0, options.positional.rope_base, options.positional.rope_pairing);
    }
    attn::StreamingOptions so;
    so.scale = options.scale;
    so.causal = options.causal;
    const attn::StreamingResult r = attn::streaming_attention(q, k, v, so);
    if (!r.status.ok) return error_result(r.status.message);
    val out = val::object();
    out.set("output", float32_result(args["into"], "output", r.output.data(), r.output.size()));
    return out;
  }
  const attn::AttentionResult r = attn::attention(q, k, v, options);
  if (!r.status.ok) return error_result(r.status.message);
  val out = val::object();
  const val into = args["into"];
  out.set("scores", float32_result(into, "scores", r.scores.data(), r.scores.size()));
  out.set("weights", float32_result(into, "weights", r.weights.data(), r.weights.size()));
  out.set("output", float32_result(into, "output", r.output.data(), r.output.size()));
  out.set("scale", r.scale);
  return out;
}

// randomNormal(seed, rows, cols) -> Float32Array | {error}, the project's generator
// (identical draws to the desktop build for the same seed).
val random_normal_js(double seed, val rows_js, val cols_js) {
  ArgumentCheck check;
  const int rows = check.dimension("rows", rows_js), cols = check.dimension("cols", cols_js);
  // Each dimension may be up to 2^20, but not both: the draws are one allocation.
  check.at_most_power_of_two("rows*cols", static_cast<double>(rows) * cols, attn::bindings::kMaxDrawsLog2, " numbers");
  if (check.refused()) return check.error();
  attn::Rng rng(static_cast<std::uint64_t>(seed));
  const attn::Mat m = rng.normal_matrix(rows, cols);
  return float32_copy(m.data(), m.size());
}

// tokenize(text) -> [{text, start, end, kind}], start/end in UTF-8 bytes of the text.
val tokenize_js(const std::string& text) {
  const std::vector<attn::Token> tokens = attn::tokenize(text);
  val out = val::array();
  for (size_t i = 0; i < tokens.size(); ++i) {
    val t = val::object();
    t.set("text", tokens[i].text);
    t.set("start", tokens[i].byte_begin);
    t.set("end", tokens[i].byte_end);
    t.set("kind", std::string(attn::token_kind_name(tokens[i].kind)));
    out.set(i, t);
  }
  return out;
}

// softmax(row, stable, half) -> {weights, overflow, nan, fullyMasked}
val softmax_js(val row, bool stable, bool half) {
  const std::vector<float> scores = emscripten::convertJSArrayToNumberVector<float>(row);
  std::vector<float> weights(scores.size());
  const attn::SoftmaxFlags f = attn::softmax_row(
      scores.data(), weights.data(), static_cast<int>(scores.size()),
      stable ? attn::SoftmaxForm::Stable : attn::SoftmaxForm::Naive,
      half ? attn::Precision::Float16 : attn::Precision::Float32);
  val out = val::object();
  out.set("weights", float32_copy(weights.data(), weights.size()));
  out.set("overflow", f.overflow);
  out.set("nan", f.nan);
  out.set("fullyMasked", f.fully_masked);
  return out;
}

// multiHeadAttention({x, wq, wk, wv, wo, nq, dModel, heads, causal}) -> {output, weights: [per head]}
val multi_head_attention_js(val args) {
  ArgumentCheck check;
  const attn::bindings::MultiHeadShape shape = attn::bindings::multi_head_shape(args, check);
  attn::Mat x;
  attn::ProjectionWeights w;
  attn::bindings::multi_head_matrices(args, shape, check, x, w);
  // One nq x nq weight matrix per head.
  check.at_most_power_of_two("nq*nq*heads", static_cast<double>(shape.nq) * shape.nq * shape.heads,
                             attn::bindings::kMaxWeightsLog2, " weights: use multiHeadAttentionOutput");
  if (check.refused()) return check.error();
  attn::PipelineConfig config;
  config.d_model = shape.d_model;
  config.heads = shape.heads;
  config.mask.causal = args["causal"].as<bool>();
  config.row_statistics = false;  // not returned
  const attn::PipelineTrace t = attn::run_pipeline(x, x, x, w, config);
  if (!t.status.ok) return error_result(t.status.message);
  val out = val::object();
  out.set("output", float32_copy(t.output.data(), t.output.size()));
  val weights = val::array();
  for (size_t h = 0; h < t.heads.size(); ++h)
    weights.set(h, float32_copy(t.heads[h].weights.data(), t.heads[h].weights.size()));
  out.set("weights", weights);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_core) {
  emscripten::function("attention", &attention_js);
  emscripten::function("randomNormal", &random_normal_js);
  emscripten::function("tokenize", &tokenize_js);
  emscripten::function("softmax", &softmax_js);
  emscripten::function("multiHeadAttention", &multi_head_attention_js);
}
