#include "app/across_layers.h"

#include "core/attention/attention_messages.h"
#include "core/attention/rollout.h"

#include <nlohmann/json.hpp>

namespace attn {

Status across_layers(const std::vector<std::vector<Mat>>& layers, AcrossLayers mode, float residual,
                     std::vector<Mat>& out) {
  if (mode == AcrossLayers::Rollout) return attention_rollout(layers, HeadPool::Mean, residual, out);
  std::vector<Mat> pooled;
  for (const std::vector<Mat>& heads : layers) {
    if (heads.empty()) return Status::error(msg::att_rollout_empty);
    pooled.push_back(pool_heads(heads, mode == AcrossLayers::Max ? HeadPool::Max : HeadPool::Mean));
  }
  out = std::move(pooled);
  return Status::success();
}

nlohmann::json across_layers_json(const AcrossLayersResults& r, AcrossLayers mode, float residual, int layer,
                                  int cursor) {
  nlohmann::json j = {{"mode", choice_row(kAcrossLayers, mode).name}, {"residual", residual}, {"layers", r.layers.size()}};
  if (!r.status.ok) j["error"] = r.status.message;
  if (layer < 0 || layer >= static_cast<int>(r.layers.size())) return j;
  const Mat& m = r.layers[static_cast<std::size_t>(layer)];
  j["rows"] = m.rows();
  j["cols"] = m.cols();
  std::vector<float> sums(static_cast<std::size_t>(m.rows()));
  for (Eigen::Index i = 0; i < m.rows(); ++i) sums[static_cast<std::size_t>(i)] = m.row(i).sum();
  j["rowSums"] = sums;
  j["firstKeyShare"] = m.rows() > 0 && m.cols() > 0 ? m.col(0).mean() : 0.0f;
  if (cursor >= 0 && cursor < m.rows())
    j["focusRow"] = std::vector<float>(m.row(cursor).data(), m.row(cursor).data() + m.cols());
  return j;
}

}  // namespace attn
