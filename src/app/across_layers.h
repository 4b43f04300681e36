// The model view beside the single heads (Settings::across): for each layer of the scene, its
// heads' mean or maximum, or attention rollout up to that layer (core/attention/rollout.h),
// over the tokens the scene shows. The state gathers the scene's own weights (the language
// model's every layer on the text, an imported file's every head) and recomputes when the
// scene, the choice or the residual share changed, and only while the model view shows it
// (update_across_layers in app/app_state.h).
#pragma once

#include "app/view_choices.h"
#include "core/base/types.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <vector>

namespace attn {

// Rollout multiplies L matrices of n x n: up to this many tokens it is a fraction of
// a second in WebAssembly; beyond, the view says so and the CLI does it.
inline constexpr int kAcrossLayersMaxTokens = 512;

struct AcrossLayersResults {
  std::vector<Mat> layers;  // per layer, (shown rows, shown keys); empty when not computed
  Status status;            // why there are none (cross-attention, too many tokens)
  std::uint64_t version = 0;  // bumped on every recompute (the heatmap's key)
  // What they were computed for.
  std::uint64_t revision = 0;
  AcrossLayers mode = AcrossLayers::Heads;
  float residual = -1.0f;
};

// Each layer's figure from its heads (layers[l][h], square): the pooled heads, or rollout up
// to the layer with the heads' mean and `residual`.
Status across_layers(const std::vector<std::vector<Mat>>& layers, AcrossLayers mode, float residual,
                     std::vector<Mat>& out);

// getState()'s figures.acrossLayers: the mode and share, and for `layer` its matrix's size,
// each row's sum, the first key's mean share (a sink when most of the mass lands there) and
// row `cursor` (the bars the view draws).
nlohmann::json across_layers_json(const AcrossLayersResults& r, AcrossLayers mode, float residual, int layer,
                                  int cursor);

}  // namespace attn
