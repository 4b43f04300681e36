// The Chinese texts of core/lm/lm_messages.h, under the same ids with the same arguments.
#pragma once

#define ATTNLAB_LM_MESSAGES_ZH(X) \
  X(lm_invalid_utf8, "文本不是有效的 UTF-8（第 {0} 字节）") \
  X(lm_text_empty, "文本为空") \
  X(lm_text_too_long, "文本有 {0} 个字符，最多接受 {1} 个") \
  X(lm_text_too_short, "文本有 {0} 个字符，训练至少需要 {1} 个（其中一部分留作测量模型）") \
  X(lm_preset_unknown, "没有名为“{0}”的预设；可选的预设：{1}") \
  X(lm_held_out_fraction_range, "留出比例必须大于 0 且不超过 0.5") \
  X(lm_prompt_empty, "提示为空：请至少输入一个字符") \
  X(lm_prompt_too_long, "提示有 {0} 个字符，模型最多读取 {1} 个") \
  X(lm_tokens_range, "要生成的词元数必须在 1 到 {0} 之间，实际为 {1}") \
  X(lm_temperature_range, "温度必须在 0 到 {0} 之间") \
  X(lm_top_k_range, "top-k 必须在 0（全部）到词表大小 {0} 之间，实际为 {1}") \
  X(lm_attention_temperature_range, "注意力温度必须在 {0} 到 {1} 之间") \
  X(lm_ablate_range, "无法消融第 {0} 层第 {1} 个头：模型共有 {2} 层，每层 {3} 个头") \
  X(lm_vocab_empty, "训练文本中没有出现至少 {0} 次的字符") \
  X(lm_vocab_too_large, "词表将有 {0} 个词元，最多允许 {1} 个") \
  X(lm_corpus_empty, "语料中没有训练文本") \
  X(lm_no_model, "尚未加载语言模型") \
  X(lm_file_too_short, "文件被截断：{0} 字节，短于最小的语言模型文件") \
  X(lm_file_bad_magic, "不是 Attention Lab 语言模型文件（文件头错误，应为 \"ATTNLABL\"）") \
  X(lm_file_bad_version, "不支持的语言模型文件版本 {0}（本版本读取版本 {1}）") \
  X(lm_file_truncated, "文件被截断：文件有 {0} 字节，文件头声明 {1} 字节") \
  X(lm_file_trailing, "文件损坏：文件头声明的结尾之后还有 {0} 字节") \
  X(lm_file_checksum, "文件损坏：校验和不匹配（文件已损坏或被修改）") \
  X(lm_file_short_section, "文件损坏：某一段超出了文件末尾") \
  X(lm_file_vocab_mismatch, "文件损坏：词表列出 {0} 个字符，配置需要 {1} 个") \
  X(lm_file_bad_character, "文件损坏：词表第 {0} 项不是有效字符") \
  X(lm_file_duplicate_character, "文件损坏：词表第 {0} 项与前面的字符重复") \
  X(lm_file_non_finite, "权重中含有 NaN 或 Inf") \
  X(lm_file_notes_too_long, "文件损坏：说明有 {0} 字节，最多 {1} 字节") \
  X(lm_file_notes_not_utf8, "文件损坏：说明不是 UTF-8 文本（第 {0} 字节）") \
  X(lm_file_sample_not_utf8, "文件损坏：留出样本 {0} 不是 UTF-8 文本（第 {1} 字节）") \
  X(lm_file_unknown_flags, "文件损坏：未知的标志 {0}") \
  X(lm_file_samples, "文件损坏：留出样本格式错误（列出 {0} 个，最多 {1} 个，每个须为英文或中文且不超过 64 KiB）") \
  X(lm_file_is_task_model, "这是任务模型文件（ATTNLABM），不是语言模型：请作为训练场景加载") \
  X(lm_patch_clean_prompt, "干净提示") \
  X(lm_patch_corrupt_prompt, "被改动的提示") \
  X(lm_patch_answer, "答案字符") \
  X(lm_patch_foil, "对照字符") \
  X(lm_patch_lengths_differ, "干净提示有 {0} 个字符，被改动的提示有 {1} 个：激活修补需要两个提示长度相同") \
  X(lm_patch_not_in_vocabulary, "“{0}”（U+{1}）不在模型的词表中") \
  X(lm_patch_one_character, "必须恰好是一个字符；“{0}”有 {1} 个") \
  X(lm_patch_answer_is_foil, "答案字符和对照字符都是“{0}”：差值需要两个不同的字符") \
  X(lm_patch_position_range, "位置必须在 0（起始词元）到 {0}（最后一个字符）之间，实际为 {1}") \
  X(lm_patch_position_residual, "位置只用于注意力头网格：残差流网格的每一列就是一个位置") \
  X(lm_patch_site_range, "无法修补该处：第 {0} 层、第 {1} 个头、位置 {2} 超出了模型或提示的范围") \
  X(lm_patch_by_unknown, "没有名为“{0}”的修补网格；可选的网格：{1}")
