// The project's own random numbers.
//
// The same seed must give the same inputs in the browser (libc++) and on the desktop
// (libstdc++), and std::normal_distribution differs between the two. So the generator
// (xoshiro128**, seeded through splitmix64) and the normal transform (Box-Muller) are
// written here. Uniforms are bit-identical everywhere; normals go through log/sqrt/cos,
// whose last bit may differ between C libraries, so they agree to ~1e-7, not bit for bit.
#pragma once

#include "core/base/types.h"

#include <cstdint>

namespace attn {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  std::uint32_t next_u32();
  // Uniform in [0, 1) with 24 random bits (exactly representable as float).
  float uniform();
  // Uniform in (0, 1], never 0: safe to take the log of.
  double uniform_open0();
  // Standard normal N(0, 1).
  float normal();

  // A (rows, cols) matrix of N(0, stddev^2) entries, filled row by row.
  Mat normal_matrix(int rows, int cols, float stddev = 1.0f);

 private:
  std::uint32_t s_[4];
  bool has_spare_ = false;
  float spare_ = 0.0f;
};

}  // namespace attn
