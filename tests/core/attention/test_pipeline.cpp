#include "core/attention/masks.h"
#include "core/attention/pipeline.h"
#include "core/attention/reference.h"
#include "core/base/rng.h"
#include "core/attention/softmax.h"
#include "core/attention/statistics.h"
#include "core/attention/tokenizer.h"
#include "support/matrix_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using attn::Mat;
using attn::RowVec;
using attn::test::mat;

namespace {

attn::PipelineConfig config_for(int d_model, int heads) {
  attn::PipelineConfig c;
  c.d_model = d_model;
  c.heads = heads;
  return c;
}

}  // namespace

TEST_CASE("pipeline: every head's weight rows sum to 1", "[pipeline]") {
  attn::Rng rng(11);
  const Mat x = rng.normal_matrix(9, 24);
  const auto w = attn::random_projection_weights(24, 3, 5);
  for (auto score : {attn::ScoreFunction::Dot, attn::ScoreFunction::Cosine, attn::ScoreFunction::Additive}) {
    attn::PipelineConfig c = config_for(24, 3);
    c.score = score;
    c.mask.causal = true;
    const attn::PipelineTrace t = attn::run_pipeline(x, x, x, w, c);
    REQUIRE(t.status.ok);
    REQUIRE(t.heads.size() == 3);
    for (const auto& h : t.heads) {
      REQUIRE(h.q.cols() == 8);
      for (int i = 0; i < 9; ++i) REQUIRE(std::fabs(h.weights.row(i).sum() - 1.0f) <= 1e-6f);
    }
    REQUIRE(t.output.rows() == 9);
    REQUIRE(t.output.cols() == 24);
  }
}

TEST_CASE("pipeline: causal upper triangle and padded key columns are exactly 0", "[pipeline][mask]") {
  attn::Rng rng(2);
  const Mat x = rng.normal_matrix(7, 16);
  attn::PipelineConfig c = config_for(16, 2);
  c.mask.causal = true;
  c.mask.key_padding = {0, 0, 0, 0, 0, 1, 1};
  const attn::PipelineTrace t = attn::run_pipeline(x, x, x, attn::random_projection_weights(16, 2, 1), c);
  REQUIRE(t.status.ok);
  for (const auto& h : t.heads)
    for (int i = 0; i < 7; ++i) {
      for (int j = 0; j < 7; ++j)
        if (j > i || j >= 5) REQUIRE(h.weights(i, j) == 0.0f);
      REQUIRE(h.fully_masked_rows[i] == 0);
      REQUIRE(std::fabs(h.weights.row(i).sum() - 1.0f) <= 1e-6f);
    }
}

TEST_CASE("pipeline: trace_matrix names every stage of a head, the concatenation and the output", "[pipeline]") {
  attn::Rng rng(3);
  const Mat x = rng.normal_matrix(5, 16);
  attn::PipelineConfig c = config_for(16, 2);
  c.keep_every_stage = false;
  const attn::PipelineTrace t = attn::run_pipeline(x, x, x, attn::random_projection_weights(16, 2, 1), c);
  REQUIRE(t.status.ok);
  const attn::HeadTrace& h = t.heads[1];
  const std::vector<std::pair<std::string, const Mat*>> names = {
      {"q", &h.q}, {"k", &h.k}, {"v", &h.v}, {"rawScores", &h.raw_scores}, {"scaledScores", &h.scaled_scores},
      {"mask", &h.mask_add}, {"maskedScores", &h.masked_scores}, {"weights", &h.weights}, {"output", &h.output},
      {"concat", &t.concat}, {"final", &t.output}};
  for (const auto& [name, field] : names) {
    INFO(name);
    CHECK(attn::trace_matrix(t, name, 1) == field);
    CHECK(attn::trace_matrix(t, name, 2) == nullptr);   // no head 2
    CHECK(attn::trace_matrix(t, name, -1) == nullptr);
  }
  const Mat* mask = attn::trace_matrix(t, "mask", 0);
  REQUIRE(mask != nullptr);
  CHECK(mask->size() == 0);  // not kept: there, but empty
  const Mat* weights = attn::trace_matrix(t, "weights", 0);
  REQUIRE(weights != nullptr);
  CHECK(weights->rows() == 5);
  CHECK(attn::trace_matrix(t, "scores", 0) == nullptr);
  attn::PipelineTrace failed = t;
  failed.status.ok = false;
  CHECK(attn::trace_matrix(failed, "weights", 0) == nullptr);
  CHECK(attn::trace_matrix(failed, "final", 0) == nullptr);
}

TEST_CASE("pipeline: without positional encoding, permuting tokens permutes the output", "[pipeline]") {
  attn::Rng rng(4);
  const Mat x = rng.normal_matrix(6, 16);
  const std::vector<int> perm = {3, 0, 5, 1, 4, 2};
  Mat xp(6, 16);
  for (int i = 0; i < 6; ++i) xp.row(i) = x.row(perm[i]);
  const auto w = attn::random_projection_weights(16, 4, 9);
  attn::PipelineConfig c = config_for(16, 4);
  const attn::PipelineTrace a = attn::run_pipeline(x, x, x, w, c), b = attn::run_pipeline(xp, xp, xp, w, c);
  Mat a_permuted(6, 16);
  for (int i = 0; i < 6; ++i) a_permuted.row(i) = a.output.row(perm[i]);
  REQUIRE_MATRIX_NEAR(b.output, a_permuted, 1e-5f);

  // With the encoding on, the same permutation changes what each token receives.
  c.positional = true;
  const attn::PipelineTrace pa = attn::run_pipeline(x, x, x, w, c), pb = attn::run_pipeline(xp, xp, xp, w, c);
  Mat pa_permuted(6, 16);
  for (int i = 0; i < 6; ++i) pa_permuted.row(i) = pa.output.row(perm[i]);
  REQUIRE((pb.output - pa_permuted).cwiseAbs().maxCoeff() > 1e-2f);
}

TEST_CASE("pipeline: one head equals single-head attention on the projections", "[pipeline]") {
  attn::Rng rng(8);
  const Mat x = rng.normal_matrix(5, 12);
  auto w = attn::random_projection_weights(12, 1, 3);
  w.bq = rng.normal_matrix(1, 12);
  w.bo = rng.normal_matrix(1, 12);
  const attn::PipelineTrace t = attn::run_pipeline(x, x, x, w, config_for(12, 1));
  REQUIRE(t.status.ok);
  Mat q = x * w.wq;
  q.rowwise() += w.bq;
  const attn::AttentionResult single = attn::attention(q, x * w.wk, x * w.wv);
  REQUIRE_MATRIX_NEAR(t.heads[0].weights, single.weights, 1e-6f);
  Mat expected = single.output * w.wo;
  expected.rowwise() += w.bo;
  REQUIRE_MATRIX_NEAR(t.output, expected, 1e-5f);
}

TEST_CASE("pipeline: agrees with the plain-loop reference under composed masks", "[pipeline][mask]") {
  attn::Rng rng(21);
  const Mat q = rng.normal_matrix(10, 8), k = rng.normal_matrix(10, 8), v = rng.normal_matrix(10, 3);
  attn::PipelineConfig c;
  c.mask.window = 2;
  c.mask.global_tokens = {0};
  c.mask.causal = true;
  c.mask.key_padding = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  const attn::PipelineTrace t = attn::run_pipeline_qkv(q, k, v, c);
  REQUIRE(t.status.ok);
  attn::AttentionOptions o;
  o.allowed = t.allowed;
  const attn::AttentionResult ref = attn::reference::attention(q, k, v, o);
  REQUIRE_MATRIX_NEAR(t.heads[0].weights, ref.weights, 1e-5f);
  REQUIRE_MATRIX_NEAR(t.heads[0].output, ref.output, 1e-5f);
  REQUIRE_MATRIX_NEAR(t.heads[0].masked_scores, ref.scores, 1e-5f);
}

TEST_CASE("pipeline: a head without its kept stages and without a mask is bit for bit the full one", "[pipeline][mask]") {
  attn::Rng rng(29);
  const Mat q = rng.normal_matrix(13, 8), k = rng.normal_matrix(11, 8), v = rng.normal_matrix(11, 5);
  Mat additive = rng.normal_matrix(13, 11);
  attn::BoolMat causal = attn::BoolMat::Constant(13, 11, true);
  for (int i = 0; i < 13; ++i)
    for (int j = i + 1; j < 11; ++j) causal(i, j) = false;
  const attn::BoolMat every = attn::BoolMat::Constant(13, 11, true);
  for (const attn::MaskFill fill : {attn::MaskFill::NegInfinity, attn::MaskFill::Finite})
    for (const bool with_additive : {false, true})
      for (const bool with_mask : {false, true}) {
        attn::PipelineConfig full = config_for(8, 1);
        full.fill = fill;
        full.temperature = 0.7f;
        attn::PipelineConfig lean = full;
        lean.keep_every_stage = false;
        const Mat add = with_additive ? additive : Mat();
        const attn::HeadTrace a = attn::run_head(q, k, v, with_mask ? causal : every, add, full, nullptr, 0);
        const attn::HeadTrace b = attn::run_head(q, k, v, with_mask ? causal : attn::BoolMat(), add, lean, nullptr, 0);
        // The kept stages compose to the masked scores; the lean head keeps neither.
        REQUIRE(a.masked_scores == (a.scaled_scores + a.mask_add).eval());
        REQUIRE(a.scaled_scores == (a.raw_scores * a.scale).eval());
        REQUIRE(b.scaled_scores.size() == 0);
        REQUIRE(b.mask_add.size() == 0);
        REQUIRE(b.raw_scores == a.raw_scores);
        REQUIRE(b.masked_scores == a.masked_scores);
        REQUIRE(b.weights == a.weights);
        REQUIRE(b.output == a.output);
        if (with_mask && fill == attn::MaskFill::NegInfinity) REQUIRE(b.weights(0, 1) == 0.0f);
        if (with_mask && fill == attn::MaskFill::Finite)
          REQUIRE(a.mask_add(0, 1) == (with_additive ? additive(0, 1) : 0.0f) + full.finite_fill);
      }
}

TEST_CASE("pipeline: with nothing masked the masked scores are the scaled ones, and a rescale keeps it so", "[pipeline][mask]") {
  attn::Rng rng(37);
  const int n = 21, d = 8, heads = 2;
  const Mat x = rng.normal_matrix(n, d);
  const attn::ProjectionWeights w = attn::random_projection_weights(d, heads, 5);
  attn::PipelineConfig before = config_for(d, heads);
  before.fill = attn::MaskFill::Finite;  // a fill that would show in mask_add if it were added
  attn::PipelineTrace t = attn::run_pipeline(x, x, x, w, before);
  REQUIRE(t.status.ok);
  for (const attn::HeadTrace& h : t.heads) {
    REQUIRE_FALSE(h.masked);
    REQUIRE(h.mask_add.rows() == n);
    REQUIRE(h.mask_add.isZero(0.0f));
    REQUIRE(h.masked_scores == h.scaled_scores);
  }
  attn::PipelineConfig after = before;
  after.temperature = 0.45f;
  REQUIRE(attn::rescale_pipeline(t, w, after));
  const attn::PipelineTrace fresh = attn::run_pipeline(x, x, x, w, after);
  for (int h = 0; h < heads; ++h) {
    REQUIRE(t.heads[h].masked_scores == fresh.heads[h].masked_scores);
    REQUIRE(t.heads[h].weights == fresh.heads[h].weights);
    REQUIRE(t.heads[h].masked_scores == t.heads[h].scaled_scores);
  }
  REQUIRE(t.output == fresh.output);
  // One padded key: the heads are masked again, and the fill is in mask_add.
  before.mask.key_padding.assign(n, 0);
  before.mask.key_padding[3] = 1;
  const attn::PipelineTrace padded = attn::run_pipeline(x, x, x, w, before);
  REQUIRE(padded.heads[0].masked);
  REQUIRE(padded.heads[0].mask_add(0, 3) == before.finite_fill);
  REQUIRE(padded.heads[0].weights(0, 3) == 0.0f);  // e^(-1e9) underflows
  REQUIRE(t.heads[0].weights(0, 3) > 0.0f);
}

TEST_CASE("pipeline: rescaling a kept trace gives run_pipeline's floats for the new scaling", "[pipeline][mask]") {
  // Every scorer and position scheme, both fills, a causal and a padding mask: the rescaled
  // trace equals a fresh run bit for bit, stage by stage.
  attn::Rng rng(31);
  const int n = 9, d = 12, heads = 3;
  const Mat x = rng.normal_matrix(n, d);
  const attn::ProjectionWeights w = attn::random_projection_weights(d, heads, 77);
  struct Case { attn::ScoreFunction score; attn::PositionalKind positions; attn::MaskFill fill; };
  for (const Case c : {Case{attn::ScoreFunction::Dot, attn::PositionalKind::None, attn::MaskFill::NegInfinity},
                       Case{attn::ScoreFunction::Dot, attn::PositionalKind::Rope, attn::MaskFill::Finite},
                       Case{attn::ScoreFunction::Dot, attn::PositionalKind::Alibi, attn::MaskFill::NegInfinity},
                       Case{attn::ScoreFunction::Cosine, attn::PositionalKind::None, attn::MaskFill::Finite},
                       Case{attn::ScoreFunction::Additive, attn::PositionalKind::None, attn::MaskFill::NegInfinity}}) {
    attn::PipelineConfig before = config_for(d, heads);
    before.score = c.score;
    before.attention_positions.kind = c.positions;
    before.fill = c.fill;
    before.mask.causal = true;
    before.mask.key_padding = {0, 0, 0, 0, 0, 0, 0, 1, 1};
    for (const auto& [kind, custom, temperature] :
         {std::tuple{attn::ScaleKind::Default, 1.0f, 0.37f}, std::tuple{attn::ScaleKind::Custom, 0.8f, 2.5f},
          std::tuple{attn::ScaleKind::None, 1.0f, 1.0f}}) {
      attn::PipelineConfig after = before;
      after.scale_kind = kind;
      after.custom_scale = custom;
      after.temperature = temperature;
      attn::PipelineTrace rescaled = attn::run_pipeline(x, x, x, w, before);
      REQUIRE(rescaled.status.ok);
      REQUIRE(attn::rescale_pipeline(rescaled, w, after));
      const attn::PipelineTrace fresh = attn::run_pipeline(x, x, x, w, after);
      for (int h = 0; h < heads; ++h) {
        INFO("score " << static_cast<int>(c.score) << " positions " << static_cast<int>(c.positions) << " head " << h);
        const attn::HeadTrace &a = rescaled.heads[h], &b = fresh.heads[h];
        REQUIRE(a.scale == b.scale);
        REQUIRE(a.scaled_scores == b.scaled_scores);
        REQUIRE(a.masked_scores == b.masked_scores);
        REQUIRE(a.weights == b.weights);
        REQUIRE(a.output == b.output);
        REQUIRE(a.fully_masked_rows == b.fully_masked_rows);
        // The row statistics come with the weights, block by block, as the whole matrix gives
        // them: the same largest weights and distances; the entropy, taken from the softmax's
        // exponents (no log per weight), within a few float roundings of -sum p ln p.
        const attn::WeightRowStats whole = attn::weight_row_stats(a.weights);
        REQUIRE(a.row_stats.entropy == b.row_stats.entropy);
        for (int i = 0; i < n; ++i)
          REQUIRE(std::fabs(a.row_stats.entropy[i] - whole.entropy[i]) <= 4e-6f * std::max(1.0f, whole.entropy[i]));
        REQUIRE(a.row_stats.max_weight == whole.max_weight);
        REQUIRE(a.row_stats.distance == whole.distance);
        REQUIRE(b.row_stats.distance == whole.distance);
      }
      REQUIRE(rescaled.output == fresh.output);
      // The temperature really moved the weights (it is not the old trace handed back).
      if (temperature != 1.0f)
        REQUIRE(rescaled.heads[0].weights != attn::run_pipeline(x, x, x, w, before).heads[0].weights);
    }
  }
  // A trace without its kept stages cannot be rescaled; it is left as it was.
  attn::PipelineConfig lean = config_for(d, heads);
  lean.keep_every_stage = false;
  lean.row_statistics = false;
  attn::PipelineTrace t = attn::run_pipeline(x, x, x, w, lean);
  REQUIRE(t.heads[0].row_stats.entropy.empty());  // not asked for
  REQUIRE(t.heads[0].weights.rows() == n);
  const Mat weights = t.heads[0].weights;
  lean.temperature = 3.0f;
  REQUIRE_FALSE(attn::rescale_pipeline(t, w, lean));
  REQUIRE(t.heads[0].weights == weights);
  // Nor a refused configuration.
  attn::PipelineConfig bad = config_for(d, heads);
  attn::PipelineTrace kept = attn::run_pipeline(x, x, x, w, bad);
  bad.temperature = 0.0f;
  REQUIRE_FALSE(attn::rescale_pipeline(kept, w, bad));
}

TEST_CASE("scale and temperature are one step; nothing is scaled twice", "[pipeline]") {
  const attn::WorkedExample ex = attn::worked_example();
  attn::PipelineConfig c;
  c.temperature = 2.0f;
  const attn::PipelineTrace t = attn::run_pipeline_qkv(ex.q, ex.k, ex.v, c);
  REQUIRE(t.heads[0].scale == Approx(1.0 / (2.0 * std::sqrt(2.0))));
  REQUIRE(t.heads[0].scaled_scores(0, 1) == Approx(5.0 / (2.0 * std::sqrt(2.0))));
  c.temperature = 1.0f;
  c.scale_kind = attn::ScaleKind::None;
  REQUIRE(attn::run_pipeline_qkv(ex.q, ex.k, ex.v, c).heads[0].scaled_scores(0, 1) == 5.0f);
  c.scale_kind = attn::ScaleKind::Custom;
  c.custom_scale = 0.25f;
  REQUIRE(attn::run_pipeline_qkv(ex.q, ex.k, ex.v, c).heads[0].scaled_scores(0, 1) == 1.25f);
}

TEST_CASE("cosine scores lie in [-1, 1] and ignore vector length", "[pipeline][score]") {
  attn::Rng rng(6);
  Mat q = rng.normal_matrix(8, 5), k = rng.normal_matrix(8, 5);
  attn::PipelineConfig c;
  c.score = attn::ScoreFunction::Cosine;
  const attn::PipelineTrace t = attn::run_pipeline_qkv(q, k, Mat::Ones(8, 2), c);
  REQUIRE(t.heads[0].raw_scores.maxCoeff() <= 1.0f);
  REQUIRE(t.heads[0].raw_scores.minCoeff() >= -1.0f);
  q.row(0) *= 50.0f;
  const attn::PipelineTrace t2 = attn::run_pipeline_qkv(q, k, Mat::Ones(8, 2), c);
  REQUIRE_MATRIX_NEAR(t.heads[0].raw_scores, t2.heads[0].raw_scores, 1e-6f);
  // The cosine of a vector with itself is 1.
  const attn::PipelineTrace self = attn::run_pipeline_qkv(k, k, Mat::Ones(8, 2), c);
  for (int i = 0; i < 8; ++i) REQUIRE(self.heads[0].raw_scores(i, i) == Approx(1.0f).margin(1e-6));
}

TEST_CASE("cosine and additive raw scores equal their formulas in double, head by head", "[pipeline][score]") {
  attn::Rng rng(19);
  const int n = 70, d = 48, heads = 3, d_k = d / heads;
  const Mat x = rng.normal_matrix(n, d);
  const attn::ProjectionWeights w = attn::random_projection_weights(d, heads, 23);
  for (auto score : {attn::ScoreFunction::Cosine, attn::ScoreFunction::Additive}) {
    attn::PipelineConfig c = config_for(d, heads);
    c.score = score;
    const attn::PipelineTrace t = attn::run_pipeline(x, x, x, w, c);
    REQUIRE(t.status.ok);
    for (int h = 0; h < heads; ++h) {
      const Mat &q = t.heads[h].q, &k = t.heads[h].k, &got = t.heads[h].raw_scores;
      REQUIRE(got.rows() == n);
      REQUIRE(got.cols() == n);
      double worst = 0.0, largest = 0.0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double want = 0.0;
          if (score == attn::ScoreFunction::Cosine) {
            double dot = 0.0, qq = 0.0, kk = 0.0;
            for (int p = 0; p < d_k; ++p) dot += double(q(i, p)) * k(j, p), qq += double(q(i, p)) * q(i, p), kk += double(k(j, p)) * k(j, p);
            want = dot / std::sqrt(qq * kk);
          } else {
            // v . tanh(q W_aq + k W_ak), the projections in double too
            for (int a = 0; a < d_k; ++a) {
              double qa = 0.0, ka = 0.0;
              for (int p = 0; p < d_k; ++p) qa += double(q(i, p)) * w.additive_wq[h](p, a), ka += double(k(j, p)) * w.additive_wk[h](p, a);
              want += w.additive_v[h](0, a) * std::tanh(qa + ka);
            }
          }
          worst = std::max(worst, std::fabs(got(i, j) - want));
          largest = std::max(largest, std::fabs(want));
        }
      INFO("score " << static_cast<int>(score) << " head " << h << " worst " << worst << " largest " << largest);
      REQUIRE(largest > 0.05);  // scores that differ from zero, so the comparison means something
      REQUIRE(worst <= 1e-6);
    }
  }
}

TEST_CASE("additive parameters of the wrong shape are refused, not read past", "[pipeline][score]") {
  attn::Rng rng(3);
  const Mat x = rng.normal_matrix(5, 8);
  attn::PipelineConfig c = config_for(8, 2);
  c.score = attn::ScoreFunction::Additive;
  const attn::ProjectionWeights good = attn::random_projection_weights(8, 2, 4);
  REQUIRE(attn::run_pipeline(x, x, x, good, c).status.ok);
  for (int which = 0; which < 4; ++which) {
    attn::ProjectionWeights w = good;
    if (which == 0) w.additive_wq[1] = Mat::Zero(3, 4);   // d_k rows wanted (4)
    if (which == 1) w.additive_wk[0] = Mat::Zero(4, 5);   // d_a columns as W_aq's (4)
    if (which == 2) w.additive_v[1] = Mat::Zero(1, 3);    // d_a entries
    if (which == 3) w.additive_wk.pop_back();              // one head short
    INFO("case " << which);
    const attn::PipelineTrace t = attn::run_pipeline(x, x, x, w, c);
    REQUIRE_FALSE(t.status.ok);
    REQUIRE(t.status.message == "additive scoring needs its parameters for every head");
  }
}

TEST_CASE("bad configurations are refused", "[pipeline]") {
  attn::Rng rng(1);
  const Mat x = rng.normal_matrix(4, 10);
  attn::PipelineConfig c = config_for(10, 3);
  const attn::PipelineTrace t = attn::run_pipeline(x, x, x, attn::random_projection_weights(10, 1, 1), c);
  REQUIRE_FALSE(t.status.ok);
  REQUIRE(t.status.message == "d_model 10 is not divisible by 3 heads");
  c = config_for(10, 2);
  c.temperature = 0.0f;
  REQUIRE_FALSE(attn::run_pipeline(x, x, x, attn::random_projection_weights(10, 2, 1), c).status.ok);
  c.temperature = 1.0f;
  c.mask.key_padding = {0, 1};
  REQUIRE(attn::run_pipeline(x, x, x, attn::random_projection_weights(10, 2, 1), c).status.message ==
          "key padding has 2 flags but there are 4 keys");
}

TEST_CASE("masks: documented non-zeros per row", "[mask]") {
  const int n = 32;
  attn::MaskSpec s;
  s.stride = 4;
  auto counts = attn::nonzeros_per_row(attn::build_mask(s, n, n));
  for (int c : counts) REQUIRE(c == n / 4);
  s.causal = true;
  counts = attn::nonzeros_per_row(attn::build_mask(s, n, n));
  for (int i = 0; i < n; ++i) REQUIRE(counts[i] == i / 4 + 1);

  attn::MaskSpec w;
  w.window = 3;
  counts = attn::nonzeros_per_row(attn::build_mask(w, n, n));
  for (int i = 0; i < n; ++i) REQUIRE(counts[i] == std::min(i, 3) + std::min(n - 1 - i, 3) + 1);
  w.causal = true;
  counts = attn::nonzeros_per_row(attn::build_mask(w, n, n));
  for (int i = 0; i < n; ++i) REQUIRE(counts[i] == std::min(i, 3) + 1);

  attn::MaskSpec b;
  b.block = 5;
  counts = attn::nonzeros_per_row(attn::build_mask(b, n, n));
  for (int i = 0; i < n; ++i) REQUIRE(counts[i] == (i < 30 ? 5 : 2));

  attn::MaskSpec g;
  g.window = 1;
  g.global_tokens = {0};
  const attn::BoolMat m = attn::build_mask(g, n, n);
  REQUIRE(m.row(0).count() == n);
  REQUIRE(m.col(0).count() == n);
  REQUIRE(m.row(10).count() == 4);  // 9, 10, 11 and the global token 0
}

TEST_CASE("softmax: stable stays finite at +-1e4 where the naive form overflows", "[softmax]") {
  const float row[3] = {1e4f, -1e4f, 9999.0f};
  float out[3];
  const attn::SoftmaxFlags stable = attn::softmax_row(row, out, 3);
  REQUIRE_FALSE(stable.overflow);
  REQUIRE(out[0] == Approx(1.0 / (1.0 + std::exp(-1.0))).margin(1e-6));
  REQUIRE(out[1] == 0.0f);
  REQUIRE(std::isfinite(out[2]));
  const attn::SoftmaxFlags naive = attn::softmax_row(row, out, 3, attn::SoftmaxForm::Naive);
  REQUIRE(naive.overflow);
  REQUIRE(naive.nan);
  REQUIRE(std::isnan(out[0]));
}

TEST_CASE("softmax in simulated fp16: naive overflows at logits stable handles", "[softmax][fp16]") {
  // exp(12) = 162755 > 65504, the largest half.
  const float row[3] = {12.0f, 10.0f, 11.0f};
  float half_stable[3], half_naive[3], single[3];
  const auto fs = attn::softmax_row(row, half_stable, 3, attn::SoftmaxForm::Stable, attn::Precision::Float16);
  const auto fn = attn::softmax_row(row, half_naive, 3, attn::SoftmaxForm::Naive, attn::Precision::Float16);
  const auto f32 = attn::softmax_row(row, single, 3, attn::SoftmaxForm::Naive, attn::Precision::Float32);
  REQUIRE_FALSE(fs.overflow);
  REQUIRE(fn.overflow);
  REQUIRE_FALSE(f32.overflow);  // float32 still holds exp(12)
  for (int j = 0; j < 3; ++j) {
    REQUIRE(half_stable[j] == Approx(single[j]).margin(2e-3));  // half has ~3 decimal digits
    REQUIRE(half_stable[j] == attn::round_to_half(half_stable[j]));  // every result is a half
  }
  // exp(11) = 59874 still fits in half precision; exp(11.1) = 66171 does not.
  const float fits[2] = {11.0f, 0.0f}, overflows[2] = {11.1f, 0.0f};
  float o[2];
  REQUIRE_FALSE(attn::softmax_row(fits, o, 2, attn::SoftmaxForm::Naive, attn::Precision::Float16).overflow);
  REQUIRE(attn::softmax_row(overflows, o, 2, attn::SoftmaxForm::Naive, attn::Precision::Float16).overflow);
}

TEST_CASE("round_to_half matches IEEE half rounding", "[softmax][fp16]") {
  REQUIRE(attn::round_to_half(1.0f) == 1.0f);
  REQUIRE(attn::round_to_half(65504.0f) == 65504.0f);
  REQUIRE(attn::round_to_half(65519.0f) == 65504.0f);
  REQUIRE(std::isinf(attn::round_to_half(65520.0f)));  // the tie rounds to even: 65536 = inf
  REQUIRE(std::isinf(attn::round_to_half(-1e6f)));
  REQUIRE(attn::round_to_half(-1e6f) < 0.0f);
  // Ties to even in the normal range: 1 + 2^-11 sits halfway between 1 and 1 + 2^-10.
  REQUIRE(attn::round_to_half(1.0f + std::ldexp(1.0f, -11)) == 1.0f);
  REQUIRE(attn::round_to_half(1.0f + 3 * std::ldexp(1.0f, -11)) == 1.0f + std::ldexp(1.0f, -9));
  REQUIRE(attn::round_to_half(0.1f) == 0.0999755859375f);
  // Subnormals: multiples of 2^-24; 2^-25 ties to 0 (even), 3 * 2^-25 ties to 2^-23.
  REQUIRE(attn::round_to_half(std::ldexp(1.0f, -24)) == std::ldexp(1.0f, -24));
  REQUIRE(attn::round_to_half(std::ldexp(1.0f, -25)) == 0.0f);
  REQUIRE(attn::round_to_half(3 * std::ldexp(1.0f, -25)) == std::ldexp(1.0f, -23));
  REQUIRE(attn::round_to_half(std::ldexp(1.0f, -26)) == 0.0f);
  REQUIRE(std::isnan(attn::round_to_half(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("fully masked row: zeros and a flag with -inf; uniform with -1e9", "[softmax][mask]") {
  const Mat q = mat(2, 2, {1, 0, 0, 1}), k = mat(3, 2, {1, 0, 0, 1, 1, 1}), v = mat(3, 1, {1, 2, 3});
  attn::PipelineConfig c;
  c.mask.custom = attn::BoolMat::Constant(2, 3, true);
  c.mask.custom.row(1).setConstant(false);
  const attn::PipelineTrace inf = attn::run_pipeline_qkv(q, k, v, c);
  REQUIRE(inf.heads[0].fully_masked_rows[1] == 1);
  REQUIRE(inf.heads[0].weights.row(1).isZero(0.0f));
  REQUIRE_FALSE(inf.heads[0].softmax_flags.nan);
  c.fill = attn::MaskFill::Finite;
  const attn::PipelineTrace fin = attn::run_pipeline_qkv(q, k, v, c);
  REQUIRE(fin.heads[0].fully_masked_rows[1] == 0);
  for (int j = 0; j < 3; ++j) REQUIRE(fin.heads[0].weights(1, j) == Approx(1.0 / 3.0).margin(1e-6));
  REQUIRE(fin.heads[0].output(1, 0) == Approx(2.0f).margin(1e-5));
}

TEST_CASE("entropy, max weight and the Jacobian", "[softmax]") {
  RowVec uniform = RowVec::Constant(4, 0.25f);
  REQUIRE(attn::entropy(uniform) == Approx(std::log(4.0)).margin(1e-6));
  RowVec onehot = RowVec::Zero(4);
  onehot[2] = 1.0f;
  REQUIRE(attn::entropy(onehot) == 0.0f);
  REQUIRE(attn::softmax_jacobian_norm(onehot) == 0.0f);  // saturated: no gradient flows

  // The Jacobian against central finite differences of the softmax, in double.
  const double s[4] = {0.3, -1.2, 2.0, 0.7};
  auto softmax_d = [](const double* x, double* p) {
    double m = x[0], sum = 0;
    for (int j = 1; j < 4; ++j) m = std::max(m, x[j]);
    for (int j = 0; j < 4; ++j) sum += (p[j] = std::exp(x[j] - m));
    for (int j = 0; j < 4; ++j) p[j] /= sum;
  };
  double p[4];
  softmax_d(s, p);
  RowVec pf(4);
  for (int j = 0; j < 4; ++j) pf[j] = static_cast<float>(p[j]);
  const Mat jac = attn::softmax_jacobian(pf);
  const double h = 1e-6;
  for (int j = 0; j < 4; ++j) {
    double sp[4], sm[4], pp[4], pm[4];
    for (int c = 0; c < 4; ++c) sp[c] = sm[c] = s[c];
    sp[j] += h;
    sm[j] -= h;
    softmax_d(sp, pp);
    softmax_d(sm, pm);
    for (int i = 0; i < 4; ++i) REQUIRE(jac(i, j) == Approx((pp[i] - pm[i]) / (2 * h)).margin(1e-5));
  }
  REQUIRE(attn::softmax_jacobian_norm(pf) == Approx(jac.norm()).margin(1e-6));
}

TEST_CASE("Monte-Carlo: Var(q.k) ~ d_k, Var(q.k / sqrt(d_k)) ~ 1", "[statistics]") {
  for (int d_k : {16, 64, 256}) {
    const attn::DotProductSample raw = attn::sample_dot_products(d_k, 20000, 1234, false);
    const attn::DotProductSample scaled = attn::sample_dot_products(d_k, 20000, 1234, true);
    INFO("d_k = " << d_k << ", variance " << raw.variance << ", scaled " << scaled.variance);
    REQUIRE(std::fabs(raw.variance / d_k - 1.0) < 0.05);
    REQUIRE(std::fabs(scaled.variance - 1.0) < 0.05);
  }
  const attn::DotProductSample kept = attn::sample_dot_products(4, 1000, 3, true, true);
  const attn::Histogram h = attn::histogram(kept.values, 20, -4.0f, 4.0f);
  int total = 0;
  for (int c : h.counts) total += c;
  REQUIRE(total == 1000);
  REQUIRE(h.counts[10] > h.counts[0]);  // peaked at 0
}

TEST_CASE("saturation: unscaled softmax saturates and its Jacobian vanishes as d_k grows", "[statistics]") {
  const std::vector<int> dks = {4, 64, 512};
  const auto raw = attn::saturation_curve(dks, false, 64, 16, 77);
  const auto scaled = attn::saturation_curve(dks, true, 64, 16, 77);
  // Measured with this seed: unscaled J = 0.333, 0.191, 0.120; scaled J = 0.288, 0.305, 0.309.
  REQUIRE(raw[2].mean_max_weight > 0.9);
  REQUIRE(raw[0].mean_jacobian_norm > raw[1].mean_jacobian_norm);
  REQUIRE(raw[1].mean_jacobian_norm > raw[2].mean_jacobian_norm);
  REQUIRE(raw[2].mean_jacobian_norm < 0.5 * scaled[2].mean_jacobian_norm);
  // With scaling the figures stay level.
  REQUIRE(std::fabs(scaled[2].mean_jacobian_norm - scaled[0].mean_jacobian_norm) < 0.1);
  REQUIRE(scaled[2].mean_entropy > 1.0);
}

TEST_CASE("猫追老鼠 vs 老鼠追猫: same tokens, and only positional encoding tells them apart", "[pipeline][tokenizer]") {
  const auto a = attn::tokenize("猫追老鼠"), b = attn::tokenize("老鼠追猫");
  REQUIRE(a.size() == 4);
  REQUIRE(b.size() == 4);
  const int d = 16;
  const Mat xa = attn::token_embeddings(a, d, 7), xb = attn::token_embeddings(b, d, 7);
  // Position of each token of b in a: 老 鼠 追 猫 -> 2 3 1 0.
  const std::vector<int> where = {2, 3, 1, 0};
  for (int i = 0; i < 4; ++i) REQUIRE(xb.row(i) == xa.row(where[i]));
  const auto w = attn::random_projection_weights(d, 2, 3);
  attn::PipelineConfig c = config_for(d, 2);
  const attn::PipelineTrace ta = attn::run_pipeline(xa, xa, xa, w, c), tb = attn::run_pipeline(xb, xb, xb, w, c);
  // Without positions, 猫 gets the same output in both sentences: who chases whom is lost.
  REQUIRE_MATRIX_NEAR(Mat(tb.output.row(3)), Mat(ta.output.row(0)), 1e-5f);
  c.positional = true;
  const attn::PipelineTrace pa = attn::run_pipeline(xa, xa, xa, w, c), pb = attn::run_pipeline(xb, xb, xb, w, c);
  REQUIRE((pb.output.row(3) - pa.output.row(0)).cwiseAbs().maxCoeff() > 1e-2f);
}
