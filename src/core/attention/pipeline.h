// The attention pipeline with every stage recorded, for one or many heads.
//
// Legend: n_q query tokens, n_k key tokens, d_model embedding width, h heads,
// d_k = d_v = d_model / h per head.
//
// Two ways in:
//   run_pipeline(x_q, x_k, x_v, weights, config)   from token embeddings: (+ positional
//       encoding) -> projections -> per head: scores -> scale -> mask -> softmax -> A V
//       -> concatenation -> W^O. Self-attention passes the same x three times;
//       cross-attention passes the other sequence as x_k and x_v.
//   run_pipeline_qkv(q, k, v, config)          from given Q, K, V (one head, no
//       projections): the worked example, imported data.
// Both return a PipelineTrace: the inputs of each stage and its results, which are what
// the panels draw and the tests check. Nothing here is the fast path for long inputs.
//
// Per head, the stages are:
//   1 raw scores      dot:      q_i . k_j
//                     cosine:   q_i . k_j / (|q_i| |k_j|)      in [-1, 1]
//                     additive: v_a . tanh(W_aq q_i + W_ak k_j)   (Bahdanau)
//   2 scaled scores   raw * scale / temperature, scale = 1/sqrt(d_k) by default (so
//                     "scaled dot-product" is dot with the default scale; nothing is
//                     scaled twice)
//   3 masked scores   scaled + additive mask: 0 where allowed, the fill (-inf or a finite
//                     value such as -1e9) where not, plus any float mask given
//   4 weights         softmax per row (stable / naive, float32 / simulated float16)
//   5 output          weights v
#pragma once

#include "core/attention/attention.h"
#include "core/attention/masks.h"
#include "core/attention/softmax.h"
#include "core/base/choices.h"
#include "core/base/types.h"

#include <cstdint>
#include <vector>

namespace attn {

// How a query meets a key (the state's `score`), one X(...) line each: the only place their
// names are written (the state's schema, reader, writer and messages, the CLI's --score and the
// JS module's choices() read it). Columns: the enumerator, its public name, and qk: computed
// from q and k alone (additive scoring needs the pipeline's own learned parameters, so the
// CLI, which reads bare Q and K, offers the others only).
#define ATTNLAB_SCORE_FUNCTIONS(X) \
  X(Dot, "dot", true)              \
  X(Cosine, "cosine", true)        \
  X(Additive, "additive", false)

enum class ScoreFunction {
#define ATTNLAB_SCORE_ENUMERATOR(value, name, qk) value,
  ATTNLAB_SCORE_FUNCTIONS(ATTNLAB_SCORE_ENUMERATOR)
#undef ATTNLAB_SCORE_ENUMERATOR
};

struct ScoreFunctionInfo {
  ScoreFunction value;
  const char* name;
  bool qk;
};

inline constexpr ScoreFunctionInfo kScoreFunctions[] = {
#define ATTNLAB_SCORE_ROW(value, name, qk) {ScoreFunction::value, name, qk},
    ATTNLAB_SCORE_FUNCTIONS(ATTNLAB_SCORE_ROW)
#undef ATTNLAB_SCORE_ROW
};
static_assert(choices_in_order(kScoreFunctions), "ATTNLAB_SCORE_FUNCTIONS lists the functions in enum order");
enum class ScaleKind { Default, None, Custom };

struct PipelineConfig {
  int d_model = 16;
  int heads = 1;
  ScoreFunction score = ScoreFunction::Dot;
  ScaleKind scale_kind = ScaleKind::Default;
  float custom_scale = 1.0f;
  float temperature = 1.0f;  // > 0; divides the scaled scores
  MaskSpec mask;
  Mat additive_mask;  // optional (n_q, n_k) floats added to the scores (PyTorch float masks)
  std::vector<Mat> head_additive_masks;  // optional, one (n_q, n_k) per head, added too
  MaskFill fill = MaskFill::NegInfinity;
  float finite_fill = -1e9f;
  bool positional = false;  // add sinusoidal positional encoding to x before projecting
  // RoPE or ALiBi inside attention (run_pipeline_qkv; core/attention/positional.h).
  PositionalOptions attention_positions;
  SoftmaxForm softmax_form = SoftmaxForm::Stable;
  Precision precision = Precision::Float32;
  // false: the head's scaled_scores and mask_add are not kept (left empty), two n x n
  // matrices fewer to write; attention() returns neither.
  bool keep_every_stage = true;
  // false: no row statistics (HeadTrace::row_stats left empty), a log per weight fewer.
  bool row_statistics = true;
};

// Projection parameters. Convention: row vectors, y = x W + b, so W is (d_model, d_model).
// (PyTorch's Linear stores W^T; the CLI transposes.)
struct ProjectionWeights {
  Mat wq, wk, wv, wo;  // (d_model, d_model) each
  RowVec bq, bk, bv, bo;  // (d_model) each; empty = no bias
  // Additive scoring, per head: W_aq, W_ak (d_k, d_k) and v_a (d_k).
  std::vector<Mat> additive_wq, additive_wk;
  std::vector<RowVec> additive_v;
};

// Parameters drawn from the project's generator: W ~ N(0, 1/d_model) (unit-variance
// projections of unit-variance inputs), no biases, additive parameters ~ N(0, 1/d_k).
ProjectionWeights random_projection_weights(int d_model, int heads, std::uint64_t seed);

struct HeadTrace {
  Mat q, k, v;            // (n_q, d_k), (n_k, d_k), (n_k, d_v)
  Mat raw_scores;         // 1 (n_q, n_k)
  float scale = 1.0f;     // the multiplier of step 2 (scale / temperature)
  Mat scaled_scores;      // 2
  Mat mask_add;           // 3 what was added: 0, the fill, or the float mask
  bool masked = true;     // false: nothing masked or added (mask_add is 0, masked_scores = scaled_scores)
  Mat masked_scores;      // 3
  Mat weights;            // 4 (n_q, n_k)
  Mat output;             // 5 (n_q, d_v)
  std::vector<std::uint8_t> fully_masked_rows;  // rows whose every key was masked (-inf fill)
  SoftmaxFlags softmax_flags;
  WeightRowStats row_stats;  // per query row: entropy, largest weight, distance (weight_row_stats), if asked
};

struct PipelineTrace {
  Mat positional;      // (n_q, d_model) the encoding added, or empty
  Mat x_q, x_k, x_v;   // inputs after positional encoding
  BoolMat allowed;     // (n_q, n_k) the mask
  std::vector<HeadTrace> heads;
  Mat concat;          // (n_q, d_model) heads side by side
  Mat output;          // (n_q, d_model) concat W^O + b^O (= the single head's output without projections)
  Status status;
};

// A matrix of a trace by the page's getMatrix names: a stage of head `head` ("q", "k", "v",
// "rawScores", "scaledScores", "mask", "maskedScores", "weights", "output"), or the heads
// side by side ("concat") and the layer's output ("final"). Null for another name, a head out
// of range (for every name) or a failed trace; the matrix may be empty (a stage not kept, a
// weights-only import).
const Mat* trace_matrix(const PipelineTrace& trace, const std::string& name, int head);

// Sinusoidal positional encoding (Vaswani et al.): PE(p, 2i) = sin(p / 10000^(2i/d)),
// PE(p, 2i+1) = cos(p / 10000^(2i/d)). Computed in double for cross-platform agreement.
Mat sinusoidal_positional_encoding(int n, int d_model);

Status validate_config(const PipelineConfig& config);

PipelineTrace run_pipeline(const Eigen::Ref<const Mat>& x_q, const Eigen::Ref<const Mat>& x_k,
                           const Eigen::Ref<const Mat>& x_v, const ProjectionWeights& weights,
                           const PipelineConfig& config);

// A new scaling step for a trace of run_pipeline that kept every stage: when `config`
// differs from the trace's own only in temperature, scale kind or custom scale, steps 2-5
// and W^O from the kept raw scores and mask give the floats run_pipeline would, without
// projecting or scoring again (what a temperature slider needs). False, and the trace
// untouched, when it cannot (a failed trace, stages not kept, another shape).
bool rescale_pipeline(PipelineTrace& trace, const ProjectionWeights& weights, const PipelineConfig& config);

PipelineTrace run_pipeline_qkv(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                               const Eigen::Ref<const Mat>& v, const PipelineConfig& config);

// The stages 1-5 for one head, used by both entry points. `additive` (n_q, n_k) is added
// to the scores (empty = nothing); `allowed` pairs not allowed get the config's fill (an
// empty `allowed` allows every pair).
// `weights` and `head` pick the additive scorer's parameters; null is fine for dot/cosine.
HeadTrace run_head(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                   const Eigen::Ref<const Mat>& v, const BoolMat& allowed, const Mat& additive,
                   const PipelineConfig& config, const ProjectionWeights* weights, int head);

// run_head with positions applied inside attention (core/attention/positional.h): RoPE turns
// q and k (positions 0 .. n-1) before step 1, ALiBi's bias (causal: -m (i - j)) joins the
// additive mask of step 3. The trace's q and k are the turned ones.
HeadTrace run_head_positioned(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k,
                              const Eigen::Ref<const Mat>& v, const BoolMat& allowed, const Mat& additive,
                              const PipelineConfig& config, const PositionalOptions& positions, bool causal);

}  // namespace attn
