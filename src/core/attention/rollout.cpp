#include "core/attention/rollout.h"

#include "core/attention/attention_messages.h"

#include <Eigen/Dense>

#include <cmath>

namespace attn {

Mat pool_heads(const std::vector<Mat>& heads, HeadPool pool) {
  if (heads.empty()) return Mat();
  if (pool == HeadPool::Max) {
    Mat m = heads[0];
    for (std::size_t h = 1; h < heads.size(); ++h) m = m.cwiseMax(heads[h]);
    return m;
  }
  Eigen::MatrixXd sum = heads[0].cast<double>();
  for (std::size_t h = 1; h < heads.size(); ++h) sum += heads[h].cast<double>();
  return (sum / static_cast<double>(heads.size())).cast<float>();
}

Status attention_rollout(const std::vector<std::vector<Mat>>& layers, HeadPool pool, double residual,
                         std::vector<Mat>& out) {
  if (!(residual >= 0.0 && residual <= 1.0)) return Status::error(msg::att_rollout_residual);
  if (layers.empty()) return Status::error(msg::att_rollout_empty);
  const Eigen::Index n = layers[0].empty() ? 0 : layers[0][0].rows();
  for (const std::vector<Mat>& heads : layers) {
    if (heads.empty()) return Status::error(msg::att_rollout_empty);
    for (const Mat& w : heads) {
      if (w.rows() != w.cols()) return Status::error(msg::att_rollout_cross, w.rows(), w.cols());
      if (w.rows() != n) return Status::error(msg::att_rollout_sizes);
      if (!w.allFinite()) return Status::error(msg::att_rollout_finite);
    }
  }
  std::vector<Mat> result;
  result.reserve(layers.size());
  // Float products (the GEMM the core already carries; a double one would add 20 KB to the
  // math module), each row renormalised in double: rows of R stay sums of 1 to float rounding.
  Mat rolled;
  for (const std::vector<Mat>& heads : layers) {
    Mat a = (1.0f - static_cast<float>(residual)) * pool_heads(heads, pool);
    a.diagonal().array() += static_cast<float>(residual);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double s = a.row(i).cast<double>().sum();
      if (s > 0.0) a.row(i) = (a.row(i).cast<double>() / s).cast<float>();
    }
    rolled = rolled.size() == 0 ? a : Mat(a * rolled);
    result.push_back(rolled);
  }
  out = std::move(result);
  return Status::success();
}

}  // namespace attn
