// The kernels built for AVX2 + FMA (this file alone gets -mavx2 -mfma, see
// cmake/targets/performance.cmake); chosen at run time only on CPUs that have them.
// Register tile 4 x 24: 12 accumulators, 3 panel vectors and a broadcast of 16 ymm.
#include "core/kernels/dispatch.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)
#define ATTN_KERNEL_NS avx2
#define ATTN_KERNEL_NAME "avx2"
#define ATTN_KERNEL_ISA ::attn::kernels::Isa::Avx2
#define ATTN_KERNEL_W 8
#define ATTN_KERNEL_MR 4
#define ATTN_KERNEL_NRV 3
#include "core/kernels/body.h"
#endif
