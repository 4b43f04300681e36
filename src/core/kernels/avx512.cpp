// The kernels built for AVX-512F + FMA (this file alone gets -mavx512f -mfma, see
// cmake/targets/performance.cmake); chosen at run time only on CPUs that have them.
// Register tile 8 x 32: 16 of the 32 zmm registers accumulate.
#include "core/kernels/dispatch.h"

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__FMA__)
#define ATTN_KERNEL_NS avx512
#define ATTN_KERNEL_NAME "avx512"
#define ATTN_KERNEL_ISA ::attn::kernels::Isa::Avx512
#define ATTN_KERNEL_W 16
#define ATTN_KERNEL_MR 8
#define ATTN_KERNEL_NRV 2
#include "core/kernels/body.h"
#endif
