// SIMD kernels of the attention hot path, and the table that picks one instruction set.
//
// One source (kernel_body.h, GCC/clang vector extensions) is compiled several times:
//   baseline  SSE2 on any x86-64 (the ABI's minimum), SIMD128 in the browser
//   avx2      AVX2 + FMA           (x86-64 only, its own file with its own flags)
//   avx512    AVX-512F + FMA       (x86-64 only, its own file with its own flags)
// The desktop binary is built for baseline x86-64; the widest set the CPU has is chosen at
// run time (cpuid), never at build time. ATTNLAB_KERNEL_ISA=baseline|avx2|avx512 in the
// environment caps the choice (for tests and benchmarks; an unsupported or unknown value
// falls back to the best set the CPU has at or below it, see active_kernels()).
//
// What the kernels are for (legend: n_q queries, n_k keys, d_k, d_v, row-major floats,
// every matrix given as pointer + leading dimension in floats):
//   gemm       C = alpha A op(B) (+ C): the projections, Q K^T and weights V of the trace
//   softmax    stable float32 softmax of whole rows; scaled_softmax_rows also scales and
//              masks the raw scores first and takes the weights' row statistics on the way
//              (the trace path's steps 2-4)
//   attention  exact attention by online softmax over tiles: output only, memory O(n d)
//   additive_scores  v . tanh(qp_i + kp_j) for every pair (additive scoring's raw scores)
// They are tested against the plain-loop oracle (reference.cpp). Nothing here allocates
// more than O(tile) scratch (additive_scores: a copy of its keys), validates input, or throws:
// callers check shapes first.
#pragma once

#include <cstdint>
#include <vector>

namespace attn::kernels {

enum class Isa { Baseline, Avx2, Avx512 };

// C (m, n) = alpha * A (m, k) * op(B) (+ C when accumulate); op(B) = B (k, n), or the
// transpose of B (n, k) when b_transposed. k may be 0 (C = 0, or unchanged).
// b_packed: op(B) as the same table's pack_b wrote it for this k and n (then b, ldb and
// b_transposed are not read): a constant B, such as a layer's weights, packed once. The
// result is the same floats as with B unpacked.
struct GemmArgs {
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int lda = 0;
  const float* b = nullptr;
  int ldb = 0;
  bool b_transposed = false;
  float* c = nullptr;
  int ldc = 0;
  float alpha = 1.0f;
  bool accumulate = false;
  const float* b_packed = nullptr;
};

// output (n_q, d_v) = softmax(q k^T * scale, masked) v, one query block at a time.
// Allowed pairs: j <= i when causal; |i - j| <= window when window > 0 (both when both).
// A query with no allowed key gets a zero row. The blocks are hints, rounded up to the
// kernel's register tile.
struct AttentionArgs {
  int n_q = 0, n_k = 0, d_k = 0, d_v = 0;
  const float* q = nullptr;  // q: (n_q, d_k)
  int ldq = 0;
  const float* k = nullptr;  // k: (n_k, d_k)
  int ldk = 0;
  const float* v = nullptr;  // v: (n_k, d_v)
  int ldv = 0;
  float* o = nullptr;  // o: (n_q, d_v), written
  int ldo = 0;
  float scale = 1.0f;
  bool causal = false;
  int window = 0;
  int query_block = 64;
  int key_tile = 256;
};

// Per-row outcome of softmax_rows.
enum RowStatus : std::uint8_t {
  kRowOk = 0,
  kRowFullyMasked = 1,  // every score was -inf: the row was written as zeros
  kRowNeedsScalar = 2,  // +inf or NaN among the scores: the caller redoes it with softmax_row
};

// Steps 2-4 of a head on `rows` query rows, and their statistics (scaled_softmax_rows):
//   scaled = raw * scale          written when `scaled` is not null
//   masked = scaled + mask        (mask null: masked = scaled), always written
//   weights = softmax of each masked row, stable, float32: the same floats as softmax_rows
//   when entropy is not null, per row r (the query row0 + r), from the same passes:
//     entropy[r] = -sum p ln p (nats), max_weight[r] = max p, distance[r] = sum_j p_j |row0 + r - j|
// status: one RowStatus per row. A kRowNeedsScalar row has masked written, but neither its
// weights nor its statistics; a fully masked row gets zero weights and zero statistics.
struct SoftmaxArgs {
  int rows = 0, cols = 0;
  const float* raw = nullptr;
  int ld_raw = 0;
  float scale = 1.0f;
  const float* mask = nullptr;
  int ld_mask = 0;
  float* scaled = nullptr;
  int ld_scaled = 0;
  float* masked = nullptr;
  int ld_masked = 0;
  float* weights = nullptr;
  int ld_weights = 0;
  std::uint8_t* status = nullptr;
  int row0 = 0;
  float* entropy = nullptr;  // with max_weight and distance: `rows` floats each, or all null
  float* max_weight = nullptr;
  float* distance = nullptr;
};

// Additive (Bahdanau) scores from the projected queries qp (n_q, d_a) and keys kp (n_k, d_a):
// scores (n_q, n_k), scores(i, j) = sum_a v[a] tanh(qp(i, a) + kp(j, a)), a in order. Finite
// inputs. Allocates a transposed copy of kp (d_a x n_k floats, rounded up).
struct AdditiveArgs {
  int n_q = 0, n_k = 0, d_a = 0;
  const float* qp = nullptr;
  int ldqp = 0;
  const float* kp = nullptr;
  int ldkp = 0;
  const float* v = nullptr;  // d_a floats
  float* scores = nullptr;
  int ld_scores = 0;
};

struct KernelTable {
  Isa isa;
  const char* name;  // "sse2", "simd128", "avx2", "avx512"
  int lanes;         // floats per vector register
  int tile_rows, tile_cols;  // the register tile of the GEMM micro-kernel (MR, NR)
  void (*gemm)(const GemmArgs& args);
  // op(B) of a GemmArgs (b, ldb, b_transposed, k, n) in the panels gemm reads, into
  // `packed`: packed_b_floats(k, n) floats, for GemmArgs::b_packed of this table only.
  long (*packed_b_floats)(int k, int n);
  void (*pack_b)(const GemmArgs& args, float* packed);
  // weights = softmax of each row of scores (rows, cols), stable, float32.
  // status: `rows` bytes, one RowStatus per row.
  void (*softmax_rows)(const float* scores, int ld_scores, float* weights, int ld_weights, int rows,
                       int cols, std::uint8_t* status);
  void (*attention)(const AttentionArgs& args);
  // y[i] = e^x[i] with the kernels' vectorised exp (x <= 0 in the softmax; -inf -> exactly 0).
  void (*exp)(const float* x, float* y, int n);
  // For each row r of weights (rows, cols), the query row0 + r: entropy[r] = -sum p ln p over
  // its weights p of at least FLT_MIN (nats), max_weight[r] = its largest weight (0 for an
  // empty row), distance[r] = sum_j p_j |row0 + r - j|.
  void (*weight_stats)(const float* weights, int ld, int rows, int cols, int row0, float* entropy,
                       float* max_weight, float* distance);
  // See SoftmaxArgs: scale, mask, softmax and row statistics in three passes over each row.
  void (*scaled_softmax_rows)(const SoftmaxArgs& args);
  // y[i] = tanh x[i] with the kernels' vectorised tanh (finite x; within 3e-7 relative).
  void (*tanh)(const float* x, float* y, int n);
  // See AdditiveArgs.
  void (*additive_scores)(const AdditiveArgs& args);
};

// "baseline", "avx2", "avx512": the names ATTNLAB_KERNEL_ISA takes.
const char* isa_name(Isa isa);
bool parse_isa(const char* text, Isa& out);

// The table for one instruction set, or null when this build lacks it or the CPU does.
const KernelTable* kernel_table(Isa isa);
// Every set this build and this CPU can run, baseline first.
std::vector<Isa> available_isas();
// The widest available set, capped by ATTNLAB_KERNEL_ISA when that is set (read once).
const KernelTable& active_kernels();
// What ATTNLAB_KERNEL_ISA asked for, verbatim ("" when unset), for reports.
const char* requested_isa();

}  // namespace attn::kernels
