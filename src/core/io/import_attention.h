// Attention from any model, read from the bytes of a file: a .npy array, a .npz archive
// (what np.savez / np.savez_compressed write) or the lab's JSON format (docs/IMPORT.md).
// The result is an ImportedAttention: weights for every layer and head, the query and key
// tokens, and optionally Q, K, V per layer and head. A file may also hold q and k (and
// optionally v) without weights, for sequences too long to hold n x n weights: then
// has_weights is false, the weights are empty, and the lab computes what it shows from q and
// k (core/attention/overview.h).
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
// Beside it: core/io/zip.h (the archive's members, the InflateFn), core/io/import_job.h
// (the same import in steps, for a large file in a frame loop: every entry point below is
// that job run to the end at once), core/io/half_float.h (16-bit floats as float).
//
// Sections: 1 caps  2 the imported data  3 entry points  4 format sniffing
#pragma once

#include "core/base/types.h"
#include "core/io/npy.h"
#include "core/io/zip.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attn {

// ---- 1 caps ------------------------------------------------------------------------------

// The file as handed over: 512 MiB (a 12 x 12 x 512 x 512 float16 file is 75 MiB).
inline constexpr std::int64_t kImportMaxFileBytes = std::int64_t{512} << 20;
// All members of an archive after inflating, together: 1 GiB (a guard against zip bombs).
inline constexpr std::int64_t kImportMaxInflatedBytes = std::int64_t{1} << 30;
// Weight elements L * H * n_q * n_k of the picked batch: 128 Mi (256 MiB as float16). A file
// without weights: the elements of q, k and v together, L * H * (n_q d_k + n_k d_k + n_k d_v).
inline constexpr std::int64_t kImportMaxElements = std::int64_t{128} << 20;
// Tokens per side (the explorer's cap) when the file holds weights; without weights (q and k
// alone) up to the overview's cap, 32,768. Layers, heads, and Q/K/V width.
inline constexpr int kImportMaxTokens = 1024;
inline constexpr int kImportMaxOverviewTokens = 32768;
inline constexpr int kImportMaxLayers = 256;
inline constexpr int kImportMaxHeads = 256;
inline constexpr int kImportMaxHeadDim = 1024;
// A token's label, in bytes of UTF-8 (a word piece is a few; a label is drawn on one line).
inline constexpr std::size_t kImportMaxTokenLabelBytes = 256;
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
  // head_weights() decodes one head. Empty when has_weights is false (a file of q and k alone):
  // every feature that reads weights must check has_weights first.
  bool has_weights = true;
  NpyArray weights;
  bool bfloat16 = false;  // weights (and Q/K/V) of dtype uint16 are bfloat16 bit patterns
  std::vector<std::string> query_tokens, key_tokens;  // n_q and n_k labels
  bool tokens_given = false;  // false: labels are "0", "1", ... (the file had none)
  // (L, H, n_q, d_k), (L, H, n_k, d_k), (L, H, n_k, d_v). With weights: all three or none
  // (has_qkv). Without weights q and k are there (has_qk), v optionally (has_qkv then too).
  bool has_qkv = false;
  bool has_qk = false;  // q and k (the import sets it whenever has_qkv; has_qkv alone implies it)
  int d_k = 0, d_v = 0;
  NpyArray q, k, v;

  // One head's matrices as float; an empty matrix for an index out of range.
  Mat head_weights(int layer, int head) const;  // (n_q, n_k), empty without weights
  Mat head_q(int layer, int head) const;        // (n_q, d_k), empty without q and k
  Mat head_k(int layer, int head) const;        // (n_k, d_k)
  Mat head_v(int layer, int head) const;        // (n_k, d_v), empty without v
  bool cross_attention() const { return n_q != n_k; }
};

struct ImportOptions {
  int batch_index = 0;             // which batch entry of a 5-d array to keep
  bool uint16_is_bfloat16 = false; // decode uint16 arrays as bfloat16 (also set by an .npz flag)
  std::int64_t max_file_bytes = kImportMaxFileBytes;
};

// ---- 3 entry points ---------------------------------------------------------------------

// Picks the format from the first bytes (sniff_import_format, section 4).
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
//   Without a weights member: q and k (v optional) of one shape among (n, d), (H, n, d),
//   (L, H, n, d) and (B, L, H, n, d), up to kImportMaxOverviewTokens per side; has_weights
//   is then false.
//   bfloat16                optional 0-d bool: uint16 arrays are bfloat16
// Members compressed with deflate go through `inflate`; other methods are refused.
Status import_npz(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options,
                  const InflateFn& inflate, ImportedAttention& out);

// {"format": "attnlab-attention", "version": 1, "attentions": [[[[...]]]], "tokens": [...]}
// with the same keys (and shapes, as nested arrays) as the archive; see docs/IMPORT.md.
Status import_json(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, ImportedAttention& out);

// ---- 4 format sniffing ------------------------------------------------------------------

// The format the first bytes say: "PK\3\4" (or an empty archive's "PK\5\6") is an .npz,
// "\x93NUMPY" an .npy, '{' (after spaces or a UTF-8 byte order mark) JSON; nothing for
// bytes the lab does not read. The one rule: the page asks it too (through the import
// bindings) to know whether to list and inflate an archive's members.
std::optional<ImportFormat> sniff_import_format(const std::uint8_t* bytes, std::size_t size);

// "npy", "npz" or "json".
const char* import_format_name(ImportFormat format);

}  // namespace attn
