// A small deflate compressor (RFC 1951) in a zlib wrapper (RFC 1950), for the PNG writer:
// LZ77 over a 32 KiB window with hash chains, coded with deflate's fixed Huffman codes in
// one block. Much smaller output than stored blocks for screenshots and figures (flat colour
// and repeated rows), with no compression library, so the browser build has it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn {

// The zlib stream of `size` bytes: header, one fixed-Huffman deflate block, Adler-32.
std::vector<std::uint8_t> zlib_compress(const std::uint8_t* data, std::size_t size);

// The Adler-32 checksum zlib streams end with.
std::uint32_t adler32(const std::uint8_t* data, std::size_t size);

}  // namespace attn
