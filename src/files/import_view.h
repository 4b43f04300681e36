// An imported file as the explorer shows it: attention read from a file
// (core/io/import_attention.h), its tokens, its layers as traces and their thumbnails, for the
// app's imported scene and `attnlab-cli export` alike. The state keeps the whole file's data
// once; the selected layer becomes the scene's trace (one HeadTrace per head), so every panel
// that applies works on it.
//
// What depends on what:
//   weights only   the model view, heads, token (weights row, lines) panels; the pipeline
//                  and compare panels need scores, so they say Q/K/V are missing
//   Q, K, V given  every panel: the pipeline is recomputed from Q, K, V with the lab's math
//                  settings (the file's weights stay in the model view, and figures report
//                  how far the recomputation is from them)
// Special tokens ([CLS], [SEP], BOS, <s>, </s>, padding) can be hidden; the weights are then
// shown raw (rows no longer sum to 1) or renormalised over the visible keys. The attention
// sink (the share of each head's weight on the first key) is computed on the raw weights.
//
// The state's side (making a file the scene, rebuilding it for a layer, filling the model
// view, the panels that need Q/K/V) is in app/app_state.h, section 5; this file takes the
// file's data and the settings it needs.
//
// Sections: 1 special tokens  2 the layer as a trace
#pragma once

#include "core/attention/pipeline.h"
#include "core/io/import_attention.h"

#include <string>
#include <vector>

namespace attn {

// ---- 1 special tokens -----------------------------------------------------------------

// [CLS], [SEP], [PAD], [MASK], [UNK], <s>, </s>, <pad>, <unk>, <|endoftext|>, <bos>, <eos>,
// <|begin_of_text|> and other "<|...|>" markers (exact matches after trimming spaces).
bool is_special_token(const std::string& token);

// ---- 2 the layer as a trace -----------------------------------------------------------

// The visible indices of each side (all of them unless special tokens are hidden, and
// never none: a file of special tokens only keeps them all).
struct VisibleTokens {
  std::vector<int> rows, cols;
};
VisibleTokens visible_tokens(const ImportedAttention& data, bool hide_special);

// One head's weights as shown: the visible rows and columns, renormalised so each row sums
// to 1 over the visible keys when asked (a row whose visible weights are all 0 stays 0).
Mat shown_weights(const ImportedAttention& data, int layer, int head, const VisibleTokens& visible, bool renormalise);

// Mean over query rows of the weight on key 0 (the attention sink), from the raw weights.
float first_token_share(const Mat& raw_weights);

// The file's `layer` as the scene's trace: one HeadTrace per head, with the visible rows and
// columns. With Q, K and V the heads are recomputed under `config` (the lab's math; the
// mask's token lists, which index the sentence, are left out) and `max_difference`, if
// given, gets the largest |recomputed - file weights|; without them the file's weights (as
// shown_weights gives them) are the result, with no scores.
PipelineTrace imported_layer_trace(const ImportedAttention& data, int layer, const VisibleTokens& visible,
                                   bool renormalise, const PipelineConfig& config, float* max_difference);

// Fills thumbnails[done..] (thumbnail i: layer i / heads, head i % heads, pooled to
// kThumbnailSide) for at least one and more while `budget_ms` lasts. True when it filled some.
bool fill_thumbnails(const ImportedAttention& data, const VisibleTokens& visible, bool renormalise,
                     std::vector<Mat>& thumbnails, int& done, double budget_ms);

// Block-averages a matrix down to at most max_side x max_side cells (the model view's
// thumbnails use kThumbnailSide).
inline constexpr int kThumbnailSide = 48;
Mat pooled(const Mat& m, int max_side);

// The model view's grid from every head's raw weights (layer * heads + head, as a model ran
// them): each pooled to kThumbnailSide, and per head of `layer` its first_token_share.
void model_grid(const std::vector<Mat>& weights, int heads, int layer, std::vector<Mat>& thumbnails,
                std::vector<float>& sink_share);

}  // namespace attn
