// Efficient attention: cheaper stand-ins for exact attention softmax(Q K^T / sqrt(d_k)) V,
// each run beside the exact result on the same input, so the lab can show what a variant
// changes (its pattern, its error) and what it saves (efficient_cost.h).
//
// It is not the mask editor (masks.h builds patterns; the display patterns here come from
// its build_mask) and not the exact kernels (attention.h keeps every stage for display,
// streaming.h is the exact path for long inputs; both are reused, not repeated).
//
// Legend: n tokens (self-attention: q, k, v all have n rows), d_k query/key width,
// d_v value width, w window, s stride, b block, m random features, r Linformer rank
// (the paper's k, renamed so it does not clash with the keys K); c = 1/sqrt(d_k).
//
// The variants, and the work of their real algorithm:
//   exact        softmax(c q k^T) v over every key (causal: j <= i), by streaming_attention:
//                no n x n matrix                                          O(n^2 (d_k + d_v))
//   window       keys with |i - j| <= w (causal: i - w <= j <= i), row by row over the
//                band only                                                O(n w (d_k + d_v))
//   strided      keys with (i - j) mod s == 0 (causal: and j <= i): the queries and keys
//                of one residue class i mod s attend only to each other, so each class is
//                a dense problem of about n/s tokens                      O(n^2/s (d_k + d_v))
//   blocksparse  keys in i's block, floor(i/b) == floor(j/b) (causal: j <= i): one dense
//                problem per block                                        O(n b (d_k + d_v))
//   linear       phi(x) = elu(x) + 1 on q and k (unscaled, as Katharopoulos et al.);
//                out_i = phi(q_i)^T S / phi(q_i)^T z, S = sum_j phi(k_j) v_j^T (d_k, d_v),
//                z = sum_j phi(k_j); causal: S and z are prefix sums over j <= i  O(n d_k d_v)
//   performer    phi(x)_r = exp(w_r . x - |x|^2 / 2) / sqrt(m), r = 1..m, w_r ~ N(0, I_{d_k}),
//                on q and k each scaled by d_k^(-1/4), so phi(q) . phi(k) estimates
//                exp(q . k / sqrt(d_k)); then the linear form              O(n m (d_k + d_v))
//   linformer    K' = E k, V' = F v with E, F (r, n) ~ N(0, 1/r) (or the identity when r = n);
//                out = softmax(c q K'^T) V'. No causal form: E and F mix all positions.
//                                                                         O(n r (d_k + d_v))
// Random parameters (w_r, E, F) are drawn once from attn::Rng(seed), as a trained model
// would hold them, and are not part of what is timed.
//
// Sections: 1 configuration  2 parameters  3 the algorithms  4 report (error and display)
#pragma once

#include "core/base/choices.h"
#include "core/base/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// ---------------------------------------------------------------------------------------
// 1 configuration
// ---------------------------------------------------------------------------------------

// The kinds, one X(...) line each: the only place their names are written. The state's
// `variants.kind` (its schema, reader and writer), the CLI's --kind and --kinds (and their
// error texts), the JS module's checks (through its choices()) and the shipped .d.ts
// unions (cmake/steps/make-site.mjs writes them from that list) all read this table.
// Adding a variant: its X(...) line, its case in the algorithms (run_efficient_into,
// efficient_report, efficient_cost), its label in the UI (ui/strings.h) and docs/EFFICIENT.md.
//
// Columns of ATTNLAB_EFFICIENT_KINDS(X):
//   value      the EfficientKind enumerator
//   name       its public name (state, URLs, CLI, JS: never renamed)
//   variant    one of the approximations the lab lists (exact is the reference, not listed)
//   causal     has a causal form (query i sees keys j <= i); causal is refused otherwise
//   parameter  the EfficientConfig field it reads (window, stride, block, features, rank), or
//              none; its name is the option's everywhere (state key, CLI --NAME, JS argument)
#define ATTNLAB_EFFICIENT_KINDS(X)                       \
  X(Exact, "exact", false, true, none)                   \
  X(Window, "window", true, true, window)                \
  X(Strided, "strided", true, true, stride)              \
  X(BlockSparse, "blocksparse", true, true, block)       \
  X(Linear, "linear", true, true, none)                  \
  X(Performer, "performer", true, true, features)        \
  X(Linformer, "linformer", true, false, rank)

enum class EfficientKind {
#define ATTNLAB_EFFICIENT_ENUMERATOR(value, name, variant, causal, parameter) value,
  ATTNLAB_EFFICIENT_KINDS(ATTNLAB_EFFICIENT_ENUMERATOR)
#undef ATTNLAB_EFFICIENT_ENUMERATOR
};
enum class LinformerProjection { Random, Identity };

// Largest window, stride, block, feature count and rank accepted.
inline constexpr int kEfficientMaxParameter = 1 << 20;
// Largest intermediate a variant may allocate (n m features, n r scores, r n projections):
// 2^26 floats (256 MiB), so a bad setting is refused instead of exhausting a wasm heap.
inline constexpr std::int64_t kEfficientMaxFloats = std::int64_t{1} << 26;

struct EfficientConfig {
  EfficientKind kind = EfficientKind::Window;
  int window = 8;      // w >= 1 (window)
  int stride = 4;      // s >= 1 (strided)
  int block = 16;      // b >= 1 (blocksparse)
  int features = 64;   // m >= 1 (performer)
  int rank = 32;       // r >= 1 (linformer); r = n for identity projections
  bool causal = false;  // query i sees keys j <= i (refused for linformer)
  LinformerProjection projection = LinformerProjection::Random;
  std::uint64_t seed = 0;  // for the performer's w_r and the linformer's E, F
};

// One row of ATTNLAB_EFFICIENT_KINDS.
struct EfficientKindInfo {
  EfficientKind value;
  const char* name;
  bool variant;
  bool causal;
  const char* parameter;        // nullptr for none
  int EfficientConfig::*field;  // nullptr for none
};

inline constexpr EfficientKindInfo kEfficientKinds[] = {
#define ATTNLAB_EFFICIENT_ROW(value, name, variant, causal, parameter) \
  {EfficientKind::value, name, variant, causal, ATTNLAB_EFFICIENT_PARAMETER_##parameter},
#define ATTNLAB_EFFICIENT_PARAMETER_none nullptr, nullptr
#define ATTNLAB_EFFICIENT_PARAMETER_window "window", &EfficientConfig::window
#define ATTNLAB_EFFICIENT_PARAMETER_stride "stride", &EfficientConfig::stride
#define ATTNLAB_EFFICIENT_PARAMETER_block "block", &EfficientConfig::block
#define ATTNLAB_EFFICIENT_PARAMETER_features "features", &EfficientConfig::features
#define ATTNLAB_EFFICIENT_PARAMETER_rank "rank", &EfficientConfig::rank
    ATTNLAB_EFFICIENT_KINDS(ATTNLAB_EFFICIENT_ROW)
#undef ATTNLAB_EFFICIENT_ROW
#undef ATTNLAB_EFFICIENT_PARAMETER_none
#undef ATTNLAB_EFFICIENT_PARAMETER_window
#undef ATTNLAB_EFFICIENT_PARAMETER_stride
#undef ATTNLAB_EFFICIENT_PARAMETER_block
#undef ATTNLAB_EFFICIENT_PARAMETER_features
#undef ATTNLAB_EFFICIENT_PARAMETER_rank
};
static_assert(choices_in_order(kEfficientKinds), "ATTNLAB_EFFICIENT_KINDS lists the kinds in enum order");

// The kind's row of kEfficientKinds.
const EfficientKindInfo& efficient_kind_info(EfficientKind kind);
// "exact", "window", ... (the name column).
const char* efficient_kind_name(EfficientKind kind);
// The inverse of efficient_kind_name; false for any other text.
bool parse_efficient_kind(const std::string& name, EfficientKind& kind);
// The approximations (the variant column), in the table's order (exact excluded).
std::vector<EfficientKind> efficient_variants();
// The variants' names (the variant column), or every kind's: "window, strided, ...", or with
// a last separator " or ": "window, ..., performer or linformer".
std::vector<std::string> efficient_variant_name_list();
std::string efficient_variant_names(const char* separator = ", ", const char* last_separator = "");
std::string efficient_kind_names(const char* separator = ", ", const char* last_separator = "");

// Checks the parameter the kind uses against n and d_k; the message names it
// ("window must be a whole number from 1 to 1048576, got 0").
Status validate_efficient_config(const EfficientConfig& config, int n, int d_k);

// Checks that q, k, v are a self-attention problem: q (n, d_k), k (n, d_k), v (n, d_v),
// nothing empty, everything finite. Messages name the operand.
Status validate_efficient_inputs(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                 const Eigen::Ref<const Mat>& v);

// ---------------------------------------------------------------------------------------
// 2 parameters
// ---------------------------------------------------------------------------------------

struct EfficientParams {
  Mat omega;  // performer: (m, d_k), rows w_r ~ N(0, I)
  Mat e, f;   // linformer: (r, n) each, entries ~ N(0, 1/r), or the identity
};

// Draws what the config's kind needs for inputs of n tokens of width d_k (nothing for
// the other kinds). Call validate_efficient_config first.
EfficientParams draw_efficient_params(const EfficientConfig& config, int n, int d_k);

// ---------------------------------------------------------------------------------------
// 3 the algorithms
// ---------------------------------------------------------------------------------------

struct EfficientOutput {
  Mat output;  // (n, d_v)
  Status status;
};

// Scratch matrices a variant reuses from run to run. Owning them outside the algorithm
// keeps repeated runs (an app's frames, the timing loop) free of fresh allocations, whose
// first-touch page faults would otherwise be measured along with the arithmetic.
struct EfficientWorkspace {
  Mat phi_q, phi_k;              // (128, m) one chunk of features of the kernel methods
  Mat summary;                   // (m, d_v) sum_j phi_k_j v_j^T
  RowVec z;                      // (m) sum_j phi_k_j
  Vec scores;                    // (2w + 1) one band of window scores
  Mat k_projected, v_projected;  // (r, d_k), (r, d_v) linformer
  Mat weights;                   // (n, r) linformer
};

// The real algorithm of the config's kind and nothing else (no n x n matrix for any
// kind, no error, no display): what the cost chart times. Writes out (n, d_v). Checks
// shapes, the config and the parameters (O(1)); the inputs must be finite
// (validate_efficient_inputs, which the other entry points call, checks that).
Status run_efficient_into(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                          const Eigen::Ref<const Mat>& v, const EfficientConfig& config,
                          const EfficientParams& params, EfficientWorkspace& workspace, Eigen::Ref<Mat> out);

// validate_efficient_inputs + run_efficient_into with a fresh output and workspace.
EfficientOutput run_efficient(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                              const Eigen::Ref<const Mat>& v, const EfficientConfig& config,
                              const EfficientParams& params);

// draw_efficient_params + run_efficient.
EfficientOutput efficient_attention(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                    const Eigen::Ref<const Mat>& v, const EfficientConfig& config);

// Feature maps of the kernel methods, applied to q and k together. Per-query constant
// factors, and one factor shared by all keys, cancel in the normalisation of
// kernel_attention; the performer map drops them (the query's e^{-|x|^2/2}, the row max of
// w . x, the largest key exponent) so exp() stays in range, which changes no output.
struct FeaturePair {
  Mat phi_q;  // (n, m)
  Mat phi_k;  // (n, m)
};
FeaturePair linear_features(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k);
// omega: (m, d_k).
FeaturePair performer_features(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                               const Eigen::Ref<const Mat>& omega);

// Kernelised attention out_i = sum_j (phi_q_i . phi_k_j) v_j / sum_j (phi_q_i . phi_k_j)
// in O(n m d_v) on given features: non-causal through the (m, d_v) summary phi_k^T v, causal
// by prefix sums of phi_k_j v_j^T and phi_k_j over j <= i. A row whose normaliser is not
// positive (every feature underflowed) is zero. phi_q, phi_k: (n, m); v: (n, d_v).
// (run_efficient computes the same sums fused with the features, a chunk of rows at a time.)
Mat kernel_attention(const Eigen::Ref<const Mat>& phi_q, const Eigen::Ref<const Mat>& phi_k,
                     const Eigen::Ref<const Mat>& v, bool causal);

// ---------------------------------------------------------------------------------------
// 4 report: error against exact attention, and what the panels display
// ---------------------------------------------------------------------------------------

// Display matrices are n x n; above this many tokens the report leaves them empty.
inline constexpr int kEfficientDisplayMaxTokens = 1024;

struct EfficientReport {
  Mat output;        // (n, d_v) the variant's output (run_efficient)
  Mat exact_output;  // (n, d_v) exact attention (streaming_attention, causal if the config is)
  // ||output - exact_output||_F / ||exact_output||_F, summed in double (0 when both are 0,
  // +inf when only the exact output is 0).
  double relative_error = 0.0;

  // Display only, computed when asked and n <= kEfficientDisplayMaxTokens, else empty:
  bool has_display = false;
  BoolMat pattern;      // (n, n) keys the variant reads: build_mask of its pattern; every key
                        // (causal: j <= i) for the kernel methods and the linformer
  Mat weights;          // (n, n) the variant's weights; for linear/performer the implied
                        // matrix phi_q_i . phi_k_j / sum_j', for linformer softmax(c q K'^T) F,
                        // so output = weights v in every case
  Mat exact_weights;    // (n, n) softmax(c q k^T) (causal: masked), from attention()
  Mat weight_error;     // (n, n) weights - exact_weights (signed)
  std::vector<int> nonzeros;  // per row of the pattern (masks.h nonzeros_per_row)

  Status status;
};

EfficientReport efficient_report(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                                 const Eigen::Ref<const Mat>& v, const EfficientConfig& config,
                                 bool with_display = true);

// ||a - b||_F / ||b||_F in double (0 when both are 0, +inf when only b is 0).
double relative_frobenius_error(const Eigen::Ref<const Mat>& a, const Eigen::Ref<const Mat>& b);

}  // namespace attn
