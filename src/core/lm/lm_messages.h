// The messages src/core/lm makes, with their English texts ({0}, {1}, ... are arguments; see
// MessageText in core/base/types.h). Their Chinese texts are in ui/messages_zh_lm.h.
#pragma once

#include "core/base/types.h"

#define ATTNLAB_LM_MESSAGES(X) \
  X(lm_invalid_utf8, "the text is not valid UTF-8 (byte {0})") \
  X(lm_text_empty, "the text is empty") \
  X(lm_text_too_long, "the text has {0} characters; at most {1} are accepted") \
  X(lm_text_too_short, "the text has {0} characters; training needs at least {1} (a part of it is held out to measure the model)") \
  X(lm_preset_unknown, "unknown preset '{0}'; the presets are {1}") \
  X(lm_held_out_fraction_range, "the held-out fraction must be more than 0 and at most 0.5") \
  X(lm_prompt_empty, "the prompt is empty: type at least one character") \
  X(lm_prompt_too_long, "the prompt has {0} characters; the model reads at most {1}") \
  X(lm_tokens_range, "the number of tokens to generate must be from 1 to {0}, got {1}") \
  X(lm_temperature_range, "the temperature must be from 0 to {0}") \
  X(lm_top_k_range, "top-k must be from 0 (all) to the vocabulary size {0}, got {1}") \
  X(lm_attention_temperature_range, "the attention temperature must be from {0} to {1}") \
  X(lm_ablate_range, "cannot ablate layer {0} head {1}: the model has {2} layers of {3} heads") \
  X(lm_vocab_empty, "the training text has no character seen at least {0} times") \
  X(lm_vocab_too_large, "the vocabulary would have {0} tokens; at most {1} are allowed") \
  X(lm_corpus_empty, "the corpus has no training text") \
  X(lm_no_model, "no language model is loaded") \
  X(lm_file_too_short, "truncated: {0} bytes is shorter than the smallest language model file") \
  X(lm_file_bad_magic, "not an Attention Lab language model file (bad magic; expected \"ATTNLABL\")") \
  X(lm_file_bad_version, "unsupported language model file version {0} (this build reads version {1})") \
  X(lm_file_truncated, "truncated: the file has {0} bytes, its header says {1}") \
  X(lm_file_trailing, "corrupt: {0} bytes after the end its header states") \
  X(lm_file_checksum, "corrupt: the checksum does not match (the file was damaged or edited)") \
  X(lm_file_short_section, "corrupt: a section runs past the end of the file") \
  X(lm_file_vocab_mismatch, "corrupt: the vocabulary lists {0} characters, the config needs {1}") \
  X(lm_file_bad_character, "corrupt: vocabulary entry {0} is not a valid character") \
  X(lm_file_duplicate_character, "corrupt: vocabulary entry {0} repeats a character") \
  X(lm_file_non_finite, "the weights contain NaN or Inf") \
  X(lm_file_notes_too_long, "corrupt: the notes are {0} bytes, at most {1}") \
  X(lm_file_notes_not_utf8, "corrupt: the notes are not UTF-8 text (byte {0})") \
  X(lm_file_sample_not_utf8, "corrupt: held-out sample {0} is not UTF-8 text (byte {1})") \
  X(lm_file_unknown_flags, "corrupt: unknown flags {0}") \
  X(lm_file_samples, "corrupt: the held-out samples are malformed ({0} listed, at most {1}, each English or Chinese and at most 64 KiB)") \
  X(lm_file_is_task_model, "this is a task model file (ATTNLABM), not a language model: load it as the trained scene") \
  X(lm_patch_clean_prompt, "the clean prompt") \
  X(lm_patch_corrupt_prompt, "the corrupted prompt") \
  X(lm_patch_answer, "the answer") \
  X(lm_patch_foil, "the foil") \
  X(lm_patch_lengths_differ, "the clean prompt has {0} characters and the corrupted prompt {1}: patching needs prompts of the same length") \
  X(lm_patch_not_in_vocabulary, "'{0}' (U+{1}) is not in the model's vocabulary") \
  X(lm_patch_one_character, "must be exactly one character; '{0}' has {1}") \
  X(lm_patch_answer_is_foil, "the answer and the foil are both '{0}': the difference needs two different characters") \
  X(lm_patch_position_range, "the position must be from 0 (the start token) to {0} (the last character), got {1}") \
  X(lm_patch_position_residual, "a position applies to the head grid only: the residual grid has a column for every position") \
  X(lm_patch_site_range, "cannot patch that site: layer {0}, head {1}, position {2} is outside the model or the prompt") \
  X(lm_patch_by_unknown, "unknown patching grid '{0}'; the grids are {1}")

namespace attn::msg {
#define ATTNLAB_MESSAGE_TEXT(id, en) inline constexpr MessageText id{#id, en};
ATTNLAB_LM_MESSAGES(ATTNLAB_MESSAGE_TEXT)
#undef ATTNLAB_MESSAGE_TEXT
}  // namespace attn::msg
