// The kernels of the math module's relaxed-SIMD build (loaded only when asked for by name:
// web/builds.mjs): baseline.cpp's SIMD128 kernels with each multiply-add one
// f32x4.relaxed_madd (body.h, madd), which V8 runs as a fused multiply-add on CPUs with FMA.
// Compiled with -mrelaxed-simd only for that build and its kernel tests
// (cmake/targets/site.cmake): there this object's simd128::table() stands in for
// baseline.cpp's, which the linker then never takes from the core library. Everywhere else
// (native, the other wasm builds, the glob that lists the core's sources) it is empty.
#include "core/kernels/dispatch.h"

#if defined(__wasm_relaxed_simd__)
#define ATTN_KERNEL_NS simd128
#define ATTN_KERNEL_NAME "simd128-relaxed"
#define ATTN_KERNEL_ISA ::attn::kernels::Isa::Baseline
#define ATTN_KERNEL_W 4
// A 4 x 8 register tile, where the SIMD build's is 5 x 8: V8 emits relaxed_madd as
// vfmadd231ps, whose accumulator is also its destination, and with ten accumulators it
// spills and copies registers in the loop. Measured with the micro-kernel's earlier
// two-step loop in Node 20 on an AMD EPYC (one process, builds alternating, medians of 9):
// 4 x 8 gave attention 1.2x and the GEMM 1.3x the SIMD build; 5 x 8 1.1x and 0.9x; 6 x 8,
// 3 x 8, 4 x 12, 3 x 12 and 2 x 16 less. Chromium 156's
// V8 gains nothing from any of them (attention 0.96-1.0x; the GEMM 0.65x at 4 x 8, 0.92x
// at 5 x 8, 1.0x at 4 x 12): its register allocation around relaxed_madd costs what the
// fusion saves.
#define ATTN_KERNEL_MR 4
#define ATTN_KERNEL_NRV 2
#include "core/kernels/body.h"
#endif
