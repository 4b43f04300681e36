// Shared types of the attention core.
//
// Legend used across src/core:
//   n_q = query tokens, n_k = key tokens, d_k = query/key width, d_v = value width,
//   d_model = embedding width, h = heads.
// Matrices are row-major float: row i is token i, which matches texture uploads and
// JS typed arrays without a transpose.
#pragma once

#include <Eigen/Core>

#include <string>

namespace attn {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<float, Eigen::Dynamic, 1>;
using RowVec = Eigen::Matrix<float, 1, Eigen::Dynamic>;
using BoolMat = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The core never throws (exceptions abort a WebAssembly instance built without them):
// a function that can refuse its input returns a Status next to its result.
struct Status {
  bool ok = true;
  std::string message;  // empty when ok

  static Status success() { return {}; }
  static Status error(std::string why) { return {false, std::move(why)}; }
};

}  // namespace attn
