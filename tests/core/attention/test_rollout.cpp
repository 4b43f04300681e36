// Attention across layers (core/attention/rollout.h): heads pooled by mean and by max, and
// attention rollout worked by hand on 2 x 2 layers, its rows summing to 1, a residual share
// of 0 and of 1, and the refusals (cross-attention, unequal sizes, a share outside [0, 1]).
#include "core/attention/rollout.h"

#include <catch2/catch.hpp>

#include <limits>
#include <vector>

namespace {

attn::Mat mat2(float a, float b, float c, float d) {
  attn::Mat m(2, 2);
  m << a, b, c, d;
  return m;
}

}  // namespace

TEST_CASE("rollout: pooled heads and the product of residual-mixed layers, by hand", "[rollout]") {
  const attn::Mat h0 = mat2(1, 0, 0.5f, 0.5f), h1 = mat2(1, 0, 0.1f, 0.9f);
  // Mean and max, cell by cell.
  REQUIRE(attn::pool_heads({h0, h1}, attn::HeadPool::Mean).isApprox(mat2(1, 0, 0.3f, 0.7f)));
  REQUIRE(attn::pool_heads({h0, h1}, attn::HeadPool::Max).isApprox(mat2(1, 0, 0.5f, 0.9f)));

  // One layer, a = 0.5: rownormalise(0.5 * [[1, 0], [0.3, 0.7]] + 0.5 I) = [[1, 0], [0.15, 0.85]].
  std::vector<attn::Mat> r;
  REQUIRE(attn::attention_rollout({{h0, h1}}, attn::HeadPool::Mean, 0.5, r).ok);
  REQUIRE(r.size() == 1);
  REQUIRE(r[0].isApprox(mat2(1, 0, 0.15f, 0.85f)));
  // Two layers: R_1 = Ã_1 · Ã_0. Layer 1 is h0 alone: Ã_1 = [[1, 0], [0.25, 0.75]].
  REQUIRE(attn::attention_rollout({{h0, h1}, {h0}}, attn::HeadPool::Mean, 0.5, r).ok);
  REQUIRE(r.size() == 2);
  const attn::Mat want = mat2(1, 0, 0.25f, 0.75f) * mat2(1, 0, 0.15f, 0.85f);
  REQUIRE(r[1].isApprox(want));
  REQUIRE(r[1](1, 0) == Approx(0.25 + 0.75 * 0.15));
  // Max pooling: the pooled rows do not sum to 1; the normalisation makes them.
  REQUIRE(attn::attention_rollout({{h0, h1}}, attn::HeadPool::Max, 0.5, r).ok);
  REQUIRE(r[0](1, 0) == Approx(0.25 / (0.25 + 0.95)));
  REQUIRE(r[0].row(1).sum() == Approx(1.0));
  // a = 0: the plain product of the layers' mean attention; a = 1: the identity.
  REQUIRE(attn::attention_rollout({{h0}, {h1}}, attn::HeadPool::Mean, 0.0, r).ok);
  REQUIRE(r[1].isApprox(h1 * h0));
  REQUIRE(attn::attention_rollout({{h0}, {h1}}, attn::HeadPool::Mean, 1.0, r).ok);
  REQUIRE(r[1].isApprox(attn::Mat::Identity(2, 2)));
}

TEST_CASE("rollout: refusals keep the output as it was", "[rollout]") {
  std::vector<attn::Mat> r = {mat2(1, 2, 3, 4)};
  const attn::Mat square = mat2(1, 0, 0, 1);
  attn::Mat cross(2, 3);
  cross.setConstant(1.0f / 3);
  REQUIRE(attn::attention_rollout({{cross}}, attn::HeadPool::Mean, 0.5, r).message ==
          "rollout needs self-attention (as many queries as keys); this is 2 x 3, cross-attention");
  REQUIRE(!attn::attention_rollout({{square}, {attn::Mat::Identity(3, 3)}}, attn::HeadPool::Mean, 0.5, r).ok);
  REQUIRE(!attn::attention_rollout({{square}}, attn::HeadPool::Mean, 1.5, r).ok);
  REQUIRE(!attn::attention_rollout({{square}}, attn::HeadPool::Mean, -0.1, r).ok);
  REQUIRE(!attn::attention_rollout({}, attn::HeadPool::Mean, 0.5, r).ok);
  REQUIRE(!attn::attention_rollout({{}}, attn::HeadPool::Mean, 0.5, r).ok);
  attn::Mat nan = square;
  nan(0, 1) = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(!attn::attention_rollout({{nan}}, attn::HeadPool::Mean, 0.5, r).ok);
  REQUIRE(r.size() == 1);
  REQUIRE(r[0](1, 1) == 4.0f);
}
