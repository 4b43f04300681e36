// The messages src/core/train makes, with their English texts ({0}, {1}, ... are arguments; see
// MessageText in core/base/types.h). Their Chinese texts are in ui/messages_zh_train.h.
#pragma once

#include "core/base/types.h"

#define ATTNLAB_TRAIN_MESSAGES(X) \
  X(train_unknown_task, "unknown task") \
  X(train_d_mlp_range, "d_mlp must be from 1 to {0} (or 0 for d_model), got {1}") \
  X(train_batch_range, "batch must be from 1 to {0}, got {1}") \
  X(train_learning_rate_range, "learning rate must be in (0, 1]") \
  X(train_beta1_range, "beta1 must be in [0, 1)") \
  X(train_beta2_range, "beta2 must be in [0, 1)") \
  X(train_epsilon_range, "epsilon must be in (0, 1]") \
  X(train_seed_range, "seed must be at most 2^53 - 1") \
  X(train_no_seeds, "the experiment needs at least one seed") \
  X(train_steps_range, "steps must be from 1 to {0}") \
  X(train_window_range, "the window must be from 1 to the step budget") \
  X(train_target_loss_range, "the target loss must be a number > 0") \
  X(train_eval_sequences_range, "eval sequences out of range") \
  X(train_seed_scaled, "seed {0}, scaled") \
  X(train_seed_unscaled, "seed {0}, unscaled") \
  X(train_layers_range, "layers must be from {0} to {1}, got {2}") \
  X(train_heads_range, "heads must be from {0} to {1}, got {2}") \
  X(train_d_model_range, "d_model must be from {0} to {1}, got {2}") \
  X(train_model_d_mlp_range, "d_mlp must be from {0} to {1}, got {2}") \
  X(train_context_range, "context must be from {0} to {1}, got {2}") \
  X(train_vocab_range, "vocab must be from {0} to {1}, got {2}") \
  X(train_heads_divide, "d_model {0} is not divisible by {1} heads") \
  X(train_unknown_init, "unknown init scheme") \
  X(train_batch_empty, "the batch is empty") \
  X(train_batch_context, "the batch has {0} positions per sequence, the model {1}") \
  X(train_batch_sizes, "the batch's arrays do not hold size x context entries") \
  X(train_token_outside_vocab, "token {0} at {1} is outside the vocabulary") \
  X(train_target_outside_vocab, "target {0} at {1} is outside the vocabulary") \
  X(train_file_short_section, "corrupt: a section runs past the end of the file") \
  X(train_file_too_short, "truncated: {0} bytes is shorter than the smallest model file") \
  X(train_file_bad_magic, "not an Attention Lab model file (bad magic; expected \"ATTNLABM\")") \
  X(train_file_bad_version, "unsupported model file version {0} (this build reads version {1})") \
  X(train_file_truncated, "truncated: the file has {0} bytes, its header says {1}") \
  X(train_file_trailing_bytes, "{0} trailing bytes after the {1}-byte model") \
  X(train_file_checksum, "checksum mismatch: the file is corrupt") \
  X(train_file_unknown_task, "config: unknown task {0}") \
  X(train_file_unknown_flags, "config: unknown flags {0}") \
  X(train_file_unknown_init, "config: unknown init scheme {0}") \
  X(train_file_dimension_range, "config: a model dimension is out of range") \
  X(train_file_d_mlp_zero, "config: d_mlp must be from 1 to {0}, got 0") \
  X(train_file_config, "config") \
  X(train_file_task_mismatch, "config: vocab {0} and context {1} do not match task {2} ({3}, {4})") \
  X(train_file_tensor_count, "shape mismatch: the file lists {0} tensors, the config needs {1}") \
  X(train_file_tensor_name_length, "corrupt: tensor {0} has a name of {1} bytes") \
  X(train_file_tensor_name, "shape mismatch: tensor {0} is '{1}', the config needs '{2}'") \
  X(train_file_tensor_shape, "shape mismatch: tensor '{0}' is {1}, the config needs {2}") \
  X(train_file_history_length, "corrupt: the history holds {0} entries for {1} steps") \
  X(train_file_extra_bytes, "corrupt: {0} unexpected bytes before the checksum") \
  X(train_file_parameters_non_finite, "the parameters contain NaN or Inf") \
  X(train_file_optimizer_non_finite, "the optimizer state contains NaN or Inf") \
  X(train_file_negative_moment, "the optimizer state has a negative second moment") \
  X(train_file_history_non_finite, "the history contains NaN or Inf") \
  X(train_no_model, "the trainer has no model yet (reset or load first)") \
  X(train_steps_per_call_range, "steps per call must be from 0 to {0}") \
  X(train_loss_not_finite, "the loss is not finite at step {0} (try a smaller learning rate)")

namespace attn::msg {
#define ATTNLAB_MESSAGE_TEXT(id, en) inline constexpr MessageText id{#id, en};
ATTNLAB_TRAIN_MESSAGES(ATTNLAB_MESSAGE_TEXT)
#undef ATTNLAB_MESSAGE_TEXT
}  // namespace attn::msg
