// The Chinese texts of core/train/train_messages.h, under the same ids with the same arguments.
#pragma once

#define ATTNLAB_TRAIN_MESSAGES_ZH(X) \
  X(train_unknown_task, "未知的任务") \
  X(train_d_mlp_range, "d_mlp 必须在 1 到 {0} 之间（或为 0，即等于 d_model），实际为 {1}") \
  X(train_batch_range, "批大小必须在 1 到 {0} 之间，实际为 {1}") \
  X(train_learning_rate_range, "学习率必须在 (0, 1] 范围内") \
  X(train_beta1_range, "beta1 必须在 [0, 1) 范围内") \
  X(train_beta2_range, "beta2 必须在 [0, 1) 范围内") \
  X(train_epsilon_range, "epsilon 必须在 (0, 1] 范围内") \
  X(train_seed_range, "种子最大为 2^53 - 1") \
  X(train_no_seeds, "实验至少需要一个种子") \
  X(train_steps_range, "步数必须在 1 到 {0} 之间") \
  X(train_window_range, "窗口必须在 1 到总步数之间") \
  X(train_target_loss_range, "目标损失必须是大于 0 的数") \
  X(train_eval_sequences_range, "评估序列数超出范围") \
  X(train_seed_scaled, "种子 {0}，缩放") \
  X(train_seed_unscaled, "种子 {0}，不缩放") \
  X(train_layers_range, "层数必须在 {0} 到 {1} 之间，实际为 {2}") \
  X(train_heads_range, "头数必须在 {0} 到 {1} 之间，实际为 {2}") \
  X(train_d_model_range, "d_model 必须在 {0} 到 {1} 之间，实际为 {2}") \
  X(train_model_d_mlp_range, "d_mlp 必须在 {0} 到 {1} 之间，实际为 {2}") \
  X(train_context_range, "上下文长度必须在 {0} 到 {1} 之间，实际为 {2}") \
  X(train_vocab_range, "词表大小必须在 {0} 到 {1} 之间，实际为 {2}") \
  X(train_heads_divide, "d_model {0} 不能被头数 {1} 整除") \
  X(train_unknown_init, "未知的初始化方案") \
  X(train_batch_empty, "批次是空的") \
  X(train_batch_context, "批次中每个序列有 {0} 个位置，模型要求 {1} 个") \
  X(train_batch_sizes, "批次的数组元素个数不等于 size x context") \
  X(train_token_outside_vocab, "位置 {1} 的词元 {0} 不在词表中") \
  X(train_target_outside_vocab, "位置 {1} 的目标 {0} 不在词表中") \
  X(train_file_short_section, "文件已损坏：有一节超出了文件末尾") \
  X(train_file_too_short, "文件不完整：{0} 字节比最小的模型文件还短") \
  X(train_file_bad_magic, "不是注意力实验室的模型文件（魔数不对；应为 \"ATTNLABM\"）") \
  X(train_file_bad_version, "不支持的模型文件版本 {0}（这个版本的程序只读版本 {1}）") \
  X(train_file_truncated, "文件不完整：文件有 {0} 字节，文件头记录的是 {1} 字节") \
  X(train_file_trailing_bytes, "{1} 字节的模型后面多出 {0} 个字节") \
  X(train_file_checksum, "校验和不符：文件已损坏") \
  X(train_file_unknown_task, "配置：未知的任务 {0}") \
  X(train_file_unknown_flags, "配置：未知的标志位 {0}") \
  X(train_file_unknown_init, "配置：未知的初始化方案 {0}") \
  X(train_file_dimension_range, "配置：有一个模型维度超出范围") \
  X(train_file_d_mlp_zero, "配置：d_mlp 必须在 1 到 {0} 之间，实际为 0") \
  X(train_file_config, "配置") \
  X(train_file_task_mismatch, "配置：词表大小 {0} 和上下文长度 {1} 与任务 {2} 不符（应为 {3}、{4}）") \
  X(train_file_tensor_count, "形状不符：文件列出了 {0} 个张量，配置需要 {1} 个") \
  X(train_file_tensor_name_length, "文件已损坏：第 {0} 个张量的名称长 {1} 字节") \
  X(train_file_tensor_name, "形状不符：第 {0} 个张量是 '{1}'，配置需要 '{2}'") \
  X(train_file_tensor_shape, "形状不符：张量 '{0}' 的形状是 {1}，配置需要 {2}") \
  X(train_file_history_length, "文件已损坏：历史记录有 {0} 项，步数却是 {1}") \
  X(train_file_extra_bytes, "文件已损坏：校验和之前多出 {0} 个字节") \
  X(train_file_parameters_non_finite, "参数中含有 NaN 或 Inf") \
  X(train_file_optimizer_non_finite, "优化器状态中含有 NaN 或 Inf") \
  X(train_file_negative_moment, "优化器状态中有负的二阶矩") \
  X(train_file_history_non_finite, "历史记录中含有 NaN 或 Inf") \
  X(train_no_model, "训练器还没有模型（请先重置或载入）") \
  X(train_steps_per_call_range, "每次调用的步数必须在 0 到 {0} 之间") \
  X(train_loss_not_finite, "第 {0} 步的损失不是有限值（试试更小的学习率）")
