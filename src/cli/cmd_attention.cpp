// attnlab-cli commands on attention itself:
//   example   the tutorial's worked example, as JSON
//   random    N(0,1) draws of the project's generator, as JSON
//   sdpa      scaled dot-product attention, PyTorch's F.scaled_dot_product_attention semantics,
//             with RoPE or ALiBi inside attention if asked
//   mha       multi-head attention, PyTorch's nn.MultiheadAttention(batch_first=True)
//   softmax   one softmax per row, stable or naive, float32 or simulated float16
//
// Sections: 1 example/random  2 sdpa  3 mha  4 softmax
#include "cli/cli_common.h"
#include "core/attention/attention.h"
#include "core/attention/pipeline.h"
#include "core/attention/positional.h"
#include "core/base/rng.h"
#include "core/attention/softmax.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace attn::cli {
namespace {

using json = nlohmann::json;

// ---------------------------------------------------------------------------------------
// 1 example / random
// ---------------------------------------------------------------------------------------

Outcome run_example(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {}, {}, o); !r.ok()) return r;
  const WorkedExample ex = worked_example();
  const AttentionResult r = attention(ex.q, ex.k, ex.v);
  json out;
  out["rawScores"] = to_json(r.raw_scores);
  out["scale"] = r.scale;
  out["scores"] = to_json(r.scores);
  out["weights"] = to_json(r.weights);
  out["output"] = to_json(r.output);
  std::printf("%s\n", json_text(out).c_str());
  return Status::success();
}

Outcome run_random(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--seed", "--rows", "--cols"}, {}, o); !r.ok()) return r;
  if (Outcome r = o.require("random", {"--seed", "--rows", "--cols"}); !r.ok()) return r;
  long long seed = 0, rows = 0, cols = 0;
  for (Outcome r : {o.whole("--seed", 0, (1ll << 53) - 1, seed), o.whole("--rows", 1, 4096, rows),
                    o.whole("--cols", 1, 4096, cols)})
    if (!r.ok()) return r;
  Rng rng(static_cast<std::uint64_t>(seed));
  std::printf("%s\n", json_text(to_json(rng.normal_matrix(static_cast<int>(rows), static_cast<int>(cols)))).c_str());
  return Status::success();
}

// ---------------------------------------------------------------------------------------
// 2 sdpa: Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v); leading dims = batch
// ---------------------------------------------------------------------------------------

// A mask entry as an additive term: bool true = not allowed (-inf), float = added as is.
float additive_mask_value(const MaskArray& mask, std::int64_t at) {
  return mask.is_bool ? (mask.flags[at] ? -std::numeric_limits<float>::infinity() : 0.0f) : mask.values[at];
}

// Q, K and V as read, and the sizes their shapes give.
struct SdpaInputs {
  NpyArray qa, ka, va;
  std::vector<float> q, k, v;
  size_t rank = 0;
  std::int64_t n_q = 0, d_k = 0, n_k = 0, d_v = 0, batch = 0;
};

// --rope BASE [--rope-pairing PAIRING] or --alibi-slope M: positions inside attention.
Outcome read_positions(const Options& o, PositionalOptions& p) {
  if (o.has("--rope") && o.has("--alibi-slope")) return Outcome::usage("--rope and --alibi-slope exclude each other");
  if (o.has("--rope-pairing") && !o.has("--rope")) return Outcome::usage("--rope-pairing goes with --rope");
  if (o.has("--rope")) {
    p.kind = PositionalKind::Rope;
    if (!parse_float(o.get("--rope"), p.rope_base) || !(p.rope_base > 0.0f))
      return Outcome::usage("--rope needs the base, a finite number > 0 (10000 in the paper)");
    if (o.has("--rope-pairing")) {
      const RopePairingInfo* row = choice_from_name(kRopePairings, o.get("--rope-pairing"));
      if (!row) return Outcome::usage("--rope-pairing must be " + join_names(choice_names(kRopePairings), ", ", " or "));
      p.rope_pairing = row->value;
    }
  }
  if (o.has("--alibi-slope")) {
    p.kind = PositionalKind::Alibi;
    if (!parse_float(o.get("--alibi-slope"), p.alibi_slope)) return Outcome::usage("--alibi-slope needs a finite number");
  }
  return {};
}

// The score functions computed from Q and K alone: the ones --score offers.
std::vector<std::string> qk_score_names() {
  return choice_names(kScoreFunctions, [](const ScoreFunctionInfo& row) { return row.qk; });
}

// --scale, --score, --causal and the positions.
Outcome read_sdpa_config(const Options& o, PipelineConfig& config) {
  if (o.has("--scale")) {
    if (!parse_float(o.get("--scale"), config.custom_scale)) return Outcome::usage("--scale needs a finite number");
    config.scale_kind = ScaleKind::Custom;
  }
  if (o.has("--score")) {
    const ScoreFunctionInfo* row = choice_from_name(kScoreFunctions, o.get("--score"));
    if (!row || !row->qk) return Outcome::usage("--score must be " + join_names(qk_score_names(), ", ", " or "));
    config.score = row->value;
  }
  config.mask.causal = o.flags.count("--causal") > 0;
  return read_positions(o, config.attention_positions);
}

Status read_sdpa_inputs(const Options& o, SdpaInputs& in) {
  const NpyArray &qa = in.qa, &ka = in.ka, &va = in.va;
  const std::string qp = o.get("--q"), kp = o.get("--k"), vp = o.get("--v");
  if (Status st = read_float_array(qp, in.qa, in.q); !st.ok) return st;
  if (Status st = read_float_array(kp, in.ka, in.k); !st.ok) return st;
  if (Status st = read_float_array(vp, in.va, in.v); !st.ok) return st;
  const size_t rank = in.rank = qa.shape.size();
  if (rank < 2) return Status::error(qp + ": needs at least 2 dimensions (n_q, d_k), has shape " + npy_shape_string(qa.shape));
  if (ka.shape.size() != rank) return Status::error(kp + ": has " + std::to_string(ka.shape.size()) + " dimensions, Q has " + std::to_string(rank));
  if (va.shape.size() != rank) return Status::error(vp + ": has " + std::to_string(va.shape.size()) + " dimensions, Q has " + std::to_string(rank));
  for (size_t d = 0; d + 2 < rank; ++d)
    if (ka.shape[d] != qa.shape[d] || va.shape[d] != qa.shape[d])
      return Status::error("batch dimensions differ: Q " + npy_shape_string(qa.shape) + ", K " +
                           npy_shape_string(ka.shape) + ", V " + npy_shape_string(va.shape));
  const std::int64_t n_q = in.n_q = qa.shape[rank - 2], d_k = in.d_k = qa.shape[rank - 1];
  const std::int64_t n_k = in.n_k = ka.shape[rank - 2], d_v = in.d_v = va.shape[rank - 1];
  if (ka.shape[rank - 1] != d_k) return Status::error(kp + ": last dimension " + std::to_string(ka.shape[rank - 1]) + " must equal Q's d_k " + std::to_string(d_k));
  if (va.shape[rank - 2] != n_k) return Status::error(vp + ": has " + std::to_string(va.shape[rank - 2]) + " rows, K has n_k = " + std::to_string(n_k));
  if (n_q < 1 || n_k < 1 || d_k < 1 || d_v < 1) return Status::error("Q, K and V must not be empty");
  if (n_q * n_k > (1ll << 26)) return Status::error("n_q x n_k = " + std::to_string(n_q * n_k) + " is over the cap of 2^26 score entries");
  const std::int64_t batch = in.batch = product(qa.shape, 0, rank - 2);
  // scores.npy and weights.npy hold every batch entry: the cap is on their total, as for mha.
  if (batch * n_q * n_k > (1ll << 26))
    return Status::error("batch x n_q x n_k = " + std::to_string(batch * n_q * n_k) + " is over the cap of 2^26 weights");
  return Status::success();
}

// The mask's last two dims are (n_q, n_k); leading dims are absent, 1 or the batch's.
Status read_sdpa_mask(const Options& o, const SdpaInputs& in, MaskArray& mask) {
  if (!o.has("--mask")) return Status::success();
  const std::string mp = o.get("--mask");
  if (Status st = read_mask(mp, mask); !st.ok) return st;
  const size_t mr = mask.shape.size();
  if (mr < 2 || mask.shape[mr - 2] != in.n_q || mask.shape[mr - 1] != in.n_k || mr > in.rank)
    return Status::error(mp + ": shape " + npy_shape_string(mask.shape) + " does not end in (n_q, n_k) = (" +
                         std::to_string(in.n_q) + ", " + std::to_string(in.n_k) + ") or has more dimensions than Q");
  for (size_t d = 0; d + 2 < mr; ++d) {
    const std::int64_t qd = in.qa.shape[in.rank - mr + d];
    if (mask.shape[d] != 1 && mask.shape[d] != qd)
      return Status::error(mp + ": shape " + npy_shape_string(mask.shape) + " does not broadcast against Q " + npy_shape_string(in.qa.shape));
  }
  return Status::success();
}

// Batch entry b's (n_q, n_k) slice of the broadcast mask, as the pipeline's boolean or additive mask.
void apply_sdpa_mask(const MaskArray& mask, const SdpaInputs& in, std::int64_t b, PipelineConfig& c) {
  const std::int64_t n_q = in.n_q, n_k = in.n_k;
  const size_t rank = in.rank, mr = mask.shape.size();
  std::int64_t rem = b, mask_index = 0, mask_stride = 1;
  for (size_t d = rank - 2; d-- > 0;) {
    const std::int64_t coord = rem % in.qa.shape[d];
    rem /= in.qa.shape[d];
    const std::int64_t md = static_cast<std::int64_t>(d) - static_cast<std::int64_t>(rank - mr);
    if (md >= 0) {
      if (mask.shape[md] != 1) mask_index += coord * mask_stride;
      mask_stride *= mask.shape[md];
    }
  }
  const std::int64_t offset = mask_index * n_q * n_k;
  if (mask.is_bool) {
    c.mask.custom.resize(n_q, n_k);
    for (std::int64_t i = 0; i < n_q * n_k; ++i) c.mask.custom.data()[i] = mask.flags[offset + i] != 0;
  } else {
    c.additive_mask = matrix_at(mask.values, offset, n_q, n_k);
  }
}

Outcome run_sdpa(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--q", "--k", "--v", "--mask", "--scale", "--score", "--rope", "--rope-pairing",
                                        "--alibi-slope", "--out"}, {"--causal"}, o); !r.ok())
    return r;
  if (Outcome r = o.require("sdpa", {"--q", "--k", "--v", "--out"}); !r.ok()) return r;
  PipelineConfig config;
  if (Outcome r = read_sdpa_config(o, config); !r.ok()) return r;
  SdpaInputs in;
  if (Status st = read_sdpa_inputs(o, in); !st.ok) return st;
  MaskArray mask;
  if (Status st = read_sdpa_mask(o, in, mask); !st.ok) return st;

  const std::int64_t n_q = in.n_q, n_k = in.n_k, d_k = in.d_k, d_v = in.d_v, batch = in.batch;
  std::vector<float> scores_all(batch * n_q * n_k), weights_all(batch * n_q * n_k), output_all(batch * n_q * d_v);
  for (std::int64_t b = 0; b < batch; ++b) {
    PipelineConfig c = config;
    if (mask.present) apply_sdpa_mask(mask, in, b, c);
    const PipelineTrace t = run_pipeline_qkv(matrix_at(in.q, b * n_q * d_k, n_q, d_k), matrix_at(in.k, b * n_k * d_k, n_k, d_k),
                                             matrix_at(in.v, b * n_k * d_v, n_k, d_v), c);
    if (!t.status.ok) return Status::error("sdpa: " + t.status.message);
    const HeadTrace& h = t.heads[0];
    std::copy(h.masked_scores.data(), h.masked_scores.data() + n_q * n_k, scores_all.begin() + b * n_q * n_k);
    std::copy(h.weights.data(), h.weights.data() + n_q * n_k, weights_all.begin() + b * n_q * n_k);
    std::copy(h.output.data(), h.output.data() + n_q * d_v, output_all.begin() + b * n_q * d_v);
  }
  Shape score_shape(in.qa.shape.begin(), in.qa.shape.end() - 2);
  score_shape.push_back(n_q);
  score_shape.push_back(n_k);
  Shape out_shape(in.qa.shape.begin(), in.qa.shape.end() - 2);
  out_shape.push_back(n_q);
  out_shape.push_back(d_v);
  return write_outputs(o.get("--out"), {{"scores.npy", NpyArray::from_float(score_shape, scores_all.data())},
                                        {"weights.npy", NpyArray::from_float(score_shape, weights_all.data())},
                                        {"output.npy", NpyArray::from_float(out_shape, output_all.data())}});
}

// ---------------------------------------------------------------------------------------
// 3 mha: nn.MultiheadAttention(embed_dim=E, num_heads=H, batch_first=True)
// ---------------------------------------------------------------------------------------

// Reads X as (batch, n, E) or unbatched (n, E); returns batch (0 = unbatched input).
Status read_sequence(const std::string& path, std::int64_t embed, NpyArray& a, std::vector<float>& v,
                     std::int64_t& batch, std::int64_t& n) {
  if (Status st = read_float_array(path, a, v); !st.ok) return st;
  if (a.shape.size() == 2) {
    batch = 0;
    n = a.shape[0];
  } else if (a.shape.size() == 3) {
    batch = a.shape[0];
    n = a.shape[1];
  } else {
    return Status::error(path + ": shape " + npy_shape_string(a.shape) + " must be (batch, n, E) or (n, E)");
  }
  if (embed >= 0 && a.shape.back() != embed)
    return Status::error(path + ": last dimension " + std::to_string(a.shape.back()) + " must be E = " + std::to_string(embed));
  if (n < 1) return Status::error(path + ": has no tokens");
  return Status::success();
}

// Reads a float array that must have exactly the shape `want`, named in the message as `want_name` ("(3E, E)").
Status read_shaped_array(const std::string& path, const Shape& want, const char* want_name, std::vector<float>& values) {
  NpyArray a;
  if (Status st = read_float_array(path, a, values); !st.ok) return st;
  if (a.shape != want)
    return Status::error(path + ": shape " + npy_shape_string(a.shape) + " must be " + want_name + " = " + npy_shape_string(want));
  return Status::success();
}

// The query, key and value sequences (key and value default to the query: self-attention).
struct MhaInputs {
  std::vector<float> x, kx, vx;
  std::int64_t batch = 0, n_q = 0, n_k = 0, embed = 0;
};

Status read_mha_inputs(const Options& o, long long heads, MhaInputs& in) {
  NpyArray xa, ka, va;
  std::int64_t kbatch = 0, vbatch = 0, n_v = 0;
  const std::string xp = o.get("--query");
  if (Status st = read_sequence(xp, -1, xa, in.x, in.batch, in.n_q); !st.ok) return st;
  const std::int64_t E = in.embed = xa.shape.back();
  if (E % heads != 0)
    return Status::error("embed dim " + std::to_string(E) + " (from " + xp + ") is not divisible by " + std::to_string(heads) + " heads");
  if (!o.has("--key")) {
    in.kx = in.x;
    in.vx = in.x;
    in.n_k = in.n_q;
    return Status::success();
  }
  if (Status st = read_sequence(o.get("--key"), E, ka, in.kx, kbatch, in.n_k); !st.ok) return st;
  if (Status st = read_sequence(o.get("--value"), E, va, in.vx, vbatch, n_v); !st.ok) return st;
  if (kbatch != in.batch || vbatch != in.batch)
    return Status::error("query, key and value must have the same batch size (and all be batched or all unbatched)");
  if (n_v != in.n_k) return Status::error(o.get("--value") + ": has " + std::to_string(n_v) + " tokens, key has " + std::to_string(in.n_k));
  return Status::success();
}

// PyTorch's Linear computes x W^T + b; ours is x W + b, so the weights are transposed.
Status read_mha_projections(const Options& o, std::int64_t E, ProjectionWeights& pw) {
  std::vector<float> w, wo;
  if (Status st = read_shaped_array(o.get("--in-proj-weight"), Shape{3 * E, E}, "(3E, E)", w); !st.ok) return st;
  if (Status st = read_shaped_array(o.get("--out-proj-weight"), Shape{E, E}, "(E, E)", wo); !st.ok) return st;
  const Mat w_in = matrix_at(w, 0, 3 * E, E);
  pw.wq = w_in.topRows(E).transpose();
  pw.wk = w_in.middleRows(E, E).transpose();
  pw.wv = w_in.bottomRows(E).transpose();
  pw.wo = matrix_at(wo, 0, E, E).transpose();
  if (o.has("--in-proj-bias")) {
    std::vector<float> b;
    if (Status st = read_shaped_array(o.get("--in-proj-bias"), Shape{3 * E}, "(3E,)", b); !st.ok) return st;
    pw.bq = Eigen::Map<const RowVec>(b.data(), E);
    pw.bk = Eigen::Map<const RowVec>(b.data() + E, E);
    pw.bv = Eigen::Map<const RowVec>(b.data() + 2 * E, E);
  }
  if (o.has("--out-proj-bias")) {
    std::vector<float> b;
    if (Status st = read_shaped_array(o.get("--out-proj-bias"), Shape{E}, "(E,)", b); !st.ok) return st;
    pw.bo = Eigen::Map<const RowVec>(b.data(), E);
  }
  return Status::success();
}

// key_padding_mask: (batch, n_k) or (n_k) unbatched; True / nonzero = ignore that key.
// attn_mask: (n_q, n_k) or (batch * H, n_q, n_k); bool True = not allowed, float = added.
Status read_mha_masks(const Options& o, const MhaInputs& in, long long heads, MaskArray& kpm, MaskArray& am) {
  const std::int64_t B = in.batch == 0 ? 1 : in.batch;
  if (o.has("--key-padding-mask")) {
    const std::string p = o.get("--key-padding-mask");
    if (Status st = read_mask(p, kpm); !st.ok) return st;
    const Shape want = in.batch == 0 ? Shape{in.n_k} : Shape{in.batch, in.n_k};
    if (kpm.shape != want) return Status::error(p + ": shape " + npy_shape_string(kpm.shape) + " must be " + npy_shape_string(want));
  }
  if (o.has("--attn-mask")) {
    const std::string p = o.get("--attn-mask");
    if (Status st = read_mask(p, am); !st.ok) return st;
    const Shape two{in.n_q, in.n_k}, three{B * heads, in.n_q, in.n_k};
    if (am.shape != two && am.shape != three)
      return Status::error(p + ": shape " + npy_shape_string(am.shape) + " must be " + npy_shape_string(two) + " or " + npy_shape_string(three));
  }
  return Status::success();
}

// Both masks of batch entry b become one additive mask per head: -inf where not allowed, floats added.
void apply_mha_masks(const MaskArray& kpm, const MaskArray& am, std::int64_t b, long long heads, std::int64_t n_q,
                     std::int64_t n_k, PipelineConfig& c) {
  Mat shared = Mat::Zero(n_q, n_k);
  if (kpm.present)
    for (std::int64_t j = 0; j < n_k; ++j) shared.col(j).array() += additive_mask_value(kpm, b * n_k + j);
  if (am.present && am.shape.size() == 2)
    for (std::int64_t i = 0; i < n_q * n_k; ++i) shared.data()[i] += additive_mask_value(am, i);
  c.additive_mask = shared;
  if (am.present && am.shape.size() == 3)
    for (std::int64_t h = 0; h < heads; ++h) {
      Mat per_head(n_q, n_k);
      const std::int64_t offset = (b * heads + h) * n_q * n_k;
      for (std::int64_t i = 0; i < n_q * n_k; ++i) per_head.data()[i] = additive_mask_value(am, offset + i);
      c.head_additive_masks.push_back(per_head);
    }
}

Outcome run_mha(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--query", "--key", "--value", "--heads", "--in-proj-weight", "--in-proj-bias",
                                        "--out-proj-weight", "--out-proj-bias", "--key-padding-mask", "--attn-mask", "--out"},
                                 {"--causal"}, o); !r.ok())
    return r;
  if (Outcome r = o.require("mha", {"--query", "--heads", "--in-proj-weight", "--out-proj-weight", "--out"}); !r.ok()) return r;
  if (o.has("--key") != o.has("--value")) return Outcome::usage("--key and --value go together");
  long long heads = 0;
  if (Outcome r = o.whole("--heads", 1, 1024, heads); !r.ok()) return r;
  MhaInputs in;
  if (Status st = read_mha_inputs(o, heads, in); !st.ok) return st;
  ProjectionWeights pw;
  if (Status st = read_mha_projections(o, in.embed, pw); !st.ok) return st;
  const std::int64_t batch = in.batch, n_q = in.n_q, n_k = in.n_k, E = in.embed;
  const std::int64_t B = batch == 0 ? 1 : batch;
  if (n_q * n_k * heads * B > (1ll << 26)) return Status::error("batch x heads x n_q x n_k is over the cap of 2^26 weights");
  MaskArray kpm, am;
  if (Status st = read_mha_masks(o, in, heads, kpm, am); !st.ok) return st;

  PipelineConfig config;
  config.d_model = static_cast<int>(E);
  config.heads = static_cast<int>(heads);
  config.mask.causal = o.flags.count("--causal") > 0;
  std::vector<float> out_all(B * n_q * E), weights_all(B * heads * n_q * n_k);
  for (std::int64_t b = 0; b < B; ++b) {
    PipelineConfig c = config;
    apply_mha_masks(kpm, am, b, heads, n_q, n_k, c);
    const PipelineTrace t = run_pipeline(matrix_at(in.x, b * n_q * E, n_q, E), matrix_at(in.kx, b * n_k * E, n_k, E),
                                         matrix_at(in.vx, b * n_k * E, n_k, E), pw, c);
    if (!t.status.ok) return Status::error("mha: " + t.status.message);
    std::copy(t.output.data(), t.output.data() + n_q * E, out_all.begin() + b * n_q * E);
    for (std::int64_t h = 0; h < heads; ++h)
      std::copy(t.heads[h].weights.data(), t.heads[h].weights.data() + n_q * n_k,
                weights_all.begin() + (b * heads + h) * n_q * n_k);
  }
  const Shape out_shape = batch == 0 ? Shape{n_q, E} : Shape{batch, n_q, E};
  const Shape w_shape = batch == 0 ? Shape{heads, n_q, n_k} : Shape{batch, heads, n_q, n_k};
  return write_outputs(o.get("--out"), {{"output.npy", NpyArray::from_float(out_shape, out_all.data())},
                                        {"weights.npy", NpyArray::from_float(w_shape, weights_all.data())}});
}

// ---------------------------------------------------------------------------------------
// 4 softmax
// ---------------------------------------------------------------------------------------

Outcome run_softmax(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--in", "--out"}, {"--naive", "--half"}, o); !r.ok()) return r;
  if (Outcome r = o.require("softmax", {"--in", "--out"}); !r.ok()) return r;
  NpyArray a;
  if (Status st = read_npy_file(o.get("--in"), a); !st.ok) return st;
  if (a.dtype != NpyDtype::Float32 && a.dtype != NpyDtype::Float64 && a.dtype != NpyDtype::Float16)
    return Status::error(o.get("--in") + ": dtype " + npy_descr(a.dtype) + " is not a float type");
  if (a.shape.empty() || a.shape.back() < 1) return Status::error(o.get("--in") + ": needs a non-empty last axis");
  // Infinities and NaN are allowed here on purpose: showing what they do is the point.
  const std::vector<float> s = a.to_float();
  std::vector<float> w(s.size());
  const int n = static_cast<int>(a.shape.back());
  const auto form = o.flags.count("--naive") ? SoftmaxForm::Naive : SoftmaxForm::Stable;
  const auto precision = o.flags.count("--half") ? Precision::Float16 : Precision::Float32;
  SoftmaxFlags all;
  for (size_t row = 0; row * n < s.size(); ++row) {
    const SoftmaxFlags f = softmax_row(s.data() + row * n, w.data() + row * n, n, form, precision);
    all.overflow |= f.overflow;
    all.nan |= f.nan;
    all.fully_masked |= f.fully_masked;
  }
  if (Status st = write_outputs(o.get("--out"), {{"weights.npy", NpyArray::from_float(a.shape, w.data())}}); !st.ok) return st;
  std::printf("%s\n", json_text(json{{"overflow", all.overflow}, {"nan", all.nan}, {"fullyMasked", all.fully_masked}}).c_str());
  return Status::success();
}

const std::string sdpa_usage =
    "  sdpa --q Q.npy --k K.npy --v V.npy [--mask M.npy] [--causal] [--scale S]\n"
    "       [--score " + join_names(qk_score_names(), "|") + "] [--rope BASE [--rope-pairing " +
    join_names(choice_names(kRopePairings), "|") + "] | --alibi-slope M]\n"
    "       --out DIR                             writes scores.npy, weights.npy, output.npy\n";

}  // namespace

ATTNLAB_CLI_COMMAND(example, "example", "  example                                   the tutorial's 2-token worked example (JSON)\n",
                    "  The tutorial's worked example: two tokens, d_k = 2, computed step by step. Prints one JSON\n"
                    "  line: rawScores (q k^T), scale (1/sqrt(d_k)), scores, weights (row softmax) and output.\n"
                    "  Takes no options.\n", run_example);
ATTNLAB_CLI_COMMAND(random, "random", "  random --seed S --rows R --cols C          N(0,1) matrix from the project's generator (JSON)\n",
                    "  Draws a rows x cols matrix of N(0, 1) numbers from the project's generator (the same numbers\n"
                    "  the page and the math module draw for that seed) and prints it as one JSON line.\n"
                    "  --seed S     0 to 2^53 - 1        --rows R, --cols C   1 to 4096        all three required\n", run_random);
ATTNLAB_CLI_COMMAND(sdpa, "sdpa", sdpa_usage.c_str(),
                    "  Scaled dot-product attention with the semantics of PyTorch's F.scaled_dot_product_attention.\n"
                    "  Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v); leading dimensions are a batch.\n"
                    "  --mask M.npy   bool (True = may attend) or float (added); leading dimensions absent or 1 broadcast\n"
                    "  --causal       query i sees keys j <= i (top-left aligned)\n"
                    "  --scale S      instead of the default 1/sqrt(d_k)\n"
                    "  --score        the score function before scaling (default dot; cosine on L2-normalised q and k)\n"
                    "  --rope BASE    rotary positions inside attention (pairing: half by default); --alibi-slope M: ALiBi\n"
                    "  Writes DIR/scores.npy (after scale and mask, masked = -inf), DIR/weights.npy, DIR/output.npy.\n", run_sdpa);
ATTNLAB_CLI_COMMAND(mha, "mha",
                    "  mha --query X.npy [--key K.npy --value V.npy] --heads H --in-proj-weight W.npy\n"
                    "      [--in-proj-bias b.npy] --out-proj-weight Wo.npy [--out-proj-bias bo.npy]\n"
                    "      [--key-padding-mask P.npy] [--attn-mask M.npy] [--causal] --out DIR\n"
                    "                                            writes output.npy, weights.npy (batch, H, n_q, n_k)\n",
                    "  Multi-head attention, exactly nn.MultiheadAttention(E, H, batch_first=True) with need_weights\n"
                    "  and per-head weights. X is (batch, n_q, E) or unbatched (n_q, E); --key/--value (together) make\n"
                    "  it cross-attention. Weights as PyTorch stores them: in_proj_weight (3E, E), out_proj.weight (E, E).\n"
                    "  --key-padding-mask P   (batch, n_k), True = ignore that key\n"
                    "  --attn-mask M          (n_q, n_k) or (batch*H, n_q, n_k); bool True = not allowed, float = added\n"
                    "  --causal               adds a causal mask\n"
                    "  Writes DIR/output.npy and DIR/weights.npy (batch, H, n_q, n_k), not averaged over heads.\n",
                    run_mha);
ATTNLAB_CLI_COMMAND(softmax, "softmax",
                    "  softmax --in S.npy [--naive] [--half] --out DIR\n"
                    "                                            row-wise softmax of the last axis; writes weights.npy\n",
                    "  A softmax over the last axis of S, row by row: stable (max subtracted) by default, --naive\n"
                    "  without the max, --half in simulated float16 (every operation rounded). Infinities and NaN in\n"
                    "  S are allowed: showing what they do is the point. Writes DIR/weights.npy and prints\n"
                    "  {\"overflow\", \"nan\", \"fullyMasked\"} as one JSON line.\n",
                    run_softmax);

}  // namespace attn::cli
