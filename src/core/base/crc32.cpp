#include "core/base/crc32.h"

#include <zlib.h>

namespace attn {

std::uint32_t crc32(const std::uint8_t* data, std::size_t size, std::uint32_t crc) {
  // zlib answers 0 for a null buffer whatever the CRC so far; no bytes leave it as it is.
  if (size == 0) return crc;
  // crc32_z counts in z_size_t (size_t), so a buffer past 4 GiB needs no pieces here.
  return static_cast<std::uint32_t>(::crc32_z(crc, data, size));
}

}  // namespace attn
