// The ceilings: tight loops of independent multiply-adds (12 chains, FMA where the set has
// it), each function compiled for its instruction set by a target attribute and run only on
// a CPU that has it. No library code here, so nothing wide can leak into shared templates.
namespace attn::bench {

namespace {
template <int W>
struct Ceiling {
  typedef float V __attribute__((vector_size(W * 4)));
};
}  // namespace

#define ATTN_CEILING_BODY(W)                                                     \
  typedef Ceiling<W>::V V;                                                       \
  V acc[12];                                                                     \
  for (int i = 0; i < 12; ++i) acc[i] = V{} + 0.001f * static_cast<float>(i);   \
  const V m = V{} + 0.999999f, a = V{} + 1e-7f;                                  \
  for (long it = 0; it < iterations; ++it) {                                     \
    _Pragma("GCC unroll 12") for (int i = 0; i < 12; ++i) acc[i] = acc[i] * m + a; \
  }                                                                              \
  V s = V{};                                                                     \
  for (int i = 0; i < 12; ++i) s += acc[i];                                      \
  return s[0];

float ceiling_sse2(long iterations) { ATTN_CEILING_BODY(4) }

#if defined(__x86_64__)
__attribute__((target("avx2,fma"), optimize("fp-contract=fast"))) float ceiling_avx2(long iterations) {
  ATTN_CEILING_BODY(8)
}
__attribute__((target("avx512f,fma"), optimize("fp-contract=fast"))) float ceiling_avx512(long iterations) {
  ATTN_CEILING_BODY(16)
}
#endif

}  // namespace attn::bench
