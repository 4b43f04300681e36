// FUZZ_CHECK: an invariant a fuzz target asserts beyond "no crash". A broken one prints the
// condition and aborts, which libFuzzer records as a crash with the input that caused it.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)

#include "core/base/crc32.h"

#include <cstddef>
#include <cstdint>
#include <vector>

// The input with the file header's u64 total length (bytes 12-19) and the trailing CRC-32
// rewritten to match, so a mutation reaches the checks behind them (the model files' layout).
inline std::vector<std::uint8_t> with_length_and_checksum(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> fixed(data, data + size);
  for (int i = 0; i < 8; ++i) fixed[12 + i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(size) >> (8 * i));
  const std::uint32_t crc = attn::crc32(fixed.data(), size - 4);
  for (int i = 0; i < 4; ++i) fixed[size - 4 + i] = static_cast<std::uint8_t>(crc >> (8 * i));
  return fixed;
}
