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
    "positional encoding (sinusoidal)", \
    "位置编码（正弦）") \
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
    "raw scores q.k", \
    "原始分数 q.k") \
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
    "Cost at n = %d:  multiply-adds %s = %.4g (exact %.4g);  memory %s = %.4g floats (exact %.4g)", \
    "n = %d 时的开销：乘加 %s = %.4g（精确 %.4g）；内存 %s = %.4g 个浮点数（精确 %.4g）") \
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
    "Press Measure to time the variants.", \
    "按“开始测量”为各变体计时。") \
  X(panel_walkthrough, \
    "Worked example", \
    "例题") \
  X(walk_hint, \
    "Two tokens, d_k = 2 (the tutorial's example). Edit Q, K or V and follow each step: scores, scaling by 1/sqrt(2), softmax per row, weighted values.", \
    "两个词元，d_k = 2（教程中的例子）。编辑 Q、K 或 V，逐步查看：分数、除以 sqrt(2)、逐行 softmax、加权求值。") \
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
  X(web_session_bad, \
    "The stored session was ignored: %s", \
    "已忽略保存的会话：%s") \
  X(web_file_bad, \
    "The file was not loaded: %s", \
    "文件未载入：%s") \
  /* training lab (src/ui/train_panels.cpp) and the trained scene */ \
  X(panel_training, \
    "Training", \
    "训练") \
  X(panel_scaling_run, \
    "Forgot to scale?", \
    "忘了缩放？") \
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
  X(hide_special, \
    "Hide special tokens ([CLS], [SEP], <s>, padding)", \
    "隐藏特殊词元（[CLS]、[SEP]、<s>、填充）") \
  X(renormalise, \
    "Renormalise rows over the visible tokens", \
    "在可见词元上重新归一化各行") \
  X(weights_raw_note, \
    "Weights raw: rows do not sum to 1 once tokens are hidden.", \
    "原始权重：隐藏词元后各行之和不为 1。") \
  X(panel_model_view, \
    "Model view", \
    "模型视图") \
  X(layer, \
    "Layer", \
    "层") \
  X(model_hint, \
    "Layer x head grid (click a cell to focus that layer and head).", \
    "层 x 头网格（点击单元格以聚焦该层和头）。") \
  X(sink_share, \
    "Attention sink: %.0f%% of this head's weight goes to the first token \"%s\" (mean over queries; layer mean %.0f%%).", \
    "注意力汇聚：该头 %.0f%% 的权重落在第一个词元“%s”上（对查询取平均；本层平均 %.0f%%）。") \
  X(sink_column, \
    "first-token column (the sink) outlined", \
    "第一个词元列（汇聚）已描边") \
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
