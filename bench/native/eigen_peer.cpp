// The Eigen peer: the same math in Eigen (products with Eigen's GEMM, a max-subtracted
// softmax with Eigen's vectorised exp), compiled with this target's flags.
// Linked into attnlab_bench (baseline x86-64) and, alone, into attnlab_bench_eigen_<isa>.
#include "bench_common.h"

namespace attn::bench {
namespace {

// Written the way Eigen is fast: products with noalias() into matrices allocated once, and
// the softmax row by row (a row of a row-major matrix is contiguous, so Eigen vectorises its
// max, exp and sum; a colwise() broadcast over the whole matrix would not be).
void softmax_rows_eigen(Mat& s) {
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    const float m = s.row(i).maxCoeff();
    s.row(i) = (s.row(i).array() - m).exp().matrix();
    s.row(i) /= s.row(i).sum();
  }
}

void head_eigen(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k, const Eigen::Ref<const Mat>& v, Mat& s,
                Eigen::Ref<Mat> out) {
  s.noalias() = q * k.transpose();
  s *= 1.0f / std::sqrt(static_cast<float>(q.cols()));
  softmax_rows_eigen(s);
  out.noalias() = s * v;
}

void run(benchmark::State& state, const Shape& s) {
  const Inputs in = make_inputs(s);
  Mat scores(s.n, s.n);
  if (s.kind == Kind::Single) {
    Mat o(s.n, s.d);
    for (auto _ : state) {
      head_eigen(in.q, in.k, in.v, scores, o);
      benchmark::DoNotOptimize(o(7 % s.n, 0));
    }
  } else {
    const int dk = s.d_model / s.heads;
    Mat q(s.n, s.d_model), k(s.n, s.d_model), v(s.n, s.d_model), concat(s.n, s.d_model), y(s.n, s.d_model);
    for (auto _ : state) {
      q.noalias() = in.x * in.w.wq;
      k.noalias() = in.x * in.w.wk;
      v.noalias() = in.x * in.w.wv;
      for (int h = 0; h < s.heads; ++h)
        head_eigen(q.middleCols(h * dk, dk), k.middleCols(h * dk, dk), v.middleCols(h * dk, dk), scores,
                   concat.middleCols(h * dk, dk));
      y.noalias() = concat * in.w.wo;
      benchmark::DoNotOptimize(y(7, 0));
    }
  }
  set_flops(state, s);
}

}  // namespace

void register_eigen(const std::string& prefix, const Shape& s) {
  benchmark::RegisterBenchmark((prefix + s.name).c_str(), [s](benchmark::State& st) { run(st, s); })
      ->Unit(benchmark::kMillisecond);
}

}  // namespace attn::bench
