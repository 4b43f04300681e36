// The attention import (core/io/import_attention.h) cut into pieces of bounded work, so a
// page can load a large file while its frame loop keeps drawing: begin() reads the headers
// and checks everything that does not need the data (formats, shapes, dtypes, tokens, caps);
// step() then does the work that grows with the file, a piece at a time: the CRC-32 of
// archive members, and each array's data moved into place and checked for NaN and Inf. A
// JSON file has no headers: begin() checks its size, the steps parse its text (about
// max_bytes of it each), then check its parts as begin() does for the other formats, then
// move its arrays. The messages are import_attention's (which is this job run to the end in
// one go).
//
// Memory: the job keeps the file's bytes (moved in, or a caller's view) and the inflated
// members; the weights reuse the buffer they lie in (moved to its front in pieces), so a
// large .npy never exists twice. Q, K and V, smaller, are copied out before that. A JSON
// file's text is dropped once parsed.
#pragma once

#include "core/base/types.h"
#include "core/io/import_attention.h"
#include "core/io/npy.h"
#include "core/io/zip.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attn {

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
  // Without a `format` the first bytes pick it (each entry point names its own).
  Status start(Buffer file, std::optional<ImportFormat> format, const ImportOptions& options, const InflateFn& inflate);
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
