// libFuzzer's entry of the binary fuzz_NAME: it calls the target attnlab_fuzz_NAME
// (ATTNLAB_FUZZ_TARGET(NAME) in tests/fuzz/NAME.cpp), which CMake names with
// -DATTNLAB_FUZZ_ENTRY=attnlab_fuzz_NAME. Not a target itself.
#include <cstddef>
#include <cstdint>

extern "C" int ATTNLAB_FUZZ_ENTRY(const std::uint8_t* data, std::size_t size);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return ATTNLAB_FUZZ_ENTRY(data, size);
}
