// What a heatmap shows, as the heatmap widget keys what it makes from it (the texture, the
// colour range, the weights in their colour range, the labels' widths): the matrix it is
// given and the version of the results the matrix belongs to. Plain data, no GL: the tests
// read it without a window.
#pragma once

#include "core/base/types.h"

#include <cstdint>

namespace attn::ui {

struct HeatmapKey {
  const float* data = nullptr;  // where the values live; null for a matrix made in the frame
  Eigen::Index rows = 0, cols = 0;
  std::uint64_t version = 0;  // the owner's: AppState::revision, ModernResults::version, ...
  std::uint64_t content = 0;  // a hash of the values of a matrix made in the frame (else 0)
  bool operator==(const HeatmapKey&) const = default;
};

// A matrix held by its owner (in the state's results) changes only with the owner's version,
// so its address, shape and that version name what it holds. A matrix the panel makes in the
// frame (a difference of two heads) sits in a new buffer, or in the same one with new values,
// whatever it holds: it is named by its shape, the version and a hash of its values.
HeatmapKey heatmap_key(const Mat& values, std::uint64_t version, bool made_in_frame);

// A 64-bit hash of the values' bits (so -0 and 0, or two NaNs, may differ: a texture is then
// made again, never kept stale).
std::uint64_t hash_values(const Mat& values);

}  // namespace attn::ui
