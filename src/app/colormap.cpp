#include "app/colormap.h"

#include <algorithm>
#include <cmath>

namespace attn {
namespace {

// viridis sampled at t = 0, 1/8, ..., 1.
constexpr std::array<Rgb8, 9> kViridis = {{
    {68, 1, 84}, {71, 45, 123}, {59, 82, 139}, {44, 114, 142}, {33, 145, 140},
    {40, 174, 128}, {94, 201, 98}, {173, 220, 48}, {253, 231, 37},
}};

}  // namespace

Rgb8 colormap_at(Colormap /*map*/, float t) {
  const auto& stops = kViridis;
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
