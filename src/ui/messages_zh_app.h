// The Chinese texts of app/app_messages.h, under the same ids with the same arguments. Keys,
// values and file formats stay as they are written in a state or a link ('scale', "dot", png).
#pragma once

#define ATTNLAB_APP_MESSAGES_ZH(X) \
  X(app_text_too_long, "文本有 {0} 字节；浏览器最多接受 {1} 字节") \
  X(app_text_too_many_tokens, "文本有 {0} 个词元；浏览器最多显示 {1} 个") \
  X(app_type_a_sentence, "输入一个句子，看看它的注意力") \
  X(app_trained_not_loaded, "训练好的模型还没有载入") \
  X(app_trained_not_loaded_yet, "训练好的模型（还）没有载入") \
  X(app_lm_loading, "语言模型正在加载；加载完成后打开此场景") \
  X(app_lm_unavailable, "这个页面没有附带语言模型，所以无法在这里打开它的场景") \
  X(app_lm_ablate_rule, "'lm' 中的 'ablate' 必须是头编号（层 × 头数 + 头）的列表，范围 0 到 {0}") \
  X(app_no_results, "没有结果") \
  X(app_key_number, "'{0}' 必须是数字") \
  X(app_key_between, "'{0}' 必须在 {1} 到 {2} 之间") \
  X(app_key_whole, "'{0}' 必须是整数") \
  X(app_key_bool, "'{0}' 必须是 true 或 false") \
  X(app_key_bool_in, "'{1}' 中的 '{0}' 必须是 true 或 false") \
  X(app_key_whole_range_in, "'{1}' 中的 '{0}' 必须是 {2} 到 {3} 之间的整数") \
  X(app_key_number_range_in, "'{1}' 中的 '{0}' 必须是 {2} 到 {3} 之间的数") \
  X(app_key_object, "'{0}' 必须是一个对象") \
  X(app_key_object_in, "'{1}' 中的 '{0}' 必须是一个对象") \
  X(app_key_index_list, "'{0}' 必须是最多 {1} 个词元序号的列表") \
  X(app_key_index_range, "'{0}' 中的词元序号必须在 0 到 {1} 之间") \
  X(app_unknown_key, "未知的键 '{0}'") \
  X(app_unknown_key_in, "'{1}' 中有未知的键 '{0}'") \
  X(app_scale_rule, "'{0}' 必须是 \"default\"、\"none\" 或 [{1}, {2}] 中的数") \
  X(app_scale_rule_in, "'{1}' 中的 '{0}' 必须是 \"default\"、\"none\" 或 [{2}, {3}] 中的数") \
  X(app_score_rule, "'{0}' 必须是以下之一：{1}") \
  X(app_score_rule_in, "'{1}' 中的 '{0}' 必须是以下之一：{2}") \
  X(app_fill_rule, "'{0}' 必须是 \"-inf\" 或 {1} 到 {2} 之间的数") \
  X(app_fill_rule_in, "'{1}' 中的 '{0}' 必须是 \"-inf\" 或 {2} 到 {3} 之间的数") \
  X(app_painted_string, "'{0}' 中的 'painted' 必须是字符串，例如 \"0:3- 2:1+\"") \
  X(app_painted_in, "'{0}' 中的 'painted'") \
  X(app_painted_space, "涂改的格子之间要用一个空格分开") \
  X(app_painted_cell, "第 {0} 个涂改的格子（在第 {1} 个字符处）必须写成 行:列+ 或 行:列-，序号在 0 到 {2} 之间") \
  X(app_painted_count, "涂改的格子最多 {0} 个") \
  X(app_v1_mask, "在第 1 版的状态中，'mask' 必须是 \"none\" 或 \"causal\"") \
  X(app_imported_needs_file, "'source' 为 \"imported\" 时需要先载入文件（拖到页面上，或点“导入”）") \
  X(app_source_rule, "'source' 必须是以下之一：{0}") \
  X(app_sentence_string, "'sentence' 必须是字符串") \
  X(app_dmodel_heads, "dModel {0} 不能被头数 {1} 整除") \
  X(app_positional_bool, "从第 3 版起 'positional' 是一个选项，以下之一：{0}（true 和 false 只在第 2 版的状态中读取）") \
  X(app_positional_rule, "'positional' 必须是以下之一：{0}") \
  X(app_rope_pairing_rule, "'ropePairing' 必须是以下之一：{0}") \
  X(app_rope_even, "RoPE 按坐标对旋转：d_k = dModel / 头数 = {0}，必须是偶数") \
  X(app_panel_rule, "'panel' 必须是以下之一：{0}") \
  X(app_theme_rule, "'theme' 必须是以下之一：{0}") \
  X(app_weight_range_rule, "'weightRange' 必须是以下之一：{0}") \
  X(app_language_rule, "'language' 必须是以下之一：{0}") \
  X(app_across_layers_rule, "'acrossLayers' 必须是以下之一：{0}") \
  X(app_patch_text_rule, "'patch' 中的 '{0}' 必须是不超过 {1} 字节的字符串") \
  X(app_patch_by_rule, "'patch' 中的 'by' 必须是以下之一：{0}") \
  X(app_overview_pool_rule, "'overview' 中的 'pool' 必须是以下之一：{0}") \
  X(app_overview_progress, "概览的进度必须在 0 到 1 之间") \
  X(app_overview_shape, "概览的结果与这次计算的形状不符") \
  X(app_cell_not_dot, "分数是 {0}，不是点积，所以不能按头的各个维度拆成若干项") \
  X(app_cell_no_qk, "这个文件只有权重：拆分分数需要 q 和 k") \
  X(app_cell_outside, "单元格 ({0}, {1}) 超出了该头的分数范围") \
  X(app_across_too_many, "跨层视图在这里最多计算 {0} 个词元；此场景有 {1} 个（attnlab-cli rollout 不限大小）") \
  X(app_lab_point, "'lab' 中的 '{0}' 必须是 [x, y]，且 |x|、|y| <= {1}") \
  X(app_lab_matrix, "'lab' 中的 '{0}' 必须有 {1} 个数（一个 2 x 2 矩阵，按行排列）") \
  X(app_lab_numbers_in, "'lab' 中的 '{0}' 的数必须在 [{1}, {2}] 中") \
  X(app_lab_row_count, "'lab' 中的 'row' 必须有 1 到 {0} 个数") \
  X(app_state_too_long, "状态有 {0} 字节；最多读取 {1} 字节") \
  X(app_state_not_json, "状态不是有效的 JSON") \
  X(app_state_not_object, "状态必须是一个 JSON 对象") \
  X(app_message_not_json, "消息不是有效的 JSON") \
  X(app_lm_text_report_bad, "训练的进度报告无效：{0}") \
  X(app_lm_text_failed, "训练已停止：{0}") \
  X(app_text_not_utf8, "文本不是 UTF-8（第 {0} 字节）") \
  X(app_link_ignored, "链接中的状态已被忽略") \
  X(app_link_percent, "链接中的 '%' 后面不是两个十六进制数字") \
  X(app_link_too_long, "链接中的状态有 {0} 字节；最多读取 {1} 字节") \
  X(app_link_no_equals, "链接中的 '{0}' 没有 '='") \
  X(app_link_not_utf8, "链接中 '{0}' 的值不是 UTF-8 文本") \
  X(app_link_too_deep, "链接中 '{0}' 的值嵌套超过 {1} 层") \
  X(app_link_twice, "'{0}' 在链接中出现了两次") \
  X(app_link_not_setting, "'{0}' 不是设置项的名字") \
  X(app_link_conflict, "'{0}' 与链接的另一部分冲突") \
  X(app_cannot_write, "无法写入 {0}") \
  X(app_cannot_read, "无法读取 {0}") \
  X(app_model_file, "模型文件") \
  X(app_import_too_large, "文件有 {0} MiB；最多只能导入 {1} MiB") \
  X(app_no_import, "没有正在进行的导入") \
  X(app_import_no_weights, "这个文件有 q 和 k，但没有注意力权重：请在概览中打开它") \
  X(app_not_running, "实验室没有在运行") \
  X(app_no_matrix, "这个场景中头 {1} 没有矩阵 '{0}'") \
  X(app_capture_scale, "倍数必须是 1、2、3 或 4") \
  X(app_capture_size, "{0} x {1} 的图片超过了这块 GPU 能画的大小（每边 {2} 像素）") \
  X(app_capture_framebuffer, "无法创建离屏帧缓冲") \
  X(app_task_rule, "'training' 中的 'task' 必须是 copy、reverse、sort、previous 或 induction") \
  X(app_training_dmodel_heads, "'training' 中的 'dModel' {0} 不能被头数 {1} 整除") \
  X(app_init_rule, "'scalingRun' 中的 'init' 必须是 \"unit\" 或 \"small\"") \
  X(app_variant_kind_rule, "'variants' 中的 'kind' 必须是以下之一：{0}") \
  X(app_variant_seed_rule, "'variants' 中的 'seed' 必须是 0 到 2^53 - 1 之间的整数") \
  X(app_exercise_none, "当前没有显示练习") \
  X(app_exercise_kind, "练习 {0} 需要 '{1}' 类答案") \
  X(app_exercise_not_ready, "练习 {0} 的图还没有准备好（语言模型正在加载）") \
  X(app_exercise_cell_range, "单元格的行须在 0 到 {0} 之间，列须在 0 到 {1} 之间") \
  X(app_exercise_choice_range, "选项必须是 0 到 {0} 之间的整数") \
  X(app_exercise_progress, "练习进度必须是 {id, attempts, done} 的列表，id 在 1 到 {0} 之间")
