// attnlab_bench_eigen_<isa>: the Eigen peer alone, built with that instruction set's flags
// (ATTNLAB_BENCH_ISA names it). A separate binary, so no Eigen code compiled for a wider set
// can be picked by the linker for the baseline benchmark binary.
#include "bench_common.h"

#include <cstdio>

namespace attn::bench {
namespace {
const bool registered = [] {
  for (const Shape& s : shapes()) register_eigen(std::string("eigen/") + ATTNLAB_BENCH_ISA + "/", s);
  return true;
}();
}  // namespace
}  // namespace attn::bench

BENCHMARK_MAIN();
