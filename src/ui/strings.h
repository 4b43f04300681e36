// Every string the UI shows, in one table with an English and a Simplified Chinese column;
// tests/app/test_strings.cpp fails if an entry lacks a translation. Use tr(S::name): it
// answers in the language chosen with set_language().
//
// Adding a string: X(id, "English", "中文") anywhere in the table.
#pragma once

namespace attn::ui {

#define ATTNLAB_UI_STRINGS(X) \
  X(app_title, \
    "Attention Lab", \
    "注意力实验室") \
  X(scene, \
    "Scene", \
    "场景") \
  X(source_generated, \
    "Sentence", \
    "句子") \
  X(source_worked, \
    "Worked example (2 tokens)", \
    "例题（2 个词元）") \
  X(sentence, \
    "sentence", \
    "句子") \
  X(sentence_web_hint, \
    "Type in the text field above the lab.", \
    "请在实验室上方的文本框中输入。") \
  X(presets, \
    "Presets:", \
    "预设：") \
  X(default_sentence_zh, \
    "猫坐在垫子上，因为它累了。", \
    "猫坐在垫子上，因为它累了。") \
  X(preset_english, \
    "English", \
    "英文") \
  X(preset_cat_mouse, \
    "猫追老鼠", \
    "猫追老鼠") \
  X(preset_mouse_cat, \
    "老鼠追猫", \
    "老鼠追猫") \
  X(worked_inputs, \
    "Q = [[1,2],[2,1]], K = [[2,1],[1,2]], V = [[3,0],[0,3]], d_k = 2", \
    "Q = [[1,2],[2,1]]，K = [[2,1],[1,2]]，V = [[3,0],[0,3]]，d_k = 2") \
  X(locked_by_worked, \
    "Fixed by the worked example: its Q, K and V are given, so there are no embeddings, projections or heads to change.", \
    "由例题固定：Q、K、V 已给定，没有可改的嵌入、投影或注意力头。") \
  X(model, \
    "Model", \
    "模型") \
  X(d_model, \
    "d_model", \
    "d_model") \
  X(heads, \
    "heads", \
    "头数") \
  X(positional, \
    "positions", \
    "位置信息") \
  X(positional_none, \
    "none", \
    "无") \
  X(positional_sinusoidal, \
    "sinusoidal", \
    "正弦") \
  X(positional_rope, \
    "RoPE", \
    "RoPE 旋转") \
  X(positional_alibi, \
    "ALiBi", \
    "ALiBi 偏置") \
  X(positional_sinusoidal_note, \
    "a position vector added to x before the projections", \
    "投影之前把位置向量加到 x 上") \
  X(positional_rope_note, \
    "q and k turned by position x frequency, pair by pair", \
    "按“位置 x 频率”逐对旋转 q 和 k") \
  X(positional_alibi_note, \
    "-m_h x |i - j| added to each head's scores", \
    "给每个头的分数加上 -m_h x |i - j|") \
  X(positional_none_note, \
    "no positions: the same tokens in any order get the same attention", \
    "没有位置信息：同样的词元换个顺序，注意力不变") \
  X(rope_needs_even, \
    "RoPE rotates pairs of coordinates: it needs an even d_k = d_model / heads.", \
    "RoPE 按坐标对旋转：需要偶数的 d_k = d_model / 头数。") \
  X(rope_base, \
    "RoPE base", \
    "RoPE 底数") \
  X(rope_pairing_half, \
    "pairs (i, i + d/2)", \
    "配对 (i, i + d/2)") \
  X(rope_pairing_interleaved, \
    "pairs (2i, 2i + 1)", \
    "配对 (2i, 2i + 1)") \
  X(chapter_similarity, \
    "1 Similarity", \
    "1 相似度") \
  X(chapter_scaling, \
    "2 Scaling", \
    "2 缩放") \
  X(chapter_softmax, \
    "3 Softmax", \
    "3 Softmax 归一化") \
  X(chapter_weighted_values, \
    "4 Weighted values", \
    "4 加权求和") \
  X(chapter_order, \
    "5 Order", \
    "5 顺序") \
  X(chapter_masks, \
    "6 Masks", \
    "6 掩码") \
  X(chapter_multi_head, \
    "7 Multi-head", \
    "7 多头") \
  X(chapter_variants, \
    "8 Variants", \
    "8 变体") \
  X(chapter_training, \
    "9 Training", \
    "9 训练") \
  X(chapter_your_model, \
    "10 Your model", \
    "10 你的模型") \
  X(controls_show, \
    "Show the scene controls", \
    "显示场景控件") \
  X(controls_hide, \
    "Hide the scene controls", \
    "隐藏场景控件") \
  X(panel_positions, \
    "Positions", \
    "位置") \
  X(panel_gqa, \
    "GQA & KV cache", \
    "GQA 与 KV 缓存") \
  X(panel_flash, \
    "FlashAttention", \
    "FlashAttention 分块") \
  X(panel_sinks, \
    "Sinks", \
    "注意力汇聚") \
  X(panel_qk_space, \
    "Q-K space", \
    "Q-K 空间") \
  X(positions_hint, \
    "How a token's place enters attention. The sinusoidal encoding adds a position vector to x, so scores see absolute positions. RoPE rotates each pair of q and k coordinates by position x frequency, so q.k depends only on the offset i - j. ALiBi subtracts slope x distance from the scores. Choose the scene's positions under Model on the left; these figures use the focused head.", \
    "词元的位置如何进入注意力。正弦编码把位置向量加到 x 上，分数看到的是绝对位置。RoPE 把 q 和 k 的每对坐标旋转“位置 x 频率”的角度，所以 q.k 只取决于偏移 i - j。ALiBi 从分数中减去“斜率 x 距离”。在左侧“模型”中选择场景的位置方式；这些图使用当前聚焦的头。") \
  X(positions_shift, \
    "shift", \
    "平移") \
  X(positions_shift_result, \
    "Shifted by this many tokens, the sentence's block of RoPE scores differs from the sentence alone by at most %.2g (only the offset matters); with the sinusoidal encoding it differs by %.3g (absolute positions).", \
    "平移这么多个词元后，句子那一块的 RoPE 分数与单独的句子最多相差 %.2g（只有偏移起作用）；用正弦编码则相差 %.3g（绝对位置）。") \
  X(positions_shift_result_rope, \
    "Shifted by this many tokens, the sentence's block of RoPE scores differs from the sentence alone by at most %.2g (only the offset matters).", \
    "平移这么多个词元后，句子那一块的 RoPE 分数与单独的句子最多相差 %.2g（只有偏移起作用）。") \
  X(positions_fixed, \
    "RoPE, one q and one k at every position: constant along each diagonal (spread %.2g)", \
    "RoPE，每个位置放同一个 q 和 k：沿每条对角线不变（差异 %.2g）") \
  X(positions_rope_alone, \
    "RoPE scores of the sentence (positions from 0)", \
    "句子的 RoPE 分数（位置从 0 开始）") \
  X(positions_rope_long, \
    "The sentence after %d other tokens: its block (outlined) moves along the diagonals", \
    "句子前面有 %d 个其他词元：它的块（描边）沿对角线移动") \
  X(positions_alibi_slopes, \
    "ALiBi slopes m_h, one per head: %s", \
    "ALiBi 斜率 m_h，每个头一个：%s") \
  X(positions_alibi_bias, \
    "ALiBi bias of head %d: -%.4g x |i - j|", \
    "第 %d 个头的 ALiBi 偏置：-%.4g x |i - j|") \
  X(positions_alibi_weights, \
    "Weights with ALiBi (focused head)", \
    "加 ALiBi 后的权重（聚焦的头）") \
  X(positions_distance_title, \
    "RoPE: score against distance for the cursor's q and k, past the sentence's length", \
    "RoPE：光标处 q 与 k 的分数随距离变化，一直到句子长度之外") \
  X(positions_alibi_past, \
    "ALiBi needs no such curve: its bias -%.4g x distance keeps falling in a straight line at any length.", \
    "ALiBi 不需要这样的曲线：它的偏置 -%.4g x 距离在任何长度下都沿直线下降。") \
  X(positions_distance_x, \
    "distance i - j", \
    "距离 i - j") \
  X(positions_distance_y, \
    "score", \
    "分数") \
  X(positions_sentence_end, \
    "sentence length", \
    "句子长度") \
  X(gqa_hint, \
    "Grouped-query attention: H query heads share G key/value heads (G = H is multi-head, G = 1 multi-query). Here each group's key and value heads are averaged, as when a multi-head model is converted to GQA. What it saves is the KV cache that decoding keeps for every earlier token.", \
    "分组查询注意力：H 个查询头共享 G 个键/值头（G = H 即多头，G = 1 即多查询）。这里把每组的键头和值头取平均，就像把多头模型转换成 GQA 时那样。它节省的是解码时为每个之前的词元保留的 KV 缓存。") \
  X(gqa_kv_heads, \
    "key/value heads G:", \
    "键/值头数 G：") \
  X(gqa_is_mha, \
    " (multi-head)", \
    "（多头）") \
  X(gqa_is_mqa, \
    " (multi-query)", \
    "（多查询）") \
  X(gqa_head_title, \
    "q head %d -> kv %d", \
    "查询头 %d -> 键值头 %d") \
  X(gqa_difference, \
    "max change %.3f", \
    "最大变化 %.3f") \
  X(gqa_layers, \
    "layers", \
    "层数") \
  X(gqa_bytes_per_value, \
    "bytes per value:", \
    "每个值的字节数：") \
  X(gqa_bytes_formula, \
    "KV cache per token = 2 (K and V) x G x d_k x layers x bytes = 2 x %d x %d x %d x %d = %s; multi-head: %s, multi-query: %s.", \
    "每个词元的 KV 缓存 = 2（K 和 V）x G x d_k x 层数 x 字节数 = 2 x %d x %d x %d x %d = %s；多头：%s，多查询：%s。") \
  X(gqa_decode_step, \
    "tokens decoded", \
    "已解码词元数") \
  X(gqa_cache_now, \
    "After %d tokens the cache holds %s.", \
    "解码 %d 个词元后缓存占 %s。") \
  X(gqa_measure, \
    "Measure decoding", \
    "测量解码") \
  X(gqa_not_measured, \
    "Times one decoding step with the cache for n = 64 to 16384, and without it (quadratic) up to 1024: a few seconds, a sample per frame.", \
    "测量单步解码：有缓存时 n = 64 到 16384，无缓存（二次）时到 1024；需要几秒，每帧测一个样本。") \
  X(gqa_slopes, \
    "Log-log slope of a step's time against n (n >= %d): %.2f with the cache (1 would be linear; fixed costs lower it at small n), %.2f without (2 would be quadratic). Medians on this machine; a busy machine moves them.", \
    "单步时间对 n 的双对数斜率（n >= %d）：有缓存 %.2f（1 为线性；n 小时固定开销使它偏低），无缓存 %.2f（2 为二次）。时间是本机的中位数；机器繁忙时会变化。") \
  X(gqa_measuring, \
    "measuring: %d of %d samples", \
    "测量中：%d / %d 个样本") \
  X(gqa_plot_x, \
    "tokens in the cache n", \
    "缓存中的词元数 n") \
  X(gqa_plot_y, \
    "microseconds per step", \
    "每步微秒数") \
  X(gqa_with_cache, \
    "with the cache", \
    "有缓存") \
  X(gqa_without_cache, \
    "without (recompute)", \
    "无缓存（重算）") \
  X(flash_hint, \
    "FlashAttention never stores the n x n weights: it walks tiles of queries and keys, keeping per query row a running maximum m and a running sum l. When a new tile raises m, the partial output and l are rescaled by exp(m_old - m_new); after the last tile the output is divided by l. The result equals exact attention.", \
    "FlashAttention 从不存下 n x n 的权重：它按块遍历查询和键，为每个查询行保存运行最大值 m 和运行和 l。新块使 m 变大时，部分输出和 l 乘以 exp(m_old - m_new) 重新缩放；最后一块之后输出除以 l。结果与精确注意力相同。") \
  X(flash_block_q, \
    "query tile", \
    "查询块") \
  X(flash_block_k, \
    "key tile", \
    "键块") \
  X(flash_causal, \
    "causal", \
    "因果") \
  X(flash_step_format, \
    "step %%d of %d", \
    "第 %%d 步，共 %d 步") \
  X(flash_summary, \
    "Output vs exact attention: max difference %.2g. Floats held besides inputs and output: %lld, against %.0f for the n x n weights.", \
    "输出与精确注意力相比：最大差 %.2g。除输入输出外占用的浮点数：%lld，而 n x n 权重需要 %.0f。") \
  X(flash_exact_weights, \
    "Exact weights; tiles done (white) and this step's tile (pink)", \
    "精确权重；已完成的块（白）和本步的块（粉）") \
  X(flash_tile_title, \
    "Query tile %d (rows %d-%d) after key tile %d (keys %d-%d):", \
    "查询块 %d（第 %d-%d 行）处理完键块 %d（键 %d-%d）后：") \
  X(flash_col_row, \
    "row", \
    "行") \
  X(flash_col_m, \
    "m", \
    "m 最大") \
  X(flash_col_l, \
    "l", \
    "l 和") \
  X(flash_col_rescale, \
    "rescale", \
    "缩放") \
  X(flash_col_exact_m, \
    "exact max", \
    "精确最大值") \
  X(flash_col_exact_l, \
    "exact sum", \
    "精确和") \
  X(flash_columns, \
    "m: the row's running maximum; l: its running sum of exp(s - m); rescale: exp(m_old - m_new), applied to l and the partial output; exact: max and sum of exp(s - max) over the whole row.", \
    "m：该行的运行最大值；l：exp(s - m) 的运行和；缩放：exp(m_old - m_new)，乘到 l 和部分输出上；精确：整行的最大值与 exp(s - max) 之和。") \
  X(flash_rule, \
    "After a row's last key tile, m equals the row maximum and l the sum of exp(s - max) over the whole row.", \
    "一行的最后一个键块之后，m 等于该行最大值，l 等于整行 exp(s - max) 之和。") \
  X(sinks_hint, \
    "Softmax must give every row weights that sum to 1, even a row that matches nothing, so trained models dump that weight on the first token: an attention sink. StreamingLLM keeps those first tokens and a window of recent ones. Softmax off by one adds a zero logit, so a row may attend to nothing.", \
    "Softmax 必须让每一行的权重和为 1，即使这一行什么都不匹配，所以训练过的模型会把这部分权重倾倒在第一个词元上：注意力汇聚。StreamingLLM 保留这些开头的词元和最近的一个窗口。多一个零的 softmax 在分数里多加一个 0，让一行可以什么都不关注。") \
  X(sinks_window, \
    "window", \
    "窗口") \
  X(sinks_count, \
    "sink tokens", \
    "汇聚词元数") \
  X(sinks_share, \
    "Under the StreamingLLM mask, %.0f%% of each row's weight (mean) lands on the sink tokens.", \
    "在 StreamingLLM 掩码下，每行平均 %.0f%% 的权重落在汇聚词元上。") \
  X(sinks_mask, \
    "StreamingLLM mask: causal, the window and the first tokens", \
    "StreamingLLM 掩码：因果、窗口和开头的词元") \
  X(sinks_weights, \
    "Weights under that mask", \
    "该掩码下的权重") \
  X(sinks_causal_weights, \
    "Weights under the full causal mask", \
    "完整因果掩码下的权重") \
  X(sinks_heads, \
    "Weight on the first token per head of this scene (mean over queries): %s", \
    "本场景每个头落在第一个词元上的权重（对查询取平均）：%s") \
  X(sinks_row_offset, \
    "row's scores + ", \
    "该行分数 + ") \
  X(sinks_row_sums, \
    "Row %d (%s) moved down until it matches nothing: softmax's weights still sum to 1; off by one, they sum to %.2g.", \
    "把第 %d 行（%s）整体下移直到它什么都不匹配：softmax 的权重和仍为 1；多一个零的 softmax 权重和为 %.2g。") \
  X(sinks_plot_x, \
    "key", \
    "键") \
  X(sinks_plot_y, \
    "weight", \
    "权重") \
  X(sinks_softmax, \
    "softmax", \
    "普通 softmax") \
  X(sinks_off_by_one, \
    "softmax off by one", \
    "多一个零的 softmax") \
  X(qk_hint, \
    "Attention is a dot product: a query gives weight to the keys that point its way. Here the focused head's queries (circles) and keys (squares) are projected onto the plane that keeps most of their joint variance (PCA of queries and keys together, so both share one plane). Lines join each query to its strongest key; the cursor's query has its three strongest, thicker for larger weights.", \
    "注意力就是点积：查询把权重给指向它那边的键。这里把聚焦头的查询（圆点）和键（方块）投影到保留它们联合方差最多的平面上（对查询和键一起做 PCA，二者共用一个平面）。连线把每个查询连到它最强的键；光标处的查询连到最强的三个键，权重越大线越粗。") \
  X(qk_explained, \
    "The plane keeps %.0f%% of the variance of queries and keys; the rest is out of the picture.", \
    "该平面保留了查询和键 %.0f%% 的方差；其余部分不在图中。") \
  X(qk_axis_1, \
    "component 1", \
    "主成分 1") \
  X(qk_axis_2, \
    "component 2", \
    "主成分 2") \
  X(qk_queries, \
    "queries q", \
    "查询 q") \
  X(qk_keys, \
    "keys k", \
    "键 k") \
  X(seed, \
    "seed", \
    "随机种子") \
  X(math, \
    "Math", \
    "计算") \
  X(score_function, \
    "score", \
    "打分") \
  X(score_dot, \
    "dot q.k", \
    "点积 q.k") \
  X(score_cosine, \
    "cosine", \
    "余弦") \
  X(score_additive, \
    "additive (Bahdanau)", \
    "加性（Bahdanau）") \
  X(scaling, \
    "scale", \
    "缩放") \
  X(scale_default, \
    "1/sqrt(d_k)", \
    "1/sqrt(d_k)") \
  X(scale_none, \
    "none", \
    "不缩放") \
  X(scale_custom, \
    "custom", \
    "自定义") \
  X(custom_scale, \
    "factor", \
    "系数") \
  X(temperature, \
    "temperature", \
    "温度") \
  X(mask, \
    "Mask", \
    "掩码") \
  X(mask_causal, \
    "causal (query i sees keys j <= i)", \
    "因果（查询 i 只看键 j <= i）") \
  X(mask_window, \
    "window w (|i-j| <= w; 0 = off)", \
    "窗口 w（|i-j| <= w；0 = 关）") \
  X(mask_stride, \
    "stride s ((i-j) mod s = 0; 0 = off)", \
    "步长 s（(i-j) mod s = 0；0 = 关）") \
  X(mask_block, \
    "block b (same block; 0 = off)", \
    "块 b（同一块内；0 = 关）") \
  X(mask_fill, \
    "fill", \
    "填充值") \
  X(fill_neg_inf, \
    "-inf", \
    "-inf") \
  X(fill_finite, \
    "-1e9", \
    "-1e9") \
  X(compare, \
    "Compare", \
    "对比") \
  X(compare_enable, \
    "compare with side B", \
    "与 B 侧对比") \
  X(side_b, \
    "Side B", \
    "B 侧") \
  X(view, \
    "View", \
    "视图") \
  X(theme, \
    "theme", \
    "主题") \
  X(theme_dark, \
    "dark", \
    "深色") \
  X(theme_light, \
    "light", \
    "浅色") \
  X(theme_contrast, \
    "high contrast", \
    "高对比度") \
  X(presentation, \
    "presentation mode", \
    "演示模式") \
  X(ui_scale, \
    "UI scale", \
    "界面缩放") \
  X(panel_pipeline, \
    "Pipeline", \
    "流程") \
  X(panel_token, \
    "Token by token", \
    "逐词元") \
  X(panel_heads, \
    "Heads", \
    "注意力头") \
  X(panel_compare, \
    "Compare", \
    "对比") \
  X(head, \
    "head", \
    "头") \
  X(query, \
    "query", \
    "查询") \
  X(play, \
    "Play", \
    "播放") \
  X(pause, \
    "Pause", \
    "暂停") \
  X(raw_scores, \
    "raw scores q·k", \
    "原始分数 q·k") \
  X(token_bars_keys, \
    "key token", \
    "键词元") \
  X(scaled_scores, \
    "scaled scores", \
    "缩放后的分数") \
  X(mask_added, \
    "mask (added)", \
    "掩码（相加）") \
  X(masked_scores, \
    "masked scores", \
    "掩码后的分数") \
  X(weights, \
    "weights = softmax", \
    "权重 = softmax") \
  X(output, \
    "output = weights V", \
    "输出 = 权重 V") \
  X(lines_view, \
    "who attends to whom (line opacity = weight)", \
    "谁关注谁（线的不透明度 = 权重）") \
  X(difference, \
    "difference", \
    "差值") \
  X(difference_heads, \
    "difference: head %d - head %d", \
    "差值：头 %d - 头 %d") \
  X(kind_exact, \
    "exact", \
    "精确") \
  X(kind_window, \
    "window", \
    "滑动窗口") \
  X(kind_strided, \
    "strided", \
    "跨步") \
  X(kind_blocksparse, \
    "blocksparse", \
    "块稀疏") \
  X(kind_linear, \
    "linear", \
    "线性") \
  X(kind_performer, \
    "performer", \
    "Performer 随机特征") \
  X(kind_linformer, \
    "linformer", \
    "Linformer 低秩") \
  X(entropy, \
    "entropy", \
    "熵") \
  X(max_weight, \
    "max weight", \
    "最大权重") \
  X(distance, \
    "mean distance", \
    "平均距离") \
  X(focus_hint, \
    "Click a head to focus it.", \
    "点击一个头以聚焦。") \
  X(side_a, \
    "A (settings)", \
    "A（当前设置）") \
  X(compare_off, \
    "Turn on 'compare with side B' in the Compare section to see two settings side by side.", \
    "在“对比”一节打开“与 B 侧对比”，即可并排查看两组设置。") \
  X(fully_masked, \
    "Row %d is fully masked: every key is hidden, so its weights are all zero (with a finite fill such as -1e9 they would be uniform instead).", \
    "第 %d 行被完全掩盖：所有键都被隐藏，权重全为零（若用 -1e9 这样的有限填充值，则会变成均匀分布）。") \
  X(no_results, \
    "Nothing to show.", \
    "没有可显示的内容。") \
  X(keys_hint, \
    "Arrows: query  [ ]: panel  H: head  Space: play  P: presentation", \
    "方向键：查询  [ ]：面板  H：头  空格：播放  P：演示") \
  X(panel_dot, \
    "Dot product", \
    "点积") \
  X(panel_variance, \
    "Variance", \
    "方差") \
  X(panel_saturation, \
    "Saturation", \
    "饱和") \
  X(panel_softmax, \
    "Softmax", \
    "Softmax 函数") \
  X(panel_stability, \
    "Stability", \
    "数值稳定") \
  X(dot_hint, \
    "Drag the tips of q, k and the long key k2. The dot product grows with the lengths as well as the angle: k2 points further away from q, yet wins.", \
    "拖动 q、k 和长键 k2 的端点。点积随长度和夹角一起变大：k2 离 q 的方向更远，却得分更高。") \
  X(variance_hint, \
    "Sample variance of q.k for q, k with N(0,1) entries: it grows like d_k (dashed line); divided by sqrt(d_k) it stays near 1.", \
    "q、k 各项服从 N(0,1) 时 q.k 的样本方差：随 d_k 线性增长（虚线）；除以 sqrt(d_k) 后保持在 1 附近。") \
  X(saturation_hint, \
    "Without scaling, scores spread with sqrt(d_k): softmax puts almost all weight on one key and its Jacobian (the gradient path) vanishes.", \
    "不缩放时，分数的分布宽度随 sqrt(d_k) 增大：softmax 几乎把全部权重给一个键，其雅可比矩阵（梯度通路）趋于零。") \
  X(variance_title, \
    "Var(q.k) and Var(q.k / sqrt(d_k)) against d_k (log-log)", \
    "Var(q.k) 与 Var(q.k / sqrt(d_k)) 随 d_k 的变化（双对数）") \
  X(variance_axis, \
    "variance", \
    "方差") \
  X(variance_theory, \
    "y = d_k (theory)", \
    "y = d_k（理论值）") \
  X(without_scaling, \
    "without scaling", \
    "不缩放") \
  X(with_scaling, \
    "with 1/sqrt(d_k)", \
    "乘以 1/sqrt(d_k)") \
  X(jacobian_norm, \
    "mean |Jacobian|", \
    "平均 |雅可比|") \
  X(softmax_hint, \
    "softmax(s)_j = exp(s_j - max) / sum_i exp(s_i - max): subtracting the max changes nothing but keeps exp() from overflowing.", \
    "softmax(s)_j = exp(s_j - max) / sum_i exp(s_i - max)：减去最大值不改变结果，却能防止 exp() 溢出。") \
  X(stability_hint, \
    "exp() overflows above 88.7 in float32 and above 11.09 in float16 (65504 is the largest half). The stable form never exponentiates a positive number.", \
    "exp() 在 float32 中超过 88.7、在 float16 中超过 11.09 即溢出（65504 是半精度的最大值）。稳定形式从不对正数取指数。") \
  X(overflow, \
    "overflow", \
    "溢出") \
  X(fine, \
    "fine", \
    "正常") \
  X(half_precision, \
    "float16", \
    "float16") \
  X(masked_last, \
    "last key masked", \
    "最后一个键被掩盖") \
  X(fully_masked_row, \
    "all keys masked", \
    "全部键被掩盖") \
  /* ---- masks, scoring functions, efficient attention (ui/variant_panels.cpp) ---- */ \
  X(panel_mask, \
    "Mask editor", \
    "掩码编辑器") \
  X(panel_scoring, \
    "Scoring functions", \
    "打分函数") \
  X(panel_variants, \
    "Efficient attention", \
    "高效注意力") \
  X(panel_cost_chart, \
    "Cost chart", \
    "开销图") \
  X(mask_padding_tokens, \
    "Padding tokens (nobody attends to them):", \
    "填充词元（无人关注它们）：") \
  X(mask_global_tokens, \
    "Global tokens (see and are seen by all):", \
    "全局词元（看见所有词元，也被所有词元看见）：") \
  X(mask_brush, \
    "Brush:", \
    "画笔：") \
  X(mask_brush_allow, \
    "allow", \
    "允许") \
  X(mask_brush_block, \
    "block", \
    "屏蔽") \
  X(mask_undo, \
    "Undo (Ctrl+Z)", \
    "撤销 (Ctrl+Z)") \
  X(mask_redo, \
    "Redo (Ctrl+Y)", \
    "重做 (Ctrl+Y)") \
  X(mask_clear_painted, \
    "Clear painted cells", \
    "清除手绘单元") \
  X(mask_painted_count, \
    "%d cells painted by hand", \
    "手绘单元 %d 个") \
  X(mask_allowed, \
    "Mask (click and drag to paint)", \
    "掩码（点击并拖动来绘制）") \
  X(mask_neg_inf_legend, \
    "Grey stripes = -inf (masked): no colour of the scale.", \
    "灰色条纹 = -inf（被掩盖）：不属于色标中的任何颜色。") \
  X(mask_nonzeros, \
    "Keys per row:", \
    "每行的键数：") \
  X(scoring_hint, \
    "The same Q and K (focused head), four scoring functions; the second row shows each one's weights minus the scaled dot-product weights.", \
    "相同的 Q 和 K（当前头），四种打分函数；第二行是各自的权重减去缩放点积的权重。") \
  X(scoring_dot, \
    "dot q.k", \
    "点积 q.k") \
  X(scoring_scaled_dot, \
    "scaled dot q.k/sqrt(d_k)", \
    "缩放点积 q.k/sqrt(d_k)") \
  X(scoring_cosine, \
    "cosine", \
    "余弦") \
  X(scoring_additive, \
    "additive v.tanh(Wq q + Wk k)", \
    "加性 v.tanh(Wq q + Wk k)") \
  X(scoring_additive_params, \
    "Additive (Bahdanau) network: W_q, W_k (d_k x d_k) and v (d_k)", \
    "加性（Bahdanau）网络：W_q、W_k（d_k x d_k）和 v（d_k）") \
  X(minus_scaled_dot, \
    "minus scaled dot", \
    "减去缩放点积") \
  X(variant_kind, \
    "Variant", \
    "变体") \
  X(variant_window, \
    "window w", \
    "窗口 w") \
  X(variant_stride, \
    "stride s", \
    "步长 s") \
  X(variant_block, \
    "block b", \
    "块 b") \
  X(variant_features, \
    "features m", \
    "特征数 m") \
  X(variant_rank, \
    "rank r", \
    "秩 r") \
  X(variant_causal, \
    "causal", \
    "因果") \
  X(variant_seed, \
    "seed", \
    "种子") \
  X(variant_pattern, \
    "Pattern (keys read)", \
    "模式（读取的键）") \
  X(variant_weights, \
    "Variant weights (implied for kernel methods)", \
    "变体权重（核方法为隐含矩阵）") \
  X(variant_exact_weights, \
    "Exact weights", \
    "精确权重") \
  X(variant_weight_error, \
    "Weight error (variant - exact)", \
    "权重误差（变体 - 精确）") \
  X(variant_error, \
    "Relative error of the output ||O - O_exact||_F / ||O_exact||_F = %.4g", \
    "输出的相对误差 ||O - O_exact||_F / ||O_exact||_F = %.4g") \
  X(variant_cost, \
    "Cost at n = %d (P = %.4g query-key pairs scored):  multiply-adds %s = %.4g (exact %.4g);  memory %s = %.4g floats (exact %.4g)", \
    "n = %d 时的开销（P = %.4g 个要打分的查询-键对）：乘加 %s = %.4g（精确 %.4g）；内存 %s = %.4g 个浮点数（精确 %.4g）") \
  X(variant_time, \
    "Measured: %.3g us (exact %.3g us), the real algorithms only", \
    "实测：%.3g 微秒（精确 %.3g 微秒），仅计算真实算法") \
  X(variant_no_display, \
    "Too many tokens to draw n x n matrices.", \
    "词元太多，无法绘制 n x n 矩阵。") \
  X(cost_run, \
    "Measure", \
    "开始测量") \
  X(cost_hint, \
    "Time per run of each variant's real algorithm for n = 64 ... 8192 (d_k = d_v = %d), measured in this build a slice per frame; error and display matrices are not timed.", \
    "各变体真实算法在 n = 64 ... 8192（d_k = d_v = %d）时每次运行的时间，在当前构建中逐帧分片测量；误差和显示矩阵不计时。") \
  X(cost_progress, \
    "%d / %d samples, %d frames", \
    "%d / %d 个样本，%d 帧") \
  X(cost_slope, \
    "%s  slope %.2f (n >= %d)", \
    "%s  斜率 %.2f（n >= %d）") \
  X(cost_not_run, \
    "Press Measure to time the variants: their measured times appear here beside the formulas' counts.", \
    "按“开始测量”为各变体计时：测得的时间会显示在这里，与公式算出的次数并列。") \
  X(cost_formula_title, \
    "What each variant costs by its formula (counted, not timed)", \
    "各变体按公式计算的开销（计数，不计时）") \
  X(cost_formula_axis, \
    "multiply-adds", \
    "乘加次数") \
  X(cost_measured_title, \
    "Measured time per run in this build", \
    "在当前构建中测得的每次运行时间") \
  X(cost_measured_axis, \
    "seconds per run", \
    "每次运行秒数") \
  X(panel_walkthrough, \
    "Worked example", \
    "例题") \
  X(walk_hint, \
    "The tutorial's example: two tokens, d_k = 2. Each row of Q, K and V belongs to one token. Drag a number of Q, K or V sideways to change it; every step below follows at once.", \
    "教程中的例子：两个词元，d_k = 2。Q、K、V 的每一行属于一个词元。左右拖动 Q、K 或 V 中的数字即可修改，下面的每一步都会立即随之更新。") \
  X(walk_inputs, \
    "The inputs: a query, a key and a value per token", \
    "输入：每个词元一个查询、一个键和一个值") \
  X(walk_steps, \
    "The steps, left to right", \
    "计算步骤，从左到右") \
  X(walk_raw_scores, \
    "scores QKᵀ", \
    "分数 QKᵀ") \
  X(walk_scale_op, \
    "× 1/√d_k = %.4f", \
    "× 1/√d_k = %.4f") \
  X(walk_scaled_scores, \
    "scaled scores", \
    "缩放后的分数") \
  X(walk_softmax_op, \
    "softmax of each row", \
    "逐行 softmax") \
  X(walk_weights, \
    "weights", \
    "权重") \
  X(walk_output, \
    "output", \
    "输出") \
  X(walk_row_sums, \
    "Each row of the weights sums to 1: %.6f and %.6f.", \
    "权重的每一行之和都是 1：%.6f 和 %.6f。") \
  X(walk_reading, \
    "Row i of the output is token i's new vector: the rows of V mixed in the proportions of row i of the weights.", \
    "输出的第 i 行是词元 i 的新向量：按权重第 i 行的比例把 V 的各行混合起来。") \
  /* course pages: figure text alternatives (ARIA) and the page's own buttons */ \
  X(aria_attends, \
    "Head %d: query '%s' attends most to '%s' (%.2f).", \
    "第 %d 个头：查询“%s”最关注“%s”（%.2f）。") \
  X(aria_no_query, \
    "Head %d: %d tokens; no query selected (use the arrow keys or tap a row).", \
    "第 %d 个头：%d 个词元；未选择查询（用方向键或点按一行）。") \
  X(aria_compare, \
    "Query '%s': side A attends most to '%s' (%.2f), side B to '%s' (%.2f).", \
    "查询“%s”：A 侧最关注“%s”（%.2f），B 侧最关注“%s”（%.2f）。") \
  X(aria_dot, \
    "q . k = %.2f with cos = %.2f; the long key gives q . k = %.2f with cos = %.2f.", \
    "q . k = %.2f，cos = %.2f；长键给出 q . k = %.2f，cos = %.2f。") \
  X(aria_variance, \
    "At d_k = %d the variance of q . k is %.1f; divided by sqrt(d_k) it is %.2f.", \
    "当 d_k = %d 时，q . k 的方差为 %.1f；除以 sqrt(d_k) 后为 %.2f。") \
  X(aria_saturation, \
    "Largest weight of the example row at d_k = 4, 64, 512: %.2f, %.2f, %.2f.", \
    "示例行在 d_k = 4、64、512 时的最大权重：%.2f、%.2f、%.2f。") \
  X(aria_softmax, \
    "Softmax of %d scores: the largest weight is %.2f, at position %d.", \
    "%d 个分数的 softmax：最大权重为 %.2f，位于第 %d 个。") \
  X(aria_stability, \
    "float32: naive %s, stable %s; float16: naive %s, stable %s.", \
    "float32：朴素 %s，稳定 %s；float16：朴素 %s，稳定 %s。") \
  X(aria_walkthrough, \
    "Worked example output: token 1 = (%.2f, %.2f), token 2 = (%.2f, %.2f).", \
    "例题输出：词元 1 = (%.2f, %.2f)，词元 2 = (%.2f, %.2f)。") \
  X(aria_error, \
    "No figure: %s", \
    "没有图：%s") \
  X(tour_start, \
    "Start the tour", \
    "开始导览") \
  X(tour_step_of, \
    "Step %d of %d", \
    "第 %d 步，共 %d 步") \
  X(tour_back, \
    "Back", \
    "上一步") \
  X(tour_next, \
    "Next", \
    "下一步") \
  X(tour_end, \
    "End the tour", \
    "结束导览") \
  X(tour_keys, \
    "Left and right arrow keys step too.", \
    "左右方向键也可以翻页。") \
  X(tour_title_1, \
    "Similarity: the dot product", \
    "相似度：点积") \
  X(tour_text_1, \
    "q·k is large when two vectors point the same way, zero at a right angle and negative when they are opposed. Drag the tips of q and k and watch the number and the angle.", \
    "两个向量方向越一致，q·k 越大；互相垂直时为零，方向相反时为负。拖动 q 和 k 的端点，看数值和夹角怎样变化。") \
  X(tour_title_2, \
    "QKᵀ: every pair at once", \
    "QKᵀ：一次算出所有配对") \
  X(tour_text_2, \
    "Each query and each key of the sentence is a point here; a line joins every query to the key it scores highest. The matrix QKᵀ holds all these dot products at once.", \
    "句子里的每个查询和每个键都是这里的一个点，每个查询连向它打分最高的键。矩阵 QKᵀ 一次装下了所有这些点积。") \
  X(tour_title_3, \
    "Why scale: the variance grows", \
    "为什么要缩放：方差在增长") \
  X(tour_text_3, \
    "With random entries, the variance of q·k grows like d_k (the dashed line). Divided by √d_k it stays near 1, whatever the dimension.", \
    "分量随机时，q·k 的方差随 d_k 线性增长（虚线）。除以 √d_k 之后，无论维度多大，方差都保持在 1 附近。") \
  X(tour_title_4, \
    "Why scale: softmax saturates", \
    "为什么要缩放：softmax 饱和") \
  X(tour_text_4, \
    "Large scores push softmax towards one-hot, and its gradient falls towards zero, so learning stalls. Switch the scaling on and see the gradient come back.", \
    "分数很大时，softmax 接近独热分布，梯度趋近于零，学习就停滞了。打开缩放，看梯度恢复。") \
  X(tour_title_5, \
    "Softmax: scores to weights", \
    "Softmax：从分数到权重") \
  X(tour_text_5, \
    "Softmax turns any row of scores into positive weights that sum to 1; a larger score takes a larger share. Edit the scores and watch the weights follow.", \
    "Softmax 把任意一行分数变成和为 1 的正权重，分数越大，分到的份额越多。修改分数，看权重怎样跟着变。") \
  X(tour_title_6, \
    "Softmax without overflow", \
    "不溢出的 softmax") \
  X(tour_text_6, \
    "Subtracting the row's largest score before exp changes nothing in exact arithmetic, yet keeps half and single precision from overflowing to infinity.", \
    "在取指数之前减去这一行的最大分数，精确计算的结果不变，却能防止半精度和单精度溢出为无穷大。") \
  X(tour_title_7, \
    "The worked example", \
    "例题") \
  X(tour_text_7, \
    "The tutorial's two-token example: Q, K and V, the scores, the scaled scores, the weights and the output, each computed from the one before.", \
    "教程中的两个词元的例子：Q、K、V，分数、缩放后的分数、权重和输出，每一步都由上一步算出。") \
  X(tour_title_8, \
    "Where a token looks", \
    "一个词元看向哪里") \
  X(tour_text_8, \
    "Every step of softmax(QKᵀ/√d_k)·V in a small language model trained here, one character per token. The pink row is the query \"a\" of \"cat\": head 0.0 learned to put most of its weight on the character just before it, \"c\".", \
    "在本项目训练的一个小型语言模型里，逐步展示 softmax(QKᵀ/√d_k)·V，每个字符一个词元。粉色的一行是 “cat” 中的查询 “a”：头 0.0 学会了把大部分权重放在它前面的字符 “c” 上。") \
  X(tour_title_9, \
    "Order: positions in the scores", \
    "顺序：分数中的位置") \
  X(tour_text_9, \
    "Attention alone cannot tell word order apart. RoPE turns q and k by angles that grow with position, so a score depends only on how far apart two tokens are: the diagonals are constant.", \
    "注意力本身分辨不出词序。RoPE 按位置把 q 和 k 旋转不同的角度，于是分数只取决于两个词元相隔多远：每条对角线上的值都相同。") \
  X(tour_title_10, \
    "Masks: no peeking ahead", \
    "掩码：不许偷看后文") \
  X(tour_text_10, \
    "The language model was trained with a causal mask: character i sees only the keys j ≤ i. Masked scores become −∞, so their weights are exactly 0, and each row still sums to 1.", \
    "这个语言模型是带因果掩码训练的：字符 i 只能看到 j ≤ i 的键。被遮住的分数变成 −∞，对应权重恰好为 0，每一行的和仍然是 1。") \
  X(tour_title_11, \
    "Multi-head attention", \
    "多头注意力") \
  X(tour_text_11, \
    "Four heads read the same text through their own projections, and training gave each a pattern of its own: in this second layer two heads look back to the first letter of the word (their labels under the heatmaps), the others spread out.", \
    "四个头用各自的投影读同一段文本，训练让每个头形成了自己的模式：在第二层里，有两个头回头看单词的首字母（见热图下方的标签），其余的头则分散开来。") \
  X(tour_title_12, \
    "Random against learned", \
    "随机的与学到的") \
  X(tour_text_12, \
    "Left, head 0.0 of the trained model: a bright line just left of the diagonal, each character looking at the one before. Right, the same characters through projections drawn from a seed: no such line. The sentence scene's heads are random like the right one; only training makes patterns like the left.", \
    "左边是训练好的模型的头 0.0：对角线左侧紧挨着一条亮线，每个字符都在看它前面的那个。右边是同样的字符经过由种子随机生成的投影：没有这样的线。句子场景里的头都像右边一样是随机的；只有训练才会形成左边那样的模式。") \
  X(tour_title_13, \
    "What attention costs", \
    "注意力的代价") \
  X(tour_text_13, \
    "Full attention costs n² per head. Window, sparse, linear and low-rank variants trade some exactness for far less work at long lengths.", \
    "完整的注意力每个头的代价是 n²。窗口、稀疏、线性和低秩等变体牺牲一点精确性，在长序列上省下大量计算。") \
  X(tour_title_14, \
    "FlashAttention: exact, tile by tile", \
    "FlashAttention：逐块计算，结果精确") \
  X(tour_text_14, \
    "FlashAttention computes exactly the same output one tile at a time, keeping only a running maximum and sum per row instead of the n × n weights.", \
    "FlashAttention 一次处理一个块，每行只保留一个运行中的最大值和总和，而不是整个 n × n 权重矩阵，算出的输出完全相同。") \
  X(tour_title_15, \
    "Watch heads form", \
    "看注意力头成形") \
  X(tour_text_15, \
    "Train a tiny transformer here: press Start and watch the loss fall as heads learn to look at the previous token, then at what followed this token last time.", \
    "在这里训练一个很小的 Transformer：点“开始”，看损失下降，看各个头先学会看前一个词元，再学会看这个词元上次出现时后面跟着的词元。") \
  X(variance_raw_line, \
    "Var(q·k) = %.2f (theory %d)", \
    "Var(q·k) = %.2f（理论值 %d）") \
  X(variance_scaled_line, \
    "Var(q·k / √d_k) = %.3f (theory 1)", \
    "Var(q·k / √d_k) = %.3f（理论值 1）") \
  X(variance_hist_raw, \
    "q·k, histogram over [%.0f, %.0f]", \
    "q·k 的直方图，范围 [%.0f, %.0f]") \
  X(variance_hist_scaled, \
    "q·k / √d_k, histogram over [-4, 4]", \
    "q·k / √d_k 的直方图，范围 [-4, 4]") \
  X(pipeline_header, \
    "head %d / %d   scores × %.4f   d_k = %d", \
    "头 %d / %d   分数 × %.4f   d_k = %d") \
  X(dot_prefers, \
    "The dot product prefers %s; the cosine prefers %s.", \
    "点积更偏向 %s；余弦更偏向 %s。") \
  X(softmax_score_row, \
    "score s", \
    "分数 s") \
  X(softmax_sums, \
    "max = %.3f   sum of exp = %.4f   sum of weights = %.6f", \
    "最大值 = %.3f   exp 之和 = %.4f   权重之和 = %.6f") \
  X(stability_scores, \
    "Scores (try 12, or 100):", \
    "分数（试试 12 或 100）：") \
  X(stability_naive32, \
    "naive, float32", \
    "直接计算，float32") \
  X(stability_stable32, \
    "max subtracted, float32", \
    "先减最大值，float32") \
  X(stability_naive16, \
    "naive, float16", \
    "直接计算，float16") \
  X(stability_stable16, \
    "max subtracted, float16", \
    "先减最大值，float16") \
  X(stability_last_inf, \
    "last key masked with -inf", \
    "最后一个键用 -inf 掩盖") \
  X(stability_last_finite, \
    "last key masked with -1e9", \
    "最后一个键用 -1e9 掩盖") \
  X(stability_all_inf, \
    "every key masked with -inf: zeros and a flag", \
    "所有键都用 -inf 掩盖：全为零并标记") \
  X(stability_all_finite, \
    "every key masked with -1e9: uniform", \
    "所有键都用 -1e9 掩盖：变成均匀分布") \
  X(scaling_target, \
    "target", \
    "目标") \
  X(weight_range, \
    "weights' colours", \
    "权重的颜色") \
  X(weight_range_fixed, \
    "0 to 1", \
    "0 到 1") \
  X(weight_range_row, \
    "by row's largest", \
    "按每行最大值") \
  X(weight_range_log, \
    "log10", \
    "对数（log10）") \
  X(weight_range_row_top, \
    "max", \
    "最大") \
  X(web_copy_link, \
    "Copy link", \
    "复制链接") \
  X(web_link_copied, \
    "Link copied.", \
    "链接已复制。") \
  X(web_embed, \
    "Embed", \
    "嵌入") \
  X(web_embed_hint, \
    "Paste this into your page to show the current panel in this state:", \
    "把下面的代码粘贴到你的网页中，即可按当前状态显示当前面板：") \
  X(web_save_session, \
    "Save", \
    "保存") \
  X(web_load_session, \
    "Load", \
    "载入") \
  X(web_language, \
    "Language", \
    "语言") \
  X(web_present, \
    "Present", \
    "演示") \
  X(web_sentence, \
    "Sentence", \
    "句子") \
  X(web_sentence_placeholder, \
    "Type a sentence in any language", \
    "输入任意语言的句子") \
  X(web_present_title, \
    "Presentation mode (fullscreen)", \
    "演示模式（全屏）") \
  X(web_download_model, \
    "Download model", \
    "下载模型") \
  X(web_download_model_title, \
    "Download the training run as an .attnmodel file", \
    "把这次训练下载为 .attnmodel 文件") \
  X(web_load_model, \
    "Load model", \
    "载入模型") \
  X(web_load_model_title, \
    "Load a training run (.attnmodel) or a language model (.attnlm), or drop one on the lab", \
    "载入一次训练（.attnmodel 文件）或一个语言模型（.attnlm 文件），也可以把文件拖到实验室上") \
  X(web_import, \
    "Import…", \
    "导入…") \
  X(web_import_title, \
    "Import attention weights from a .npy, .npz or JSON file (or drop one on the lab)", \
    "从 .npy、.npz 或 .json 文件导入注意力权重（也可以把文件拖到实验室上）") \
  X(web_import_batch, \
    "batch", \
    "批次") \
  X(web_import_bf16, \
    "uint16 is bfloat16", \
    "把 uint16 读作 bfloat16") \
  X(web_export, \
    "Export", \
    "导出") \
  X(web_export_matrix, \
    "matrix to export", \
    "要导出的矩阵") \
  X(web_export_weights, \
    "weights", \
    "权重") \
  X(web_export_raw_scores, \
    "raw scores", \
    "原始分数") \
  X(web_export_scaled_scores, \
    "scaled scores", \
    "缩放后的分数") \
  X(web_export_output, \
    "output", \
    "输出") \
  X(web_export_scale, \
    "PNG scale", \
    "PNG 倍数") \
  X(web_export_panel, \
    "Panel PNG", \
    "面板 PNG") \
  X(web_export_panel_title, \
    "The whole panel as a PNG at the chosen scale (for print)", \
    "按所选倍数把整个面板存为 PNG（用于打印）") \
  X(web_language_english, \
    "English", \
    "英文") \
  X(web_language_chinese, \
    "中文", \
    "中文") \
  X(web_session_bad, \
    "The stored session was ignored: %s", \
    "已忽略保存的会话：%s") \
  X(web_file_bad, \
    "The file was not loaded: %s", \
    "文件未载入：%s") \
  X(web_session_too_large, \
    "the file is larger than 2 MB", \
    "文件大于 2 MB") \
  X(web_import_reading, \
    "Reading %s…", \
    "正在读取 %s…") \
  X(web_import_inflating, \
    "Inflating %s…", \
    "正在解压 %s…") \
  X(web_import_checking, \
    "Checking %s…", \
    "正在检查 %s…") \
  X(web_import_done, \
    "%s: %d layers × %d heads, %d × %d tokens (%d ms)", \
    "%s：%d 层 × %d 个头，%d × %d 个词元（%d 毫秒）") \
  X(web_import_inflate_limit, \
    "%s: the archive inflates to more than the import limit", \
    "%s：压缩包解压后超过了导入的上限") \
  X(web_import_member_long, \
    "%s: member %s inflates to more than the %d bytes it announces", \
    "%s：成员 %s 解压后超过了它声明的 %d 字节") \
  X(web_import_member_size, \
    "%s: member %s inflates to %d bytes, not %d", \
    "%s：成员 %s 解压后是 %d 字节，而不是 %d 字节") \
  X(web_import_no_inflater, \
    "This browser has no DecompressionStream: save the archive with np.savez (not _compressed)", \
    "这个浏览器没有 DecompressionStream：请用 np.savez（而不是 _compressed）保存压缩包") \
  X(web_theme_bad, \
    "theme=%s is not a theme (%s): the colour scheme's is used", \
    "theme=%s 不是可用的主题（%s）：改用浏览器的配色") \
  X(web_training_restore_bad, \
    "The saved training session could not be restored (%s); starting afresh.", \
    "无法恢复保存的训练（%s）；重新开始。") \
  X(web_model_bad, \
    "Could not load %s", \
    "无法载入 %s") \
  X(web_model_too_large, \
    "%s is larger than 64 MB, more than any model file the lab writes", \
    "%s 大于 64 MB，超过了实验室写出的任何模型文件") \
  X(web_loading, \
    "Loading Attention Lab…", \
    "正在载入注意力实验室…") \
  X(web_no_wasm, \
    "This browser has no WebAssembly, which Attention Lab needs.", \
    "这个浏览器不支持 WebAssembly，注意力实验室需要它。") \
  X(web_no_webgl2, \
    "WebGL2 is not available in this browser (or it is switched off), and Attention Lab draws with it.", \
    "这个浏览器没有 WebGL2（或者它被关闭了），注意力实验室要用它来绘图。") \
  /* the crash screen (web/crash.mjs), drawn by the page once the app has stopped */ \
  X(web_crash_title, \
    "Attention Lab has stopped", \
    "注意力实验室已停止运行") \
  X(web_crash_body, \
    "It hit an error it cannot recover from (a bug, or too little memory). If a link or the saved session caused it, open the lab without the link, or start fresh.", \
    "实验室遇到了无法恢复的错误（程序缺陷或内存不足）。如果是链接或保存的会话引起的，可以不带链接打开，或者重新开始。") \
  X(web_crash_open, \
    "Open the lab without this link", \
    "不带链接打开实验室") \
  X(web_crash_open_title, \
    "The same page without the link's settings; the session saved in this browser is kept", \
    "同一页面，但不带链接里的设置；这个浏览器里保存的会话会保留") \
  X(web_crash_reload, \
    "Reload", \
    "重新加载") \
  X(web_crash_fresh, \
    "Start fresh", \
    "重新开始") \
  X(web_crash_fresh_title, \
    "Clears what this browser saved of the lab (the session and the training run), then opens it without the link", \
    "清除这个浏览器为实验室保存的内容（会话和训练进度），然后不带链接打开") \
  X(web_crash_report, \
    "Error details, for a bug report:", \
    "错误详情（报告问题时请附上）：") \
  /* the list of keys (ui/key_bindings.h; web/keys-overlay.mjs): what each key does, the keys' names */ \
  X(key_query_next, \
    "Query cursor: next token", \
    "查询光标：下一个词元") \
  X(key_query_previous, \
    "Query cursor: previous token", \
    "查询光标：上一个词元") \
  X(key_tour_next, \
    "In the tour: next step", \
    "导览中：下一步") \
  X(key_tour_back, \
    "In the tour: previous step", \
    "导览中：上一步") \
  X(key_panel_next, \
    "Next panel", \
    "下一个面板") \
  X(key_panel_previous, \
    "Previous panel", \
    "上一个面板") \
  X(key_next_head, \
    "Next head", \
    "下一个注意力头") \
  X(key_play, \
    "Play or pause: the query steps through the tokens", \
    "播放或暂停：查询逐个走过词元") \
  X(key_presentation, \
    "Presentation mode on or off", \
    "打开或关闭演示模式") \
  X(key_mask_undo, \
    "Mask editor: undo", \
    "掩码编辑器：撤销") \
  X(key_mask_redo, \
    "Mask editor: redo", \
    "掩码编辑器：重做") \
  X(key_exercise_check, \
    "In an exercise's answer field: check the answer", \
    "在练习的答案框中：检查答案") \
  X(key_keys_list, \
    "Show or hide this list of keys", \
    "显示或隐藏这份按键列表") \
  X(key_keys_list_close, \
    "Close this list", \
    "关闭这份列表") \
  X(key_name_space, \
    "Space", \
    "空格键") \
  X(key_name_page_up, \
    "Page Up", \
    "上翻页键") \
  X(key_name_page_down, \
    "Page Down", \
    "下翻页键") \
  X(key_name_enter, \
    "Enter", \
    "回车键") \
  X(key_name_escape, \
    "Esc", \
    "Esc 键") \
  X(web_keys, \
    "Keys", \
    "按键") \
  X(web_keys_title, \
    "Keyboard keys", \
    "键盘按键") \
  X(web_keys_button_title, \
    "The keyboard keys of the lab and the page (?)", \
    "实验室和页面的键盘按键（?）") \
  X(web_keys_lab, \
    "In the lab, once it has the focus (click it)", \
    "在实验室中（先点击实验室，让它获得焦点）") \
  X(web_keys_page, \
    "On the page, outside its text fields", \
    "在页面上（文本框之外）") \
  X(web_keys_key, \
    "Key", \
    "按键") \
  X(web_keys_action, \
    "What it does", \
    "作用") \
  X(web_keys_close, \
    "Close", \
    "关闭") \
  /* training lab (src/ui/train_panels.cpp) and the trained scene */ \
  X(panel_training, \
    "Training", \
    "训练") \
  X(panel_scaling_run, \
    "Forgot to scale?", \
    "忘了缩放？") \
  X(train_start_hint, \
    "The model below is untrained: its heads attend almost evenly. Start trains it on the task a slice per frame; the loss and accuracy curves grow here and the heads below sharpen into the patterns the task needs.", \
    "下面的模型还没有训练：各个头的注意力几乎是均匀的。点“开始”后，它每帧训练一小段；损失和准确率曲线会在这里延伸，下面的各个头会逐渐形成任务所需的模式。") \
  X(task_copy, \
    "copy", \
    "复制") \
  X(task_reverse, \
    "reverse", \
    "倒序") \
  X(task_sort, \
    "sort", \
    "排序") \
  X(task_previous, \
    "previous token", \
    "前一个词元") \
  X(task_induction, \
    "induction", \
    "归纳（重复）") \
  X(task_copy_scored, \
    "scored: the 16 positions from the separator on (each predicts the next copied symbol)", \
    "计分：分隔符起的 16 个位置（每个预测下一个要复制的符号）") \
  X(task_reverse_scored, \
    "scored: the 16 positions from the separator on (each predicts the next reversed symbol)", \
    "计分：分隔符起的 16 个位置（每个预测倒序后的下一个符号）") \
  X(task_sort_scored, \
    "scored: the 16 positions from the separator on (each predicts the next sorted symbol)", \
    "计分：分隔符起的 16 个位置（每个预测排序后的下一个符号）") \
  X(task_previous_scored, \
    "scored: positions 1..31 (each outputs the token before it)", \
    "计分：位置 1..31（每个输出它前面的词元）") \
  X(task_induction_scored, \
    "scored: the repeat without its first token: positions m..2m-2 (each predicts the next repeated symbol)", \
    "计分：重复段去掉第一个词元，即位置 m..2m-2（每个预测下一个重复的符号）") \
  X(trained_summary, \
    "%s: the %s task, %d layers x %d heads, d_model %d, %lld %s", \
    "%s：%s任务，%d 层 x %d 个头，d_model %d，%lld %s") \
  X(derivation_terms, \
    " + ... (%d terms)", \
    " + ...（共 %d 项）") \
  X(derivation_scale, \
    "x scale %.4f = %.4f\n", \
    "x 缩放 %.4f = %.4f\n") \
  X(derivation_masked, \
    "masked: + %g = %g\n", \
    "掩码：+ %g = %g\n") \
  X(derivation_all_masked, \
    "softmax: every key masked -> weight 0", \
    "softmax：所有键都被遮住 -> 权重 0") \
  X(saturation_example, \
    "%s: max %.2f  entropy %.2f  |J| %.3f", \
    "%s：最大 %.2f  熵 %.2f  |J| %.3f") \
  X(train_task, \
    "task", \
    "任务") \
  X(train_layers, \
    "layers", \
    "层数") \
  X(train_start, \
    "Start", \
    "开始") \
  X(train_pause, \
    "Pause", \
    "暂停") \
  X(train_reset, \
    "Reset", \
    "重置") \
  X(train_step, \
    "step", \
    "步") \
  X(train_steps_per_second, \
    "steps/s", \
    "步/秒") \
  X(train_compute_rate, \
    "compute only", \
    "仅计算") \
  X(train_loss, \
    "loss", \
    "损失") \
  X(train_held_out, \
    "held-out accuracy", \
    "留出集准确率") \
  X(train_batch, \
    "batch accuracy", \
    "批次准确率") \
  X(train_at_step, \
    "at step", \
    "于第几步") \
  X(train_slice_note, \
    "Training runs a few milliseconds per frame, so the page stays responsive.", \
    "每帧只训练几毫秒，页面始终保持响应。") \
  X(train_save, \
    "Save", \
    "保存") \
  X(train_load, \
    "Load", \
    "载入") \
  X(train_loss_curve, \
    "Loss per step (log scale)", \
    "每步损失（对数刻度）") \
  X(train_accuracy_curve, \
    "Accuracy", \
    "准确率") \
  X(train_probe, \
    "Every head's attention on the task's probe sequence", \
    "每个头在该任务探测序列上的注意力") \
  X(train_thresholds, \
    "named when a score reaches %.2f (previous-token) or %.2f (induction)", \
    "分数达到 %.2f（前一词元）或 %.2f（归纳）时命名") \
  X(scaling_run_hint, \
    "The tutorial's experiment: the same model (copy task, 2 layers, one head of width d_k) trained twice from the same seed on the same batches, with and without 1/sqrt(d_k).", \
    "教程中的实验：同一个模型（复制任务，2 层，一个宽度为 d_k 的头）用相同的种子和相同的批次训练两次，一次除以 sqrt(d_k)，一次不除。") \
  X(scaling_run_init, \
    "initialisation", \
    "初始化") \
  X(scaling_run_unit, \
    "unit variance q, k", \
    "q、k 单位方差") \
  X(scaling_run_small, \
    "small (N(0, 0.02^2))", \
    "小（N(0, 0.02^2)）") \
  X(scaling_run_pairs_per_second, \
    "step pairs/s", \
    "步对/秒") \
  X(scaling_run_scaled, \
    "with 1/sqrt(d_k)", \
    "除以 sqrt(d_k)") \
  X(scaling_run_unscaled, \
    "without scaling", \
    "不缩放") \
  X(scaling_run_line, \
    "loss %.4f   steps to loss %.2f: %s   late peak %.3f", \
    "损失 %.4f   降到 %.2f 的步数：%s   后半程峰值 %.3f") \
  X(scaling_run_note, \
    "With unit-variance q and k (the default here), unscaled scores at d_k = 64 have a standard deviation of 8 and the softmax starts saturated: the unscaled run is slower and its loss keeps spiking. With the small initialisation every score starts near 0, the unscaled run even learns faster at first, and the spikes at d_k = 64 remain (README, docs/TRAINING.md: 5 seeds measured natively).", \
    "q、k 为单位方差时（此处默认），d_k = 64 的未缩放分数标准差为 8，softmax 一开始就饱和：未缩放的运行更慢，损失不断出现尖峰。使用小初始化时所有分数从接近 0 开始，未缩放的运行起初甚至学得更快，但 d_k = 64 时的尖峰仍在（README、docs/TRAINING.md：本机测量 5 个种子）。") \
  X(train_head_scores, \
    "L%d H%d %s\nprevious-token %.2f  induction %.2f  diagonal %.2f", \
    "L%d H%d %s\n前一词元 %.2f  归纳 %.2f  对角 %.2f") \
  X(label_induction, \
    "\"induction\"", \
    "“归纳”") \
  X(label_previous_token, \
    "\"previous-token\"", \
    "“前一词元”") \
  X(source_trained, \
    "Trained model", \
    "训练好的模型") \
  X(trained_layer, \
    "layer", \
    "层") \
  X(locked_by_trained, \
    "Fixed by the trained model: its d_model, heads, layers and learned embeddings are what it was trained with. The math knobs below recompute this layer's attention from the model's own Q, K and V.", \
    "由训练好的模型固定：d_model、头数、层数和学到的嵌入都是训练时的设置。下面的数学旋钮会用模型自己的 Q、K、V 重新计算这一层的注意力。") \
  X(trained_not_loaded, \
    "The trained model is not loaded (yet).", \
    "训练好的模型尚未载入。") \
  /* import and model view */ \
  X(import_title, \
    "Imported attention", \
    "导入的注意力") \
  X(source_imported, \
    "Imported file", \
    "导入的文件") \
  X(import_hint, \
    "Drop a .npy, .npz or JSON file on the window (or use Import on the page) to see a model's attention.", \
    "将 .npy、.npz 或 JSON 文件拖到窗口中（或在页面上使用“导入”）以查看模型的注意力。") \
  X(import_summary, \
    "%s: %d layers x %d heads, %d queries x %d keys", \
    "%s：%d 层 x %d 头，%d 个查询 x %d 个键") \
  X(import_batch, \
    "batch %d of %d", \
    "批次 %d / %d") \
  X(import_weights_only, \
    "Weights only: the pipeline and compare panels need Q, K and V (the file has none), so they are off. The model view, heads and token panels work.", \
    "仅有权重：流水线和对比面板需要 Q、K、V（文件中没有），因此不可用。模型视图、多头和词元面板可用。") \
  X(import_qkv, \
    "Q, K, V given: every panel recomputes from them with the math settings; largest difference from the file's weights %.2e.", \
    "已给出 Q、K、V：所有面板按数学设置由它们重新计算；与文件中权重的最大差为 %.2e。") \
  X(import_needs_qkv, \
    "This panel needs the scores, which come from Q and K. The imported file has attention weights only; save q, k and v in the .npz to switch it on (see docs/IMPORT.md).", \
    "此面板需要由 Q 和 K 得到的分数。导入的文件只有注意力权重；在 .npz 中保存 q、k、v 即可启用（见 docs/IMPORT.md）。") \
  X(random_projections_note, \
    "Random projections (seed %d): nothing in these figures was learned, so their patterns carry no meaning. For heads that learned, choose Language model as the scene.", \
    "投影矩阵是随机生成的（种子 %d）：这些图里没有任何学到的东西，其中的模式并无意义。想看学过的注意力头，请把场景换成“语言模型”。") \
  X(hide_special, \
    "Hide special tokens ([CLS], [SEP], <s>, padding)", \
    "隐藏特殊词元（[CLS]、[SEP]、<s>、填充）") \
  X(renormalise, \
    "Renormalise rows over the visible tokens", \
    "在可见词元上重新归一化各行") \
  X(weights_raw_note, \
    "Weights raw: rows do not sum to 1 once tokens are hidden.", \
    "原始权重：隐藏词元后各行之和不为 1。") \
  X(panel_language, \
    "Language model", \
    "语言模型") \
  X(source_language, \
    "Language model", \
    "语言模型") \
  X(locked_by_language, \
    "Fixed by the language model: its d_model, heads and layers are what it was trained with. The math knobs below change how every layer of the model attends.", \
    "由语言模型固定：d_model、头数和层数都是训练时的设置。下面的数学旋钮会改变模型每一层的注意力计算方式。") \
  X(lm_loading, \
    "The language model is loading (1.8 MB, fetched only for this scene)...", \
    "语言模型正在加载（1.8 MB，仅在打开此场景时获取）……") \
  X(lm_intro, \
    "A character-level Transformer trained here on Debian's fortune files (English quotations, Tang and Song poems, modern Chinese prose). Type any text: every explorer panel shows this model's real Q, K, V and weights, one character per token.", \
    "一个在本项目中用 Debian 的 fortune 文件（英文名言、唐诗宋词和现代中文散文）训练的字符级 Transformer。输入任意文本：每个探索面板都显示该模型真实的 Q、K、V 和权重，每个字符一个词元。") \
  X(lm_intro_file, \
    "A character-level Transformer from a file of its own, not the lab's fortune model; its notes say what it learned from (below). Type any text: every explorer panel shows this model's real Q, K, V and weights, one character per token.", \
    "一个来自文件的字符级 Transformer，不是本实验室用 fortune 文件训练的模型；它的说明写明了训练所用的文本（见下）。输入任意文本：每个探索面板都显示该模型真实的 Q、K、V 和权重，每个字符一个词元。") \
  X(lm_no_held_out, \
    "This model's file carries no held-out text (a model trained on your own text keeps no copy of it), so there is nothing here to measure the cost of a switch or an ablation on; the figures above still show what each one changes.", \
    "这个模型的文件不带留出文本（用你自己的文本训练的模型不保存文本的副本），所以这里无法测量开关或消融的代价；上面的图仍会显示每一项改变了什么。") \
  X(lm_summary, \
    "%s: layers %d, heads per layer %d, d_model %d, %d characters in its vocabulary, context %d; %.2f million parameters (GPT-2 small has 124 million), so expect a tiny model's text.", \
    "%s：层数 %d，每层头数 %d，d_model %d，词表 %d 个字符，上下文 %d；参数量 %.2fM（最小的 GPT-2 为 124M），所以它写出的只是小模型的文字。") \
  X(lm_notes_label, \
    "The file's notes:", \
    "文件自带的说明（保留原文）：") \
  X(panel_overview, \
    "Long-input overview", \
    "长输入概览") \
  X(overview_intro, \
    "For inputs of thousands of tokens the full weight matrix is too large to draw or even hold (32,768 tokens: 1.07 billion weights, 4 GiB). The overview computes softmax(QKᵀ/sqrt(d_k)) one tile of query rows at a time, never holding the matrix, and keeps what a person can read: the weights pooled over blocks of b x b tokens, each key's total weight over all queries, and the exact weights of any region you pick.", \
    "输入有成千上万个词元时，完整的权重矩阵大到无法绘制，甚至无法存放（32,768 个词元：10.7 亿个权重，按 float32 约 43 亿字节）。概览每次只计算一块查询行的 softmax(QKᵀ/sqrt(d_k))，从不存放整个矩阵，只保留人能读懂的部分：按 b x b 个词元分块汇总的权重、每个键从所有查询那里得到的总权重，以及你选中的任一区域的精确权重。") \
  X(overview_empty, \
    "Import a .npz or JSON file that holds q and k (and v if you like) but no attention weights, of up to 32,768 tokens (Import... above; docs/IMPORT.md shows how to save one from a model).", \
    "导入一个只含 q 和 k（也可含 v）而不含注意力权重的 .npz 或 JSON 文件，最多 32,768 个词元（上方的“导入...”；docs/IMPORT.md 说明了如何从模型保存这样的文件）。") \
  X(overview_summary, \
    "%s: layers %d, heads %d, %d queries x %d keys, d_k %d. Its full weight matrix per head would be %s weights (%sB as float32): never formed here. Both pictures are coloured by log10 of the weight, from 1 at the top of the scale down to the decade of the smallest weight at its foot.", \
    "%s：层数 %d，头数 %d，%d 个查询 x %d 个键，d_k %d。每个头的完整权重矩阵将有 %s 个权重（float32 下为 %sB）：这里从不生成它。两幅图都按权重的 log10 着色：色标顶端为 1，底端为最小权重所在的数量级。") \
  X(overview_causal, \
    "causal (query i sees keys j <= i)", \
    "因果（查询 i 只看键 j <= i）") \
  X(overview_pool, \
    "Each block shows", \
    "每个块显示") \
  X(overview_pool_mean, \
    "the mean weight", \
    "平均权重") \
  X(overview_pool_max, \
    "the largest weight", \
    "最大权重") \
  X(overview_side, \
    "region side", \
    "区域边长") \
  X(overview_running_worker, \
    "Computing in a Worker, off the page's thread: %.0f%%", \
    "正在 Worker 中计算（不占用页面线程）：%.0f%%") \
  X(overview_running, \
    "Computing a slice of rows each frame: %.0f%%", \
    "每帧计算一部分行：%.0f%%") \
  X(overview_pooled_mean, \
    "Left: the mean weight of each block of %d queries x %d keys (%d x %d blocks; rows are queries, labelled by their block's first token). Below it: each key's total weight over all queries; a spike is a key that many queries attend to, such as a sink. Click a block to see its region's exact weights on the right.", \
    "左：每个 %d 个查询 x %d 个键的块的平均权重（共 %d x %d 块；行是查询，标签为块中第一个词元的位置）。下方：每个键从所有查询得到的总权重；尖峰表示许多查询都关注的键，例如注意力汇聚点。点击一个块，右侧显示其区域的精确权重。") \
  X(overview_pooled_max, \
    "Left: the largest weight in each block of %d queries x %d keys (%d x %d blocks; rows are queries, labelled by their block's first token): a single sharp weight shows even where the mean would hide it. Below it: each key's total weight over all queries. Click a block to see its region's exact weights on the right.", \
    "左：每个 %d 个查询 x %d 个键的块中的最大权重（共 %d x %d 块；行是查询，标签为块中第一个词元的位置）：即使平均值会把它淹没，单个尖锐的权重也能显示出来。下方：每个键从所有查询得到的总权重。点击一个块，右侧显示其区域的精确权重。") \
  X(overview_block_tip, \
    "queries %d-%d, keys %d-%d: %.5f", \
    "查询 %d-%d，键 %d-%d：%.5f") \
  X(overview_key_axis, \
    "key position", \
    "键的位置") \
  X(overview_total_axis, \
    "total weight", \
    "总权重") \
  X(overview_pick_region, \
    "Click a block of the pooled picture: its region's exact weights appear here.", \
    "点击汇总图中的一个块：它所在区域的精确权重会显示在这里。") \
  X(overview_region_note, \
    "Exact weights of queries %d-%d over keys %d-%d, from the pass's row statistics (each whole row sums to 1; this region holds %.1f%% of its rows' weight).", \
    "查询 %d-%d 对键 %d-%d 的精确权重，由这次计算的行统计量得出（每一整行之和为 1；这个区域占这些行权重的 %.1f%%）。") \
  X(panel_lm_patch, \
    "Activation patching", \
    "激活修补") \
  X(lm_patch_intro, \
    "Which part of the model carries a difference? Run it on a clean prompt and on a corrupted one (one character changed) and read, after each, how much more it prefers the answer character to the foil: the logit difference. Then run the corrupted prompt again with one head's output (or the residual stream at one position) taken from the clean run. The share of the gap that comes back is the cell: 0 = no change from the corrupted run, 1 = the clean run's difference restored in full.", \
    "模型的哪一部分承载了两段输入之间的差别？分别在干净的提示和被破坏的提示（改动了一个字符）上运行模型，读出它在每次运行后比起干扰字符更偏好答案字符多少：即 logit 差。然后再次运行被破坏的提示，但把某一个头的输出（或某一位置上的残差流）换成干净运行中的值。差距被找回的比例就是该单元格的值：0 = 与被破坏的运行相同，1 = 完全恢复干净运行的差。") \
  X(lm_patch_open_scene, \
    "Patching runs the lab's language model: open its scene first.", \
    "修补需要运行本实验室的语言模型：请先打开它的场景。") \
  X(lm_patch_presets, \
    "Presets:", \
    "预设：") \
  X(lm_patch_preset_previous, \
    "A previous-character head", \
    "关注前一个字符的头") \
  X(lm_patch_preset_word, \
    "A word-start head", \
    "关注单词开头的头") \
  X(lm_patch_clean, \
    "Clean", \
    "干净") \
  X(lm_patch_corrupt, \
    "Corrupted", \
    "被破坏") \
  X(lm_patch_answer, \
    "Answer", \
    "答案") \
  X(lm_patch_foil, \
    "Foil", \
    "干扰") \
  X(lm_patch_grid, \
    "Patch", \
    "修补") \
  X(lm_patch_by_head, \
    "each head's output", \
    "每个头的输出") \
  X(lm_patch_by_residual, \
    "the residual stream, per layer and position", \
    "残差流（按层和位置）") \
  X(lm_patch_all_positions, \
    "at every position", \
    "在所有位置") \
  X(lm_patch_one_position, \
    "at one position", \
    "只在一个位置") \
  X(lm_patch_position, \
    "position", \
    "位置") \
  X(lm_patch_differences, \
    "logit('%s') - logit('%s') at the last position: clean %+.2f, corrupted %+.2f; the gap a patch can restore is %.2f.", \
    "最后一个位置上的 logit('%s') - logit('%s')：干净 %+.2f，被破坏 %+.2f；修补可以找回的差距为 %.2f。") \
  X(lm_patch_no_gap, \
    "The two runs give the same difference (the gap is under 0.000001), so no share of it can be restored: change a character that matters to the answer.", \
    "两次运行给出的差相同（差距小于 0.000001），因此谈不上找回多少：请改动一个对答案有影响的字符。") \
  X(lm_patch_progress, \
    "%d / %d runs", \
    "%d / %d 次运行") \
  X(lm_patch_head_rows, \
    "Rows: layers; columns: heads. Each cell reruns the corrupted prompt with that head's output taken from the clean run.", \
    "行：层；列：头。每个单元格都重新运行被破坏的提示，并把该头的输出换成干净运行中的值。") \
  X(lm_patch_residual_rows, \
    "Rows: the residual stream entering layer 0 (the embeddings), each later layer, and after the last; columns: positions (<s> is the start token). Row 0 restores the gap only where the prompts differ, the last row only at the last position, where the prediction is read: the rows between show at which layer attention moves the difference from one to the other.", \
    "行：进入第 0 层的残差流（即嵌入）、之后每一层的输入，以及最后一层之后；列：位置（<s> 为起始记号）。第 0 行只在两段提示不同的位置找回差距，最后一行只在最后一个位置（读出预测的地方）找回：中间各行显示注意力在哪一层把这个差别从前者搬到后者。") \
  X(lm_patch_peak_head, \
    "Layer %d, head %d restores %.0f%% of the gap. On the clean prompt, at the last position, it puts %.0f%% of its weight on position %d ('%s'), where the prompts differ.", \
    "第 %d 层第 %d 个头找回了 %.0f%% 的差距。在干净提示上，它在最后一个位置把 %.0f%% 的权重放在位置 %d（'%s'）上，也就是两段提示不同的地方。") \
  X(lm_patch_peak_carries, \
    "Most of its weight is on that character: this head carries it to the position where the next character is predicted.", \
    "它的大部分权重都落在这个字符上：正是这个头把它带到预测下一个字符的位置。") \
  X(lm_patch_layer_row, \
    "layer %d", \
    "第 %d 层") \
  X(lm_patch_after_last, \
    "after layer %d", \
    "第 %d 层之后") \
  X(lm_patch_into_layer, \
    "into layer %d", \
    "进入第 %d 层") \
  X(lm_patch_where, \
    "where", \
    "范围") \
  X(lm_patch_head_col, \
    "head %d", \
    "头 %d") \
  X(panel_lm_text, \
    "Train on your text", \
    "用你的文本训练") \
  X(lm_text_intro, \
    "Train the lab's language model from random weights on a text you choose, and watch it learn: the loss falls, the held-out bits cross the line of the text's own character bigram, a head comes to look at the previous character, and the samples start to sound like the text. The last tenth of the text is held out: the model never trains on it.", \
    "用你选择的文本，从随机权重开始训练本实验室的语言模型，看它如何学习：损失下降，留出文本上的比特数越过该文本自身字符二元模型的那条线，某个头开始关注前一个字符，生成的样本也渐渐有了这段文本的味道。文本的最后十分之一留作测量，模型从不在它上面训练。") \
  X(lm_text_unavailable, \
    "Training on your own text runs in the lab's full page on its web site (in a Worker, off the page's thread), not in an embedded figure, the desktop demo or the offline page; from the command line, attnlab-cli lm-train --text FILE writes an .attnlm file that Load model opens.", \
    "用自己的文本训练需要在本实验室网站的完整页面中进行（在 Worker 中，不占用页面线程），嵌入的图、桌面演示和离线页面都不支持；也可以用命令行：attnlab-cli lm-train --text FILE 会写出一个 .attnlm 文件，可用“加载模型”打开。") \
  X(lm_text_empty, \
    "Paste a text into the box above the lab, or open or drop a .txt file (UTF-8; English, Chinese or any mix; at least 2,000 characters). About 30,000 characters train well in a few minutes with the default size.", \
    "把文本粘贴到实验室上方的文本框中，或打开、拖入一个 .txt 文件（UTF-8；英文、中文或混合均可；至少 2,000 个字符）。默认规模下，约 30,000 个字符几分钟就能训练出效果。") \
  X(lm_text_pasted, \
    "Pasted text", \
    "粘贴的文本") \
  X(lm_text_summary, \
    "%s: %lld characters (%lld bytes of UTF-8), %d distinct. The vocabulary keeps %d of them; %d seen only once become <unk>. Training on the first %lld characters, holding out the last %lld.", \
    "%s：%lld 个字符（UTF-8 共 %lld 字节），其中不同字符 %d 个。词表保留其中 %d 个；只出现一次的 %d 个读作 <unk>。用前 %lld 个字符训练，最后 %lld 个留作测量。") \
  X(lm_text_bigram_line, \
    "The line to beat: the text's own character bigram (each character predicted from the one before it, counted on the training part) scores the held-out part at %.2f bits per character.", \
    "要超越的那条线：该文本自身的字符二元模型（用前一个字符预测下一个，在训练部分上计数）在留出部分上得到每字符 %.2f 比特。") \
  X(lm_text_ready, \
    "Choose a size above the lab and press Train. The weights start random.", \
    "在实验室上方选择规模并点击“训练”。权重从随机值开始。") \
  X(lm_text_progress, \
    "step %d of %d", \
    "第 %d / %d 步") \
  X(lm_text_speed, \
    "%.0f characters per second, %s left", \
    "每秒 %.0f 个字符，剩余 %s") \
  X(lm_text_training, \
    "Training (preset %s)", \
    "训练中（规模 %s）") \
  X(lm_text_paused, \
    "Paused at step %d: every panel of the language-model scene runs the model as it is now.", \
    "已在第 %d 步暂停：语言模型场景的每个面板都在运行此刻的模型。") \
  X(lm_text_stopped, \
    "Stopped at step %d of %d.", \
    "在第 %d / %d 步停止。") \
  X(lm_text_done, \
    "Done: %d steps in %s.", \
    "完成：%d 步，用时 %s。") \
  X(lm_text_result, \
    "The whole held-out part: %.2f bits per character, against the bigram's %.2f.", \
    "整个留出部分：每字符 %.2f 比特，二元模型为 %.2f。") \
  X(lm_text_beats, \
    "The model beats its text's bigram: it predicts the held-out text better than counts of character pairs do.", \
    "模型胜过了文本的二元模型：它对留出文本的预测好于字符对的计数。") \
  X(lm_text_not_yet, \
    "The model does not beat its text's bigram yet: train longer, or on more text.", \
    "模型还没有胜过文本的二元模型：训练更久，或者用更多文本。") \
  X(lm_text_loaded, \
    "The language-model scene runs this model now: its panel, the model view, generation, break the math and ablation. Save keeps it as an .attnlm file that Load model opens, in any browser.", \
    "语言模型场景现在运行的就是这个模型：它的面板、模型视图、生成、破坏数学和消融。“保存”会把它存为 .attnlm 文件，可在任何浏览器中用“加载模型”打开。") \
  X(lm_text_plot_x, \
    "training step", \
    "训练步数") \
  X(lm_text_plot_y, \
    "bits per character", \
    "每字符比特数") \
  X(lm_text_train_series, \
    "training loss", \
    "训练损失") \
  X(lm_text_held_series, \
    "held-out bits", \
    "留出文本比特数") \
  X(lm_text_bigram_series, \
    "character bigram", \
    "字符二元模型") \
  X(lm_text_plot_note, \
    "Both curves are bits per character (lower is better); the held-out one is measured on text the model never trains on, so it is the honest one. The dashed line is the bigram to beat.", \
    "两条曲线都是每字符比特数（越低越好）；留出曲线是在模型从未训练过的文本上测的，所以才是可信的那条。虚线是要超越的二元模型。") \
  X(lm_text_heads_title, \
    "Heads at step %d, on the first %d held-out characters", \
    "第 %d 步的各个头（在前 %d 个留出字符上）") \
  X(lm_text_heads_random, \
    "Step 0: the weights are random, so no head has learned anything yet; what a label says here is chance.", \
    "第 0 步：权重是随机的，还没有哪个头学到任何东西；此时的标签只是偶然。") \
  X(lm_text_heads_note, \
    "A head is labelled \"previous character\" once its mean weight on the character just before reaches 0.5; watch for one to appear as the held-out bits fall.", \
    "当一个头在紧邻的前一个字符上的平均权重达到 0.5 时，它被标为“前一个字符”；留意它在留出比特数下降时出现。") \
  X(lm_text_head, \
    "head", \
    "头") \
  X(lm_text_label, \
    "label", \
    "标签") \
  X(lm_text_previous, \
    "weight on previous", \
    "前一字符的权重") \
  X(lm_text_sample_title, \
    "Sample at step %d (temperature 0.8, after the held-out text's first characters):", \
    "第 %d 步的样本（温度 0.8，接在留出文本开头几个字符之后）：") \
  X(lm_text_min_sec, \
    "%d min %02d s", \
    "%d 分 %02d 秒") \
  X(lm_text_sec, \
    "%d s", \
    "%d 秒") \
  X(web_lm_text_placeholder, \
    "Paste a text to train on (at least 2,000 characters), or open or drop a .txt file", \
    "粘贴要训练的文本（至少 2,000 个字符），或打开、拖入一个 .txt 文件") \
  X(web_lm_text_input, \
    "Text to train on", \
    "要训练的文本") \
  X(web_lm_text_open, \
    "Open text file", \
    "打开文本文件") \
  X(web_lm_text_preset, \
    "Size", \
    "规模") \
  X(web_lm_text_preset_option, \
    "%s: %d-layer, %d-head, d_model %d, context %d, %d steps (about %s here)", \
    "%s：%d 层 x %d 个头，d_model %d，上下文 %d，%d 步（在这里约需 %s）") \
  X(web_lm_text_train, \
    "Train", \
    "训练") \
  X(web_lm_text_pause, \
    "Pause", \
    "暂停") \
  X(web_lm_text_resume, \
    "Resume", \
    "继续") \
  X(web_lm_text_stop, \
    "Stop", \
    "停止") \
  X(web_lm_text_save, \
    "Save", \
    "保存") \
  X(web_lm_text_save_title, \
    "Download the model as an .attnlm file (Load model opens it)", \
    "把模型下载为 .attnlm 文件（可用“加载模型”打开）") \
  X(web_lm_text_too_large, \
    "%s is larger than 16 MB; a text to train on holds at most 4,000,000 characters", \
    "%s 大于 16 MB；用于训练的文本最多 4,000,000 个字符") \
  X(web_lm_text_worker_failed, \
    "The training could not run in this browser: %s", \
    "此浏览器无法运行训练：%s") \
  X(across_title, \
    "Across layers:", \
    "跨层：") \
  X(across_heads, \
    "single heads", \
    "单个头") \
  X(across_mean, \
    "head mean", \
    "头的平均") \
  X(across_max, \
    "head max", \
    "头的最大值") \
  X(across_rollout, \
    "rollout", \
    "注意力展开") \
  X(across_residual, \
    "residual share", \
    "残差份额") \
  X(across_mean_note, \
    "Layer %d: the mean of its %d heads, cell by cell (rows still sum to 1).", \
    "第 %d 层：其 %d 个头逐格取平均（每行之和仍为 1）。") \
  X(across_max_note, \
    "Layer %d: the largest weight any of its %d heads gives each cell (rows no longer sum to 1): where some head looks.", \
    "第 %d 层：其 %d 个头在每一格给出的最大权重（各行之和不再为 1）：总有某个头在看的位置。") \
  X(across_rollout_note, \
    "Rollout up to layer %d (Abnar & Zuidema, 2020): each layer's head mean mixed with the residual stream (share %.2f), rows renormalised, multiplied up from layer 0. Row i: how much each token reaches position i through attention alone (the MLPs and the values are left out).", \
    "到第 %d 层为止的注意力展开（Abnar 与 Zuidema，2020）：每层各头的平均与残差流混合（残差份额 %.2f），各行重新归一化，再从第 0 层起逐层相乘。第 i 行：仅经由注意力，每个词元有多少到达位置 i（不计 MLP 和值向量）。") \
  X(across_sink, \
    "The first token takes %.0f%% of the mass on average: a sink. Mixing layers piles weight on it, so compare the other columns with each other.", \
    "第一个词元平均占了 %.0f%% 的权重：这是一个汇聚点。逐层混合会把权重堆到它上面，所以请在其余各列之间相互比较。") \
  X(across_pick_query, \
    "Click a row to see the query's weights over the tokens as bars.", \
    "点击一行，以条形图查看该查询在各词元上的权重。") \
  X(across_keys, \
    "token", \
    "词元") \
  X(across_share, \
    "share", \
    "份额") \
  X(cell_why_title, \
    "Why this cell: %s -> %s, head %d", \
    "为什么是这个值：%s -> %s，头 %d") \
  X(cell_why_dimension, \
    "dimension of q and k (largest terms first)", \
    "q 与 k 的维度（绝对值最大的项在前）") \
  X(cell_why_term, \
    "term q_c x k_c", \
    "项 q_c x k_c") \
  X(cell_why_rest, \
    "rest (%d)", \
    "其余（%d 项）") \
  X(cell_why_sum, \
    "q . k = the sum of its %d terms = %.4f (the raw score: %.4f)", \
    "q . k = 其 %d 项之和 = %.4f（原始分数：%.4f）") \
  X(cell_why_scale, \
    "x %.4g (the scale) = %.4f", \
    "x %.4g（缩放）= %.4f") \
  X(cell_why_mask, \
    "+ %.4g (the mask) = %.4f", \
    "+ %.4g（掩码）= %.4f") \
  X(cell_why_weight, \
    "softmax over the row: weight %.4f", \
    "对整行做 softmax：权重 %.4f") \
  X(cell_why_rope, \
    "RoPE: the same q and k before the rotation score %.4f; rotated by their positions they score %.4f.", \
    "RoPE：旋转之前同样的 q 和 k 得分 %.4f；按各自位置旋转之后得分 %.4f。") \
  X(cell_why_note, \
    "A few large terms carry most scores: those dimensions are where this query and this key agree (or, below zero, disagree).", \
    "多数分数由少数几个大项决定：这些维度就是该查询与该键一致（为负时则相反）的地方。") \
  X(lm_unknown, \
    "Not in the vocabulary (read as <unk>): %s", \
    "不在词表中（读作 <unk>）：%s") \
  X(lm_next, \
    "next character", \
    "下一个字符") \
  X(lm_probability, \
    "probability", \
    "概率") \
  X(lm_next_note, \
    "What the model predicts after the text (its 10 most probable characters; a space shows as a middle dot, a line break as an arrow).", \
    "模型对文本之后的预测（概率最高的 10 个字符；空格显示为中间点，换行显示为箭头）。") \
  X(lm_generate_title, \
    "Generate", \
    "生成") \
  X(lm_generate_note, \
    "The model writes after the sentence one character at a time; each step adds a row and a column to the explorer's heatmaps, and the key/value cache keeps one row per token.", \
    "模型在句子之后逐字写下去；每一步都会给探索面板的热图增加一行一列，键值缓存为每个词元保留一行。") \
  X(lm_tokens, \
    "characters", \
    "字符数") \
  X(lm_sample_temperature, \
    "sampling temperature (0 = greedy)", \
    "采样温度（0 = 贪心）") \
  X(lm_top_k, \
    "top-k (0 = all)", \
    "top-k（0 = 全部）") \
  X(lm_generate_all, \
    "Generate all", \
    "全部生成") \
  X(lm_step, \
    "Step", \
    "单步") \
  X(lm_clear, \
    "Clear", \
    "清除") \
  X(lm_generated, \
    "Generated %d of %d; key/value cache %.1f KB for %d tokens.", \
    "已生成 %d / %d；键值缓存 %.1f KB，共 %d 个词元。") \
  X(lm_break_title, \
    "Break the math", \
    "破坏数学") \
  X(lm_break_note, \
    "Each switch changes every layer of the trained model; the table shows at once what it costs on held-out text the model never saw (bits per character: lower is better).", \
    "每个开关都会改变训练好的模型的每一层；下表立即显示它在模型从未见过的留出文本上的代价（每字符比特数：越低越好）。") \
  X(lm_scale, \
    "divide the scores by sqrt(d_k)", \
    "分数除以 sqrt(d_k)") \
  X(lm_attention_temperature, \
    "attention temperature", \
    "注意力温度") \
  X(lm_causal, \
    "causal mask (no peeking at later characters)", \
    "因果掩码（不能偷看后面的字符）") \
  X(lm_fill, \
    "mask with -1e9 instead of -inf", \
    "用 -1e9 代替 -inf 掩码") \
  X(lm_half, \
    "attention in float16", \
    "注意力用 float16 计算") \
  X(lm_ablate, \
    "Heads switched off (click to ablate):", \
    "关闭的注意力头（点击消融）：") \
  X(lm_sample, \
    "held-out text", \
    "留出文本") \
  X(lm_bits_base, \
    "model's math", \
    "模型原本的数学") \
  X(lm_bits_now, \
    "now", \
    "现在") \
  X(lm_bits_rise, \
    "rise", \
    "增加") \
  X(lm_english, \
    "English", \
    "英文") \
  X(lm_chinese, \
    "Chinese poems", \
    "中文诗") \
  X(lm_heads_title, \
    "What each head does on this text", \
    "每个头在这段文本上做什么") \
  X(lm_heads_note, \
    "Mean weight a query puts on: the previous character, the start token, itself, the start of its word, the same column of the line before, the last punctuation mark. A head earns a label at 0.5 (0.3 for the last three, which lie farther back).", \
    "查询放在以下位置的平均权重：前一个字符、起始词元、自身、所在单词的开头、上一行的同一列、最近的标点。得分达到 0.5（后三项离得更远，为 0.3）的头获得标签。") \
  X(lm_head, \
    "head", \
    "头") \
  X(lm_label, \
    "label", \
    "标签") \
  X(lm_score, \
    "score", \
    "得分") \
  X(lm_kind_previous, \
    "previous character", \
    "前一个字符") \
  X(lm_kind_first, \
    "start token (sink)", \
    "起始词元（汇聚点）") \
  X(lm_kind_self, \
    "itself", \
    "自身") \
  X(lm_kind_word, \
    "start of the word", \
    "单词开头") \
  X(lm_kind_line, \
    "same column, line before", \
    "上一行同一列") \
  X(lm_kind_punctuation, \
    "last punctuation mark", \
    "最近的标点") \
  X(lm_kind_mixed, \
    "mixed", \
    "混合") \
  X(lm_ablation_title, \
    "Heads ranked by what ablating each alone costs", \
    "按单独消融每个头的代价排序") \
  X(lm_measuring, \
    "waiting...", \
    "等待中……") \
  X(lm_measuring_percent, \
    "measuring, %.0f%%", \
    "测量中，%.0f%%") \
  X(panel_model_view, \
    "Model view", \
    "模型视图") \
  X(layer, \
    "Layer", \
    "层") \
  X(model_view_empty, \
    "The model view shows every layer and head of a real model: open the language model or the trained model scene (Scene in the controls), or drop a .npy, .npz or JSON file of a model's attention on the window (or use Import on the page).", \
    "模型视图显示一个真实模型的每一层、每一个头：打开语言模型或已训练模型场景（控制区的“场景”），或把模型注意力的 .npy、.npz 或 JSON 文件拖到窗口中（或在页面上使用“导入”）。") \
  X(model_hint, \
    "Layer x head grid (click a cell to focus that layer and head).", \
    "层 x 头网格（点击单元格以聚焦该层和头）。") \
  X(sink_share, \
    "Attention sink: %.0f%% of this head's weight goes to the first token \"%s\" (mean over queries; layer mean %.0f%%).", \
    "注意力汇聚：该头 %.0f%% 的权重落在第一个词元“%s”上（对查询取平均；本层平均 %.0f%%）。") \
  X(sink_column, \
    "first-token column (the sink) outlined", \
    "第一个词元列（汇聚）已描边") \
  X(heads_random_beside, \
    "Beside a head of random projections", \
    "与随机投影的头并排") \
  X(heads_learned_title, \
    "Learned: head %d.%d of the trained model", \
    "学到的：训练好的模型的头 %d.%d") \
  X(heads_random_title, \
    "Random: projections drawn from seed %d, the same characters", \
    "随机的：由种子 %d 生成的投影，同样的字符") \
  X(heads_random_note, \
    "Both heads read the same characters with the same mask and scale. Only the projections differ: the left ones were learned from text, the right ones drawn from a seed, so any pattern on the right is chance.", \
    "两个头读的是同样的字符，掩码和缩放也相同，只有投影不同：左边的是从文本中学到的，右边的是由种子随机生成的，所以右边的任何模式都只是偶然。") \
  X(lm_unavailable, \
    "This page carries no language model (it is the offline single-file page), so the sentence scene's random heads stand in for the trained ones here. Open the lab's site to see what the model learned.", \
    "这个页面没有附带语言模型（它是离线单文件页面），所以这里用句子场景的随机头代替训练好的头。打开实验室的网站，才能看到模型学到的东西。") \
  /* the exercises (app/exercises.h; ui/exercise_card.cpp): question, hint, why, choices */ \
  X(exercise_question_1, \
    "Predict the dot product before the readout shows it. q and k2 are the pink and orange arrows; their coordinates are in the boxes on the right. What is q·k2?", \
    "先预测点积，再看读数。q 和 k2 是粉色和橙色的箭头，坐标在右边的输入框里。q·k2 是多少？") \
  X(exercise_hint_1, \
    "Multiply the coordinates pair by pair and add: q·k2 = q_x·k2_x + q_y·k2_y.", \
    "把坐标两两相乘再相加：q·k2 = q_x·k2_x + q_y·k2_y。") \
  X(exercise_why_1, \
    "q·k2 = %s × %s + %s × %s = %s. The nearer key k scores %s: k2 points further from q (cos %s against %s) but is longer, and the dot product grows with length as well as with the angle.", \
    "q·k2 = %s × %s + %s × %s = %s。方向更近的 k 得 %s：k2 偏离 q 更远（cos %s 对 %s），但更长，而点积既随夹角也随长度变化。") \
  X(exercise_question_2, \
    "Each entry of q and k is drawn from N(0, 1). At the d_k the slider shows (256 as it opens), what is the variance of the raw score q·k? The plot and histograms stay veiled until you answer.", \
    "q 和 k 的每个分量都取自 N(0, 1)。在滑块所示的 d_k（打开时为 256）下，原始分数 q·k 的方差是多少？回答之前，曲线和直方图是遮住的。") \
  X(exercise_hint_2, \
    "q·k is a sum of d_k products, each of variance 1, and independent terms add their variances.", \
    "q·k 是 d_k 个乘积之和，每个乘积的方差为 1，而独立项的方差可以相加。") \
  X(exercise_why_2, \
    "Measured at d_k = %s: Var(q·k) = %s, close to d_k itself. Divided by √d_k the variance is %s, about 1 whatever d_k is: that is what the scale is for.", \
    "在 d_k = %s 时实测 Var(q·k) = %s，接近 d_k 本身。除以 √d_k 之后方差为 %s，不论 d_k 多大都约为 1：这正是缩放的用处。") \
  X(exercise_question_3, \
    "As the panel opens the scores are not scaled. At d_k = 512, what does one query's row of softmax weights look like?", \
    "面板打开时分数没有缩放。在 d_k = 512 时，一个查询的 softmax 权重行是什么样子？") \
  X(exercise_hint_3, \
    "How far apart are a row's largest scores at this d_k, and what does exp() make of a gap that size?", \
    "在这个 d_k 下，一行中最大的几个分数相差多远？exp() 会把这么大的差距变成什么？") \
  X(exercise_why_3, \
    "At d_k = 512 the largest weight is %s (entropy %s, mean |Jacobian| %s). Unscaled scores spread with √d_k, so softmax saturates: one key takes nearly everything and the gradient vanishes; with 1/√d_k the row stays soft.", \
    "d_k = 512 时最大权重为 %s（熵 %s，雅可比平均绝对值 %s）。不缩放时分数的离散程度随 √d_k 增长，softmax 饱和：一个键几乎拿走全部权重，梯度随之消失；乘以 1/√d_k 后这一行保持平缓。") \
  X(exercise_choices_3, \
    "Almost all weight on one key\nSpread nearly evenly over the keys\nIn between: a few keys share it", \
    "几乎全部权重落在一个键上\n几乎平均分给所有键\n介于两者之间：几个键分享权重") \
  X(exercise_question_4, \
    "The row's scores are in the boxes at the top (2, 1, 0.1, −1 as it opens). What weight does softmax give the first key?", \
    "这一行的分数在上方的输入框里（打开时为 2、1、0.1、−1）。softmax 给第一个键的权重是多少？") \
  X(exercise_hint_4, \
    "Subtract the row's maximum, take exp() of each score, and divide the first by their sum.", \
    "减去这一行的最大值，对每个分数取 exp()，再用第一个除以它们的总和。") \
  X(exercise_why_4, \
    "exp(%s − %s) = %s and the exponentials sum to %s, so the first weight is %s. Subtracting the maximum changes no weight; it only keeps exp() from overflowing.", \
    "exp(%s − %s) = %s，各项指数之和为 %s，所以第一个权重是 %s。减去最大值不改变任何权重，只是防止 exp() 溢出。") \
  X(exercise_question_5, \
    "The scores are (12, 1, 0.1, −1) as it opens, computed in float16, whose largest number is 65504. What does the naive softmax, exp(s) / Σ exp(s) without subtracting the maximum, give?", \
    "打开时分数为 (12, 1, 0.1, −1)，用 float16 计算，其最大值为 65504。不减最大值的朴素 softmax，即 exp(s) / Σ exp(s)，会得到什么？") \
  X(exercise_hint_5, \
    "exp(11.09) is already about 65504.", \
    "exp(11.09) 已经约等于 65504。") \
  X(exercise_why_5, \
    "The largest score is %s. In float16, exp() of anything above 11.09 is inf, and inf / inf is NaN. Subtracting the maximum first makes every exponent 0 or less, so the stable form never overflows.", \
    "最大分数为 %s。在 float16 中，超过 11.09 的数取 exp() 得 inf，而 inf / inf 得 NaN。先减去最大值，所有指数都不大于 0，稳定形式因此从不溢出。") \
  X(exercise_choices_5, \
    "The same weights as the stable form\ninf or NaN: exp() overflows\nAll zeros", \
    "与稳定形式相同的权重\ninf 或 NaN：exp() 溢出\n全为零") \
  X(exercise_question_6, \
    "The worked example: Q, K and the scores are shown; the weights and the output are veiled. What weight does token 1 put on itself (row 1, column 1 of the weights)?", \
    "例题：Q、K 和分数都已显示，权重和输出被遮住。词元 1 给自己的权重（权重矩阵第 1 行第 1 列）是多少？") \
  X(exercise_hint_6, \
    "Row 1's scaled scores are the two numbers in the first row of the scaled scores: take softmax over them.", \
    "第 1 行缩放后的分数是缩放分数矩阵第一行的两个数：对它们做 softmax。") \
  X(exercise_why_6, \
    "Row 1's scaled scores are a = %s and b = %s; softmax gives the first e^a / (e^a + e^b) = %s.", \
    "第 1 行缩放后的分数为 a = %s 和 b = %s；softmax 给第一个 e^a / (e^a + e^b) = %s。") \
  X(exercise_question_7, \
    "Which key will the pink query row weigh most in this head? The scaled scores are shown; the weights are veiled. Click that cell in the weights heatmap.", \
    "在这个头里，粉色的查询行会给哪个键最大的权重？缩放后的分数已显示，权重被遮住。请在权重热图中点击那个单元格。") \
  X(exercise_hint_7, \
    "softmax keeps the order within a row: find the largest scaled score in the pink row.", \
    "softmax 不改变一行内的大小顺序：在粉色行中找最大的缩放分数。") \
  X(exercise_why_7, \
    "Query \"%s\" scores key \"%s\" highest (%s after scaling), so softmax gives it the largest weight, %s. These projections are random, so the pattern means nothing; the rule holds all the same.", \
    "查询“%s”给键“%s”的缩放分数最高（%s），所以 softmax 给它最大的权重 %s。这些投影是随机的，图案本身没有意义，但这条规律照样成立。") \
  X(exercise_question_8, \
    "The long sequence puts the sentence after a few other tokens (5 as it opens), so every position grows by that much. How do RoPE's scores between the sentence's own tokens change?", \
    "长序列把句子放在其他几个词元之后（打开时为 5 个），于是每个位置都增加了这么多。RoPE 给句子内部词元之间的分数会怎样变化？") \
  X(exercise_hint_8, \
    "RoPE turns q and k by angles in proportion to their positions. What does the dot product of two turned vectors depend on?", \
    "RoPE 按位置成比例地旋转 q 和 k。两个旋转后的向量的点积取决于什么？") \
  X(exercise_why_8, \
    "After a shift of %s the largest change is %s, where the scores reach %s: turning q by m·θ and k by n·θ leaves their dot product depending on (m − n)·θ alone.", \
    "平移 %s 之后最大的变化为 %s，而分数最大约为 %s：q 转 m·θ、k 转 n·θ 之后，它们的点积只取决于 (m − n)·θ。") \
  X(exercise_choices_8, \
    "Not at all: they depend only on the offset i − j\nA little\nCompletely", \
    "完全不变：只取决于偏移 i − j\n略有变化\n完全改变") \
  X(exercise_question_9, \
    "The causal mask is on. Click a cell of the weights heatmap where the mask puts −∞: a key this query may not see.", \
    "因果掩码已打开。请在权重热图中点击一个被掩码设为 −∞ 的单元格：该查询看不到的键。") \
  X(exercise_hint_9, \
    "Query i may see the keys j ≤ i: itself and the tokens before it.", \
    "查询 i 只能看到 j ≤ i 的键：它自己和它之前的词元。") \
  X(exercise_why_9, \
    "Every cell right of the diagonal is masked: %s tokens, %s masked cells. Their scores become −∞, so exp() makes their weights exactly 0.", \
    "对角线右侧的每个单元格都被掩码：%s 个词元，%s 个被掩码的单元格。它们的分数变成 −∞，exp() 使其权重恰好为 0。") \
  X(exercise_question_10, \
    "With the causal mask on, what does each row of the weights sum to?", \
    "因果掩码打开时，权重的每一行之和是多少？") \
  X(exercise_hint_10, \
    "The mask acts before softmax, and softmax divides by the sum over the keys that are left.", \
    "掩码在 softmax 之前起作用，而 softmax 除以剩下的键的总和。") \
  X(exercise_why_10, \
    "The rows sum to between %s and %s: softmax renormalises over the keys that are left, so the weight a masked key would have had goes to the others.", \
    "各行之和在 %s 到 %s 之间：softmax 在剩下的键上重新归一化，被掩码的键原本的权重分给了其他键。") \
  X(exercise_choices_10, \
    "1, as without a mask\nLess than 1: the masked keys keep their share\n(i + 1) / n, the share of keys it sees", \
    "1，与没有掩码时一样\n小于 1：被掩码的键保留了它们的份额\n(i + 1) / n，即它能看到的键的比例") \
  X(exercise_question_11, \
    "The trained language model on this sentence (layer 0 as it opens). Which head of the layer puts the most weight on the previous character? Read the heatmaps; their labels are veiled.", \
    "训练好的语言模型在这个句子上（打开时为第 0 层）。这一层中哪个头给前一个字符的权重最大？请读热图，它们的标签被遮住了。") \
  X(exercise_hint_11, \
    "A previous-character head draws a bright line just left of the diagonal: each query looks one key back.", \
    "前一字符头会在对角线左侧紧挨着画出一条亮线：每个查询都往回看一个键。") \
  X(exercise_why_11, \
    "Head %s puts %s of each query's weight on the previous character on average (the next best head %s). It learned this from text; nothing here was drawn from a seed.", \
    "头 %s 平均把每个查询 %s 的权重放在前一个字符上（次好的头为 %s）。这是从文本中学到的，不是由随机种子生成的。") \
  X(exercise_choices_11, \
    "Head 0\nHead 1\nHead 2\nHead 3", \
    "头 0\n头 1\n头 2\n头 3") \
  X(exercise_question_12, \
    "FlashAttention walks the keys in tiles with a running maximum and sum, and never holds the n × n matrix. How far is its output from exact attention's?", \
    "FlashAttention 按块遍历键，维护滚动的最大值和总和，从不保存 n × n 矩阵。它的输出与精确注意力相差多少？") \
  X(exercise_hint_12, \
    "The running sum is rescaled each time the maximum grows. Is anything approximated?", \
    "每当最大值变大，滚动总和都会被重新缩放。这里有任何近似吗？") \
  X(exercise_why_12, \
    "The largest difference is %s, on outputs up to %s: float rounding. FlashAttention is exact; it saves memory and memory traffic, not arithmetic.", \
    "最大差别为 %s，而输出最大约为 %s：只是浮点舍入。FlashAttention 是精确的；它节省的是内存和数据搬运，而不是运算。") \
  X(exercise_choices_12, \
    "None beyond float rounding (below 1e-5)\nAbout a hundredth of the output\nAbout a tenth of the output", \
    "除浮点舍入外没有差别（小于 1e-5）\n约为输出的百分之一\n约为输出的十分之一") \
  X(exercise_question_13, \
    "The trained language model with its 1/√d_k scale switched off. How many more bits per character does it need on its English held-out sample? Type the rise.", \
    "把训练好的语言模型的 1/√d_k 缩放关掉。在英文留出样本上，它每个字符要多用多少比特？请输入增加量。") \
  X(exercise_hint_13, \
    "The model was trained with the scale: without it every score is √d_k ≈ 4.9 times larger, and every softmax sharper.", \
    "模型是带着缩放训练的：去掉它，每个分数都变大 √d_k ≈ 4.9 倍，每个 softmax 都更尖锐。") \
  X(exercise_why_13, \
    "With its own math the model needs %s bits per character on the sample; without the scale, %s: %s more. The weights it learned expect the scale.", \
    "按原本的算法，模型在样本上每个字符需要 %s 比特；去掉缩放后需要 %s：多了 %s。它学到的权重离不开这个缩放。") \
  X(exercise_of, \
    "Exercise %d of %d", \
    "练习 %d / %d") \
  X(exercise_check, \
    "Check", \
    "检查") \
  X(exercise_right, \
    "Right.", \
    "答对了。") \
  X(exercise_wrong, \
    "Not quite. Try again, or show the figure.", \
    "还不对。再试一次，或者显示图形。") \
  X(exercise_show, \
    "Show the figure", \
    "显示图形") \
  X(exercise_next, \
    "Next exercise", \
    "下一题") \
  X(exercise_previous, \
    "Previous", \
    "上一题") \
  X(exercise_close, \
    "Close", \
    "关闭") \
  X(exercise_cell_prompt, \
    "Click a cell of the veiled heatmap to answer.", \
    "点击被遮住的热图中的一个单元格作答。") \
  X(exercise_tolerance, \
    "Type a number (accepted within ±%g):", \
    "请输入一个数（误差 ±%g 以内算对）：") \
  X(exercise_veiled, \
    "Veiled until you answer", \
    "回答后显示") \
  X(exercise_done, \
    "%d of %d exercises done", \
    "已完成 %d / %d 道练习") \
  X(exercise_start, \
    "Try an exercise", \
    "做练习") \
  X(exercise_waiting, \
    "The language model is loading; this exercise's figures come with it.", \
    "语言模型正在加载；这道练习的图形随后出现。") \
  X(exercise_your_cell, \
    "You clicked row %d (%s), column %d (%s).", \
    "你点击了第 %d 行（%s）第 %d 列（%s）。") \
  /* merge of the trained and imported scenes */ \
  X(locked_by_imported, \
    "Fixed by the imported file: its weights (and Q, K, V when given) come from the model that made it.", \
    "由导入的文件固定：权重（以及给出的 Q、K、V）来自生成该文件的模型。")

enum class S {
#define ATTNLAB_UI_STRING_ID(id, en, zh) id,
  ATTNLAB_UI_STRINGS(ATTNLAB_UI_STRING_ID)
#undef ATTNLAB_UI_STRING_ID
      count
};

enum class Language { English, Chinese };

const char* tr(S id);
const char* tr(S id, Language language);
void set_language(Language language);
Language language();

}  // namespace attn::ui
