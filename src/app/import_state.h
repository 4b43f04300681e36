// The imported scene: attention read from a file (core/io/import_attention.h) shown by the
// explorer. The state keeps the whole file's data once; the selected layer becomes the
// scene's trace (one HeadTrace per head), so every panel that applies works on it.
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
// Sections: 1 loading  2 special tokens  3 the layer as a trace  4 panels that need Q/K/V
#pragma once

#include "app/app_state.h"
#include "core/io/import_attention.h"

#include <memory>
#include <string>
#include <vector>

namespace attn {

// ---- 1 loading --------------------------------------------------------------------------

// Parses `bytes` and, on success, makes it the scene (source Imported, layer 0, head 0,
// cursor 0). On error the state is unchanged and the message says why.
Status import_into_state(AppState& state, const std::uint8_t* bytes, std::size_t size, const std::string& name,
                         const ImportOptions& options, const InflateFn& inflate);

// Makes already-parsed data the scene.
void set_imported(AppState& state, ImportedAttention data, const std::string& name);

// ---- 2 special tokens -----------------------------------------------------------------

// [CLS], [SEP], [PAD], [MASK], [UNK], <s>, </s>, <pad>, <unk>, <|endoftext|>, <bos>, <eos>,
// <|begin_of_text|> and other "<|...|>" markers (exact matches after trimming spaces).
bool is_special_token(const std::string& token);

// ---- 3 the layer as a trace -----------------------------------------------------------

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

// Rebuilds the scene from the imported data for the settings' layer (called by
// update_results when the scene changed).
void update_imported_results(AppState& state);

// The model view's thumbnails are filled a few per frame within `budget_ms`, so a large
// file never stalls the frame loop. True when it filled some (the view should redraw).
bool advance_thumbnails(AppState& state, double budget_ms);

// Block-averages a matrix down to at most max_side x max_side cells (the model view's
// thumbnails use kThumbnailSide).
inline constexpr int kThumbnailSide = 48;
Mat pooled(const Mat& m, int max_side);

// ---- 4 panels that need Q/K/V ---------------------------------------------------------

// True when the scene is imported without Q/K/V and `panel` needs the scores they give
// (pipeline, compare); the UI then says so instead of drawing the panel.
bool imported_panel_needs_qkv(const AppState& state, Panel panel);

}  // namespace attn
