// Reading attention from .npy, .npz and JSON bytes (see import_attention.h for the formats
// and the caps): the format picked from the first bytes, and the parts every format's reader
// finds (import_parts.h) checked and assembled by one function, so the rules are written
// once. The entry points run an ImportJob (import_job.h) to the end at once.
//
// Sections:
//   1 Assembling the parts (shapes, batch, tokens, dtypes)
//   2 Decoding one head
//   3 Format sniffing
//   4 The entry points
#include "core/io/import_attention.h"

#include "core/base/utf8.h"
#include "core/io/half_float.h"
#include "core/io/import_job.h"
#include "core/io/import_parts.h"
#include "core/io/io_messages.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace attn {

// ---- 1 Assembling the parts ------------------------------------------------------------
namespace import_detail {
namespace {

// A whole .npy file's array goes by "the array" (read_npy_parts), which its messages say
// in their own words rather than as a quoted name.
bool is_whole_file(const std::string& name) { return name == kWholeFileArray; }

// Keeps batch entry `b` of an array whose first axis is the batch.
void pick_batch(ArrayPart& a, int b) {
  const std::size_t block = a.span.size / static_cast<std::size_t>(a.meta.shape[0]);
  a.span.offset += block * static_cast<std::size_t>(b);
  a.span.size = block;
  a.meta.shape.erase(a.meta.shape.begin());
}

// The dtype only: the values are checked as the job moves them (import_job.cpp).
Status check_float_dtype(const NpyArray& a, const std::string& name, bool bf16) {
  switch (a.dtype) {
    case NpyDtype::Float32:
    case NpyDtype::Float16:
    case NpyDtype::Float64: return Status::success();
    case NpyDtype::UInt16:
      if (bf16) return Status::success();
      if (is_whole_file(name)) return Status::error(msg::io_import_array_uint16);
      return Status::error(msg::io_import_uint16, name);
    default:
      if (is_whole_file(name)) return Status::error(msg::io_import_array_bad_dtype, npy_descr(a.dtype));
      return Status::error(msg::io_import_bad_dtype, name, npy_descr(a.dtype));
  }
}

// Picks the batch entry from tokens given as (n,) or (B, n).
Status pick_tokens(const std::vector<std::int64_t>& shape, const std::vector<std::string>& all, int batch_index,
                   const std::string& name, std::vector<std::string>& out) {
  if (shape.size() == 1) {
    out = all;
  } else if (shape.size() == 2) {
    if (batch_index >= shape[0])
      return Status::error(msg::io_import_token_batch_missing, name, shape[0], batch_index);
    out.assign(all.begin() + batch_index * shape[1], all.begin() + (batch_index + 1) * shape[1]);
  } else {
    return Status::error(msg::io_import_token_rank, name, npy_shape_string(shape));
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i].size() > kImportMaxTokenLabelBytes)
      return Status::error(msg::io_import_token_label_long, name, i, out[i].size(), kImportMaxTokenLabelBytes);
  for (std::string& t : out) t = repair_utf8(t);
  return Status::success();
}

// What Q, K or V is measured against: the weights' shape (L, H, n, d) or (B, L, H, n, d), or,
// in a file without weights, q's shape (any of (n, d) ... (B, L, H, n, d)), `rank` axes.
struct ProjectionRule {
  bool like_q = false;
  std::size_t rank = 4;
  bool batched = false;
};

// "(L, H, n, d)" with L, H and n as numbers, the last of those axes that the rule's shape has
// after its batch axis: "(n, d)" for q given as (n, d).
std::string projection_shape_text(const ProjectionRule& rule, const ImportedAttention& r, int n) {
  const std::string axes[4] = {std::to_string(r.layers), std::to_string(r.heads), std::to_string(n), "d"};
  std::string text;
  for (std::size_t a = 4 - (rule.rank - (rule.batched ? 1 : 0)); a < 4; ++a) text += (text.empty() ? "(" : ", ") + axes[a];
  return text + ")";
}

// Q, K or V after picking the batch as the rule's array did; its shape then gains the missing
// leading axes of (L, H, n, d).
Status check_projection(ArrayPart& part, const char* name, const ProjectionRule& rule, const ImportedAttention& r, int n,
                        bool bf16, int& d) {
  std::vector<std::int64_t>& shape = part.meta.shape;
  if (shape.size() != rule.rank) {
    if (rule.like_q) return Status::error(msg::io_import_projection_rank_q, name, rule.rank, npy_shape_string(shape));
    return Status::error(msg::io_import_projection_rank, name, rule.batched ? "(B, L, H, n, d)" : "(L, H, n, d)",
                         npy_shape_string(shape));
  }
  if (rule.batched) {
    if (shape[0] != r.batch)
      return rule.like_q ? Status::error(msg::io_import_projection_batch_q, name, shape[0], r.batch)
                         : Status::error(msg::io_import_projection_batch, name, shape[0], r.batch);
    pick_batch(part, r.batch_index);
  }
  const std::vector<std::int64_t> given = shape;
  while (shape.size() < 4) shape.insert(shape.begin(), 1);
  if (shape[0] != r.layers || shape[1] != r.heads || shape[2] != n) {
    const std::string want = projection_shape_text(rule, r, n);
    return rule.like_q ? Status::error(msg::io_import_projection_shape_q, name, want, npy_shape_string(given))
                       : Status::error(msg::io_import_projection_shape, name, want, npy_shape_string(given));
  }
  if (shape[3] < 1 || shape[3] > kImportMaxHeadDim)
    return Status::error(msg::io_import_projection_width, name, shape[3], kImportMaxHeadDim);
  d = static_cast<int>(shape[3]);
  return check_float_dtype(part.meta, name, bf16);
}

// Keeps batch entry options.batch_index of `shape` (5 axes) in r, or refuses the index.
Status pick_batch_index(const std::vector<std::int64_t>& shape, const ImportOptions& options, ImportedAttention& r) {
  r.batch = static_cast<int>(std::min<std::int64_t>(shape[0], std::numeric_limits<int>::max()));
  if (options.batch_index < 0 || options.batch_index >= shape[0])
    return Status::error(msg::io_import_batch_out_of_range, options.batch_index, shape[0], shape[0] - 1);
  r.batch_index = options.batch_index;
  return Status::success();
}

// Tokens: one list for self-attention, or one per side, or the indices as labels.
Status assemble_tokens(const Parts& p, ImportedAttention& r) {
  if (p.has_tokens && (p.has_query_tokens || p.has_key_tokens))
    return Status::error(msg::io_import_tokens_both);
  if (p.has_query_tokens != p.has_key_tokens) return Status::error(msg::io_import_tokens_pair);
  if (p.has_tokens) {
    if (Status s = pick_tokens(p.tokens_shape, p.tokens, r.batch_index, "tokens", r.query_tokens); !s.ok) return s;
    if (r.n_q != r.n_k)
      return Status::error(msg::io_import_tokens_cross, r.n_q, r.n_k);
    r.key_tokens = r.query_tokens;
    r.tokens_given = true;
  } else if (p.has_query_tokens) {
    if (Status s = pick_tokens(p.query_tokens_shape, p.query_tokens, r.batch_index, "query_tokens", r.query_tokens); !s.ok) return s;
    if (Status s = pick_tokens(p.key_tokens_shape, p.key_tokens, r.batch_index, "key_tokens", r.key_tokens); !s.ok) return s;
    r.tokens_given = true;
  } else {
    for (int i = 0; i < r.n_q; ++i) r.query_tokens.push_back(std::to_string(i));
    for (int j = 0; j < r.n_k; ++j) r.key_tokens.push_back(std::to_string(j));
  }
  if (static_cast<int>(r.query_tokens.size()) != r.n_q)
    return Status::error(msg::io_import_query_token_count, r.query_tokens.size(), r.n_q);
  if (static_cast<int>(r.key_tokens.size()) != r.n_k)
    return Status::error(msg::io_import_key_token_count, r.key_tokens.size(), r.n_k);
  return Status::success();
}

// A file of q and k (v optional) without weights, for the overview: q's shape, any of (n, d),
// (H, n, d), (L, H, n, d) and (B, L, H, n, d), sets the layers, heads and the batch; k and v
// follow it. Up to kImportMaxOverviewTokens per side.
Status assemble_without_weights(Parts& p, const ImportOptions& options, bool bf16, ImportedAttention& r,
                                std::vector<Fill>& f) {
  const std::vector<std::int64_t> shape = p.q.meta.shape;
  if (shape.size() < 2 || shape.size() > 5) return Status::error(msg::io_import_q_rank, npy_shape_string(shape));
  for (const auto& [name, part] : {std::pair<const char*, const ArrayPart*>{"q", &p.q}, {"k", &p.k}, {"v", &p.v}})
    for (std::int64_t d : part->meta.shape)
      if (d == 0) return Status::error(msg::io_import_weights_empty, name, npy_shape_string(part->meta.shape));
  ProjectionRule rule{true, shape.size(), shape.size() == 5};
  if (rule.batched) {
    if (Status s = pick_batch_index(shape, options, r); !s.ok) return s;
  } else if (options.batch_index != 0) {
    return Status::error(msg::io_import_no_batch_axis_q, options.batch_index);
  }
  std::vector<std::int64_t> s4(shape.begin() + rule.batched, shape.end());
  while (s4.size() < 4) s4.insert(s4.begin(), 1);
  const std::vector<std::int64_t>& ks = p.k.meta.shape;
  const std::int64_t L = s4[0], H = s4[1], nq = s4[2], nk = ks.size() == shape.size() ? ks[ks.size() - 2] : nq;
  if (L > kImportMaxLayers) return Status::error(msg::io_import_too_many_layers, L, kImportMaxLayers);
  if (H > kImportMaxHeads) return Status::error(msg::io_import_too_many_heads, H, kImportMaxHeads);
  if (nq > kImportMaxOverviewTokens || nk > kImportMaxOverviewTokens)
    return Status::error(msg::io_import_too_many_overview_tokens, nq, nk, kImportMaxOverviewTokens);
  r.layers = static_cast<int>(L);
  r.heads = static_cast<int>(H);
  r.n_q = static_cast<int>(nq);
  r.n_k = static_cast<int>(nk);
  int dq = 0, dk = 0, dv = 0;
  if (Status s = check_projection(p.q, "q", rule, r, r.n_q, bf16, dq); !s.ok) return s;
  if (Status s = check_projection(p.k, "k", rule, r, r.n_k, bf16, dk); !s.ok) return s;
  if (dq != dk) return Status::error(msg::io_import_qk_width, dq, dk);
  if (p.has_v)
    if (Status s = check_projection(p.v, "v", rule, r, r.n_k, bf16, dv); !s.ok) return s;
  const std::int64_t elements = L * H * (nq * dq + nk * dk + nk * dv);
  if (elements > kImportMaxElements)
    return Status::error(msg::io_import_too_many_qkv_elements, elements, kImportMaxElements);
  if (Status s = assemble_tokens(p, r); !s.ok) return s;
  r.has_weights = false;
  r.has_qk = true;
  r.has_qkv = p.has_v;
  r.d_k = dk;
  r.d_v = dv;
  r.q = p.q.meta;
  r.k = p.k.meta;
  f.push_back({1, p.q.span, "q"});
  f.push_back({2, p.k.span, "k"});
  if (p.has_v) {
    r.v = p.v.meta;
    f.push_back({3, p.v.span, "v"});
  }
  return Status::success();
}

}  // namespace

Status assemble(Parts& p, const ImportOptions& options, ImportFormat format, ImportedAttention& out,
                std::vector<Fill>& fills) {
  const bool bf16 = p.bfloat16 || options.uint16_is_bfloat16;
  ImportedAttention r;
  r.format = format;
  r.bfloat16 = bf16;
  if (!p.has_weights) {
    if (!p.has_q || !p.has_k) return Status::error(msg::io_import_no_weights);
    std::vector<Fill> f;
    if (Status s = assemble_without_weights(p, options, bf16, r, f); !s.ok) return s;
    out = std::move(r);
    fills = std::move(f);
    return Status::success();
  }
  ArrayPart w = p.weights;
  const std::string& wn = p.weights_name;
  const std::vector<std::int64_t> shape = w.meta.shape;
  if (shape.size() < 2 || shape.size() > 5)
    return is_whole_file(wn) ? Status::error(msg::io_import_array_rank, npy_shape_string(shape))
                             : Status::error(msg::io_import_weights_rank, wn, npy_shape_string(shape));
  for (std::int64_t d : shape)
    if (d == 0)
      return is_whole_file(wn) ? Status::error(msg::io_import_array_empty, npy_shape_string(shape))
                               : Status::error(msg::io_import_weights_empty, wn, npy_shape_string(shape));
  // 1 the batch: kept entry of a 5-d array.
  const bool batched = shape.size() == 5;
  if (batched) {
    if (Status s = pick_batch_index(shape, options, r); !s.ok) return s;
    pick_batch(w, r.batch_index);
  } else if (options.batch_index != 0) {
    return Status::error(msg::io_import_no_batch_axis, options.batch_index);
  }
  // 2 (n_q, n_k) and (H, n_q, n_k) gain the missing leading axes.
  std::vector<std::int64_t>& ws = w.meta.shape;
  while (ws.size() < 4) ws.insert(ws.begin(), 1);
  const std::int64_t L = ws[0], H = ws[1], nq = ws[2], nk = ws[3];
  if (L > kImportMaxLayers) return Status::error(msg::io_import_too_many_layers, L, kImportMaxLayers);
  if (H > kImportMaxHeads) return Status::error(msg::io_import_too_many_heads, H, kImportMaxHeads);
  if (nq > kImportMaxTokens || nk > kImportMaxTokens)
    return Status::error(msg::io_import_too_many_tokens, nq, nk, kImportMaxTokens);
  if (L * H * nq * nk > kImportMaxElements)
    return Status::error(msg::io_import_too_many_elements, L * H * nq * nk, kImportMaxElements);
  if (Status s = check_float_dtype(w.meta, wn, bf16); !s.ok) return s;
  r.layers = static_cast<int>(L);
  r.heads = static_cast<int>(H);
  r.n_q = static_cast<int>(nq);
  r.n_k = static_cast<int>(nk);
  r.weights = w.meta;

  // 3 tokens: one list for self-attention, or one per side.
  if (Status s = assemble_tokens(p, r); !s.ok) return s;

  // 4 Q, K, V: all three or none.
  std::vector<Fill> f;
  const int given = p.has_q + p.has_k + p.has_v;
  if (given != 0 && given != 3) return Status::error(msg::io_import_qkv_partial);
  if (given == 3) {
    int dq = 0, dk = 0, dv = 0;
    const ProjectionRule rule{false, batched ? std::size_t{5} : std::size_t{4}, batched};
    if (Status s = check_projection(p.q, "q", rule, r, r.n_q, bf16, dq); !s.ok) return s;
    if (Status s = check_projection(p.k, "k", rule, r, r.n_k, bf16, dk); !s.ok) return s;
    if (Status s = check_projection(p.v, "v", rule, r, r.n_k, bf16, dv); !s.ok) return s;
    if (dq != dk) return Status::error(msg::io_import_qk_width, dq, dk);
    r.has_qkv = true;
    r.has_qk = true;
    r.d_k = dk;
    r.d_v = dv;
    r.q = p.q.meta;
    r.k = p.k.meta;
    r.v = p.v.meta;
    f.push_back({1, p.q.span, "q"});
    f.push_back({2, p.k.span, "k"});
    f.push_back({3, p.v.span, "v"});
  }
  f.push_back({0, w.span, wn});
  out = std::move(r);
  fills = std::move(f);
  return Status::success();
}

}  // namespace import_detail

// ---- 2 Decoding one head -----------------------------------------------------------------

Mat ImportedAttention::head_weights(int layer, int head) const {
  return has_weights ? decode_head_block(weights, bfloat16, layer, head) : Mat();
}
Mat ImportedAttention::head_q(int layer, int head) const {
  return has_qk || has_qkv ? decode_head_block(q, bfloat16, layer, head) : Mat();
}
Mat ImportedAttention::head_k(int layer, int head) const {
  return has_qk || has_qkv ? decode_head_block(k, bfloat16, layer, head) : Mat();
}
Mat ImportedAttention::head_v(int layer, int head) const {
  return has_qkv ? decode_head_block(v, bfloat16, layer, head) : Mat();
}

// ---- 3 Format sniffing -------------------------------------------------------------------

std::optional<ImportFormat> sniff_import_format(const std::uint8_t* bytes, std::size_t size) {
  if (size >= 4 && bytes[0] == 'P' && bytes[1] == 'K' && ((bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6)))
    return ImportFormat::Npz;
  if (size >= 6 && std::memcmp(bytes, "\x93NUMPY", 6) == 0) return ImportFormat::Npy;
  std::size_t i = size >= 3 && std::memcmp(bytes, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  while (i < size && (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t')) ++i;
  if (i < size && bytes[i] == '{') return ImportFormat::Json;
  return std::nullopt;
}

const char* import_format_name(ImportFormat format) {
  switch (format) {
    case ImportFormat::Npy: return "npy";
    case ImportFormat::Npz: return "npz";
    case ImportFormat::Json: return "json";
  }
  return "npy";
}

// ---- 4 The entry points --------------------------------------------------------------------
namespace {

// One job run to the end at once, on the caller's bytes.
Status run_job(ImportJob& job, Status begun, ImportedAttention& out) {
  if (!begun.ok) return begun;
  while (job.active())
    if (Status s = job.step(std::numeric_limits<std::size_t>::max()); !s.ok) return s;
  out = job.take();
  return Status::success();
}

}  // namespace

Status import_npy(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, ImportedAttention& out) {
  ImportJob job;
  return run_job(job, job.start(ImportJob::Buffer{{}, bytes, size}, ImportFormat::Npy, options, InflateFn()), out);
}

Status import_npz(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, const InflateFn& inflate,
                  ImportedAttention& out) {
  ImportJob job;
  return run_job(job, job.start(ImportJob::Buffer{{}, bytes, size}, ImportFormat::Npz, options, inflate), out);
}

Status import_json(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, ImportedAttention& out) {
  ImportJob job;
  return run_job(job, job.start(ImportJob::Buffer{{}, bytes, size}, ImportFormat::Json, options, InflateFn()), out);
}

Status import_attention(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options,
                        const InflateFn& inflate, ImportedAttention& out) {
  ImportJob job;
  return run_job(job, job.begin(bytes, size, options, inflate), out);
}

}  // namespace attn
