// Numbers from raw little-endian bytes, for the file readers of src/core/io (.npy, zip
// archives, the import's checks and decoding): unsigned integers of 16, 32 and 64 bits,
// and floats from their bit patterns. An internal header of the io wing, not an API.
//
// The integers are assembled byte by byte, so the code does not depend on the host's byte
// order (both of our targets are little-endian, and compilers turn these into plain loads).
#pragma once

#include <cstdint>
#include <cstring>

namespace attn {

inline std::uint16_t load_le16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }

inline std::uint32_t load_le32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

inline std::uint64_t load_le64(const std::uint8_t* p) {
  return static_cast<std::uint64_t>(load_le32(p)) | (static_cast<std::uint64_t>(load_le32(p + 4)) << 32);
}

inline float float_from_bits(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline double double_from_bits(std::uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace attn
