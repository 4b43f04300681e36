#include "files/colormap.h"

#include <algorithm>
#include <cmath>

namespace attn {
namespace {

// viridis sampled at t = 0, 1/8, ..., 1.
constexpr std::array<Rgb8, 9> kViridis = {{
    {68, 1, 84}, {71, 45, 123}, {59, 82, 139}, {44, 114, 142}, {33, 145, 140},
    {40, 174, 128}, {94, 201, 98}, {173, 220, 48}, {253, 231, 37},
}};

// A red-blue diverging scale (ColorBrewer RdBu, reversed: blue low, red high), sampled at
// t = 0, 0.1, ..., 1; white at 0.5 so zero is neutral.
constexpr std::array<Rgb8, 11> kRedBlue = {{
    {5, 48, 97}, {33, 102, 172}, {67, 147, 195}, {146, 197, 222}, {209, 229, 240}, {247, 247, 247},
    {253, 219, 199}, {244, 165, 130}, {214, 96, 77}, {178, 24, 43}, {103, 0, 31},
}};

template <size_t N>
Rgb8 interpolate(const std::array<Rgb8, N>& stops, float t) {
  if (!(t > 0.0f)) t = 0.0f;  // also maps NaN to the low end
  if (t > 1.0f) t = 1.0f;
  const float x = t * static_cast<float>(stops.size() - 1);
  const int i = std::min(static_cast<int>(x), static_cast<int>(stops.size()) - 2);
  const float f = x - static_cast<float>(i);
  auto mix = [f](std::uint8_t a, std::uint8_t b) {
    return static_cast<std::uint8_t>(std::lround(a + (static_cast<float>(b) - a) * f));
  };
  return {mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g),
          mix(stops[i].b, stops[i + 1].b)};
}

}  // namespace

Rgb8 colormap_at(Colormap map, float t) {
  return map == Colormap::Diverging ? interpolate(kRedBlue, t) : interpolate(kViridis, t);
}

std::vector<std::uint8_t> colormap_lut_rgba(Colormap map) {
  std::vector<std::uint8_t> lut(kLutSize * 4);
  for (int i = 0; i < kLutSize; ++i) {
    const Rgb8 c = colormap_at(map, static_cast<float>(i) / (kLutSize - 1));
    lut[4 * i + 0] = c.r;
    lut[4 * i + 1] = c.g;
    lut[4 * i + 2] = c.b;
    lut[4 * i + 3] = 255;
  }
  return lut;
}

}  // namespace attn
