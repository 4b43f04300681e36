// Colour scales for heatmaps, as data: the GL code uploads the lookup table as a texture
// and the tests compute the colour a cell must have from the same stops.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace attn {

enum class Colormap {
  Sequential,  // probabilities in [0, 1]: viridis, readable with every colour-vision type
  Diverging,   // signed values, symmetric range: blue (negative) - white (0) - red (positive)
};
inline constexpr int kColormapCount = 2;

struct Rgb8 {
  std::uint8_t r, g, b;
};

// Colour at t in [0, 1] (clamped), linear between the scale's stops.
Rgb8 colormap_at(Colormap map, float t);

// kLutSize RGBA8 texels (t = i / (kLutSize - 1)), for upload as a 1-row texture.
constexpr int kLutSize = 256;
std::vector<std::uint8_t> colormap_lut_rgba(Colormap map);

// The colour a -inf (masked) score is drawn with: two greys in diagonal stripes.
inline constexpr Rgb8 kMaskedStripeA = {200, 200, 200};
inline constexpr Rgb8 kMaskedStripeB = {150, 150, 150};

}  // namespace attn
