// Embind group "kernels": the output-only fast paths and what the SIMD kernels report,
// behind web/attnlab-core-kernels.mjs. Arguments are checked against the module's caps
// (core_limits.h); a refused one answers {error}, which the wrapper throws.
//   multiHeadAttentionOutput({x, wq, wk, wv, wo, nq, dModel, heads, causal}) -> {output}
//   multiHeadLayerCreate({wq, wk, wv, wo, dModel, heads}) -> {id}: the weights packed once
//   multiHeadLayerOutput(id, {x, nq, causal}) -> {output}; multiHeadLayerDispose(id) -> bool
//   kernelInfo() -> {isa, lanes, tileRows, tileCols}
//   wasmMemoryBytes() -> the size of this instance's linear memory
#include "core/kernels/dispatch.h"
#include "core/attention/pipeline.h"
#include "core/attention/streaming.h"
#include "bindings/core_limits.h"
#include "bindings/js_interop.h"
#include "core/base/finite.h"

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <map>
#include <memory>
#include <string>

using emscripten::val;
using attn::bindings::ArgumentCheck;
using attn::bindings::error_result;
using attn::bindings::float32_result;

namespace {

val multi_head_attention_output_js(val args) {
  ArgumentCheck check;
  const attn::bindings::MultiHeadShape shape = attn::bindings::multi_head_shape(args, check);
  if (!check.refused() && shape.d_model % shape.heads != 0)
    check.refuse("dModel " + std::to_string(shape.d_model) + " is not divisible by heads " + std::to_string(shape.heads));
  attn::Mat x;
  attn::ProjectionWeights w;
  attn::bindings::multi_head_matrices(args, shape, check, x, w);
  if (check.refused()) return check.error();
  if (!attn::all_finite(x)) return error_result("x contains NaN or Inf");
  attn::StreamingOptions options;
  options.causal = args["causal"].as<bool>();
  const attn::StreamingResult r = attn::streaming_multi_head_attention(x, x, x, w, shape.heads, options);
  if (!r.status.ok) return error_result(r.status.message);
  val out = val::object();
  out.set("output", float32_result(args["into"], "output", r.output.data(), r.output.size()));
  return out;
}

// The packed layers this instance holds, by the id their creator got; freed by dispose.
std::map<int, std::unique_ptr<attn::PackedMultiHead>>& layers() {
  static std::map<int, std::unique_ptr<attn::PackedMultiHead>> held;
  return held;
}

val multi_head_layer_create_js(val args) {
  ArgumentCheck check;
  attn::bindings::MultiHeadShape shape;
  shape.d_model = check.dimension("dModel", args["dModel"]);
  shape.heads = check.dimension("heads", args["heads"]);
  attn::ProjectionWeights w;
  attn::bindings::projection_matrices(args, shape, check, w);
  if (check.refused()) return check.error();
  if (!attn::all_finite(w.wq) || !attn::all_finite(w.wk) || !attn::all_finite(w.wv) || !attn::all_finite(w.wo))
    return error_result("the weights contain NaN or Inf");
  // pack_multi_head checks that heads divides dModel.
  auto layer = std::make_unique<attn::PackedMultiHead>();
  const attn::Status packed = attn::pack_multi_head(w, shape.d_model, shape.heads, *layer);
  if (!packed.ok) return error_result(packed.message);
  static int next_id = 1;
  const int id = next_id++;
  layers()[id] = std::move(layer);
  val out = val::object();
  out.set("id", id);
  return out;
}

val multi_head_layer_output_js(int id, val args) {
  const auto found = layers().find(id);
  if (found == layers().end()) return error_result("this layer was disposed");
  const attn::PackedMultiHead& layer = *found->second;
  ArgumentCheck check;
  const int nq = check.dimension("nq", args["nq"]);
  attn::Mat x;
  check.matrix("x", args["x"], nq, layer.d_model, x);
  if (check.refused()) return check.error();
  if (!attn::all_finite(x)) return error_result("x contains NaN or Inf");
  attn::StreamingOptions options;
  options.causal = args["causal"].as<bool>();
  const attn::StreamingResult r = attn::streaming_self_attention(x, layer, options);
  if (!r.status.ok) return error_result(r.status.message);
  val out = val::object();
  out.set("output", float32_result(args["into"], "output", r.output.data(), r.output.size()));
  return out;
}

bool multi_head_layer_dispose_js(int id) { return layers().erase(id) > 0; }

val kernel_info_js() {
  const attn::kernels::KernelTable& t = attn::kernels::active_kernels();
  val out = val::object();
  out.set("isa", std::string(t.name));
  out.set("lanes", t.lanes);
  out.set("tileRows", t.tile_rows);
  out.set("tileCols", t.tile_cols);
  return out;
}

double wasm_memory_bytes_js() { return static_cast<double>(emscripten_get_heap_size()); }

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_core_kernels) {
  emscripten::function("multiHeadAttentionOutput", &multi_head_attention_output_js);
  emscripten::function("multiHeadLayerCreate", &multi_head_layer_create_js);
  emscripten::function("multiHeadLayerOutput", &multi_head_layer_output_js);
  emscripten::function("multiHeadLayerDispose", &multi_head_layer_dispose_js);
  emscripten::function("kernelInfo", &kernel_info_js);
  emscripten::function("wasmMemoryBytes", &wasm_memory_bytes_js);
}
