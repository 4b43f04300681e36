// Head scores: what a trained attention head does, as three numbers in [0, 1] measured on
// a probe batch (the mean attention weight a query puts on one particular key):
//
//   previous-token  weight on key i-1, over queries i >= 1
//   induction       weight on key j+1, where j < i is the most recent earlier position
//                   holding the same token as query i, over queries whose token occurred
//                   before (the "find the last occurrence, read what followed" pattern)
//   diagonal        weight on key i itself, over all queries
//
// Positions holding the special token (padding) are left out as queries.
// The probe batch is 32 sequences of m distinct random symbols followed by their
// repetition, m uniform in 8..16 as in the induction task (generate_repeat_probe), from a
// fixed seed, so scores are comparable across runs. On it, uniform causal attention scores about
// (1/n) sum 1/(i+1) on each measure: low.
//
// A head is named "induction" when its induction score reaches kInductionThreshold, else
// "previous-token" when its previous-token score reaches kPreviousTokenThreshold: more than
// half of its attention, on average, goes to that one key. (On the probe, the two target
// keys differ for every query, so no head can pass both.)
#pragma once

#include "core/train/model.h"
#include "core/train/tasks.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

inline constexpr float kPreviousTokenThreshold = 0.5f;
inline constexpr float kInductionThreshold = 0.5f;
inline constexpr int kProbeSequences = 32;
inline constexpr std::uint64_t kProbeSeed = 20240607;

struct HeadScore {
  int layer = 0, head = 0;
  float previous_token = 0.0f;
  float induction = 0.0f;
  float diagonal = 0.0f;
  std::string label;  // "induction", "previous-token" or ""
};

// Scores one head from its weights on a batch: `weights` holds (T, T) per sequence, sequence
// b at weights + b * sequence_stride. `batch` gives the tokens.
HeadScore score_head(const float* weights, std::size_t sequence_stride, const Batch& batch);

// The label for the scores (the thresholds above).
std::string head_label(float previous_token, float induction);

// Every head of the model (layer-major) scored on the repeat probe batch.
std::vector<HeadScore> head_scores(const ModelConfig& config, const float* params);

}  // namespace attn::train
