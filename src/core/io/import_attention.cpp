// Reading attention from .npy, .npz and JSON bytes (see import_attention.h for the formats
// and the caps). Every reader turns its input into the same named parts (weights, tokens,
// Q/K/V), and one function checks and assembles them, so the rules are written once.
//
// Sections:
//   1 Little helpers (bytes, UTF-8, CRC-32)
//   2 Zip archives
//   3 Assembling the parts (shapes, batch, tokens, finiteness)
//   4 .npy and .npz
//   5 JSON (its parts, from the text core/io/json_reader.h parsed)
//   6 Decoding one head
//   7 Format sniffing
#include "core/io/import_attention.h"

#include "core/base/crc32.h"
#include "core/base/utf8.h"
#include "core/io/json_reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <string_view>

namespace attn {

// ---- 1 Little helpers -------------------------------------------------------------------
namespace {

std::uint16_t le16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
std::uint32_t le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
std::uint64_t le64(const std::uint8_t* p) {
  return static_cast<std::uint64_t>(le32(p)) | (static_cast<std::uint64_t>(le32(p + 4)) << 32);
}

std::string quoted_name(const std::string& name) { return "'" + name + "'"; }

std::string mib(std::int64_t bytes) { return std::to_string((bytes + (1 << 19)) >> 20) + " MiB"; }

}  // namespace

// ---- 2 Zip archives -----------------------------------------------------------------------
//   end of central directory  "PK\5\6": entries (u16 @10), directory size (u32 @12) and
//                             offset (u32 @16), comment length (u16 @20); ZIP64 archives put
//                             a locator "PK\6\7" in front of it pointing at "PK\6\6"
//   central directory entry   "PK\1\2": flags @8, method @10, crc @16, sizes @20 @24, name,
//                             extra, comment lengths @28 @30 @32, local header offset @42
//   local header              "PK\3\4": name and extra lengths @26 @28, then the data

Status list_zip_members(const std::uint8_t* bytes, std::size_t size, std::vector<ZipMember>& out) {
  constexpr std::size_t kEocd = 22;
  if (size < kEocd) return Status::error("not a zip archive: " + std::to_string(size) + " bytes is too short");
  // 1 the end record: the last "PK\5\6" whose comment reaches exactly to the end.
  std::size_t eocd = std::string::npos;
  const std::size_t lowest = size > kEocd + 65535 ? size - kEocd - 65535 : 0;
  for (std::size_t p = size - kEocd + 1; p-- > lowest;) {
    if (le32(bytes + p) == 0x06054b50 && p + kEocd + le16(bytes + p + 20) == size) {
      eocd = p;
      break;
    }
  }
  if (eocd == std::string::npos) return Status::error("not a zip archive: no end-of-central-directory record");
  std::uint64_t entries = le16(bytes + eocd + 10), dir_size = le32(bytes + eocd + 12), dir_offset = le32(bytes + eocd + 16);
  if (entries == 0xFFFF || dir_size == 0xFFFFFFFFu || dir_offset == 0xFFFFFFFFu) {
    if (eocd < 20 || le32(bytes + eocd - 20) != 0x07064b50)
      return Status::error("zip archive: ZIP64 fields without a ZIP64 locator");
    const std::uint64_t z = le64(bytes + eocd - 20 + 8);
    if (z > size || size - z < 56 || le32(bytes + z) != 0x06064b50)
      return Status::error("zip archive: the ZIP64 end record lies outside the file");
    entries = le64(bytes + z + 32);
    dir_size = le64(bytes + z + 40);
    dir_offset = le64(bytes + z + 48);
  }
  if (dir_offset > size || dir_size > size - dir_offset)
    return Status::error("zip archive: the central directory lies outside the file");
  if (entries > 64) return Status::error("zip archive has " + std::to_string(entries) + " members, more than 64");

  // 2 the directory entries, each leading to a local header and the data after it.
  std::vector<ZipMember> members;
  std::uint64_t p = dir_offset;
  const std::uint64_t dir_end = dir_offset + dir_size;
  for (std::uint64_t e = 0; e < entries; ++e) {
    if (dir_end - p < 46 || le32(bytes + p) != 0x02014b50)
      return Status::error("zip archive: central directory entry " + std::to_string(e) + " is damaged");
    const std::uint8_t* c = bytes + p;
    const std::uint16_t flags = le16(c + 8);
    ZipMember m;
    m.method = le16(c + 10);
    m.crc32 = le32(c + 16);
    m.compressed_size = le32(c + 20);
    m.uncompressed_size = le32(c + 24);
    const std::uint64_t name_len = le16(c + 28), extra_len = le16(c + 30), comment_len = le16(c + 32);
    std::uint64_t local = le32(c + 42);
    if (dir_end - p - 46 < name_len + extra_len + comment_len)
      return Status::error("zip archive: central directory entry " + std::to_string(e) + " runs past the directory");
    m.name.assign(reinterpret_cast<const char*>(c + 46), name_len);
    m.name = repair_utf8(m.name);
    // ZIP64 extra field (id 1): the 64-bit values of the fields that read 0xFFFFFFFF, in order.
    const std::uint8_t* x = c + 46 + name_len;
    for (std::uint64_t q = 0; q + 4 <= extra_len;) {
      const std::uint16_t id = le16(x + q), len = le16(x + q + 2);
      if (q + 4 + len > extra_len) return Status::error("zip archive: damaged extra field in member " + quoted_name(m.name));
      if (id == 1) {
        std::uint64_t r = q + 4;
        auto take = [&](std::uint64_t& field) {
          if (field != 0xFFFFFFFFu) return true;
          if (r + 8 > q + 4 + len) return false;
          field = le64(x + r);
          r += 8;
          return true;
        };
        if (!take(m.uncompressed_size) || !take(m.compressed_size) || !take(local))
          return Status::error("zip archive: short ZIP64 field in member " + quoted_name(m.name));
      }
      q += 4 + len;
    }
    p += 46 + name_len + extra_len + comment_len;
    if (flags & 1) return Status::error("zip member " + quoted_name(m.name) + " is encrypted");
    if (local > size || size - local < 30 || le32(bytes + local) != 0x04034b50)
      return Status::error("zip member " + quoted_name(m.name) + ": local header missing or outside the file");
    m.data_offset = local + 30 + le16(bytes + local + 26) + le16(bytes + local + 28);
    if (m.data_offset > size || m.compressed_size > size - m.data_offset)
      return Status::error("zip member " + quoted_name(m.name) + " is truncated: its data runs past the end of the file");
    for (const ZipMember& other : members)
      if (other.name == m.name) return Status::error("zip archive has two members named " + quoted_name(m.name));
    members.push_back(std::move(m));
  }
  out = std::move(members);
  return Status::success();
}

InflateFn preinflated_members(const std::vector<std::uint64_t>* offsets,
                              std::vector<std::vector<std::uint8_t>>* inflated, const std::uint8_t* archive) {
  return [offsets, inflated, archive](const std::uint8_t* data, std::size_t, std::size_t expected,
                                      std::vector<std::uint8_t>& out) {
    const std::uint64_t offset = static_cast<std::uint64_t>(data - archive);
    for (std::size_t i = 0; i < offsets->size() && i < inflated->size(); ++i) {
      if ((*offsets)[i] != offset) continue;
      if ((*inflated)[i].size() != expected)
        return Status::error("inflated to " + std::to_string((*inflated)[i].size()) + " bytes, the archive says " +
                             std::to_string(expected));
      out = std::move((*inflated)[i]);
      return Status::success();
    }
    return Status::error("this compressed member was not inflated beforehand");
  };
}

// ---- 3 Assembling the parts ------------------------------------------------------------
// Readers do not copy array data: they give each array's dtype and shape and where its
// bytes lie, and the job (section 7) moves and checks the data in pieces afterwards.
// What the readers find, in a namespace of its own (ImportJob::plan takes it).
namespace import_detail {

// Bytes [offset, offset + size) of the file (buffer -1) or of Parts::buffers[buffer] (an
// inflated member, or numbers read from JSON).
struct Span {
  int buffer = -1;
  std::size_t offset = 0, size = 0;
};

struct ArrayPart {
  NpyArray meta;  // dtype and shape; no data
  Span span;      // its data: size() * itemsize bytes
};

// An archive member whose CRC-32 is checked before its data is used.
struct CrcCheck {
  Span span;
  std::uint32_t expected = 0;
  std::string where;  // ".npz member 'x': "
};

// What a reader found, before the checks.
struct Parts {
  bool has_weights = false;
  ArrayPart weights;
  std::string weights_name = "attentions";
  bool has_tokens = false, has_query_tokens = false, has_key_tokens = false;
  std::vector<std::int64_t> tokens_shape, query_tokens_shape, key_tokens_shape;
  std::vector<std::string> tokens, query_tokens, key_tokens;
  bool has_q = false, has_k = false, has_v = false;
  ArrayPart q, k, v;
  bool bfloat16 = false;
  std::vector<std::vector<std::uint8_t>> buffers;
  std::vector<CrcCheck> crcs;
};

}  // namespace import_detail

using import_detail::ArrayPart;
using import_detail::CrcCheck;
using import_detail::Parts;
using import_detail::Span;

namespace {

// An array's data to move into place (0 weights, 1 q, 2 k, 3 v), checked for NaN and Inf.
struct Fill {
  int target = 0;
  Span span;
  std::string name;
};

bool is_weights_name(const std::string& n) {
  return n == "attentions" || n == "attention" || n == "attn" || n == "weights";
}

// Keeps batch entry `b` of an array whose first axis is the batch.
void pick_batch(ArrayPart& a, int b) {
  const std::size_t block = a.span.size / static_cast<std::size_t>(a.meta.shape[0]);
  a.span.offset += block * static_cast<std::size_t>(b);
  a.span.size = block;
  a.meta.shape.erase(a.meta.shape.begin());
}

// Index of the first NaN or Inf among `count` elements at `p`, or -1: every exponent bit
// set. uint16 is checked as bfloat16 when `bf16` (otherwise it holds integers). Blocks are
// scanned without a branch per element; only a block with a hit is searched again.
template <typename Load>
std::int64_t first_all_ones(const std::uint8_t* p, std::size_t count, std::size_t width, std::uint64_t mask, Load load) {
  constexpr std::size_t kBlock = 256;
  for (std::size_t start = 0; start < count; start += kBlock) {
    const std::size_t end = std::min(count, start + kBlock);
    bool hit = false;
    for (std::size_t i = start; i < end; ++i) hit |= (load(p + width * i) & mask) == mask;
    if (!hit) continue;
    for (std::size_t i = start; i < end; ++i)
      if ((load(p + width * i) & mask) == mask) return static_cast<std::int64_t>(i);
  }
  return -1;
}

std::int64_t first_non_finite(const std::uint8_t* p, std::size_t bytes, NpyDtype dtype, bool bf16) {
  auto l16 = [](const std::uint8_t* q) -> std::uint64_t { return le16(q); };
  auto l32 = [](const std::uint8_t* q) -> std::uint64_t { return le32(q); };
  switch (dtype) {
    case NpyDtype::Float32: return first_all_ones(p, bytes / 4, 4, 0x7F800000u, l32);
    case NpyDtype::Float16: return first_all_ones(p, bytes / 2, 2, 0x7C00u, l16);
    case NpyDtype::Float64: return first_all_ones(p, bytes / 8, 8, 0x7FF0000000000000ull, le64);
    case NpyDtype::UInt16: return bf16 ? first_all_ones(p, bytes / 2, 2, 0x7F80u, l16) : -1;
    default: return -1;
  }
}

// The dtype only: the values are checked as the job moves them (first_non_finite).
Status check_float_dtype(const NpyArray& a, const std::string& name, bool bf16) {
  switch (a.dtype) {
    case NpyDtype::Float32:
    case NpyDtype::Float16:
    case NpyDtype::Float64: return Status::success();
    case NpyDtype::UInt16:
      if (bf16) return Status::success();
      return Status::error("'" + name + "' has dtype uint16: if it holds bfloat16 values, turn on the bfloat16 flag "
                           "(or add a 0-d bool member 'bfloat16' to the archive)");
    default:
      return Status::error("'" + name + "' has dtype " + npy_descr(a.dtype) +
                           "; attention must be float32, float16, float64 or bfloat16 (as uint16)");
  }
}

// Picks the batch entry from tokens given as (n,) or (B, n).
Status pick_tokens(const std::vector<std::int64_t>& shape, const std::vector<std::string>& all, int batch_index,
                   const std::string& name, std::vector<std::string>& out) {
  if (shape.size() == 1) {
    out = all;
  } else if (shape.size() == 2) {
    if (batch_index >= shape[0])
      return Status::error("'" + name + "' has " + std::to_string(shape[0]) + " rows (batch entries); batch " +
                           std::to_string(batch_index) + " does not exist");
    out.assign(all.begin() + batch_index * shape[1], all.begin() + (batch_index + 1) * shape[1]);
  } else {
    return Status::error("'" + name + "' must be 1-d (n,) or 2-d (batch, n), found shape " + npy_shape_string(shape));
  }
  for (std::string& t : out) t = repair_utf8(t);
  return Status::success();
}

// Q, K or V: (L, H, n, d) or (B, L, H, n, d) after picking the batch like the weights.
Status check_projection(ArrayPart& part, const char* name, bool batched, const ImportedAttention& r, int n, bool bf16,
                        int& d) {
  const std::vector<std::int64_t>& shape = part.meta.shape;
  const std::size_t dims = batched ? 5 : 4;
  if (shape.size() != dims)
    return Status::error(std::string("'") + name + "' must have shape " + (batched ? "(B, L, H, n, d)" : "(L, H, n, d)") +
                         " like the weights, found " + npy_shape_string(shape));
  if (batched) {
    if (shape[0] != r.batch)
      return Status::error(std::string("'") + name + "' has batch " + std::to_string(shape[0]) + ", the weights " +
                           std::to_string(r.batch));
    pick_batch(part, r.batch_index);
  }
  const std::string want = "(" + std::to_string(r.layers) + ", " + std::to_string(r.heads) + ", " + std::to_string(n) + ", d)";
  if (shape[0] != r.layers || shape[1] != r.heads || shape[2] != n)
    return Status::error(std::string("'") + name + "' must have shape " + want + " to match the weights, found " +
                         npy_shape_string(shape));
  if (shape[3] < 1 || shape[3] > kImportMaxHeadDim)
    return Status::error(std::string("'") + name + "' has width " + std::to_string(shape[3]) + "; 1 to " +
                         std::to_string(kImportMaxHeadDim) + " is allowed");
  d = static_cast<int>(shape[3]);
  return check_float_dtype(part.meta, name, bf16);
}

// Checks what was found and gives the result without its array data, and the fills that
// bring the data (Q, K, V first, the weights last).
Status assemble(Parts& p, const ImportOptions& options, ImportFormat format, ImportedAttention& out,
                std::vector<Fill>& fills) {
  if (!p.has_weights)
    return Status::error("no attention weights found: name the array 'attentions' (or 'attention', 'attn', 'weights')");
  const bool bf16 = p.bfloat16 || options.uint16_is_bfloat16;
  ImportedAttention r;
  r.format = format;
  r.bfloat16 = bf16;
  ArrayPart w = p.weights;
  const std::string& wn = p.weights_name;
  const std::vector<std::int64_t> shape = w.meta.shape;
  if (shape.size() < 2 || shape.size() > 5)
    return Status::error("'" + wn + "' must have 2 to 5 dimensions ((n_q, n_k) ... (batch, layers, heads, n_q, n_k)), found shape " +
                         npy_shape_string(shape));
  for (std::int64_t d : shape)
    if (d == 0) return Status::error("'" + wn + "' is empty: shape " + npy_shape_string(shape));
  // 1 the batch: kept entry of a 5-d array.
  const bool batched = shape.size() == 5;
  if (batched) {
    r.batch = static_cast<int>(std::min<std::int64_t>(shape[0], std::numeric_limits<int>::max()));
    if (options.batch_index < 0 || options.batch_index >= shape[0])
      return Status::error("batch " + std::to_string(options.batch_index) + " does not exist: the file has " +
                           std::to_string(shape[0]) + " (batch index 0 to " + std::to_string(shape[0] - 1) + ")");
    r.batch_index = options.batch_index;
    pick_batch(w, r.batch_index);
  } else if (options.batch_index != 0) {
    return Status::error("batch " + std::to_string(options.batch_index) + " does not exist: the weights have no batch axis");
  }
  // 2 (n_q, n_k) and (H, n_q, n_k) gain the missing leading axes.
  std::vector<std::int64_t>& ws = w.meta.shape;
  while (ws.size() < 4) ws.insert(ws.begin(), 1);
  const std::int64_t L = ws[0], H = ws[1], nq = ws[2], nk = ws[3];
  if (L > kImportMaxLayers) return Status::error(std::to_string(L) + " layers, more than the " + std::to_string(kImportMaxLayers) + " allowed");
  if (H > kImportMaxHeads) return Status::error(std::to_string(H) + " heads, more than the " + std::to_string(kImportMaxHeads) + " allowed");
  if (nq > kImportMaxTokens || nk > kImportMaxTokens)
    return Status::error(std::to_string(nq) + " x " + std::to_string(nk) + " tokens: at most " +
                         std::to_string(kImportMaxTokens) + " per side are shown");
  if (L * H * nq * nk > kImportMaxElements)
    return Status::error("the weights hold " + std::to_string(L * H * nq * nk) + " elements, more than the " +
                         std::to_string(kImportMaxElements) + " allowed");
  if (Status s = check_float_dtype(w.meta, wn, bf16); !s.ok) return s;
  r.layers = static_cast<int>(L);
  r.heads = static_cast<int>(H);
  r.n_q = static_cast<int>(nq);
  r.n_k = static_cast<int>(nk);
  r.weights = w.meta;

  // 3 tokens: one list for self-attention, or one per side.
  if (p.has_tokens && (p.has_query_tokens || p.has_key_tokens))
    return Status::error("give either 'tokens' or 'query_tokens' + 'key_tokens', not both");
  if (p.has_query_tokens != p.has_key_tokens)
    return Status::error("'query_tokens' and 'key_tokens' come together (for self-attention give 'tokens')");
  if (p.has_tokens) {
    if (Status s = pick_tokens(p.tokens_shape, p.tokens, r.batch_index, "tokens", r.query_tokens); !s.ok) return s;
    if (r.n_q != r.n_k)
      return Status::error("'tokens' is one list, but the weights are cross-attention (" + std::to_string(r.n_q) + " x " +
                           std::to_string(r.n_k) + "): give 'query_tokens' and 'key_tokens'");
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
    return Status::error(std::to_string(r.query_tokens.size()) + " query tokens for " + std::to_string(r.n_q) +
                         " query rows of the weights");
  if (static_cast<int>(r.key_tokens.size()) != r.n_k)
    return Status::error(std::to_string(r.key_tokens.size()) + " key tokens for " + std::to_string(r.n_k) +
                         " key columns of the weights");

  // 4 Q, K, V: all three or none.
  std::vector<Fill> f;
  const int given = p.has_q + p.has_k + p.has_v;
  if (given != 0 && given != 3) return Status::error("Q, K and V come together: the file has only some of 'q', 'k', 'v'");
  if (given == 3) {
    int dq = 0, dk = 0, dv = 0;
    if (Status s = check_projection(p.q, "q", batched, r, r.n_q, bf16, dq); !s.ok) return s;
    if (Status s = check_projection(p.k, "k", batched, r, r.n_k, bf16, dk); !s.ok) return s;
    if (Status s = check_projection(p.v, "v", batched, r, r.n_k, bf16, dv); !s.ok) return s;
    if (dq != dk) return Status::error("'q' has width " + std::to_string(dq) + " but 'k' has " + std::to_string(dk));
    r.has_qkv = true;
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

}  // namespace

// ---- 4 .npy and .npz ------------------------------------------------------------------------
namespace {

std::string member_key(const std::string& name) {
  const std::string suffix = ".npy";
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    return name.substr(0, name.size() - suffix.size());
  return name;
}

bool wanted_member(const std::string& key) {
  return is_weights_name(key) || key == "tokens" || key == "query_tokens" || key == "key_tokens" || key == "q" ||
         key == "k" || key == "v" || key == "bfloat16";
}

Status check_file_size(std::size_t size, const ImportOptions& options) {
  if (static_cast<std::int64_t>(size) <= options.max_file_bytes) return Status::success();
  return Status::error("the file is " + mib(static_cast<std::int64_t>(size)) + "; at most " + mib(options.max_file_bytes) +
                       " can be imported");
}

Status read_npy_parts(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, Parts& p) {
  if (Status s = check_file_size(size, options); !s.ok) return s;
  std::size_t start = 0;
  if (Status s = parse_npy_header(bytes, size, p.weights.meta, start); !s.ok) return Status::error(".npy: " + s.message);
  p.weights.span = {-1, start, size - start};
  p.has_weights = true;
  p.weights_name = "the array";
  return Status::success();
}

Status read_npz_parts(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, const InflateFn& inflate,
                      Parts& p) {
  if (Status s = check_file_size(size, options); !s.ok) return s;
  std::vector<ZipMember> members;
  if (Status s = list_zip_members(bytes, size, members); !s.ok) return Status::error(".npz: " + s.message);
  std::int64_t inflated_total = 0;
  for (const ZipMember& m : members) {
    const std::string key = member_key(m.name);
    if (!wanted_member(key)) continue;  // other arrays (input ids, logits, ...) are not ours
    const std::string where = ".npz member '" + key + "': ";
    // 1 the member's .npy bytes: stored as they are, or inflated (within the caps).
    Span span{-1, static_cast<std::size_t>(m.data_offset), static_cast<std::size_t>(m.compressed_size)};
    const std::uint8_t* data = bytes + m.data_offset;
    if (m.method == 8) {
      if (!inflate) return Status::error(where + "is compressed with deflate, and no inflater is available here");
      inflated_total += static_cast<std::int64_t>(std::min<std::uint64_t>(m.uncompressed_size, kImportMaxInflatedBytes + 1));
      if (inflated_total > kImportMaxInflatedBytes)
        return Status::error(".npz members inflate to more than " + mib(kImportMaxInflatedBytes) + ", the limit");
      std::vector<std::uint8_t> inflated;
      if (Status s = inflate(data, span.size, static_cast<std::size_t>(m.uncompressed_size), inflated); !s.ok)
        return Status::error(where + "cannot inflate: " + s.message);
      if (inflated.size() != m.uncompressed_size) return Status::error(where + "inflated to the wrong size");
      p.buffers.push_back(std::move(inflated));
      span = {static_cast<int>(p.buffers.size()) - 1, 0, p.buffers.back().size()};
      data = p.buffers.back().data();
    } else if (m.method == 0) {
      if (m.compressed_size != m.uncompressed_size) return Status::error(where + "stored member with two different sizes");
    } else {
      return Status::error(where + "compression method " + std::to_string(m.method) + " is not supported (stored or deflate only)");
    }
    const std::string crc_error = where + "CRC-32 mismatch: the archive is damaged";
    // 2 its meaning. Arrays: the header now, the data (and the CRC, which covers it) in steps.
    if (is_weights_name(key) || key == "q" || key == "k" || key == "v") {
      ArrayPart a;
      std::size_t start = 0;
      if (Status s = parse_npy_header(data, span.size, a.meta, start); !s.ok)
        return Status::error(crc32(data, span.size) != m.crc32 ? crc_error : where + s.message);
      p.crcs.push_back({span, m.crc32, where});
      a.span = {span.buffer, span.offset + start, span.size - start};
      if (is_weights_name(key)) {
        if (p.has_weights) return Status::error(".npz has two weight arrays ('" + p.weights_name + "' and '" + key + "')");
        p.has_weights = true;
        p.weights_name = key;
        p.weights = std::move(a);
      } else {
        (key == "q" ? p.q : key == "k" ? p.k : p.v) = std::move(a);
        (key == "q" ? p.has_q : key == "k" ? p.has_k : p.has_v) = true;
      }
      continue;
    }
    if (crc32(data, span.size) != m.crc32) return Status::error(crc_error);
    Status s;
    if (key == "tokens") {
      s = parse_npy_strings(data, span.size, p.tokens_shape, p.tokens);
      p.has_tokens = s.ok;
    } else if (key == "query_tokens") {
      s = parse_npy_strings(data, span.size, p.query_tokens_shape, p.query_tokens);
      p.has_query_tokens = s.ok;
    } else if (key == "key_tokens") {
      s = parse_npy_strings(data, span.size, p.key_tokens_shape, p.key_tokens);
      p.has_key_tokens = s.ok;
    } else {  // bfloat16
      NpyArray flag;
      s = parse_npy(data, span.size, flag);
      if (s.ok && (flag.dtype != NpyDtype::Bool || flag.size() != 1)) s = Status::error("must be a single bool");
      if (s.ok) p.bfloat16 = flag.data[0] != 0;
    }
    if (!s.ok) return Status::error(where + s.message);
  }
  return Status::success();
}

}  // namespace

// ---- 5 JSON --------------------------------------------------------------------------------
namespace {

// Nested arrays of numbers -> a float32 array of their (rectangular) shape.
Status json_tensor(const JsonValue& v, const std::string& name, NpyArray& out) {
  std::vector<std::int64_t> shape;
  const JsonValue* probe = &v;
  while (probe->kind == JsonValue::Array) {
    shape.push_back(static_cast<std::int64_t>(probe->items.size()));
    if (probe->items.empty()) break;
    probe = &probe->items[0];
  }
  if (probe->kind != JsonValue::Numbers && !(probe->kind == JsonValue::Array && probe->items.empty()))
    return Status::error("JSON: '" + name + "' must be nested arrays of numbers");
  if (probe->kind == JsonValue::Numbers) shape.push_back(static_cast<std::int64_t>(probe->numbers.size()));
  // Walk every path, checking each array has the length its depth requires; then copy the
  // rows straight into the array's bytes (one buffer, no float vector in between).
  std::vector<const JsonValue*> rows;
  std::vector<std::pair<const JsonValue*, std::size_t>> stack = {{&v, 0}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    const bool leaf = depth + 1 == shape.size();
    if (leaf ? node->kind != JsonValue::Numbers || static_cast<std::int64_t>(node->numbers.size()) != shape[depth]
             : node->kind != JsonValue::Array || static_cast<std::int64_t>(node->items.size()) != shape[depth])
      return Status::error("JSON: '" + name + "' is not rectangular (expected shape " + npy_shape_string(shape) + ")");
    if (leaf) {
      rows.push_back(node);
    } else {
      for (std::size_t i = node->items.size(); i-- > 0;) stack.push_back({&node->items[i], depth + 1});
    }
  }
  out = NpyArray();
  out.dtype = NpyDtype::Float32;
  out.shape = shape;
  std::size_t count = 0;
  for (const JsonValue* row : rows) count += row->numbers.size();
  out.data.resize(4 * count);
  std::uint8_t* dst = out.data.data();
  for (const JsonValue* row : rows)
    for (float f : row->numbers) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &f, 4);
      dst[0] = static_cast<std::uint8_t>(bits);
      dst[1] = static_cast<std::uint8_t>(bits >> 8);
      dst[2] = static_cast<std::uint8_t>(bits >> 16);
      dst[3] = static_cast<std::uint8_t>(bits >> 24);
      dst += 4;
    }
  return Status::success();
}

Status json_strings(const JsonValue& v, const std::string& name, std::vector<std::int64_t>& shape,
                    std::vector<std::string>& out) {
  auto is_list = [](const JsonValue& a) {
    if (a.kind == JsonValue::Numbers && a.numbers.empty()) return true;  // []
    if (a.kind != JsonValue::Array) return false;
    for (const JsonValue& s : a.items)
      if (s.kind != JsonValue::String) return false;
    return true;
  };
  if (is_list(v)) {
    shape = {static_cast<std::int64_t>(v.items.size())};
    for (const JsonValue& s : v.items) out.push_back(s.text);
    return Status::success();
  }
  if (v.kind == JsonValue::Array && !v.items.empty()) {
    shape = {static_cast<std::int64_t>(v.items.size()), 0};
    for (const JsonValue& row : v.items) {
      if (!is_list(row)) break;
      if (&row != &v.items[0] && static_cast<std::int64_t>(row.items.size()) != shape[1])
        return Status::error("JSON: the rows of '" + name + "' differ in length");
      shape[1] = static_cast<std::int64_t>(row.items.size());
      for (const JsonValue& s : row.items) out.push_back(s.text);
    }
    if (static_cast<std::int64_t>(out.size()) == shape[0] * shape[1]) return Status::success();
  }
  return Status::error("JSON: '" + name + "' must be a list of strings (or a list of such lists, one per batch entry)");
}

// Nested arrays of numbers become float32 arrays whose data the parts keep as buffers.
Status json_array(const JsonValue& v, const std::string& name, Parts& p, ArrayPart& out) {
  NpyArray a;
  if (Status s = json_tensor(v, name, a); !s.ok) return s;
  p.buffers.push_back(std::move(a.data));
  out.meta = std::move(a);
  out.meta.data.clear();
  out.span = {static_cast<int>(p.buffers.size()) - 1, 0, p.buffers.back().size()};
  return Status::success();
}

// The parts of a JSON file, from its parsed text.
Status json_parts(const JsonValue& root, Parts& p) {
  if (root.kind != JsonValue::Object) return Status::error("JSON: the file must hold one object");
  const JsonValue* format = root.member("format");
  if (!format || format->kind != JsonValue::String || format->text != "attnlab-attention")
    return Status::error("JSON: \"format\" must be \"attnlab-attention\"");
  const JsonValue* version = root.member("version");
  if (!version || version->kind != JsonValue::Number || version->number != 1)
    return Status::error("JSON: \"version\" must be 1");
  for (std::size_t member_index = 0; member_index < root.keys.size(); ++member_index) {
    const std::string& key = root.keys[member_index];
    const JsonValue& v = root.items[member_index];
    Status s;
    if (key == "format" || key == "version") continue;
    if (is_weights_name(key)) {
      if (p.has_weights) return Status::error("JSON has two weight arrays (\"" + p.weights_name + "\" and \"" + key + "\")");
      p.has_weights = true;
      p.weights_name = key;
      s = json_array(v, key, p, p.weights);
    } else if (key == "tokens") {
      p.has_tokens = true;
      s = json_strings(v, key, p.tokens_shape, p.tokens);
    } else if (key == "query_tokens") {
      p.has_query_tokens = true;
      s = json_strings(v, key, p.query_tokens_shape, p.query_tokens);
    } else if (key == "key_tokens") {
      p.has_key_tokens = true;
      s = json_strings(v, key, p.key_tokens_shape, p.key_tokens);
    } else if (key == "q" || key == "k" || key == "v") {
      (key == "q" ? p.has_q : key == "k" ? p.has_k : p.has_v) = true;
      s = json_array(v, key, p, key == "q" ? p.q : key == "k" ? p.k : p.v);
    } else {
      return Status::error("JSON: unknown key \"" + key +
                           "\" (known: format, version, attentions, tokens, query_tokens, key_tokens, q, k, v)");
    }
    if (!s.ok) return s;
  }
  return Status::success();
}

}  // namespace

// ---- 6 Decoding one head -----------------------------------------------------------------
namespace {

// Every half's float value, computed once: a layer of a large float16 file is decoded with
// one lookup per element instead of half_to_float's branches.
const float* half_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (std::uint32_t h = 0; h < 65536; ++h) t[h] = half_to_float(static_cast<std::uint16_t>(h));
    return t;
  }();
  return table.data();
}

// Block (layer, head) of an (L, H, rows, cols) array as float.
Mat decode_block(const NpyArray& a, bool bf16, int layer, int head) {
  if (a.shape.size() != 4 || layer < 0 || head < 0 || layer >= a.shape[0] || head >= a.shape[1]) return Mat();
  const int rows = static_cast<int>(a.shape[2]), cols = static_cast<int>(a.shape[3]);
  const std::size_t itemsize = npy_itemsize(a.dtype);
  const std::size_t count = static_cast<std::size_t>(rows) * cols;
  const std::size_t first = (static_cast<std::size_t>(layer) * a.shape[1] + head) * count;
  if ((first + count) * itemsize > a.data.size()) return Mat();
  Mat m(rows, cols);
  const std::uint8_t* p = a.data.data() + first * itemsize;
  float* dst = m.data();
  if (a.dtype == NpyDtype::Float16) {
    const float* table = half_table();
    for (std::size_t i = 0; i < count; ++i) dst[i] = table[le16(p + 2 * i)];
    return m;
  }
  for (std::size_t i = 0; i < count; ++i) {
    switch (a.dtype) {
      case NpyDtype::Float32: {
        const std::uint32_t bits = le32(p + 4 * i);
        std::memcpy(&dst[i], &bits, 4);
        break;
      }
      case NpyDtype::Float16: dst[i] = half_to_float(le16(p + 2 * i)); break;
      case NpyDtype::Float64: {
        const std::uint64_t bits = le64(p + 8 * i);
        double d;
        std::memcpy(&d, &bits, 8);
        dst[i] = static_cast<float>(d);
        break;
      }
      case NpyDtype::UInt16: dst[i] = bf16 ? bfloat16_to_float(le16(p + 2 * i)) : le16(p + 2 * i); break;
      default: dst[i] = 0.0f;
    }
  }
  return m;
}

}  // namespace

Mat ImportedAttention::head_weights(int layer, int head) const { return decode_block(weights, bfloat16, layer, head); }
Mat ImportedAttention::head_q(int layer, int head) const { return has_qkv ? decode_block(q, bfloat16, layer, head) : Mat(); }
Mat ImportedAttention::head_k(int layer, int head) const { return has_qkv ? decode_block(k, bfloat16, layer, head) : Mat(); }
Mat ImportedAttention::head_v(int layer, int head) const { return has_qkv ? decode_block(v, bfloat16, layer, head) : Mat(); }

// ---- 7 The job, and the entry points --------------------------------------------------
namespace {

enum FormatChoice { kSniff = -1, kNpy = 0, kNpz = 1, kJson = 2 };

// The format from the first bytes, or -1 for none the lab reads.
int sniff_format(const std::uint8_t* bytes, std::size_t size) {
  if (size >= 4 && bytes[0] == 'P' && bytes[1] == 'K' && ((bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6)))
    return kNpz;
  if (size >= 6 && std::memcmp(bytes, "\x93NUMPY", 6) == 0) return kNpy;
  std::size_t i = size >= 3 && std::memcmp(bytes, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  while (i < size && (bytes[i] == ' ' || bytes[i] == '\n' || bytes[i] == '\r' || bytes[i] == '\t')) ++i;
  if (i < size && bytes[i] == '{') return kJson;
  return -1;
}

// Work per piece: small enough that a piece never holds a frame up for long.
constexpr std::size_t kPieceBytes = std::size_t{64} << 10;

}  // namespace

Status ImportJob::begin(std::vector<std::uint8_t> file, const ImportOptions& options, const InflateFn& inflate) {
  Buffer b;
  b.owned = std::move(file);
  b.data = b.owned.data();
  b.size = b.owned.size();
  return start(std::move(b), kSniff, options, inflate);
}

Status ImportJob::begin(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options,
                        const InflateFn& inflate) {
  Buffer b;
  b.data = bytes;
  b.size = size;
  return start(std::move(b), kSniff, options, inflate);
}

Status ImportJob::fail(Status s) {
  *this = ImportJob();
  return s;
}

NpyArray& ImportJob::target(int index) {
  return index == 1 ? result_.q : index == 2 ? result_.k : index == 3 ? result_.v : result_.weights;
}

Status ImportJob::start(Buffer file, int format, const ImportOptions& options, const InflateFn& inflate) {
  *this = ImportJob();
  const std::uint8_t* bytes = file.data;
  const std::size_t size = file.size;
  if (format == kSniff) {
    if (size == 0) return Status::error("the file is empty");
    format = sniff_format(bytes, size);
    if (format < 0)
      return Status::error("not a file the lab reads: expected .npy, .npz or the lab's JSON format (see docs/IMPORT.md)");
  }
  // A JSON file is parsed by the steps (its text is most of the work); the plan follows.
  if (format == kJson) {
    if (static_cast<std::int64_t>(size) > kImportMaxJsonBytes)
      return Status::error("the JSON file is " + mib(static_cast<std::int64_t>(size)) +
                           "; the JSON format takes at most " + mib(kImportMaxJsonBytes) + " (use .npz for larger data)");
    buffers_.push_back(std::move(file));
    json_ = std::make_unique<JsonReader>(buffers_[0].data, buffers_[0].size);
    json_bytes_ = size;
    options_ = options;
    active_ = true;
    return Status::success();
  }
  Parts p;
  const Status read = format == kNpz ? read_npz_parts(bytes, size, options, inflate, p)
                                     : read_npy_parts(bytes, size, options, p);
  if (!read.ok) return read;
  buffers_.push_back(std::move(file));
  return plan(p, format == kNpz ? ImportFormat::Npz : ImportFormat::Npy, options);
}

// Checks and assembles the parts (buffer 0 of the job is the file), then lists the work
// for the steps.
Status ImportJob::plan(Parts& p, ImportFormat format, const ImportOptions& options) {
  std::vector<Fill> fills;
  if (Status s = assemble(p, options, format, result_, fills); !s.ok) return fail(s);

  // Buffer 0 is the file, 1 + i the reader's buffer i. The checksums first (they cover
  // bytes the fills then move), then the fills: one adopts its buffer when no later task
  // reads from it and the buffer is ours to give away.
  for (std::vector<std::uint8_t>& owned : p.buffers) {
    Buffer b;
    b.owned = std::move(owned);
    b.data = b.owned.data();
    b.size = b.owned.size();
    buffers_.push_back(std::move(b));
  }
  for (const CrcCheck& c : p.crcs) {
    Task t;
    t.crc = true;
    t.buffer = c.span.buffer + 1;
    t.offset = c.span.offset;
    t.size = c.span.size;
    t.expected = c.expected;
    t.name = c.where;
    tasks_.push_back(std::move(t));
  }
  for (const Fill& f : fills) {
    Task t;
    t.buffer = f.span.buffer + 1;
    t.target = f.target;
    t.offset = f.span.offset;
    t.size = f.span.size;
    t.name = f.name;
    tasks_.push_back(std::move(t));
  }
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    Task& t = tasks_[i];
    if (t.crc || buffers_[t.buffer].owned.empty()) continue;
    t.adopt = std::none_of(tasks_.begin() + static_cast<std::ptrdiff_t>(i) + 1, tasks_.end(),
                           [&](const Task& later) { return later.buffer == t.buffer; });
  }
  for (const Task& t : tasks_) total_ += t.size;
  active_ = true;
  return Status::success();
}

double ImportJob::progress() const {
  if (done_) return 1.0;
  // A JSON file's parse takes the first 90% of the bar, its numbers' checks the rest.
  if (json_) return json_bytes_ == 0 ? 0.0 : 0.9 * static_cast<double>(json_->position()) / static_cast<double>(json_bytes_);
  const double tasks = total_ == 0 ? 0.0 : static_cast<double>(finished_) / static_cast<double>(total_);
  return json_bytes_ > 0 ? 0.9 + 0.1 * tasks : tasks;
}

Status ImportJob::step(std::size_t max_bytes) {
  if (!active_) return Status::error("no import is in progress");
  std::size_t budget = std::max<std::size_t>(max_bytes, 1);
  if (json_) {
    const std::size_t before = json_->position();
    if (Status s = json_->step(budget); !s.ok) return fail(s);
    budget -= std::min(budget, json_->position() - before);
    if (!json_->done()) return Status::success();
    Parts p;
    const Status s = json_parts(json_->root(), p);
    json_.reset();            // the parsed tree (its numbers are in p's buffers now)
    buffers_[0] = Buffer();   // and the text
    if (!s.ok) return fail(s);
    if (Status planned = plan(p, ImportFormat::Json, options_); !planned.ok) return planned;
  }
  while (next_ < tasks_.size() && budget > 0) {
    Task& t = tasks_[next_];
    // A piece is a whole number of 8-byte units, so it holds whole elements of any dtype.
    std::size_t n = std::min(t.size - t.done, std::min(std::max<std::size_t>(budget & ~std::size_t{7}, 8), kPieceBytes));
    if (t.crc) {
      t.running = crc32(buffers_[t.buffer].data + t.offset + t.done, n, t.running);
      if (t.done + n == t.size && t.running != t.expected)
        return fail(Status::error(t.name + "CRC-32 mismatch: the archive is damaged"));
    } else {
      NpyArray& a = target(t.target);
      if (t.done == 0) {
        if (t.adopt) a.data = std::move(buffers_[t.buffer].owned);  // same bytes, same address
        else a.data.resize(t.size);
      }
      std::uint8_t* dst = a.data.data() + t.done;
      if (t.adopt) std::memmove(dst, dst + t.offset, n);  // towards the front: safe piece by piece
      else std::memcpy(dst, buffers_[t.buffer].data + t.offset + t.done, n);
      const std::int64_t bad = first_non_finite(dst, n, a.dtype, result_.bfloat16);
      if (bad >= 0)
        return fail(Status::error("'" + t.name + "' contains NaN or Inf at flat index " +
                                  std::to_string(t.done / npy_itemsize(a.dtype) + static_cast<std::size_t>(bad))));
      if (t.adopt && t.done + n == t.size) a.data.resize(t.size);
    }
    t.done += n;
    finished_ += n;
    budget -= std::min(budget, n);
    if (t.done == t.size) ++next_;
  }
  if (next_ == tasks_.size()) {
    buffers_.clear();
    tasks_.clear();
    active_ = false;
    done_ = true;
  }
  return Status::success();
}

ImportedAttention ImportJob::take() {
  ImportedAttention r = std::move(result_);
  *this = ImportJob();
  return r;
}

ImportJob::ImportJob() = default;
ImportJob::~ImportJob() = default;
ImportJob::ImportJob(ImportJob&&) noexcept = default;
ImportJob& ImportJob::operator=(ImportJob&&) noexcept = default;

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
  return run_job(job, job.start(ImportJob::Buffer{{}, bytes, size}, kNpy, options, InflateFn()), out);
}

Status import_npz(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, const InflateFn& inflate,
                  ImportedAttention& out) {
  ImportJob job;
  return run_job(job, job.start(ImportJob::Buffer{{}, bytes, size}, kNpz, options, inflate), out);
}

Status import_json(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, ImportedAttention& out) {
  ImportJob job;
  return run_job(job, job.start(ImportJob::Buffer{{}, bytes, size}, kJson, options, InflateFn()), out);
}

Status import_attention(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options,
                        const InflateFn& inflate, ImportedAttention& out) {
  ImportJob job;
  return run_job(job, job.begin(bytes, size, options, inflate), out);
}

}  // namespace attn
