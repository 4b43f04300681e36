// The kernels for every CPU the build targets: SSE2 (the x86-64 minimum) natively,
// SIMD128 under Emscripten. The register tile is 5 x 8: 10 accumulators, 2 panel vectors,
// a broadcast and a product in the 16 vector registers of SSE2, of which V8 keeps one for
// itself (in SIMD128, 6 x 8 spills; 4 x 8 and 3 x 12 measured no faster).
#include "core/kernels/dispatch.h"

#if defined(__wasm__)
#define ATTN_KERNEL_NS simd128
// The site's second wasm build (no -msimd128, for browsers without SIMD) lowers the same
// vectors to scalar instructions: it reports what it really runs.
#if defined(__wasm_simd128__)
#define ATTN_KERNEL_NAME "simd128"
#else
#define ATTN_KERNEL_NAME "wasm32-scalar"
#endif
#else
#define ATTN_KERNEL_NS sse2
#define ATTN_KERNEL_NAME "sse2"
#endif
#define ATTN_KERNEL_ISA ::attn::kernels::Isa::Baseline
#define ATTN_KERNEL_W 4
#define ATTN_KERNEL_MR 5
#define ATTN_KERNEL_NRV 2
#include "core/kernels/body.h"
