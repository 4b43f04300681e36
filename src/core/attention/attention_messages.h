// The messages src/core/attention and src/core/efficient make where the lab's own settings can
// reach them (the panels show the trace's status), with their English texts ({0}, {1}, ...
// are arguments; see MessageText in core/base/types.h). Their Chinese texts are in
// ui/messages_zh_attention.h. The kernels' argument checks, which only a caller of the core's
// API can meet, keep plain English messages.
#pragma once

#include "core/base/types.h"

#define ATTNLAB_ATTENTION_MESSAGES(X) \
  X(att_dmodel_min, "d_model must be at least 1") \
  X(att_heads_min, "heads must be at least 1") \
  X(att_dmodel_heads, "d_model {0} is not divisible by {1} heads") \
  X(att_temperature, "temperature must be a finite number > 0") \
  X(att_scale_finite, "scale must be a finite number") \
  X(att_fill_finite, "the finite mask fill must be a finite number") \
  X(att_float_mask_values, "float mask contains NaN or +inf") \
  X(att_no_tokens, "there must be at least one token") \
  X(att_values_keys, "values have {0} tokens, keys have {1}") \
  X(att_embedding_width, "embeddings must have d_model = {0} columns") \
  X(att_embedding_values, "embeddings contain NaN or Inf") \
  X(att_float_mask_shape, "float mask must be (n_q, n_k)") \
  X(att_head_mask_shape, "per-head float masks must be (n_q, n_k)") \
  X(att_head_mask_count, "there must be one per-head float mask per head") \
  X(att_projection_shape, "projection weights must be (d_model, d_model)") \
  X(att_additive_parameters, "additive scoring needs its parameters for every head") \
  X(att_positions_need_dot, "RoPE and ALiBi act on dot-product scores: choose the dot or cosine score") \
  X(att_additive_needs_projections, "additive scoring needs projections: start from embeddings") \
  X(att_rope_even, "RoPE needs an even d_k (it turns pairs of entries), got {0}") \
  X(att_rope_base, "the RoPE base must be a finite number > 0") \
  X(att_alibi_slope, "the ALiBi slope must be a finite number") \
  X(att_positional_kind, "unknown positional kind") \
  X(att_padding_count, "key padding has {0} flags but there are {1} keys") \
  X(att_custom_mask_shape, "custom mask must be ({0}, {1})") \
  X(att_window_negative, "window must be >= 0") \
  X(att_stride_negative, "stride must be >= 0") \
  X(att_block_negative, "block must be >= 0") \
  X(att_global_range, "global token {0} is out of range") \
  X(att_no_causal_form, "{0} has no causal form (it mixes all positions): drop causal") \
  X(att_linformer_identity_rank, "identity projections need rank = n = {0}, got rank {1}") \
  X(att_rollout_residual, "the residual share must be a number from 0 to 1") \
  X(att_rollout_empty, "rollout needs at least one layer with at least one head") \
  X(att_rollout_cross, "rollout needs self-attention (as many queries as keys); this is {0} x {1}, cross-attention") \
  X(att_rollout_sizes, "every head of every layer must be the same size for rollout") \
  X(att_rollout_finite, "rollout needs finite weights (a NaN or an infinity is in them)") \
  X(att_overview_empty, "the overview needs at least one query and one key, and d_k >= 1") \
  X(att_overview_width, "k has d_k = {0} columns, q has {1}: they must match") \
  X(att_overview_tokens, "{0} queries x {1} keys: the overview takes at most {2} per side") \
  X(att_overview_dk, "d_k = {0}: the overview takes at most {1}") \
  X(att_overview_block, "the block size must be a whole number >= 1, got {0}") \
  X(att_overview_pooled, "blocks of {0} make a {1} x {2} overview, more than {3} cells: choose a larger block") \
  X(att_overview_finite, "{0} contains NaN or Inf") \
  X(att_overview_not_running, "no overview is in progress") \
  X(att_overview_memory, "out of memory for the overview's packed keys") \
  X(att_overview_not_done, "the overview is not finished: its row statistics are not known yet") \
  X(att_overview_region_rows, "the region's query rows [{0}, {1}) must lie within 0 to {2} and not be empty") \
  X(att_overview_region_keys, "the region's keys [{0}, {1}) must lie within 0 to {2} and not be empty") \
  X(att_overview_region_cap, "the region is {0} x {1}: at most {2} per side") \
  X(att_overview_stats, "the row statistics are for {0} queries, q has {1}")

namespace attn::msg {
#define ATTNLAB_MESSAGE_TEXT(id, en) inline constexpr MessageText id{#id, en};
ATTNLAB_ATTENTION_MESSAGES(ATTNLAB_MESSAGE_TEXT)
#undef ATTNLAB_MESSAGE_TEXT
}  // namespace attn::msg
