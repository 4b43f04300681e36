// Running a language model on text: the forward pass one block of new tokens at a time over
// a key/value cache, with the tutorial's switches for breaking the math.
//
// Feeding tokens at positions n .. n+c-1 computes, for each layer, their q, k and v, appends
// k and v to the cache, and lets each new query attend to the cached keys (all of them up to
// its own position; without the causal mask, to every key of the block fed so far). A whole
// text is one feed from an empty cache; generation feeds one token per step, so a step costs
// O(n) attention work instead of recomputing the sequence (the cache is the only state).
//
// One head's attention, for query i and key j (d_k = d_model / heads):
//   1 raw score   s_ij = q_i . k_j                 (q, k, v rounded to float16 first with half)
//   2 scale       s_ij *= 1/sqrt(d_k)              (unless scale is off or the model was
//                                                   trained without it), then / temperature
//   3 mask        j > i gets -inf, or -1e9 with large_negative_fill (causal only)
//   4 softmax     max-subtracted; scores and weights rounded to float16 with half
//   5 output      o_i = sum_j p_ij v_j, or 0 when the head is ablated
// An ablated layer has every head ablated: its attention adds nothing to the residual
// stream (its MLP still runs).
//
// An intervention (activation patching, core/lm/patching.h) records a feed's activations at
// three kinds of site and/or writes chosen entries over them from a recorded run:
//   residual  x entering layer l (l = 0: the embeddings), and x after the last layer (l = L,
//             before the final layer norm)
//   head      head h's output o_i of step 5, before W_O (columns h*d_k .. h*d_k + d_k - 1 of
//             the heads' concatenation)
//   mlp       layer l's MLP output (after W_2 and its bias), before it joins x
// A patch replaces a site's rows at one position, or at every position, by the source's; the
// rest of the pass then computes from the patched values. Without patches the math is
// untouched: a recording feed gives the plain feed's logits bit for bit.
#pragma once

#include "core/base/types.h"
#include "core/lm/language_model.h"

#include <cstdint>
#include <vector>

namespace attn::lm {

inline constexpr float kMinAttentionTemperature = 0.05f;
inline constexpr float kMaxAttentionTemperature = 20.0f;

struct RunOptions {
  bool scale = true;
  float attention_temperature = 1.0f;
  bool causal = true;
  bool large_negative_fill = false;
  bool half_precision = false;
  std::vector<std::uint8_t> ablated;  // layers * heads, [layer * heads + head]; empty = none

  bool is_ablated(int layer, int head, int heads) const;
};

// The options against the model: the temperature's range and the ablated heads' indices.
Status check_options(const LanguageModel& model, const RunOptions& options);

// What a feed keeps for the views: per layer, q, k, v of the new rows, and per layer and
// head the new rows' weights over every key (rows, keys).
struct FeedTrace {
  int first = 0, rows = 0, keys = 0;
  std::vector<Mat> q, k, v;        // layers entries, (rows, d_model)
  std::vector<Mat> weights;        // layers * heads entries, (rows, keys)
};

// The activations of a feed at the sites above, row p = position p (a feed from position
// `first` fills rows first .. first + count - 1).
struct Activations {
  std::vector<Mat> residual;  // layers + 1 entries, (positions, d_model)
  std::vector<Mat> heads;     // layers entries, (positions, d_model): every head's o, concatenated
  std::vector<Mat> mlp;       // layers entries, (positions, d_model)
};

enum class PatchSite { Residual, Head, Mlp };
inline constexpr int kAllPositions = -1;

// One site taken from the source run: `layer` (0 .. layers for the residual stream, else
// 0 .. layers - 1), `head` (head sites only) and `position` (kAllPositions or one position).
struct Patch {
  PatchSite site = PatchSite::Residual;
  int layer = 0, head = 0;
  int position = kAllPositions;
};

// What a feed records and what it patches. `record`, when not null, receives this feed's
// activations as they flowed (after its patches). `source` holds rows for every position the
// patches name (the caller checks the patches against the model: patching.cpp does).
struct Intervention {
  Activations* record = nullptr;
  const Activations* source = nullptr;
  std::vector<Patch> patches;
};

class Runner {
 public:
  // An empty cache for the model (which must outlive the runner). Options are checked by
  // the caller (check_options).
  Runner(const LanguageModel& model, RunOptions options);

  int position() const { return filled_; }
  int capacity() const { return model_->config.context; }
  // Bytes the key/value cache holds now: 2 x layers x position x d_model floats.
  std::size_t cache_bytes() const;
  void clear() { filled_ = 0; }

  // Feeds `count` tokens (1 .. capacity - position). logits gets (count, vocab); trace, when
  // not null, what the views draw; intervention, when not null, what is recorded and patched.
  void feed(const int* tokens, int count, Mat& logits, FeedTrace* trace,
            const Intervention* intervention = nullptr);

 private:
  const LanguageModel* model_;
  RunOptions options_;
  int filled_ = 0;
  std::vector<Mat> keys_, values_;  // per layer (context, d_model)
};

// log2-probabilities of a row of logits (natural-log softmax, then / ln 2).
void log2_softmax(const float* logits, int vocab, std::vector<double>& out);

}  // namespace attn::lm
