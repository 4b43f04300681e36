// Attention across layers: the heads of a layer pooled (their mean or their maximum, cell by
// cell) and attention rollout (Abnar & Zuidema, "Quantifying Attention Flow in Transformers",
// 2020), which follows attention through the residual stream from layer to layer:
//
//   A_l        the heads of layer l pooled (n x n, rows are queries)
//   Ã_l        = rownormalise((1 - a) * A_l + a * I)   a: the residual's share, in [0, 1]
//   R_0        = Ã_0
//   R_l        = Ã_l * R_(l-1)
//
// Row i of R_l is how much each input token reaches query i's position after layer l, if
// every layer mixed the stream as its pooled attention says and the residual kept a share a
// of each position's own value. It is a picture of flow, not of what the model computes: the
// MLPs, the values and the heads' differences are all set aside (the paper says as much).
// Rows of R sum to 1 (each Ã does); a row of Ã with no weight at all (every head masked it and
// a = 0) stays zero.
#pragma once

#include "core/base/types.h"

#include <vector>

namespace attn {

enum class HeadPool { Mean, Max };

// The heads of one layer pooled cell by cell. `heads` are (n, n), at least one, all one size.
Mat pool_heads(const std::vector<Mat>& heads, HeadPool pool);

// R_0 .. R_(L-1) from each layer's heads (layers[l][h], each (n, n) with n_q = n_k: rollout
// has no meaning for cross-attention, and such input is refused). Rows are renormalised in
// double, the products run in float.
Status attention_rollout(const std::vector<std::vector<Mat>>& layers, HeadPool pool, double residual,
                         std::vector<Mat>& out);

}  // namespace attn
