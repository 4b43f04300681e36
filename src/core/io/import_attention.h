// Attention from any model, read from the bytes of a file: a .npy array, a .npz archive
// (what np.savez / np.savez_compressed write) or the lab's JSON format (docs/IMPORT.md).
// The result is an ImportedAttention: weights for every layer and head, the query and key
// tokens, and optionally Q, K, V per layer and head.
//
// It deliberately does not read files, inflate deflate streams or guess at formats it
// does not document: callers hand it bytes (a File read in slices in the browser, a file
// on the desktop), and an .npz member compressed with deflate is inflated by a callback
// (zlib natively, the browser's DecompressionStream on the web, which inflates before the
// parse and hands the members over). Every entry point takes arbitrary bytes: whatever they
// hold, the answer is a Status with a one-line message and the output is left unchanged;
// nothing reads outside the buffer, nothing allocates past the caps below, nothing throws.
//
// Legend: L layers, H heads, n_q query tokens, n_k key tokens, d_k query/key width,
// d_v value width, B batch.
//
// Sections: 1 caps  2 the imported data  3 entry points  4 zip members (for the web)
//           5 an import in steps (a large file in a frame loop)
#pragma once

#include "core/io/npy.h"
#include "core/base/types.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace attn {

// ---- 1 caps ------------------------------------------------------------------------------

// The file as handed over: 512 MiB (a 12 x 12 x 512 x 512 float16 file is 75 MiB).
inline constexpr std::int64_t kImportMaxFileBytes = std::int64_t{512} << 20;
// All members of an archive after inflating, together: 1 GiB (a guard against zip bombs).
inline constexpr std::int64_t kImportMaxInflatedBytes = std::int64_t{1} << 30;
// Weight elements L * H * n_q * n_k of the picked batch: 128 Mi (256 MiB as float16).
inline constexpr std::int64_t kImportMaxElements = std::int64_t{128} << 20;
// Tokens per side (the explorer's cap), layers, heads, and Q/K/V width.
inline constexpr int kImportMaxTokens = 1024;
inline constexpr int kImportMaxLayers = 256;
inline constexpr int kImportMaxHeads = 256;
inline constexpr int kImportMaxHeadDim = 1024;
// The JSON format is for small hand-made examples: 64 MiB of text, nesting depth 16 and
// 1 Mi values besides the numbers in lists (core/io/json_reader.h).
inline constexpr std::int64_t kImportMaxJsonBytes = std::int64_t{64} << 20;

// ---- 2 the imported data -------------------------------------------------------------

enum class ImportFormat { Npy, Npz, Json };

struct ImportedAttention {
  ImportFormat format = ImportFormat::Npy;
  int layers = 0, heads = 0, n_q = 0, n_k = 0;
  int batch = 1;        // B in the file (1 when it has no batch axis)
  int batch_index = 0;  // the one that was picked
  // Weights of the picked batch, shape (L, H, n_q, n_k), kept in the file's element type
  // (float32, float16, float64, or uint16 holding bfloat16) so memory stays the file's size;
  // head_weights() decodes one head.
  NpyArray weights;
  bool bfloat16 = false;  // weights (and Q/K/V) of dtype uint16 are bfloat16 bit patterns
  std::vector<std::string> query_tokens, key_tokens;  // n_q and n_k labels
  bool tokens_given = false;  // false: labels are "0", "1", ... (the file had none)
  // Optional, all three or none: (L, H, n_q, d_k), (L, H, n_k, d_k), (L, H, n_k, d_v).
  bool has_qkv = false;
  int d_k = 0, d_v = 0;
  NpyArray q, k, v;

  // One head's matrices as float; an empty matrix for an index out of range.
  Mat head_weights(int layer, int head) const;  // (n_q, n_k)
  Mat head_q(int layer, int head) const;        // (n_q, d_k), empty without Q/K/V
  Mat head_k(int layer, int head) const;        // (n_k, d_k)
  Mat head_v(int layer, int head) const;        // (n_k, d_v)
  bool cross_attention() const { return n_q != n_k; }
};

struct ImportOptions {
  int batch_index = 0;             // which batch entry of a 5-d array to keep
  bool uint16_is_bfloat16 = false; // decode uint16 arrays as bfloat16 (also set by an .npz flag)
  std::int64_t max_file_bytes = kImportMaxFileBytes;
};

// Inflates a raw deflate stream (no zlib or gzip header) of `size` bytes that must give
// exactly `expected` bytes into `out`. Return an error for anything else.
using InflateFn = std::function<Status(const std::uint8_t* data, std::size_t size, std::size_t expected,
                                       std::vector<std::uint8_t>& out)>;

// ---- 3 entry points ---------------------------------------------------------------------

// Picks the format from the first bytes: "PK\3\4" (or an empty archive's "PK\5\6") is an
// .npz, "\x93NUMPY" an .npy, '{' (after spaces or a UTF-8 byte order mark) JSON.
// `inflate` may be empty when no member is compressed.
Status import_attention(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options,
                        const InflateFn& inflate, ImportedAttention& out);

// A weights array alone: (n_q, n_k), (H, n_q, n_k), (L, H, n_q, n_k) or (B, L, H, n_q, n_k),
// float32 / float16 / float64, or uint16 with options.uint16_is_bfloat16. No tokens.
Status import_npy(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, ImportedAttention& out);

// An archive whose members are .npy files (member names as np.savez gives them, "x.npy"):
//   attentions (or attention, attn, weights)   the weights, shapes as for import_npy
//   tokens                  n strings, self-attention (n_q = n_k = n), or (B, n)
//   query_tokens, key_tokens   n_q and n_k strings for cross-attention
//   q, k, v                 optional, (L, H, n, d) or (B, L, H, n, d)
//   bfloat16                optional 0-d bool: uint16 arrays are bfloat16
// Members compressed with deflate go through `inflate`; other methods are refused.
Status import_npz(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options,
                  const InflateFn& inflate, ImportedAttention& out);

// {"format": "attnlab-attention", "version": 1, "attentions": [[[[...]]]], "tokens": [...]}
// with the same keys (and shapes, as nested arrays) as the archive; see docs/IMPORT.md.
Status import_json(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, ImportedAttention& out);

// ---- 4 zip members (for the web) ------------------------------------------------------

struct ZipMember {
  std::string name;
  int method = 0;  // 0 stored, 8 deflate
  std::uint64_t data_offset = 0;  // of the member's (compressed) bytes in the archive
  std::uint64_t compressed_size = 0, uncompressed_size = 0;
  std::uint32_t crc32 = 0;
};

// The archive's members from its central directory, with their data located through
// each local header, all inside the buffer (checked). ZIP64 sizes and offsets are read.
Status list_zip_members(const std::uint8_t* bytes, std::size_t size, std::vector<ZipMember>& out);

// An InflateFn that hands out members inflated beforehand (the browser inflates with
// DecompressionStream, then calls the parser): `inflated[i]` belongs to the member whose
// data starts at `offsets[i]`, and is moved out when asked for (no copy of a large member;
// each is asked for once). The vectors must outlive the returned function.
InflateFn preinflated_members(const std::vector<std::uint64_t>* offsets,
                              std::vector<std::vector<std::uint8_t>>* inflated, const std::uint8_t* archive);

// ---- 5 an import in steps --------------------------------------------------------------
// The same import cut into pieces of bounded work, so a page can load a large file while
// its frame loop keeps drawing: begin() reads the headers and checks everything that does
// not need the data (formats, shapes, dtypes, tokens, caps); step() then does the work that
// grows with the file, a piece at a time: the CRC-32 of archive members, and each array's
// data moved into place and checked for NaN and Inf. A JSON file has no headers: begin()
// checks its size, the steps parse its text (about max_bytes of it each), then check its
// parts as begin() does for the other formats, then move its arrays. The messages are
// import_attention's (which is this job run to the end in one go).
//
// Memory: the job keeps the file's bytes (moved in, or a caller's view) and the inflated
// members; the weights reuse the buffer they lie in (moved to its front in pieces), so a
// large .npy never exists twice. Q, K and V, smaller, are copied out before that. A JSON
// file's text is dropped once parsed.
class JsonReader;
namespace import_detail {
struct Parts;
}

class ImportJob {
 public:
  ImportJob();
  ~ImportJob();
  ImportJob(ImportJob&&) noexcept;
  ImportJob& operator=(ImportJob&&) noexcept;

  // Takes the file's bytes. On error the job holds nothing and the message says why.
  Status begin(std::vector<std::uint8_t> file, const ImportOptions& options, const InflateFn& inflate);
  // The same on bytes the caller keeps alive until the job is done (its arrays are copied).
  Status begin(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, const InflateFn& inflate);
  // Does about `max_bytes` of the remaining work (at least one piece of 64 KiB or less).
  // An error ends the job (it then holds nothing).
  Status step(std::size_t max_bytes);
  bool active() const { return active_; }        // begun, neither finished nor failed
  bool done() const { return done_; }            // the result is complete
  double progress() const;                       // share of the step work done, 0 to 1
  // Bytes step() goes through in all: a JSON file's text, then (known once it is parsed)
  // its arrays; an archive's checksummed members and its arrays; an .npy's array.
  std::size_t work_bytes() const { return json_bytes_ + total_; }
  // The result once done(); the job is then empty.
  ImportedAttention take();

 private:
  struct Buffer {
    std::vector<std::uint8_t> owned;   // empty for a caller's view
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
  };
  // A piece of step work over bytes [offset, offset + size) of buffers_[buffer]: check a
  // member's CRC-32, or fill an array (0 weights, 1 q, 2 k, 3 v) with them, adopting the
  // buffer when no later task reads it.
  struct Task {
    bool crc = false;
    int buffer = 0, target = 0;
    bool adopt = false;
    std::size_t offset = 0, size = 0, done = 0;
    std::uint32_t expected = 0, running = 0;
    std::string name;  // the member (CRC) or the array (NaN / Inf) named in a message
  };
  Status start(Buffer file, int format, const ImportOptions& options, const InflateFn& inflate);
  Status plan(import_detail::Parts& parts, ImportFormat format, const ImportOptions& options);
  Status fail(Status s);
  NpyArray& target(int index);

  std::vector<Buffer> buffers_;
  std::vector<Task> tasks_;
  std::size_t next_ = 0, total_ = 0, finished_ = 0;
  // A JSON file is parsed first, a piece per step (the reader keeps its place, so it lives
  // on the heap: a job may be moved), then planned with the options it began with.
  std::unique_ptr<JsonReader> json_;
  std::size_t json_bytes_ = 0;
  ImportOptions options_;
  bool active_ = false, done_ = false;
  ImportedAttention result_;

  friend Status import_npy(const std::uint8_t*, std::size_t, const ImportOptions&, ImportedAttention&);
  friend Status import_npz(const std::uint8_t*, std::size_t, const ImportOptions&, const InflateFn&, ImportedAttention&);
  friend Status import_json(const std::uint8_t*, std::size_t, const ImportOptions&, ImportedAttention&);
  friend Status import_attention(const std::uint8_t*, std::size_t, const ImportOptions&, const InflateFn&,
                                 ImportedAttention&);
};

}  // namespace attn
