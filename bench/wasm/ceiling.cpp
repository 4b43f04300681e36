// The SIMD128 ceiling: a tight loop of independent f32x4 multiply-adds, the most a wasm
// SIMD kernel without FMA can issue. scripts/bench.sh runs it in Node and in Chromium
// beside the kernels, and reports each kernel's share of it.
//
// ceiling_multiply_add(iterations) does 12 chains x 4 lanes x 2 flops per iteration and
// returns a sum of the accumulators (so the work cannot be optimised away). Built a second
// time with -mrelaxed-simd (attnlab-bench-ceiling-relaxed), the same loop is one
// f32x4.relaxed_madd per chain: the ceiling of the math module's relaxed-SIMD build.
typedef float f32x4 __attribute__((vector_size(16)));

extern "C" float ceiling_multiply_add(int iterations) {
  // 12 independent accumulators hide the add latency; the multiplier stays in a register.
  f32x4 acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = f32x4{} + 0.001f * static_cast<float>(i);
  const f32x4 m = f32x4{} + 0.999999f, a = f32x4{} + 1e-7f;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int i = 0; i < 12; ++i) {
#if defined(__wasm_relaxed_simd__)
      acc[i] = __builtin_wasm_fma_f32x4(acc[i], m, a);
#else
      acc[i] = acc[i] * m + a;
#endif
    }
  }
  f32x4 s = f32x4{};
  for (int i = 0; i < 12; ++i) s += acc[i];
  return s[0] + s[1] + s[2] + s[3];
}
