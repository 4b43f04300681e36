// Every string the UI shows, in one table: the course-pages work adds a Chinese column,
// and a test checks that no entry lacks a translation. Use tr(S::name).
#pragma once

namespace attn::ui {

#define ATTNLAB_UI_STRINGS(X)                                                                  \
  X(app_title, "Attention Lab")                                                                \
  X(scene, "Scene")                                                                            \
  X(source_generated, "Sentence")                                                              \
  X(source_worked, "Worked example (2 tokens)")                                                \
  X(sentence, "sentence")                                                                      \
  X(sentence_web_hint, "Type in the text field above the lab.")                                \
  X(presets, "Presets:")                                                                       \
  X(preset_english, "English")                                                                 \
  X(preset_cat_mouse, "猫追老鼠")                                                              \
  X(preset_mouse_cat, "老鼠追猫")                                                              \
  X(worked_inputs, "Q = [[1,2],[2,1]], K = [[2,1],[1,2]], V = [[3,0],[0,3]], d_k = 2")         \
  X(locked_by_worked, "Fixed by the worked example: its Q, K and V are given, so there are no " \
                      "embeddings, projections or heads to change.")                          \
  X(model, "Model")                                                                            \
  X(d_model, "d_model")                                                                        \
  X(heads, "heads")                                                                            \
  X(positional, "positional encoding (sinusoidal)")                                            \
  X(seed, "seed")                                                                              \
  X(math, "Math")                                                                              \
  X(score_function, "score")                                                                   \
  X(score_dot, "dot q.k")                                                                      \
  X(score_cosine, "cosine")                                                                    \
  X(score_additive, "additive (Bahdanau)")                                                     \
  X(scaling, "scale")                                                                          \
  X(scale_default, "1/sqrt(d_k)")                                                              \
  X(scale_none, "none")                                                                        \
  X(scale_custom, "custom")                                                                    \
  X(custom_scale, "factor")                                                                    \
  X(temperature, "temperature")                                                                \
  X(mask, "Mask")                                                                              \
  X(mask_causal, "causal (query i sees keys j <= i)")                                          \
  X(mask_window, "window w (|i-j| <= w; 0 = off)")                                             \
  X(mask_stride, "stride s ((i-j) mod s = 0; 0 = off)")                                        \
  X(mask_block, "block b (same block; 0 = off)")                                               \
  X(mask_fill, "fill")                                                                         \
  X(fill_neg_inf, "-inf")                                                                      \
  X(fill_finite, "-1e9")                                                                       \
  X(compare, "Compare")                                                                        \
  X(compare_enable, "compare with side B")                                                     \
  X(side_b, "Side B")                                                                          \
  X(view, "View")                                                                              \
  X(theme, "theme")                                                                            \
  X(theme_dark, "dark")                                                                        \
  X(theme_light, "light")                                                                      \
  X(theme_contrast, "high contrast")                                                           \
  X(presentation, "presentation mode")                                                         \
  X(ui_scale, "UI scale")                                                                      \
  X(panel_pipeline, "Pipeline")                                                                \
  X(panel_token, "Token by token")                                                             \
  X(panel_heads, "Heads")                                                                      \
  X(panel_compare, "Compare")                                                                  \
  X(head, "head")                                                                              \
  X(query, "query")                                                                            \
  X(play, "Play")                                                                              \
  X(pause, "Pause")                                                                            \
  X(raw_scores, "raw scores q.k")                                                              \
  X(scaled_scores, "scaled scores")                                                            \
  X(mask_added, "mask (added)")                                                                \
  X(masked_scores, "masked scores")                                                            \
  X(weights, "weights = softmax")                                                              \
  X(output, "output = weights V")                                                              \
  X(lines_view, "who attends to whom (line opacity = weight)")                                 \
  X(difference, "difference")                                                                  \
  X(entropy, "entropy")                                                                        \
  X(max_weight, "max weight")                                                                  \
  X(distance, "mean distance")                                                                 \
  X(focus_hint, "Click a head to focus it.")                                                   \
  X(side_a, "A (settings)")                                                                    \
  X(compare_off, "Turn on 'compare with side B' in the Compare section to see two settings " \
                 "side by side.")                                                              \
  X(fully_masked, "Row %d is fully masked: every key is hidden, so its weights are all zero "   \
                  "(with a finite fill such as -1e9 they would be uniform instead).")         \
  X(no_results, "Nothing to show.")                                                            \
  X(keys_hint, "Arrows: query  [ ]: panel  H: head  Space: play  P: presentation")            \
  X(panel_dot, "Dot product")                                                                  \
  X(panel_variance, "Variance")                                                                \
  X(panel_saturation, "Saturation")                                                            \
  X(panel_softmax, "Softmax")                                                                  \
  X(panel_stability, "Stability")                                                              \
  X(dot_hint, "Drag the tips of q, k and the long key k2. The dot product grows with the "     \
              "lengths as well as the angle: k2 points further away from q, yet wins.")        \
  X(variance_hint, "Sample variance of q.k for q, k with N(0,1) entries: it grows like d_k "   \
                   "(dashed line); divided by sqrt(d_k) it stays near 1.")                     \
  X(saturation_hint, "Without scaling, scores spread with sqrt(d_k): softmax puts almost all " \
                     "weight on one key and its Jacobian (the gradient path) vanishes.")        \
  X(with_scaling, "with 1/sqrt(d_k)")                                                          \
  X(jacobian_norm, "mean |Jacobian|")                                                          \
  X(softmax_hint, "softmax(s)_j = exp(s_j - max) / sum_i exp(s_i - max): subtracting the max " \
                  "changes nothing but keeps exp() from overflowing.")                         \
  X(stability_hint, "exp() overflows above 88.7 in float32 and above 11.09 in float16 "         \
                    "(65504 is the largest half). The stable form never exponentiates a "       \
                    "positive number.")                                                        \
  X(overflow, "overflow")                                                                      \
  X(fine, "fine")                                                                              \
  X(half_precision, "float16")                                                                 \
  X(masked_last, "last key masked")                                                            \
  X(fully_masked_row, "all keys masked")                                                       \
  X(panel_walkthrough, "Worked example")                                                       \
  X(walk_hint, "Two tokens, d_k = 2 (the tutorial's example). Edit Q, K or V and follow each "  \
               "step: scores, scaling by 1/sqrt(2), softmax per row, weighted values.")

enum class S {
#define ATTNLAB_UI_STRING_ID(id, en) id,
  ATTNLAB_UI_STRINGS(ATTNLAB_UI_STRING_ID)
#undef ATTNLAB_UI_STRING_ID
      count
};

const char* tr(S id);

}  // namespace attn::ui
