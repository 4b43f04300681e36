// The Chinese texts of core/attention/attention_messages.h, under the same ids with the same
// arguments.
#pragma once

#define ATTNLAB_ATTENTION_MESSAGES_ZH(X) \
  X(att_dmodel_min, "d_model 至少为 1") \
  X(att_heads_min, "头数至少为 1") \
  X(att_dmodel_heads, "d_model {0} 不能被头数 {1} 整除") \
  X(att_temperature, "温度必须是大于 0 的有限数") \
  X(att_scale_finite, "缩放系数必须是有限数") \
  X(att_fill_finite, "掩码的有限填充值必须是有限数") \
  X(att_float_mask_values, "浮点掩码中含有 NaN 或 +inf") \
  X(att_no_tokens, "至少要有一个词元") \
  X(att_values_keys, "值有 {0} 个词元，键有 {1} 个") \
  X(att_embedding_width, "嵌入必须有 d_model = {0} 列") \
  X(att_embedding_values, "嵌入中含有 NaN 或 Inf") \
  X(att_float_mask_shape, "浮点掩码的形状必须是 (n_q, n_k)") \
  X(att_head_mask_shape, "每个头的浮点掩码形状必须是 (n_q, n_k)") \
  X(att_head_mask_count, "每个头都要有一个浮点掩码") \
  X(att_projection_shape, "投影矩阵的形状必须是 (d_model, d_model)") \
  X(att_additive_parameters, "加性打分需要每个头的参数") \
  X(att_positions_need_dot, "RoPE 和 ALiBi 作用于点积分数：请选择点积或余弦打分") \
  X(att_additive_needs_projections, "加性打分需要投影：请从嵌入开始") \
  X(att_rope_even, "RoPE 需要偶数的 d_k（它按坐标对旋转），现在是 {0}") \
  X(att_rope_base, "RoPE 底数必须是大于 0 的有限数") \
  X(att_alibi_slope, "ALiBi 斜率必须是有限数") \
  X(att_positional_kind, "未知的位置编码类型") \
  X(att_padding_count, "键的填充标记有 {0} 个，但键有 {1} 个") \
  X(att_custom_mask_shape, "自定义掩码的形状必须是 ({0}, {1})") \
  X(att_window_negative, "窗口大小必须 >= 0") \
  X(att_stride_negative, "步长必须 >= 0") \
  X(att_block_negative, "块大小必须 >= 0") \
  X(att_global_range, "全局词元 {0} 超出范围") \
  X(att_no_causal_form, "{0} 没有因果形式（它混合了所有位置）：请关闭因果掩码") \
  X(att_linformer_identity_rank, "恒等投影需要秩 = n = {0}，现在的秩是 {1}") \
  X(att_rollout_residual, "残差份额必须是 0 到 1 之间的数") \
  X(att_rollout_empty, "注意力展开至少需要一层、每层至少一个头") \
  X(att_rollout_cross, "注意力展开需要自注意力（查询与键一样多）；这里是 {0} x {1}，是交叉注意力") \
  X(att_rollout_sizes, "注意力展开要求每一层的每个头大小相同") \
  X(att_rollout_finite, "注意力展开需要有限的权重（其中有 NaN 或无穷大）") \
  X(att_overview_empty, "概览至少需要一个查询和一个键，且 d_k >= 1") \
  X(att_overview_width, "k 有 d_k = {0} 列，q 有 {1} 列：两者必须一致") \
  X(att_overview_tokens, "{0} 个查询 x {1} 个键：概览每边最多 {2} 个") \
  X(att_overview_dk, "d_k = {0}：概览最多接受 {1}") \
  X(att_overview_block, "块大小必须是 >= 1 的整数，现在是 {0}") \
  X(att_overview_pooled, "块大小 {0} 得到 {1} x {2} 的概览，超过 {3} 个格子：请选更大的块") \
  X(att_overview_finite, "{0} 中有 NaN 或无穷大") \
  X(att_overview_not_running, "没有正在进行的概览") \
  X(att_overview_memory, "内存不足，无法存放概览打包后的键") \
  X(att_overview_not_done, "概览尚未完成：还不知道各行的统计量") \
  X(att_overview_region_rows, "区域的查询行 [{0}, {1}) 必须在 0 到 {2} 之内且不能为空") \
  X(att_overview_region_keys, "区域的键 [{0}, {1}) 必须在 0 到 {2} 之内且不能为空") \
  X(att_overview_region_cap, "区域是 {0} x {1}：每边最多 {2}") \
  X(att_overview_stats, "行统计量对应 {0} 个查询，而 q 有 {1} 个")
