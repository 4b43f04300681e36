// The view's choices, one table each (core/base/choices.h): X(enumerator, public name). The
// state's schema, reader, writer and messages read them.
//   theme        the colours
//   weightRange  how the weights' heatmaps map a weight to a colour: fixed [0, 1]; each row by
//                its own maximum (long sentences, where every weight is near 1/n); log10 of the
//                weight. The data, and the hover readout, stay the weights themselves.
//   language     the UI's strings (ui/strings.h columns)
//   acrossLayers what the model view shows of a layer beside its single heads: nothing more,
//                the heads' mean, their maximum, or attention rollout up to the layer
//                (core/attention/rollout.h; app/across_layers.h)
#pragma once

#include "core/base/choices.h"

namespace attn {

#define ATTNLAB_THEMES(X) X(Dark, "dark") X(Light, "light") X(HighContrast, "high-contrast")
#define ATTNLAB_WEIGHT_RANGES(X) X(Fixed, "fixed") X(Row, "row") X(Log, "log")
#define ATTNLAB_UI_LANGUAGES(X) X(English, "en") X(Chinese, "zh")
#define ATTNLAB_ACROSS_LAYERS(X) X(Heads, "heads") X(Mean, "mean") X(Max, "max") X(Rollout, "rollout")

enum class Theme { ATTNLAB_THEMES(ATTNLAB_CHOICE_ENUMERATOR) };
enum class WeightRange { ATTNLAB_WEIGHT_RANGES(ATTNLAB_CHOICE_ENUMERATOR) };
enum class UiLanguage { ATTNLAB_UI_LANGUAGES(ATTNLAB_CHOICE_ENUMERATOR) };
enum class AcrossLayers { ATTNLAB_ACROSS_LAYERS(ATTNLAB_CHOICE_ENUMERATOR) };

#define ATTNLAB_THEME_ROW(value, name) {Theme::value, name},
#define ATTNLAB_WEIGHT_RANGE_ROW(value, name) {WeightRange::value, name},
#define ATTNLAB_UI_LANGUAGE_ROW(value, name) {UiLanguage::value, name},
#define ATTNLAB_ACROSS_LAYERS_ROW(value, name) {AcrossLayers::value, name},
inline constexpr NamedChoice<Theme> kThemes[] = {ATTNLAB_THEMES(ATTNLAB_THEME_ROW)};
inline constexpr NamedChoice<WeightRange> kWeightRanges[] = {ATTNLAB_WEIGHT_RANGES(ATTNLAB_WEIGHT_RANGE_ROW)};
inline constexpr NamedChoice<UiLanguage> kUiLanguages[] = {ATTNLAB_UI_LANGUAGES(ATTNLAB_UI_LANGUAGE_ROW)};
inline constexpr NamedChoice<AcrossLayers> kAcrossLayers[] = {ATTNLAB_ACROSS_LAYERS(ATTNLAB_ACROSS_LAYERS_ROW)};
#undef ATTNLAB_THEME_ROW
#undef ATTNLAB_WEIGHT_RANGE_ROW
#undef ATTNLAB_UI_LANGUAGE_ROW
#undef ATTNLAB_ACROSS_LAYERS_ROW
static_assert(choices_in_order(kThemes) && choices_in_order(kWeightRanges) && choices_in_order(kUiLanguages) &&
              choices_in_order(kAcrossLayers));

}  // namespace attn
