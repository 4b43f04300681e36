// FUZZ_CHECK: an invariant a fuzz target asserts beyond "no crash". A broken one prints the
// condition and aborts, which libFuzzer records as a crash with the input that caused it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// A target's entry: ATTNLAB_FUZZ_TARGET(npy) { ... } in tests/fuzz/npy.cpp. The targets'
// sources are compiled together, once (cmake/targets/sanitize.cmake), so each entry has a
// name of its own, attnlab_fuzz_NAME; the binary fuzz_NAME gets libFuzzer's
// LLVMFuzzerTestOneInput from tests/fuzz/entry.cpp, which calls it.
#define ATTNLAB_FUZZ_TARGET(name) extern "C" int attnlab_fuzz_##name(const std::uint8_t* data, std::size_t size)

#define FUZZ_CHECK(cond)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)

#include "core/base/file_frame.h"

#include <cstddef>
#include <cstdint>
#include <vector>

// The input with the frame's total length (bytes 12-19) and trailing CRC-32 rewritten to
// match (core/base/file_frame.h), so a mutation reaches the checks behind them.
inline std::vector<std::uint8_t> with_length_and_checksum(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> fixed(data, data + size);
  attn::seal_frame(fixed);
  return fixed;
}
