#include "ui/heatmap_key.h"

#include <cstring>
#include <initializer_list>

namespace attn::ui {

namespace {

// splitmix64's finaliser: every bit of the input moves about half the output's.
std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

}  // namespace

std::uint64_t hash_values(const Mat& values) {
  // FNV-1a over 32-bit words in four interleaved lanes (so the multiplies of a large matrix
  // overlap rather than wait on each other), the lanes then mixed together with the count.
  constexpr std::uint64_t kPrime = 0x100000001b3ull;
  std::uint64_t h0 = 0xcbf29ce484222325ull, h1 = 0x84222325cbf29ce4ull, h2 = 0x9e3779b97f4a7c15ull,
                h3 = 0x7f4a7c159e3779b9ull;
  const float* p = values.data();
  const Eigen::Index n = values.size();
  auto word = [&](Eigen::Index i) {
    std::uint32_t bits;
    std::memcpy(&bits, p + i, sizeof bits);
    return static_cast<std::uint64_t>(bits);
  };
  Eigen::Index i = 0;
  for (; i + 4 <= n; i += 4) {
    h0 = (h0 ^ word(i)) * kPrime;
    h1 = (h1 ^ word(i + 1)) * kPrime;
    h2 = (h2 ^ word(i + 2)) * kPrime;
    h3 = (h3 ^ word(i + 3)) * kPrime;
  }
  for (; i < n; ++i) h0 = (h0 ^ word(i)) * kPrime;
  std::uint64_t h = mix(static_cast<std::uint64_t>(n));
  for (std::uint64_t lane : {h0, h1, h2, h3}) h = mix(h ^ lane);
  return h;
}

HeatmapKey heatmap_key(const Mat& values, std::uint64_t version, bool made_in_frame) {
  HeatmapKey k;
  k.rows = values.rows();
  k.cols = values.cols();
  k.version = version;
  if (made_in_frame) k.content = hash_values(values);
  else k.data = values.data();
  return k;
}

}  // namespace attn::ui
