// The one source of the SIMD kernels, compiled once per instruction set.
//
// Each kernel_<isa>.cpp defines, then includes this file:
//   ATTN_KERNEL_NS    the namespace of that build (sse2 / simd128, avx2, avx512)
//   ATTN_KERNEL_ISA   its attn::kernels::Isa
//   ATTN_KERNEL_NAME  its name in reports ("sse2", "simd128", "avx2", "avx512")
//   ATTN_KERNEL_W     floats per vector (4, 8, 16)
//   ATTN_KERNEL_MR    rows of the register tile
//   ATTN_KERNEL_NRV   vectors per row of the register tile (NR = NRV * W columns)
// and gets ATTN_KERNEL_NS::table(). Vectors are GCC/clang vector extensions: g++ turns
// them into SSE/AVX/AVX-512 under the file's flags, emcc into SIMD128.
//
// Not here: Eigen, std containers or any other inline library template. A template that
// the linker keeps once for the whole program could be the copy compiled for AVX-512 and
// then run on a baseline CPU; so everything below is in this file's own namespace, and
// scratch memory comes from std::aligned_alloc.
//
// Sections: 1 vectors  2 exp, log and tanh  3 micro-kernel  4 gemm  5 softmax rows
//           6 attention  7 weight statistics  8 tanh and additive scores  9 table
//
// Legend: MR x NR register tile; A (m, k), B (k, n), C (m, n); for attention, a block of
// bq queries (columns of the transposed score tile) meets a tile of bk keys (its rows).
#ifndef ATTN_KERNEL_NS
#error "define ATTN_KERNEL_NS, ATTN_KERNEL_ISA, ATTN_KERNEL_W, ATTN_KERNEL_MR, ATTN_KERNEL_NRV first"
#endif

#include "core/kernels/dispatch.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace attn::kernels::ATTN_KERNEL_NS {

constexpr int W = ATTN_KERNEL_W;
constexpr int MR = ATTN_KERNEL_MR;
constexpr int NRV = ATTN_KERNEL_NRV;
constexpr int NR = NRV * W;

namespace {

#define ATTN_INLINE inline __attribute__((always_inline))

// ---------------------------------------------------------------------------------------
// 1 vectors
// ---------------------------------------------------------------------------------------

typedef float V __attribute__((vector_size(W * 4)));
typedef std::int32_t VI __attribute__((vector_size(W * 4)));
typedef std::uint32_t VU __attribute__((vector_size(W * 4)));

constexpr float kNegInf = -__builtin_inff();
constexpr float kLog2e = 1.44269504088896340736f;

ATTN_INLINE V load(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
ATTN_INLINE void store(float* p, V v) { std::memcpy(p, &v, sizeof v); }
// x in every lane. Written as x - 0, which the compiler folds away: V{} + x would stay an
// addition (x + 0 is not x for x = -0) and cost an add and a shuffle per broadcast.
ATTN_INLINE V splat(float x) { return x - V{}; }
ATTN_INLINE V select(VI mask, V a, V b) { return (V)(((VI)a & mask) | ((VI)b & ~mask)); }
// max that ignores a NaN in a (a NaN score is caught separately, see softmax_rows). In
// SIMD128 the same rule is f32x4.pmax(b, a), one maxps in V8, where the select is four
// instructions.
ATTN_INLINE V vmax(V a, V b) {
#if defined(__wasm_simd128__)
  return __builtin_wasm_pmax_f32x4(b, a);  // b < a ? a : b
#else
  return select(a > b, a, b);
#endif
}
ATTN_INLINE float hmax(V v) {
  float m = v[0];
  for (int i = 1; i < W; ++i) m = v[i] > m ? v[i] : m;
  return m;
}
ATTN_INLINE float hsum(V v) {
  // Pairwise, so the order is the same for every width that shares a prefix.
  for (int half = W / 2; half >= 1; half /= 2)
    for (int i = 0; i < half; ++i) v[i] += v[i + half];
  return v[0];
}
// x as rounded to its type, never fused with the next addition into a multiply-add (the
// x86 sets with FMA contract a * b + c; where a product is also stored on its own, the sum
// must be of that stored value).
template <typename T>
ATTN_INLINE T rounded(T x) {
#if defined(__x86_64__) || defined(__i386__)
  __asm__("" : "+x"(x));
#endif
  return x;
}
// a * b + c. In the math module's relaxed-SIMD build (relaxed.cpp) one f32x4.relaxed_madd,
// fused where the CPU has FMA; elsewhere a multiply and an add, which the x86 sets with FMA
// contract on their own and SIMD128 keeps apart.
ATTN_INLINE V madd(V a, V b, V c) {
#if defined(__wasm_relaxed_simd__)
  return __builtin_wasm_fma_f32x4(a, b, c);
#else
  return a * b + c;
#endif
}
ATTN_INLINE int imin(int a, int b) { return a < b ? a : b; }
ATTN_INLINE int imax(int a, int b) { return a > b ? a : b; }
ATTN_INLINE int round_up(int x, int m) { return (x + m - 1) / m * m; }

// Scratch memory, 64-byte aligned, freed at scope exit.
class Scratch {
 public:
  explicit Scratch(long floats) {
    const std::size_t bytes = (static_cast<std::size_t>(floats > 0 ? floats : 1) * 4 + 63) / 64 * 64;
    p_ = static_cast<float*>(std::aligned_alloc(64, bytes));
  }
  ~Scratch() { std::free(p_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  float* get() const { return p_; }
  bool ok() const { return p_ != nullptr; }

 private:
  float* p_;
};

typedef float F4 __attribute__((vector_size(16)));

// qt (cols, ld) = q^T of q's first `rows` rows and `cols` columns, with qt's columns
// [rows, width) zero: Q^T of a query block, and the micro-kernel's tiles of A by columns
// (ld = width = MR). 4 x 4 tiles go through registers (four loads, eight shuffles, four
// stores, at every width), the edges one float at a time: at n = 128 the float-by-float
// loop alone was several per cent of single-head attention in wasm.
ATTN_INLINE void transpose_block(const float* q, long ldq, int rows, int cols, float* qt, int ld, int width) {
  const int rows4 = rows / 4 * 4, cols4 = cols / 4 * 4;
  for (int j = 0; j < rows4; j += 4) {
    const float* r = q + j * ldq;
    for (int p = 0; p < cols4; p += 4) {
      F4 a, b, c, d;
      std::memcpy(&a, r + p, 16);
      std::memcpy(&b, r + ldq + p, 16);
      std::memcpy(&c, r + 2 * ldq + p, 16);
      std::memcpy(&d, r + 3 * ldq + p, 16);
      const F4 ab_lo = __builtin_shufflevector(a, b, 0, 4, 1, 5), ab_hi = __builtin_shufflevector(a, b, 2, 6, 3, 7);
      const F4 cd_lo = __builtin_shufflevector(c, d, 0, 4, 1, 5), cd_hi = __builtin_shufflevector(c, d, 2, 6, 3, 7);
      const F4 t0 = __builtin_shufflevector(ab_lo, cd_lo, 0, 1, 4, 5), t1 = __builtin_shufflevector(ab_lo, cd_lo, 2, 3, 6, 7);
      const F4 t2 = __builtin_shufflevector(ab_hi, cd_hi, 0, 1, 4, 5), t3 = __builtin_shufflevector(ab_hi, cd_hi, 2, 3, 6, 7);
      float* o = qt + static_cast<long>(p) * ld + j;
      std::memcpy(o, &t0, 16);
      std::memcpy(o + ld, &t1, 16);
      std::memcpy(o + 2 * ld, &t2, 16);
      std::memcpy(o + 3 * ld, &t3, 16);
    }
    for (int p = cols4; p < cols; ++p)
      for (int i = 0; i < 4; ++i) qt[static_cast<long>(p) * ld + j + i] = r[i * ldq + p];
  }
  for (int p = 0; p < cols; ++p) {
    float* row = qt + static_cast<long>(p) * ld;
    for (int j = rows4; j < rows; ++j) row[j] = q[j * ldq + p];
    for (int j = rows; j < width; ++j) row[j] = 0.0f;
  }
}

// ---------------------------------------------------------------------------------------
// 2 exp, log and tanh. exp: 2^x = 2^n 2^f, n = round(x), f = x - n in [-1/2, 1/2], 2^f by a
// degree-6 polynomial (least squares on the relative error: 1e-7, about an ulp, in float).
// e^x = 2^(x log2 e): forming x log2 e in float adds |x| 2^-24 to the exponent, so the
// relative error is within 2e-7 + 8e-8 |x|. Domain x <= 127, which the softmax guarantees
// (x = s - max <= 0).
// ---------------------------------------------------------------------------------------

// The constants of exp2v and logv come in structs that a kernel fills once and reads
// through opaque(): written as literals, V8 rebuilds each v128.const where it stands,
// inside the loop (17 of them per vector in weight_stats made its loop three times slower).
// Copied into locals after opaque(), they are plain values to the compiler: registers,
// never reloaded after a store.
template <typename T>
ATTN_INLINE const T& opaque(const T& x) {
  const T* p = &x;
  __asm__("" : "+r"(p));  // hide where p points, so the fields are loaded, not rebuilt
  return *p;
}

struct ExpConstants {
  V lowest, magic, c6, c5, c4, c3, c2, c1, c0;
  V log2e;  // for e^x = 2^(x log2 e)
};

ATTN_INLINE ExpConstants exp_constants() {
  ExpConstants c;
  c.lowest = splat(-126.0f);
  c.magic = splat(12582912.0f);  // 1.5 * 2^23
  c.c6 = splat(1.5337580407503992e-04f);
  c.c5 = splat(1.339986571110785e-03f);
  c.c4 = splat(9.618519805371761e-03f);
  c.c3 = splat(5.550329014658928e-02f);
  c.c2 = splat(2.4022646248340607e-01f);
  c.c1 = splat(6.931471824645996e-01f);
  c.c0 = splat(1.0f);
  c.log2e = splat(kLog2e);
  return c;
}

ATTN_INLINE V exp2v(V x, const ExpConstants& c) {
  // Below 2^-126 the result would be subnormal: it is written as exactly 0. The mask also
  // zeroes -inf (a masked key) and NaN, whose integer arithmetic below is meaningless.
  const VI keep = x >= c.lowest;
  // Adding 1.5 * 2^23 rounds to an integer (round-to-nearest) and leaves that integer in
  // the low mantissa bits.
  const V t = x + c.magic;
  const V n = t - c.magic;
  const V f = x - n;
  V p = madd(c.c6, f, c.c5);
  p = madd(p, f, c.c4);
  p = madd(p, f, c.c3);
  p = madd(p, f, c.c2);
  p = madd(p, f, c.c1);
  p = madd(p, f, c.c0);
  const VU e = ((VU)t - (VU)c.magic) << 23;  // n in the exponent field (wraps harmlessly where masked)
  return (V)(((VU)p + e) & (VU)keep);
}

// ln x for positive normal x: x = 2^k m with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s),
// s = (m - 1) / (m + 1), |s| <= 0.172, by its series to s^9 (the next term is under 1e-9).
// k and m come from x's bits offset by those of sqrt(1/2): the offset's exponent is k, its
// mantissa plus sqrt(1/2)'s is m. About two ulps: m - 1 is exact, the division and m + 1
// round once each.
struct LogConstants {
  VI offset, mantissa;
  V one, c9, c7, c5, c3, two, ln2;
};

ATTN_INLINE LogConstants log_constants() {
  LogConstants c;
  c.offset = VI{} + 0x3f3504f3;  // the bits of sqrt(1/2)
  c.mantissa = VI{} + 0x007fffff;
  c.one = splat(1.0f);
  c.c9 = splat(2.0f / 9.0f);
  c.c7 = splat(2.0f / 7.0f);
  c.c5 = splat(2.0f / 5.0f);
  c.c3 = splat(2.0f / 3.0f);
  c.two = splat(2.0f);
  c.ln2 = splat(0.693147180559945309f);
  return c;
}

ATTN_INLINE V logv(V x, const LogConstants& c) {
  const VI offset_bits = (VI)x - c.offset;
  const VI k = offset_bits >> 23;  // arithmetic: negative below sqrt(1/2)
  const V m = (V)((offset_bits & c.mantissa) + c.offset);
  const V s = (m - c.one) / (m + c.one);
  const V z = s * s;
  V p = madd(c.c9, z, c.c7);
  p = madd(p, z, c.c5);
  p = madd(p, z, c.c3);
  p = madd(p, z, c.two);
  return madd(__builtin_convertvector(k, V), c.ln2, s * p);
}

// tanh x for finite x, from u = e^(-2|x|) - 1 in (-1, 0]: tanh |x| = -u / (2 + u), and x's
// sign put back. u = 2^n (2^f - 1) + (2^n - 1) with n, f as in exp2v of -2|x| log2 e, and
// 2^f - 1 as exp2v's polynomial without its constant term: for small |x| (n = 0) u keeps
// every digit, where 1 - 2 / (e^2x + 1) would cancel them away. |x| is capped at 9, past
// which tanh is 1 within an ulp. Within 3e-7 relative (2.5e-7 measured, near |x| = 0.09,
// where 2^f - 1 carries the polynomial's error); tanh(+-0) = +-0.
struct TanhConstants {
  ExpConstants e;
  V cap, minus_2log2e, two;
  VU sign, one_bits;
};

ATTN_INLINE TanhConstants tanh_constants() {
  TanhConstants c;
  c.e = exp_constants();
  c.cap = splat(9.0f);
  c.minus_2log2e = splat(-2.0f * kLog2e);
  c.two = splat(2.0f);
  c.sign = VU{} + 0x80000000u;
  c.one_bits = VU{} + 0x3f800000u;  // the bits of 1.0f
  return c;
}

ATTN_INLINE V tanhv(V x, const TanhConstants& c) {
  const VU sign = (VU)x & c.sign;
  const V a = (V)((VU)x & ~c.sign);
  const V y = select(a < c.cap, a, c.cap) * c.minus_2log2e;  // in [-26, 0]
  const V t = y + c.e.magic;
  const V n = t - c.e.magic;
  const V f = y - n;
  V p = madd(c.e.c6, f, c.e.c5);
  p = madd(p, f, c.e.c4);
  p = madd(p, f, c.e.c3);
  p = madd(p, f, c.e.c2);
  p = madd(p, f, c.e.c1);
  p = p * f;                                                    // 2^f - 1
  const V s = (V)((((VU)t - (VU)c.e.magic) << 23) + c.one_bits);  // 2^n, n in [-26, 0]
  const V u = madd(s, p, s - c.e.c0);                             // c0 = 1
  const V r = u / (c.two + u);                                    // -tanh |x|, or -0 or +0
  return (V)(((VU)r & ~c.sign) | sign);
}

// ---------------------------------------------------------------------------------------
// 3 micro-kernel: an MR x NR tile of C in registers, k rank-1 updates.
//   A by columns:  A(i, p) = a[p * lda + i]   (a packed tile, lda = MR; or P^T in place)
//   B:             B(p, j) = b[p * ldb + j]   (a packed panel, or a tile stored that way)
// C = alpha * acc (+ C when accumulate), a full MR x NR tile.
//
// One rank-1 step per loop trip, the loop counted by b alone, and A read from one pointer:
// V8 then keeps the ten accumulators, two panel vectors and a broadcast in registers with
// nothing spilled (36 instructions a step, 20 of them arithmetic). Two steps a trip spilled
// two accumulators, and A by rows (MR pointers, one per row) cost MR additions a step.
// ---------------------------------------------------------------------------------------

ATTN_INLINE void micro_tile(int kc, const float* __restrict a, int lda, const float* __restrict b, int ldb,
                            float* __restrict c, int ldc, float alpha, bool accumulate) {
  V acc[MR][NRV];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int v = 0; v < NRV; ++v) acc[i][v] = V{};
  for (const float* const b_end = b + static_cast<long>(kc) * ldb; b != b_end; b += ldb, a += lda) {
    V bv[NRV];
#pragma GCC unroll 4
    for (int v = 0; v < NRV; ++v) bv[v] = load(b + v * W);
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
      const V ai = splat(a[i]);
#pragma GCC unroll 4
      for (int v = 0; v < NRV; ++v) acc[i][v] = madd(bv[v], ai, acc[i][v]);
    }
  }
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
    for (int v = 0; v < NRV; ++v) {
      float* cp = c + i * ldc + v * W;
      V r = acc[i][v] * alpha;
      if (accumulate) r += load(cp);
      store(cp, r);
    }
}

}  // namespace

// Named, never inlined: the function the shipped .wasm is checked for.
__attribute__((noinline)) void gemm_micro_kernel(int kc, const float* a, int lda, const float* b, int ldb, float* c,
                                                 int ldc, float alpha, bool accumulate) {
  micro_tile(kc, a, lda, b, ldb, c, ldc, alpha, accumulate);
}

namespace {
// Called through a pointer the optimisers cannot see through. Inlined into a caller's
// nested loops (binaryen inlines a function with one call site), V8 unrolls the step loop
// there, and the unrolled copy spills a third of its registers.
void (*volatile const micro_kernel)(int, const float*, int, const float*, int, float*, int, float,
                                    bool) = &gemm_micro_kernel;
}  // namespace

// ---------------------------------------------------------------------------------------
// 4 gemm: B packed into panels of NR columns (kc x NR each, zero-padded), per call or once
// by the caller (pack_b_all, GemmArgs::b_packed); A copied, MR rows at a time, into a tile
// by columns (kc x MR, rows past m zero) that the micro-kernel reads from one pointer.
// ---------------------------------------------------------------------------------------

namespace {

constexpr int kKc = 256;  // depth per packed block
constexpr int kNc = 512 / NR * NR;  // columns per packed block (whole panels): <= 512 KiB, in L2

// Panels of op(B) rows [pc, pc + kc), columns [jc, jc + nc). B by rows: the panels are
// filled down B's rows, PAIR at a time so that each cache line of a row is read once (B's
// rows are often a power of two floats apart, and one panel at a time read every line
// twice, the second time after the cache had dropped it: packing was then a tenth of a
// 128 x 256 x 256 product). B transposed: each panel is the transpose of NR rows of b.
void pack_b(const GemmArgs& g, int pc, int kc, int jc, int nc, float* panels) {
  const long panel_floats = static_cast<long>(kc) * NR;
  if (g.b_transposed) {
    for (int jr = 0; jr < nc; jr += NR)
      transpose_block(g.b + static_cast<long>(jc + jr) * g.ldb + pc, g.ldb, imin(NR, nc - jr), kc,
                      panels + jr / NR * panel_floats, NR, NR);
    return;
  }
  constexpr int PAIR = NR >= 16 ? 1 : 2;  // panels per pass: a 64-byte line of B's row
  const int full = nc / (PAIR * NR) * (PAIR * NR);
  const float* src = g.b + static_cast<long>(pc) * g.ldb + jc;
  for (int jr = 0; jr < full; jr += PAIR * NR) {
    float* panel = panels + jr / NR * panel_floats;
    const float* s = src + jr;
    for (int p = 0; p < kc; ++p, s += g.ldb) {
#pragma GCC unroll 4
      for (int q = 0; q < PAIR; ++q)
#pragma GCC unroll 4
        for (int v = 0; v < NRV; ++v) store(panel + q * panel_floats + p * NR + v * W, load(s + q * NR + v * W));
    }
  }
  for (int jr = full; jr < nc; jr += NR) {  // the last panels, zero-padded
    float* panel = panels + jr / NR * panel_floats;
    const int cols = imin(NR, nc - jr);
    for (int p = 0; p < kc; ++p) {
      float* row = panel + p * NR;
      std::memcpy(row, src + static_cast<long>(p) * g.ldb + jr, sizeof(float) * cols);
      for (int j = cols; j < NR; ++j) row[j] = 0.0f;
    }
  }
}

}  // namespace

// The panels of every (jc, pc) block, in the order gemm visits them.
long packed_b_floats(int k, int n) {
  long floats = 0;
  for (int jc = 0; jc < n; jc += kNc) floats += static_cast<long>(k) * round_up(imin(kNc, n - jc), NR);
  return floats;
}

void pack_b_all(const GemmArgs& g, float* packed) {
  for (int jc = 0; jc < g.n; jc += kNc) {
    const int nc = imin(kNc, g.n - jc);
    for (int pc = 0; pc < g.k; pc += kKc) {
      const int kc = imin(kKc, g.k - pc);
      pack_b(g, pc, kc, jc, nc, packed);
      packed += static_cast<long>(kc) * round_up(nc, NR);
    }
  }
}

void gemm(const GemmArgs& g) {
  if (g.m <= 0 || g.n <= 0) return;
  if (g.k <= 0) {
    if (!g.accumulate)
      for (int i = 0; i < g.m; ++i) std::memset(g.c + static_cast<long>(i) * g.ldc, 0, sizeof(float) * g.n);
    return;
  }
  const int nc_max = imin(kNc, round_up(g.n, NR));
  // Packed by the caller, or here, block by block, into scratch.
  const float* packed = g.b_packed;
  Scratch panels(packed ? 1 : static_cast<long>(kKc) * nc_max), a_tile(static_cast<long>(MR) * kKc),
      c_tile(MR * NR);
  if (!panels.ok() || !a_tile.ok() || !c_tile.ok()) return;
  for (int jc = 0; jc < g.n; jc += kNc) {
    const int nc = imin(kNc, g.n - jc);
    for (int pc = 0; pc < g.k; pc += kKc) {
      const int kc = imin(kKc, g.k - pc);
      const float* block = packed;
      if (packed) {
        packed += static_cast<long>(kc) * round_up(nc, NR);
      } else {
        pack_b(g, pc, kc, jc, nc, panels.get());
        block = panels.get();
      }
      const bool accumulate = g.accumulate || pc > 0;
      for (int ir = 0; ir < g.m; ir += MR) {
        const int rows = imin(MR, g.m - ir);
        float* const a = a_tile.get();
        transpose_block(g.a + static_cast<long>(ir) * g.lda + pc, g.lda, rows, kc, a, MR, MR);
        for (int jr = 0; jr < nc; jr += NR) {
          const int cols = imin(NR, nc - jr);
          const float* panel = block + static_cast<long>(jr / NR) * kc * NR;
          float* c = g.c + static_cast<long>(ir) * g.ldc + jc + jr;
          if (rows == MR && cols == NR) {
            gemm_micro_kernel(kc, a, MR, panel, NR, c, g.ldc, g.alpha, accumulate);
          } else {
            float* t = c_tile.get();
            gemm_micro_kernel(kc, a, MR, panel, NR, t, NR, g.alpha, false);
            for (int i = 0; i < rows; ++i)
              for (int j = 0; j < cols; ++j)
                c[static_cast<long>(i) * g.ldc + j] = accumulate ? c[static_cast<long>(i) * g.ldc + j] + t[i * NR + j]
                                                                 : t[i * NR + j];
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// 5 softmax of whole rows, stable, float32: the same three passes as softmax_row
// (1 max, 2 exponentials and their sum, 3 divide), W lanes at a time.
// ---------------------------------------------------------------------------------------

__attribute__((noinline)) void softmax_rows(const float* scores, int ld_scores, float* weights, int ld_weights,
                                            int rows, int cols, std::uint8_t* status) {
  const ExpConstants c = opaque(exp_constants());
  for (int r = 0; r < rows; ++r) {
    const float* s = scores + static_cast<long>(r) * ld_scores;
    float* w = weights + static_cast<long>(r) * ld_weights;
    const int full = cols / W * W;
    // 1 max over the row; NaN is noted apart (vmax would skip it)
    V vm = splat(kNegInf);
    VI nan = VI{};
    for (int j = 0; j < full; j += W) {
      const V x = load(s + j);
      vm = vmax(x, vm);
      nan |= x != x;
    }
    float m = hmax(vm);
    bool any_nan = false;
    for (int i = 0; i < W; ++i) any_nan |= nan[i] != 0;
    for (int j = full; j < cols; ++j) {
      any_nan |= s[j] != s[j];
      m = s[j] > m ? s[j] : m;
    }
    if (any_nan || m == -kNegInf) {
      status[r] = kRowNeedsScalar;
      continue;
    }
    if (m == kNegInf) {
      std::memset(w, 0, sizeof(float) * cols);
      status[r] = kRowFullyMasked;
      continue;
    }
    // 2 e^(s - m) = 2^((s - m) log2 e); masked keys (-inf) become exactly 0
    V vsum = V{};
    for (int j = 0; j < full; j += W) {
      const V e = exp2v((load(s + j) - m) * c.log2e, c);
      store(w + j, e);
      vsum += e;
    }
    if (full < cols) {
      float tail[W];
      for (int i = 0; i < W; ++i) tail[i] = full + i < cols ? s[full + i] : kNegInf;
      const V e = exp2v((load(tail) - m) * c.log2e, c);
      store(tail, e);
      for (int j = full; j < cols; ++j) w[j] = tail[j - full];
      vsum += e;
    }
    const float sum = hsum(vsum);
    // 3 divide (as one multiply by the reciprocal: within an ulp of the division)
    const V inv = splat(1.0f / sum);
    for (int j = 0; j < full; j += W) store(w + j, load(w + j) * inv);
    for (int j = full; j < cols; ++j) w[j] *= inv[0];
    status[r] = kRowOk;
  }
}

__attribute__((noinline)) void exp_values(const float* x, float* y, int n) {
  const ExpConstants c = opaque(exp_constants());
  int j = 0;
  for (; j + W <= n; j += W) store(y + j, exp2v(load(x + j) * c.log2e, c));
  if (j < n) {
    float t[W];
    for (int i = 0; i < W; ++i) t[i] = j + i < n ? x[j + i] : 0.0f;
    store(t, exp2v(load(t) * c.log2e, c));
    for (int i = j; i < n; ++i) y[i] = t[i - j];
  }
}

// ---------------------------------------------------------------------------------------
// 6 attention by online softmax, on the transposed score tile.
//
// Per block of bq queries: Q^T is packed once (d_k, bq). Per tile of bk keys:
//   1 S^T = K_tile Q^T * scale log2 e          (bk, bq): keys are rows, queries columns
//   2 masked pairs -> -inf
//   3 online softmax down each column (W queries per vector): m_new = max(m, max_r S^T),
//     corr = 2^(m - m_new), P^T = 2^(S^T - m_new), l = l corr + sum_r P^T
//   4 O *= corr (per query row)
//   5 O += P V_tile                              (bq, d_v): P read from P^T in place
// then O / l. Working in base 2 (the scale carries log2 e) saves a multiply per score;
// the result is the same softmax. Both products run on the same micro-kernel: K is packed
// once per call into tiles of MR keys by columns (the kernel's A), V into panels of NR
// columns (its B), Q^T once per block; P^T is read in place.
// ---------------------------------------------------------------------------------------

namespace {

ATTN_INLINE bool allowed(const AttentionArgs& g, int i, int j) {
  if (g.causal && j > i) return false;
  if (g.window > 0 && (i - j > g.window || j - i > g.window)) return false;
  return true;
}

}  // namespace

// 3: the online-softmax update of one tile, column vector by column vector. The pointers
// walk down the columns (no multiply per row), and the tile's maximum is taken four rows
// at a time into four maxima: one chain of dependent maxima was a third of this function.
__attribute__((noinline)) void online_softmax_tile(float* st, int bq, int ld, int kb, float* row_max, float* row_sum,
                                                   float* correction) {
  const ExpConstants c = opaque(exp_constants());
  const long step = ld;
  const int kb4 = kb / 4 * 4;
  for (int g = 0; g < bq; g += W) {
    const V m_old = load(row_max + g);
    V t0 = splat(kNegInf), t1 = t0, t2 = t0, t3 = t0;
    const float* p = st + g;
    for (const float* const end = p + kb4 * step; p != end; p += 4 * step) {
      t0 = vmax(load(p), t0);
      t1 = vmax(load(p + step), t1);
      t2 = vmax(load(p + 2 * step), t2);
      t3 = vmax(load(p + 3 * step), t3);
    }
    for (const float* const end = st + g + kb * step; p != end; p += step) t0 = vmax(load(p), t0);
    const V m_new = vmax(vmax(vmax(t0, t1), vmax(t2, t3)), m_old);
    // Columns that have seen no allowed key yet keep m = -inf: there (-inf) - (-inf) is NaN,
    // which exp2v turns into 0, and their accumulators are still 0.
    const V corr = exp2v(m_old - m_new, c);
    V sum = V{};
    for (float *q = st + g, *const end = q + kb * step; q != end; q += step) {
      const V e = exp2v(load(q) - m_new, c);
      store(q, e);
      sum += e;
    }
    store(row_sum + g, load(row_sum + g) * corr + sum);
    store(row_max + g, m_new);
    store(correction + g, corr);
  }
}

// The scratch of one attention call: K packed (n_k rounded up to MR, times d_k), V packed
// (n_k, dv_pad), Q^T (d_k, ld), S^T / P^T (bk, ld), O (ld, dv_pad), and m, l and the
// corrections (ld each). bq queries (a multiple of NR) fill the first bq columns; ld rounds
// bq up to a multiple of MR, and the columns past bq stay zero (P = 0 there).
struct AttentionScratch {
  int bq, ld, bk, dv_pad;
  const float* kp;  // kp[(j / MR) * MR * d_k + p * MR + j % MR] = K(j, p), zero past n_k
  const float* vp;  // V in panels of NR columns: vp[(c / NR) * n_k * NR + j * NR + c % NR] = V(j, c), zero past d_v
  float *qt, *st, *ot, *m, *l, *corr;
};

// One block of queries [i0, i0 + bq): steps 1-5 over its tiles of keys, then O / l.
__attribute__((noinline)) void attention_block(const AttentionArgs& g, const AttentionScratch& w, int i0) {
  const int bq = w.bq, ld = w.ld, bk = w.bk, dv_pad = w.dv_pad;
  const float c = g.scale * kLog2e;
  const int nb = imin(bq, g.n_q - i0);
  // Q^T of the block, zero columns past the last query.
  transpose_block(g.q + static_cast<long>(i0) * g.ldq, g.ldq, nb, g.d_k, w.qt, ld, bq);
  for (int j = 0; j < bq; ++j) w.m[j] = kNegInf, w.l[j] = 0.0f;
  std::memset(w.ot, 0, sizeof(float) * ld * dv_pad);
  // Only the keys some query of the block may see.
  int j_begin = 0, j_end = g.n_k;
  if (g.causal) j_end = imin(j_end, i0 + nb);
  if (g.window > 0) {
    j_begin = imax(0, i0 - g.window) / MR * MR;  // tiles start on a tile of kp
    j_end = imin(j_end, i0 + nb + g.window);
  }
  for (int j0 = j_begin; j0 < j_end; j0 += bk) {
    const int kb = imin(bk, j_end - j0);
    // 1 S^T = K_tile Q^T * scale log2 e
    // (a last partial tile of MR keys fills rows past kb, which nothing reads)
    for (int jr = 0; jr < kb; jr += MR) {
      const float* a = w.kp + static_cast<long>(j0 + jr) * g.d_k;
      for (int ir = 0; ir < bq; ir += NR)
        micro_kernel(g.d_k, a, MR, w.qt + ir, ld, w.st + static_cast<long>(jr) * ld + ir, ld, c, false);
    }
    // 2 mask, only where the tile is not wholly allowed
    const int i_last = i0 + nb - 1, j_last = j0 + kb - 1;
    const bool all_allowed = (!g.causal || j_last <= i0) &&
                             (g.window == 0 || (i_last - j0 <= g.window && j_last - i0 <= g.window));
    if (!all_allowed)
      for (int r = 0; r < kb; ++r)
        for (int j = 0; j < nb; ++j)
          if (!allowed(g, i0 + j, j0 + r)) w.st[static_cast<long>(r) * ld + j] = kNegInf;
    // 3 online softmax
    online_softmax_tile(w.st, bq, ld, kb, w.m, w.l, w.corr);
    // 4 rescale what was accumulated
    for (int i = 0; i < bq; ++i) {
      const float ci = w.corr[i];
      if (ci == 1.0f) continue;
      float* row = w.ot + static_cast<long>(i) * dv_pad;
      for (int d = 0; d < dv_pad; d += W) store(row + d, load(row + d) * ci);
    }
    // 5 O += P V_tile, P (bq, kb) read from P^T (kb, bq) by columns, V from its panels
    const long panel_floats = static_cast<long>(g.n_k) * NR;
    for (int ir = 0; ir < bq; ir += MR)
      for (int jc = 0; jc < dv_pad; jc += NR)
        micro_kernel(kb, w.st + ir, ld, w.vp + jc / NR * panel_floats + static_cast<long>(j0) * NR, NR,
                     w.ot + static_cast<long>(ir) * dv_pad + jc, dv_pad, 1.0f, true);
  }
  // O = O / l; a query that saw no key (l = 0) gets zeros
  for (int j = 0; j < nb; ++j) {
    const float lj = w.l[j];
    const float inv = lj > 0.0f ? 1.0f / lj : 0.0f;
    float* out = g.o + static_cast<long>(i0 + j) * g.ldo;
    const float* acc = w.ot + static_cast<long>(j) * dv_pad;
    for (int d = 0; d < g.d_v; ++d) out[d] = acc[d] * inv;
  }
}

namespace {
// Blocks are run through a pointer the optimisers cannot see through, so attention_block
// stays a function of its own: V8 compiles a WebAssembly function with its fast tier only
// between calls, and one long call would otherwise run entirely in the baseline tier.
void (*volatile const run_block)(const AttentionArgs&, const AttentionScratch&, int) = &attention_block;
}  // namespace

void attention(const AttentionArgs& g) {
  if (g.n_q <= 0 || g.d_v <= 0) return;
  AttentionScratch w;
  w.bq = round_up(imax(g.query_block, 1), NR);  // columns of S^T
  w.ld = round_up(w.bq, MR);                     // rows of O come in MR
  w.bk = round_up(imax(g.key_tile, 1), MR);      // rows of S^T
  w.dv_pad = round_up(g.d_v, NR);
  Scratch qt(static_cast<long>(g.d_k) * w.ld), st(static_cast<long>(w.bk) * w.ld), ot(static_cast<long>(w.ld) * w.dv_pad),
      kp(static_cast<long>(round_up(g.n_k, MR)) * g.d_k), vp(static_cast<long>(g.n_k) * w.dv_pad), m(w.ld), l(w.ld),
      corr(w.ld);
  if (!qt.ok() || !st.ok() || !ot.ok() || !kp.ok() || !vp.ok() || !m.ok() || !l.ok() || !corr.ok()) return;
  // K in tiles of MR keys by columns, read by every block of queries
  for (int j0 = 0; j0 < g.n_k; j0 += MR)
    transpose_block(g.k + static_cast<long>(j0) * g.ldk, g.ldk, imin(MR, g.n_k - j0), g.d_k,
                    kp.get() + static_cast<long>(j0) * g.d_k, MR, MR);
  w.kp = kp.get();
  // V in panels of NR columns, as gemm packs B: each P V_tile reads NR contiguous floats a key
  GemmArgs vb;
  vb.k = g.n_k;
  vb.n = g.d_v;
  vb.b = g.v;
  vb.ldb = g.ldv;
  pack_b(vb, 0, g.n_k, 0, g.d_v, vp.get());
  w.vp = vp.get();
  w.qt = qt.get();
  w.st = st.get();
  w.ot = ot.get();
  w.m = m.get();
  w.l = l.get();
  w.corr = corr.get();
  // Columns past bq of P^T are never written: zero, so the rows of O past bq add nothing.
  std::memset(w.st, 0, sizeof(float) * w.bk * w.ld);
  for (int i0 = 0; i0 < g.n_q; i0 += w.bq) run_block(g, w, i0);
}

// ---------------------------------------------------------------------------------------
// 7 weight statistics: per row, -sum p ln p, max p and sum p |i - j|, W lanes at a time.
// Weights below the smallest normal float (and 0, negatives, NaN) add nothing to the
// entropy; the sums are taken in float over blocks of 16 vectors, then in double.
// ---------------------------------------------------------------------------------------

namespace {

// logv's constants and these, read once per call through opaque().
struct StatsConstants {
  LogConstants log;
  V tiny, zero, step, neg_inf;
  VU abs_mask;
};

// One vector x of a row's weights, at columns `columns`, into the three sums.
ATTN_INLINE void add_weight_stats(V x, V columns, V query, const StatsConstants& c, V& vh, V& vd, V& vm) {
  const VI counted = x >= c.tiny;  // FLT_MIN; false for 0, negatives, NaN
  vh += select(counted, x * logv(vmax(x, c.tiny), c.log), c.zero);
  vd += x * (V)((VU)(query - columns) & c.abs_mask);  // x |i - j|: the sign bit cleared
  vm = vmax(x, vm);
}

}  // namespace

__attribute__((noinline)) void weight_stats(const float* weights, int ld, int rows, int cols, int row0,
                                            float* entropy, float* max_weight, float* distance) {
  StatsConstants constants;
  constants.log = log_constants();
  constants.tiny = splat(1.17549435e-38f);
  constants.zero = V{};
  constants.step = splat(static_cast<float>(W));
  constants.neg_inf = splat(kNegInf);
  constants.abs_mask = VU{} + 0x7fffffffu;
  const StatsConstants* c = &opaque(constants);
  constexpr int kBlock = 16 * W;
  V lanes;
  for (int i = 0; i < W; ++i) lanes[i] = static_cast<float>(i);
  const int full = cols / W * W;
  for (int r = 0; r < rows; ++r) {
    const float* p = weights + static_cast<long>(r) * ld;
    const V query = splat(static_cast<float>(row0 + r));
    double h = 0.0, d = 0.0;
    V vm = c->neg_inf, columns = lanes;
    for (int j0 = 0; j0 < full; j0 += kBlock) {
      V vh = c->zero, vd = c->zero;
      for (int j = j0; j < imin(full, j0 + kBlock); j += W) {
        add_weight_stats(load(p + j), columns, query, *c, vh, vd, vm);
        columns += c->step;
      }
      h -= static_cast<double>(hsum(vh));
      d += static_cast<double>(hsum(vd));
    }
    if (full < cols) {  // the last columns, padded: 0 adds nothing to the sums, -inf nothing to the max
      V x, padded_max;
      for (int i = 0; i < W; ++i) {
        x[i] = full + i < cols ? p[full + i] : 0.0f;
        padded_max[i] = full + i < cols ? p[full + i] : kNegInf;
      }
      V vh = c->zero, vd = c->zero, unused = vm;
      add_weight_stats(x, columns, query, *c, vh, vd, unused);
      vm = vmax(padded_max, vm);
      h -= static_cast<double>(hsum(vh));
      d += static_cast<double>(hsum(vd));
    }
    entropy[r] = static_cast<float>(h);
    max_weight[r] = cols > 0 ? hmax(vm) : 0.0f;
    distance[r] = static_cast<float>(d);
  }
}

// ---------------------------------------------------------------------------------------
// 7b steps 2-4 of a head with its row statistics (SoftmaxArgs), three passes a row:
//   1 masked = raw * scale (+ mask), stored (and the scaled scores when asked); max; NaN noted
//   2 e = 2^t, t = (masked - max) log2 e, stored; Z = sum e; sum e t
//   3 p = e / Z (a multiply by 1/Z, as softmax_rows), stored; sum p |i - j|; max p = 1 / Z
// The entropy needs no log per weight: ln p = t ln 2 - ln Z, so -sum p ln p = ln Z - ln 2
// (sum e t) / Z. A weight below 2^-126 is 0 (exp2v) and adds nothing.
// ---------------------------------------------------------------------------------------

namespace {

struct FusedConstants {
  ExpConstants exp;
  V step, zero, neg_inf;
  VU abs_mask;
};

// Pass 1 of a row, for a row with or without a mask, keeping the scaled scores or not.
template <bool Mask, bool Keep>
ATTN_INLINE float scale_mask_max(const SoftmaxArgs& a, int r, const FusedConstants& c, bool& any_nan) {
  const float* __restrict raw = a.raw + static_cast<long>(r) * a.ld_raw;
  const float* __restrict mask = Mask ? a.mask + static_cast<long>(r) * a.ld_mask : nullptr;
  float* __restrict scaled = Keep ? a.scaled + static_cast<long>(r) * a.ld_scaled : nullptr;
  float* __restrict masked = a.masked + static_cast<long>(r) * a.ld_masked;
  const int cols = a.cols, full = cols / W * W;
  const V scale = splat(a.scale);
  V vm = c.neg_inf;
  VI nan = VI{};
  for (int j = 0; j < full; j += W) {
    V x = rounded(load(raw + j) * scale);
    if (Keep) store(scaled + j, x);
    if (Mask) x += load(mask + j);
    store(masked + j, x);
    vm = vmax(x, vm);
    nan |= x != x;
  }
  float m = hmax(vm);
  for (int i = 0; i < W; ++i) any_nan |= nan[i] != 0;
  for (int j = full; j < cols; ++j) {
    float x = rounded(raw[j] * a.scale);
    if (Keep) scaled[j] = x;
    if (Mask) x += mask[j];
    masked[j] = x;
    any_nan |= x != x;
    m = x > m ? x : m;
  }
  return m;
}

// Pass 2 of a row: its weights before the division, and their sum Z; with Stats, also
// et = sum e t. Below t = -126 (a masked key's t is -inf) e is exactly 0, and t is taken as 0
// there, so e t is 0 too (the same comparison as exp2v's, which the compiler shares).
template <bool Stats>
ATTN_INLINE float exp_pass(const float* s, float* w, float m, int cols, const FusedConstants& c, double& et) {
  constexpr int kBlock = 16 * W;  // vectors summed in float before the sum in double
  const int full = cols / W * W;
  const V vmx = splat(m);
  V vsum = V{};
  for (int j0 = 0; j0 < full; j0 += kBlock) {
    V vet = c.zero;
    for (int j = j0; j < imin(full, j0 + kBlock); j += W) {
      const V t = (load(s + j) - vmx) * c.exp.log2e;
      const V e = exp2v(t, c.exp);
      store(w + j, e);
      vsum += e;
      if (Stats) vet += e * (V)((VI)t & (t >= c.exp.lowest));  // t where e may be > 0, else 0
    }
    if (Stats) et += static_cast<double>(hsum(vet));
  }
  if (full < cols) {
    float tail[W];
    for (int i = 0; i < W; ++i) tail[i] = full + i < cols ? s[full + i] : kNegInf;
    const V t = (load(tail) - vmx) * c.exp.log2e;
    const V e = exp2v(t, c.exp);
    store(tail, e);
    for (int j = full; j < cols; ++j) w[j] = tail[j - full];
    vsum += e;
    if (Stats) et += static_cast<double>(hsum(e * (V)((VI)t & (t >= c.exp.lowest))));
  }
  return hsum(vsum);
}

}  // namespace

__attribute__((noinline)) void scaled_softmax_rows(const SoftmaxArgs& a) {
  FusedConstants constants;
  constants.exp = exp_constants();
  constants.step = splat(static_cast<float>(W));
  constants.zero = V{};
  constants.neg_inf = splat(kNegInf);
  constants.abs_mask = VU{} + 0x7fffffffu;
  const FusedConstants c = opaque(constants);
  const bool stats = a.entropy != nullptr;
  constexpr int kBlock = 16 * W;  // as in exp_pass
  V lanes;
  for (int i = 0; i < W; ++i) lanes[i] = static_cast<float>(i);
  const int cols = a.cols, full = cols / W * W;
  for (int r = 0; r < a.rows; ++r) {
    bool any_nan = false;
    float m;
    if (a.mask) m = a.scaled ? scale_mask_max<true, true>(a, r, c, any_nan) : scale_mask_max<true, false>(a, r, c, any_nan);
    else m = a.scaled ? scale_mask_max<false, true>(a, r, c, any_nan) : scale_mask_max<false, false>(a, r, c, any_nan);
    const float* s = a.masked + static_cast<long>(r) * a.ld_masked;
    float* w = a.weights + static_cast<long>(r) * a.ld_weights;
    if (any_nan || m == -kNegInf) {
      a.status[r] = kRowNeedsScalar;
      continue;
    }
    if (m == kNegInf) {
      std::memset(w, 0, sizeof(float) * cols);
      a.status[r] = kRowFullyMasked;
      if (stats) a.entropy[r] = a.max_weight[r] = a.distance[r] = 0.0f;
      continue;
    }
    // 2
    double et = 0.0;
    const float sum = stats ? exp_pass<true>(s, w, m, cols, c, et) : exp_pass<false>(s, w, m, cols, c, et);
    // 3 divide (as one multiply by the reciprocal: within an ulp of the division)
    const V inv = splat(1.0f / sum);
    if (!stats) {
      for (int j = 0; j < full; j += W) store(w + j, load(w + j) * inv);
      for (int j = full; j < cols; ++j) w[j] *= inv[0];
      a.status[r] = kRowOk;
      continue;
    }
    // i - j of each lane, stepped down by W a vector (exact: integers below 2^24)
    V offset = splat(static_cast<float>(a.row0 + r)) - lanes;
    double d = 0.0;
    for (int j0 = 0; j0 < full; j0 += kBlock) {
      V vd = c.zero;
      for (int j = j0; j < imin(full, j0 + kBlock); j += W) {
        const V p = load(w + j) * inv;
        store(w + j, p);
        vd += p * (V)((VU)offset & c.abs_mask);  // p |i - j|: the sign bit cleared
        offset -= c.step;
      }
      d += static_cast<double>(hsum(vd));
    }
    if (full < cols) {  // the last columns, padded as weight_stats pads them (the same sums)
      V p;
      for (int i = 0; i < W; ++i) {
        if (full + i < cols) w[full + i] *= inv[0];
        p[i] = full + i < cols ? w[full + i] : 0.0f;
      }
      d += static_cast<double>(hsum(p * (V)((VU)offset & c.abs_mask)));
    }
    // The largest e is exactly 1 (2^0, at the maximum), so the largest weight is 1 / Z.
    const float max_p = inv[0];
    a.entropy[r] = static_cast<float>(__builtin_log(static_cast<double>(sum)) - 0.693147180559945309 * et / sum);
    a.max_weight[r] = max_p;
    a.distance[r] = static_cast<float>(d);
    a.status[r] = kRowOk;
  }
}

// ---------------------------------------------------------------------------------------
// 8 tanh and additive scores. scores(i, j) = sum_a v[a] tanh(qp(i, a) + kp(j, a)), W keys a
// vector, summed over a in order as the plain loop does. tanh of a sum needs no
// transcendental per pair: with E = e^2q e^2k, tanh(q + k) = (E - 1) / (E + 1), so e^2q and
// e^2k are taken once per entry (in double, then rounded: E is within two roundings) and a
// pair costs a multiply, an add, a subtract and a divide. Near q + k = 0 that loses E's
// relative error as absolute error (about 1e-7, where libm's tanh keeps relative digits);
// the scores are sums of such terms, whose absolute error is what the softmax sees. Where
// some |entry| exceeds 22, E could leave float's range: tanhv per pair instead. The
// transposed factors of the keys, with columns past the last key, fill every key block.
// ---------------------------------------------------------------------------------------

__attribute__((noinline)) void tanh_values(const float* x, float* y, int n) {
  const TanhConstants c = opaque(tanh_constants());
  int j = 0;
  for (; j + W <= n; j += W) store(y + j, tanhv(load(x + j), c));
  if (j < n) {
    float t[W];
    for (int i = 0; i < W; ++i) t[i] = j + i < n ? x[j + i] : 0.0f;
    store(t, tanhv(load(t), c));
    for (int i = j; i < n; ++i) y[i] = t[i - j];
  }
}

namespace {

constexpr int kKeyVectors = 4;  // independent sums in flight per query row
constexpr int kKeys = kKeyVectors * W;
constexpr float kAdditiveFactorCap = 22.0f;  // e^(2 * 22) e^(2 * 22) < FLT_MAX

// The scores of keys [j0, j0 + kKeys) for one query row; pair(u_vector, a) is the tanh
// terms' vector for key vector u at depth a.
template <typename Pair>
ATTN_INLINE void additive_row_block(const AdditiveArgs& g, float* out, int j0, Pair pair) {
  V acc[kKeyVectors] = {};
  for (int a = 0; a < g.d_a; ++a) {
    const V va = splat(g.v[a]);
#pragma GCC unroll 4
    for (int u = 0; u < kKeyVectors; ++u) acc[u] = madd(va, pair(u, a), acc[u]);
  }
  if (j0 + kKeys <= g.n_k) {
#pragma GCC unroll 4
    for (int u = 0; u < kKeyVectors; ++u) store(out + j0 + u * W, acc[u]);
  } else {
    float tail[kKeys];
    for (int u = 0; u < kKeyVectors; ++u) store(tail + u * W, acc[u]);
    for (int j = j0; j < g.n_k; ++j) out[j] = tail[j - j0];
  }
}

float max_abs(const float* m, int rows, int cols, int ld) {
  float top = 0.0f;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const float x = m[static_cast<long>(i) * ld + j];
      top = x > top ? x : -x > top ? -x : top;
    }
  return top;
}

}  // namespace

__attribute__((noinline)) void additive_scores(const AdditiveArgs& g) {
  if (g.n_q <= 0 || g.n_k <= 0) return;
  const int ld = round_up(g.n_k, kKeys), d_a = imax(g.d_a, 1);
  const bool factored = max_abs(g.qp, g.n_q, g.d_a, g.ldqp) <= kAdditiveFactorCap &&
                        max_abs(g.kp, g.n_k, g.d_a, g.ldkp) <= kAdditiveFactorCap;
  // kt (d_a, ld): the keys' entries, or their factors e^2k, by columns; eq (n_q, d_a): e^2q.
  Scratch kt_scratch(static_cast<long>(d_a) * ld), eq_scratch(factored ? static_cast<long>(g.n_q) * d_a : 1);
  if (!kt_scratch.ok() || !eq_scratch.ok()) return;
  float* kt = kt_scratch.get();
  float* eq = eq_scratch.get();
  for (int a = 0; a < g.d_a; ++a) {
    float* row = kt + static_cast<long>(a) * ld;
    for (int j = 0; j < g.n_k; ++j) {
      const float k = g.kp[static_cast<long>(j) * g.ldkp + a];
      row[j] = factored ? static_cast<float>(__builtin_exp(2.0 * k)) : k;
    }
    for (int j = g.n_k; j < ld; ++j) row[j] = factored ? 1.0f : 0.0f;
  }
  if (factored) {
    for (int i = 0; i < g.n_q; ++i)
      for (int a = 0; a < g.d_a; ++a)
        eq[static_cast<long>(i) * d_a + a] = static_cast<float>(__builtin_exp(2.0 * g.qp[static_cast<long>(i) * g.ldqp + a]));
    const V one = splat(1.0f);
    for (int i = 0; i < g.n_q; ++i) {
      const float* ei = eq + static_cast<long>(i) * d_a;
      float* out = g.scores + static_cast<long>(i) * g.ld_scores;
      for (int j0 = 0; j0 < g.n_k; j0 += kKeys)
        additive_row_block(g, out, j0, [&](int u, int a) {
          const V e = splat(ei[a]) * load(kt + static_cast<long>(a) * ld + j0 + u * W);
          return (e - one) / (e + one);
        });
    }
    return;
  }
  const TanhConstants c = opaque(tanh_constants());
  for (int i = 0; i < g.n_q; ++i) {
    const float* qi = g.qp + static_cast<long>(i) * g.ldqp;
    float* out = g.scores + static_cast<long>(i) * g.ld_scores;
    for (int j0 = 0; j0 < g.n_k; j0 += kKeys)
      additive_row_block(g, out, j0, [&](int u, int a) {
        return tanhv(splat(qi[a]) + load(kt + static_cast<long>(a) * ld + j0 + u * W), c);
      });
  }
}

// ---------------------------------------------------------------------------------------
// 9 table
// ---------------------------------------------------------------------------------------

namespace {
const KernelTable kTable{ATTN_KERNEL_ISA, ATTN_KERNEL_NAME, W, MR, NR, &gemm, &packed_b_floats, &pack_b_all,
                         &softmax_rows, &attention, &exp_values, &weight_stats, &scaled_softmax_rows,
                         &tanh_values, &additive_scores};
}  // namespace

const KernelTable& table() { return kTable; }

#undef ATTN_INLINE

}  // namespace attn::kernels::ATTN_KERNEL_NS
