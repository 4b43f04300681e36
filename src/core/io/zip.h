// Zip archives as far as .npz files need them: the members listed from the central
// directory (ZIP64 included), each located inside the buffer, and the callback that inflates
// a member compressed with deflate. The attention import (core/io/import_attention.h) reads
// .npz files through it; the page lists the members here to inflate them in the browser.
//
// It deliberately does not inflate, check CRC-32s (the import does that, in steps) or write
// archives; encrypted members are refused. Every function takes arbitrary bytes and never
// reads outside them; errors are one line.
#pragma once

#include "core/base/types.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attn {

// Inflates a raw deflate stream (no zlib or gzip header) of `size` bytes that must give
// exactly `expected` bytes into `out`. Return an error for anything else.
using InflateFn = std::function<Status(const std::uint8_t* data, std::size_t size, std::size_t expected,
                                       std::vector<std::uint8_t>& out)>;

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

}  // namespace attn
