// The messages src/app makes (the settings' checks, the link, the sentence, files),
// with their English texts ({0}, {1}, ... are arguments; see MessageText in
// core/base/types.h). Their Chinese texts are in ui/messages_zh_app.h. A key's name is an
// argument as it is written in the state ('scale'); where a key sits inside an object, the
// message names that object too ("'scale' in 'compare'").
#pragma once

#include "core/base/types.h"

#define ATTNLAB_APP_MESSAGES(X) \
  X(app_text_too_long, "the text is {0} bytes; the explorer takes at most {1}") \
  X(app_text_too_many_tokens, "the text has {0} tokens; the explorer shows at most {1}") \
  X(app_type_a_sentence, "type a sentence to see its attention") \
  X(app_trained_not_loaded, "the trained model is not loaded") \
  X(app_trained_not_loaded_yet, "the trained model is not loaded (yet)") \
  X(app_lm_loading, "the language model is loading; the scene opens when it arrives") \
  X(app_lm_unavailable, "this page carries no language model, so its scene cannot open here") \
  X(app_lm_ablate_rule, "'ablate' in 'lm' must be a list of head numbers (layer x heads + head) from 0 to {0}") \
  X(app_no_results, "no results") \
  X(app_key_number, "'{0}' must be a number") \
  X(app_key_between, "'{0}' must be between {1} and {2}") \
  X(app_key_whole, "'{0}' must be a whole number") \
  X(app_key_bool, "'{0}' must be true or false") \
  X(app_key_bool_in, "'{0}' in '{1}' must be true or false") \
  X(app_key_whole_range_in, "'{0}' in '{1}' must be a whole number from {2} to {3}") \
  X(app_key_number_range_in, "'{0}' in '{1}' must be a number from {2} to {3}") \
  X(app_key_object, "'{0}' must be an object") \
  X(app_key_object_in, "'{0}' in '{1}' must be an object") \
  X(app_key_index_list, "'{0}' must be a list of at most {1} token indices") \
  X(app_key_index_range, "'{0}' must hold token indices from 0 to {1}") \
  X(app_unknown_key, "unknown key '{0}'") \
  X(app_unknown_key_in, "unknown key '{0}' in '{1}'") \
  X(app_scale_rule, "'{0}' must be \"default\", \"none\" or a number in [{1}, {2}]") \
  X(app_scale_rule_in, "'{0}' in '{1}' must be \"default\", \"none\" or a number in [{2}, {3}]") \
  X(app_score_rule, "'{0}' must be one of {1}") \
  X(app_score_rule_in, "'{0}' in '{1}' must be one of {2}") \
  X(app_fill_rule, "'{0}' must be \"-inf\" or a number from {1} to {2}") \
  X(app_fill_rule_in, "'{0}' in '{1}' must be \"-inf\" or a number from {2} to {3}") \
  X(app_painted_string, "'painted' in '{0}' must be a string such as \"0:3- 2:1+\"") \
  X(app_painted_in, "'painted' in '{0}'") \
  X(app_painted_space, "painted cells must be separated by one space") \
  X(app_painted_cell, "painted cell {0} (at character {1}) must read row:col+ or row:col- with indices from 0 to {2}") \
  X(app_painted_count, "at most {0} painted cells") \
  X(app_v1_mask, "'mask' must be \"none\" or \"causal\" in a version 1 state") \
  X(app_imported_needs_file, "'source' \"imported\" needs a loaded file (drop one on the page or use Import)") \
  X(app_source_rule, "'source' must be one of {0}") \
  X(app_sentence_string, "'sentence' must be a string") \
  X(app_dmodel_heads, "dModel {0} is not divisible by {1} heads") \
  X(app_positional_bool, "'positional' is a choice since version 3, one of {0} (true and false are read from version 2 states)") \
  X(app_positional_rule, "'positional' must be one of {0}") \
  X(app_rope_pairing_rule, "'ropePairing' must be one of {0}") \
  X(app_rope_even, "RoPE turns pairs of coordinates: d_k = dModel / heads = {0} must be even") \
  X(app_panel_rule, "'panel' must be one of {0}") \
  X(app_theme_rule, "'theme' must be one of {0}") \
  X(app_weight_range_rule, "'weightRange' must be one of {0}") \
  X(app_language_rule, "'language' must be one of {0}") \
  X(app_across_layers_rule, "'acrossLayers' must be one of {0}") \
  X(app_patch_text_rule, "'{0}' in 'patch' must be a string of at most {1} bytes") \
  X(app_patch_by_rule, "'by' in 'patch' must be one of {0}") \
  X(app_overview_pool_rule, "'pool' in 'overview' must be one of {0}") \
  X(app_overview_progress, "the overview's progress must be from 0 to 1") \
  X(app_overview_shape, "the overview's result does not have the pass's shape") \
  X(app_cell_not_dot, "the score is {0}, not a dot product, so it has no terms over the head's dimensions") \
  X(app_cell_no_qk, "this file has weights only: a score's terms need q and k") \
  X(app_cell_outside, "the cell ({0}, {1}) is outside the head's scores") \
  X(app_across_too_many, "across layers is computed here for up to {0} tokens; this scene has {1} (attnlab-cli rollout takes any size)") \
  X(app_lab_point, "'{0}' in 'lab' must be [x, y] with |x|, |y| <= {1}") \
  X(app_lab_matrix, "'{0}' in 'lab' must hold {1} numbers (a 2 x 2 matrix, row by row)") \
  X(app_lab_numbers_in, "'{0}' in 'lab' must hold numbers in [{1}, {2}]") \
  X(app_lab_row_count, "'row' in 'lab' must hold 1 to {0} numbers") \
  X(app_state_too_long, "the state is {0} bytes; at most {1} are read") \
  X(app_state_not_json, "state is not valid JSON") \
  X(app_state_not_object, "state must be a JSON object") \
  X(app_message_not_json, "the message is not valid JSON") \
  X(app_lm_text_report_bad, "the training's report is not valid: {0}") \
  X(app_lm_text_failed, "the training stopped: {0}") \
  X(app_text_not_utf8, "the text is not UTF-8 (byte {0})") \
  X(app_link_ignored, "The link's state was ignored") \
  X(app_link_percent, "a '%' in the link is not followed by two hex digits") \
  X(app_link_too_long, "the link's state is {0} bytes; at most {1} are read") \
  X(app_link_no_equals, "'{0}' in the link has no '='") \
  X(app_link_not_utf8, "the value of '{0}' in the link is not UTF-8 text") \
  X(app_link_too_deep, "the value of '{0}' in the link nests more than {1} levels deep") \
  X(app_link_twice, "'{0}' appears twice in the link") \
  X(app_link_not_setting, "'{0}' is not a setting's name") \
  X(app_link_conflict, "'{0}' conflicts with another part of the link") \
  X(app_cannot_write, "cannot write {0}") \
  X(app_cannot_read, "cannot read {0}") \
  X(app_model_file, "model file") \
  X(app_import_too_large, "the file is {0} MiB; at most {1} MiB can be imported") \
  X(app_no_import, "no import is in progress") \
  X(app_import_no_weights, "this file has q and k but no attention weights: open it in the overview") \
  X(app_not_running, "the app is not running") \
  X(app_no_matrix, "no matrix '{0}' for head {1} in this scene") \
  X(app_capture_scale, "the scale must be 1, 2, 3 or 4") \
  X(app_capture_size, "a {0} x {1} picture is larger than this GPU draws ({2} pixels a side)") \
  X(app_capture_framebuffer, "the offscreen framebuffer could not be made") \
  X(app_task_rule, "'task' in 'training' must be copy, reverse, sort, previous or induction") \
  X(app_training_dmodel_heads, "'dModel' {0} in 'training' is not divisible by {1} heads") \
  X(app_init_rule, "'init' in 'scalingRun' must be \"unit\" or \"small\"") \
  X(app_variant_kind_rule, "'kind' in 'variants' must be one of {0}") \
  X(app_variant_seed_rule, "'seed' in 'variants' must be a whole number from 0 to 2^53 - 1") \
  X(app_exercise_none, "no exercise is shown") \
  X(app_exercise_kind, "exercise {0} takes a '{1}' answer") \
  X(app_exercise_not_ready, "the figures of exercise {0} are not ready yet (the language model is loading)") \
  X(app_exercise_cell_range, "the cell must have a row from 0 to {0} and a column from 0 to {1}") \
  X(app_exercise_choice_range, "the choice must be a whole number from 0 to {0}") \
  X(app_exercise_progress, "the exercises' progress must be a list of {id, attempts, done} with ids from 1 to {0}")

namespace attn::msg {
#define ATTNLAB_MESSAGE_TEXT(id, en) inline constexpr MessageText id{#id, en};
ATTNLAB_APP_MESSAGES(ATTNLAB_MESSAGE_TEXT)
#undef ATTNLAB_MESSAGE_TEXT
}  // namespace attn::msg
