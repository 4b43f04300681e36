// What the attention import's readers find in a file, before any check: the parts
// (weights, tokens, Q/K/V, the bfloat16 flag). Readers do not copy array data: they give
// each array's dtype and shape and where its bytes lie. Each format's reader
// (import_numpy.cpp for .npy and .npz, import_json.cpp) gives the same parts, assemble()
// (import_attention.cpp) checks them once for every format, and the job (import_job.cpp)
// moves and checks the data in pieces afterwards. An internal header of the io wing, not an
// API: callers use import_attention.h and import_job.h.
#pragma once

#include "core/io/import_attention.h"
#include "core/io/npy.h"
#include "core/io/zip.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn {

struct JsonValue;

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
  std::string where;  // the member's key ("x"): its messages name it as "member 'x'"
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

// An array's data to move into place (0 weights, 1 q, 2 k, 3 v), checked for NaN and Inf.
struct Fill {
  int target = 0;
  Span span;
  std::string name;
};

// The names the weights go by, in an archive and in JSON.
inline bool is_weights_name(const std::string& n) {
  return n == "attentions" || n == "attention" || n == "attn" || n == "weights";
}

// A size in messages, rounded to whole MiB: "75 MiB".
// The name a whole .npy file's array goes by: its messages say "the array" where an archive's
// would name the member.
inline constexpr const char* kWholeFileArray = "the array";

inline std::string mib(std::int64_t bytes) { return std::to_string((bytes + (1 << 19)) >> 20) + " MiB"; }

// ---- the readers ---------------------------------------------------------------------------

// import_numpy.cpp: a whole .npy file is the weights; an .npz archive's members by name
// (members compressed with deflate go through `inflate`).
Status read_npy_parts(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, Parts& p);
Status read_npz_parts(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, const InflateFn& inflate,
                      Parts& p);

// import_json.cpp: the parts of a JSON file, from its parsed text.
Status json_parts(const JsonValue& root, Parts& p);

// ---- assembling ----------------------------------------------------------------------------

// import_attention.cpp: checks what was found and gives the result without its array data,
// and the fills that bring the data (Q, K, V first, the weights last).
Status assemble(Parts& p, const ImportOptions& options, ImportFormat format, ImportedAttention& out,
                std::vector<Fill>& fills);

}  // namespace import_detail
}  // namespace attn
