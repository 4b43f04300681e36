// Fuzz target: the .npy reader (src/core/io/npy.h), the door for every array the CLI reads.
//
// Any bytes: a refusal has a message; an accepted array is consistent, converts to float
// and bool element for element, and writes bytes that parse back to the same array.
#include "core/io/npy.h"
#include "fuzz_check.h"

#include <cstddef>
#include <cstdint>

ATTNLAB_FUZZ_TARGET(npy) {
  attn::NpyArray array;
  const attn::Status st = attn::parse_npy(data, size, array);
  if (!st.ok) {
    FUZZ_CHECK(!st.message.empty());
    return 0;
  }
  FUZZ_CHECK(attn::validate_npy_array(array).ok);
  const std::int64_t n = array.size();
  FUZZ_CHECK(n >= 0);
  FUZZ_CHECK(array.to_float().size() == static_cast<std::size_t>(n));
  FUZZ_CHECK(array.to_bool().size() == static_cast<std::size_t>(n));
  attn::check_finite(array, "x");

  const std::vector<std::uint8_t> bytes = attn::serialize_npy(array);
  FUZZ_CHECK(!bytes.empty());
  attn::NpyArray again;
  FUZZ_CHECK(attn::parse_npy(bytes.data(), bytes.size(), again).ok);
  FUZZ_CHECK(again.dtype == array.dtype && again.shape == array.shape && again.data == array.data);
  return 0;
}
