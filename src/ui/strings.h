// Every string the UI shows, in one table with an English and a Simplified Chinese column;
// tests/core/test_strings.cpp fails if an entry lacks a translation. Use tr(S::name): it
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
  X(panel_walkthrough, \
    "Worked example", \
    "例题") \
  X(walk_hint, \
    "Two tokens, d_k = 2 (the tutorial's example). Edit Q, K or V and follow each step: scores, scaling by 1/sqrt(2), softmax per row, weighted values.", \
    "两个词元，d_k = 2（教程中的例子）。编辑 Q、K 或 V，逐步查看：分数、除以 sqrt(2)、逐行 softmax、加权求值。") \
  /* import and model view (issue 9) */ \
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
  X(panel_model, \
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
    "第一个词元列（汇聚）已描边")

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
