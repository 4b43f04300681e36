// Native benchmark of the attention kernels (Google Benchmark), run by scripts/bench.sh.
//
// Shapes: single head n = 128, 512, 2048 at d = 64; multi-head d_model = 256, h = 8 at
// n = 128, 512. Implementations:
//   attnlab/<isa>       the SIMD kernels (streaming attention), each instruction set the CPU has
//   attnlab-trace       the pipeline with every stage kept (scores, weights, output)
//   eigen               Eigen 3.4 products and an Eigen softmax, this binary's flags (baseline x86-64)
//   reference           the plain-loop oracle (double sums; single head only)
//   ceiling/<isa>       a tight multiply-add (FMA where the set has it) loop: the most the set can issue
// Each benchmark reports the counter GFLOPs (multiply-adds x 2, softmax not counted).
// The Eigen of wider instruction sets lives in attnlab_bench_eigen_<isa> (its own flags).
#include "bench_common.h"
#include "core/kernels/dispatch.h"
#include "core/attention/pipeline.h"
#include "core/attention/reference.h"
#include "core/attention/streaming.h"

#include <benchmark/benchmark.h>

#include <string>

namespace attn::bench {

float ceiling_sse2(long iterations);
float ceiling_avx2(long iterations);
float ceiling_avx512(long iterations);

namespace {

void run_kernel(benchmark::State& state, const kernels::KernelTable* t, const Shape& s) {
  const Inputs in = make_inputs(s);
  if (s.kind == Kind::Single) {
    Mat out(s.n, s.d);
    kernels::AttentionArgs a;
    a.n_q = a.n_k = s.n;
    a.d_k = a.d_v = s.d;
    a.q = in.q.data();
    a.k = in.k.data();
    a.v = in.v.data();
    a.o = out.data();
    a.ldq = a.ldk = a.ldv = a.ldo = s.d;
    a.scale = 1.0f / std::sqrt(static_cast<float>(s.d));
    for (auto _ : state) {
      t->attention(a);
      benchmark::DoNotOptimize(out(7 % s.n, 0));
    }
  } else {
    for (auto _ : state) {
      const StreamingResult r = streaming_multi_head_attention(in.x, in.x, in.x, in.w, s.heads);
      benchmark::DoNotOptimize(r.output(7, 0));
    }
  }
  set_flops(state, s);
}

void run_trace(benchmark::State& state, const Shape& s) {
  const Inputs in = make_inputs(s);
  for (auto _ : state) {
    if (s.kind == Kind::Single) {
      const AttentionResult r = attention(in.q, in.k, in.v);
      benchmark::DoNotOptimize(r.output(7 % s.n, 0));
    } else {
      PipelineConfig c;
      c.d_model = s.d_model;
      c.heads = s.heads;
      const PipelineTrace t = run_pipeline(in.x, in.x, in.x, in.w, c);
      benchmark::DoNotOptimize(t.output(7, 0));
    }
  }
  set_flops(state, s);
}

void run_reference(benchmark::State& state, const Shape& s) {
  const Inputs in = make_inputs(s);
  for (auto _ : state) {
    const AttentionResult r = reference::attention(in.q, in.k, in.v);
    benchmark::DoNotOptimize(r.output(7 % s.n, 0));
  }
  set_flops(state, s);
}

void run_ceiling(benchmark::State& state, float (*fn)(long), double flops_per_iteration) {
  const long iterations = 1 << 20;
  for (auto _ : state) benchmark::DoNotOptimize(fn(iterations));
  state.counters["GFLOPs"] = benchmark::Counter(flops_per_iteration * iterations, benchmark::Counter::kIsIterationInvariantRate);
}

const bool registered = [] {
  for (const Shape& s : shapes()) {
    for (kernels::Isa isa : kernels::available_isas()) {
      const kernels::KernelTable* t = kernels::kernel_table(isa);
      // Multi-head runs the active set only (ATTNLAB_KERNEL_ISA picks it).
      if (s.kind == Kind::Multi && t != &kernels::active_kernels()) continue;
      benchmark::RegisterBenchmark((std::string("attnlab/") + t->name + "/" + s.name).c_str(),
                                   [t, s](benchmark::State& st) { run_kernel(st, t, s); })->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark(("attnlab-trace/" + s.name).c_str(), [s](benchmark::State& st) { run_trace(st, s); })
        ->Unit(benchmark::kMillisecond);
    register_eigen("eigen/sse2/", s);
    if (s.kind == Kind::Single)
      benchmark::RegisterBenchmark(("reference/" + s.name).c_str(), [s](benchmark::State& st) { run_reference(st, s); })
          ->Unit(benchmark::kMillisecond);
  }
  // 12 chains x lanes x 2 flops per iteration.
  benchmark::RegisterBenchmark("ceiling/sse2", [](benchmark::State& st) { run_ceiling(st, ceiling_sse2, 12 * 4 * 2); });
  if (kernels::kernel_table(kernels::Isa::Avx2))
    benchmark::RegisterBenchmark("ceiling/avx2", [](benchmark::State& st) { run_ceiling(st, ceiling_avx2, 12 * 8 * 2); });
  if (kernels::kernel_table(kernels::Isa::Avx512))
    benchmark::RegisterBenchmark("ceiling/avx512", [](benchmark::State& st) { run_ceiling(st, ceiling_avx512, 12 * 16 * 2); });
  return true;
}();

}  // namespace
}  // namespace attn::bench

BENCHMARK_MAIN();
