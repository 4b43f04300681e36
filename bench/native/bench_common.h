// Shapes, inputs and the Eigen peer shared by the native benchmark binaries.
#pragma once

#include "core/attention/pipeline.h"
#include "core/base/rng.h"
#include "core/base/types.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

namespace attn::bench {

enum class Kind { Single, Multi };

struct Shape {
  Kind kind;
  int n, d, d_model, heads;
  std::string name;  // "single-n512-d64", "multi-n512-dm256-h8": what bench/run.mjs parses
};

inline std::vector<Shape> shapes() {
  std::vector<Shape> out;
  for (int n : {128, 512, 2048}) out.push_back({Kind::Single, n, 64, 0, 0, "single-n" + std::to_string(n) + "-d64"});
  for (int n : {128, 512}) out.push_back({Kind::Multi, n, 0, 256, 8, "multi-n" + std::to_string(n) + "-dm256-h8"});
  return out;
}

inline double shape_flops(const Shape& s) {
  if (s.kind == Kind::Single) return 4.0 * s.n * s.n * s.d;
  return 2.0 * 4.0 * s.n * s.d_model * s.d_model + 4.0 * s.n * s.n * s.d_model;
}

inline void set_flops(benchmark::State& state, const Shape& s) {
  state.counters["GFLOPs"] = benchmark::Counter(shape_flops(s), benchmark::Counter::kIsIterationInvariantRate);
}

struct Inputs {
  Mat q, k, v, x;
  ProjectionWeights w;
};

inline Inputs make_inputs(const Shape& s) {
  Rng rng(2024 + s.n);
  Inputs in;
  if (s.kind == Kind::Single) {
    in.q = rng.normal_matrix(s.n, s.d);
    in.k = rng.normal_matrix(s.n, s.d);
    in.v = rng.normal_matrix(s.n, s.d);
  } else {
    in.x = rng.normal_matrix(s.n, s.d_model);
    const float sd = 1.0f / std::sqrt(static_cast<float>(s.d_model));
    in.w.wq = rng.normal_matrix(s.d_model, s.d_model, sd);
    in.w.wk = rng.normal_matrix(s.d_model, s.d_model, sd);
    in.w.wv = rng.normal_matrix(s.d_model, s.d_model, sd);
    in.w.wo = rng.normal_matrix(s.d_model, s.d_model, sd);
  }
  return in;
}

// The Eigen peer, compiled with the flags of the file that includes it (eigen_peer.h).
void register_eigen(const std::string& prefix, const Shape& s);

}  // namespace attn::bench
