// CRC-32 as zip, PNG and our model files compute it (reflected polynomial 0xEDB88320):
// crc32("123456789") == 0xCBF43926. zlib's crc32 for every reader and writer, behind a
// signature that keeps zlib.h out of the includers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn {

// The CRC of size bytes, continuing from crc (the value returned for the bytes before them;
// 0 to start), so a large buffer can be checked in pieces.
std::uint32_t crc32(const std::uint8_t* data, std::size_t size, std::uint32_t crc = 0);

}  // namespace attn
