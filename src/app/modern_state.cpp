// The modern-attention panels' figures (app/modern_state.h).
//
// Sections: 1 the focused head's inputs  2 positions  3 grouped-query attention  4 flash
//           5 sinks  6 the query-key space  7 the app's door  8 JSON
#include "app/modern_state.h"

#include "app/app_messages.h"
#include "core/attention/attention.h"
#include "core/attention/grouped.h"
#include "core/attention/masks.h"
#include "core/attention/positional.h"
#include "core/attention/softmax.h"
#include "core/attention/tokenizer.h"

#include <Eigen/Eigenvalues>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>

namespace attn {

using json = nlohmann::json;

namespace {

// ---- 1 the focused head's inputs --------------------------------------------------------

struct HeadInputs {
  bool ok = false;
  std::string why;
  int head = 0;
  float scale = 1.0f;  // the scene's multiplier of q . k (its scale over its temperature)
  Mat q, k, v;         // as attention saw them (after RoPE when the scene uses it)
};

const HeadTrace* focused_head(const SceneView& scene) {
  if (!scene.has_results || !scene.trace.status.ok || scene.trace.heads.empty()) return nullptr;
  return &scene.trace.heads[std::clamp(scene.head, 0, static_cast<int>(scene.trace.heads.size()) - 1)];
}

HeadInputs head_inputs(const SceneView& scene) {
  HeadInputs in;
  const HeadTrace* h = focused_head(scene);
  if (!h) {
    in.why = scene.trace.status.ok ? "no scene yet" : scene.trace.status.message;
    return in;
  }
  if (h->q.size() == 0 || h->k.size() == 0 || h->v.size() == 0) {
    in.why = "this file has attention weights but no Q, K and V";
    return in;
  }
  in.ok = true;
  in.head = static_cast<int>(h - scene.trace.heads.data());
  in.scale = h->scale;
  in.q = h->q;
  in.k = h->k;
  in.v = h->v;
  return in;
}

// The generated scene's token embeddings (no positions): what RoPE and the sinusoidal
// encoding are compared on. Empty for other scenes.
Mat scene_embeddings(const SceneView& scene) {
  if (!scene.generated_sentence) return Mat();
  return token_embeddings(tokenize(*scene.generated_sentence), scene.d_model, scene.seed);
}

// Rows of x for head `h`'s projection `w` (cols [h d_k, (h + 1) d_k)), plus its bias.
Mat project(const Mat& x, const Mat& w, const RowVec& b, int h, int d_k) {
  Mat y = x * w.middleCols(h * d_k, d_k);
  if (b.size()) y.rowwise() += b.segment(h * d_k, d_k);
  return y;
}

// Rows i % n of m for i = 0 .. count - 1.
Mat cyclic_rows(const Mat& m, int count) {
  Mat out(count, m.cols());
  for (int i = 0; i < count; ++i) out.row(i) = m.row(i % m.rows());
  return out;
}

float max_abs_difference(const Mat& a, const Mat& b) {
  return a.size() && a.rows() == b.rows() && a.cols() == b.cols() ? (a - b).cwiseAbs().maxCoeff() : 0.0f;
}

// ---- 2 positions ------------------------------------------------------------------------

Mat rope_scores(const Mat& q, const Mat& k, const SceneView& scene, float scale) {
  return scale * apply_rope(q, 0, scene.rope_base, scene.rope_pairing) * apply_rope(k, 0, scene.rope_base, scene.rope_pairing).transpose();
}

PositionsFigures compute_positions(const SceneView& scene, const ModernSettings& m) {
  PositionsFigures f;
  const int n = static_cast<int>(scene.tokens.size());
  const int heads = static_cast<int>(scene.trace.heads.size());
  HeadInputs in = head_inputs(scene);
  if (!in.ok) {
    f.why = in.why;
    return f;
  }
  // The contents before any position: for the generated scene its embeddings projected
  // (the trace's q and k may carry sinusoidal or RoPE positions already).
  const Mat x = scene_embeddings(scene);
  const int d_k = static_cast<int>(in.q.cols());
  if (x.size()) {
    in.q = project(x, scene.weights.wq, scene.weights.bq, in.head, d_k);
    in.k = project(x, scene.weights.wk, scene.weights.bk, in.head, d_k);
  }
  f.alibi_slopes = alibi_slopes(std::max(heads, 1));
  const bool causal = scene.causal;
  f.alibi_bias = alibi_bias(n, n, f.alibi_slopes[in.head], causal);
  {
    AttentionOptions o;
    o.scale = in.scale;
    o.causal = causal;
    o.positional.kind = PositionalKind::Alibi;
    o.positional.alibi_slope = f.alibi_slopes[in.head];
    f.alibi_weights = attention(in.q, in.k, in.v, o).weights;
  }
  if (d_k % 2 != 0) {
    f.why = "RoPE turns pairs of coordinates: d_k = " + std::to_string(d_k) + " must be even";
    f.ok = true;  // ALiBi's figures stand
    return f;
  }
  f.shift = m.shift;
  const int cursor = std::clamp(scene.cursor, 0, n - 1);
  // Fixed contents: the cursor's q and k at every position.
  f.rope_fixed = rope_scores(cyclic_rows(in.q.row(cursor), n), cyclic_rows(in.k.row(cursor), n), scene, in.scale);
  for (int offset = -(n - 1); offset <= n - 1; ++offset) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (int i = std::max(0, offset); i < n && i - offset < n; ++i) {
      lo = std::min(lo, f.rope_fixed(i, i - offset));
      hi = std::max(hi, f.rope_fixed(i, i - offset));
    }
    f.toeplitz_deviation = std::max(f.toeplitz_deviation, hi - lo);
  }
  // The sentence after `shift` tokens of its own (cyclically): the block moves along the diagonals.
  const int total = f.shift + n;
  for (int i = 0; i < total; ++i) f.long_tokens.push_back(scene.tokens[i < f.shift ? i % n : i - f.shift]);
  Mat q_long(total, d_k), k_long(total, d_k);
  q_long << cyclic_rows(in.q, f.shift), in.q;
  k_long << cyclic_rows(in.k, f.shift), in.k;
  f.rope_long = rope_scores(q_long, k_long, scene, in.scale);
  f.rope_scores = rope_scores(in.q, in.k, scene, in.scale);
  f.rope_shift_difference = max_abs_difference(f.rope_long.bottomRightCorner(n, n), f.rope_scores);
  if (x.size()) {
    // The same experiment with the sinusoidal encoding added to x: absolute positions.
    const Mat pe = sinusoidal_positional_encoding(total, scene.d_model);
    Mat x_long(total, scene.d_model);
    x_long << cyclic_rows(x, f.shift), x;
    x_long += pe;
    const Mat x_alone = x + pe.topRows(n);
    auto scores = [&](const Mat& xs) {
      return Mat(in.scale * project(xs, scene.weights.wq, scene.weights.bq, in.head, d_k) *
                 project(xs, scene.weights.wk, scene.weights.bk, in.head, d_k).transpose());
    };
    f.sinusoidal_shift_difference = max_abs_difference(scores(x_long).bottomRightCorner(n, n), scores(x_alone));
  }
  // Score against distance: q_c at position d against k_c at 0, d = 0 .. max(4n, 64).
  const int span = std::max(4 * n, 64);
  const Mat q_turned = apply_rope(cyclic_rows(in.q.row(cursor), span + 1), 0, scene.rope_base, scene.rope_pairing);
  const RowVec k0 = in.k.row(cursor);
  for (int d = 0; d <= span; ++d) f.offset_scores.push_back(in.scale * q_turned.row(d).dot(k0));
  f.ok = true;
  return f;
}

// ---- 3 grouped-query attention ----------------------------------------------------------

GqaFigures compute_gqa(const SceneView& scene, const ModernSettings& m) {
  GqaFigures f;
  const int heads = static_cast<int>(scene.trace.heads.size());
  if (!focused_head(scene) || scene.trace.heads[0].k.size() == 0) {
    f.why = head_inputs(scene).why;
    return f;
  }
  const int n = static_cast<int>(scene.tokens.size());
  f.heads = heads;
  f.kv_heads = effective_kv_heads(heads, m.kv_heads);
  f.d_k = static_cast<int>(scene.trace.heads[0].k.cols());
  // Ainslie et al. make a GQA model from a multi-head one by mean-pooling each group's key
  // and value heads; the scene's heads are pooled the same way.
  std::vector<Mat> q, k, v, k_all, v_all;
  const int group = heads / f.kv_heads;
  for (int h = 0; h < heads; ++h) {
    q.push_back(scene.trace.heads[h].q);
    k_all.push_back(scene.trace.heads[h].k);
    v_all.push_back(scene.trace.heads[h].v);
  }
  for (int g = 0; g < f.kv_heads; ++g) {
    Mat kg = Mat::Zero(k_all[0].rows(), k_all[0].cols()), vg = Mat::Zero(v_all[0].rows(), v_all[0].cols());
    for (int h = g * group; h < (g + 1) * group; ++h) {
      kg += k_all[h];
      vg += v_all[h];
    }
    k.push_back(kg / static_cast<float>(group));
    v.push_back(vg / static_cast<float>(group));
  }
  AttentionOptions o;
  o.scale = scene.trace.heads[0].scale;
  o.causal = scene.causal;
  const GroupedQueryResult grouped = grouped_query_attention(q, k, v, o);
  const GroupedQueryResult multi = grouped_query_attention(q, k_all, v_all, o);
  if (!grouped.status.ok || !multi.status.ok) {
    f.why = grouped.status.ok ? multi.status.message : grouped.status.message;
    return f;
  }
  f.kv_head_of = grouped.kv_head_of;
  for (int h = 0; h < heads; ++h) {
    f.weights.push_back(grouped.heads[h].weights);
    f.difference.push_back(max_abs_difference(grouped.heads[h].weights, multi.heads[h].weights));
  }
  const int layers = m.layers, bytes = m.bytes_per_value;
  f.bytes_per_token = kv_cache_bytes_per_token(f.kv_heads, f.d_k, layers, bytes);
  f.bytes_per_token_mha = kv_cache_bytes_per_token(heads, f.d_k, layers, bytes);
  f.bytes_per_token_mqa = kv_cache_bytes_per_token(1, f.d_k, layers, bytes);
  f.decode_step = m.decode_step <= 0 ? n : std::min(m.decode_step, n);
  f.ok = true;
  return f;
}

// ---- 4 flash ----------------------------------------------------------------------------

FlashFigures compute_flash(const SceneView& scene, const ModernSettings& m) {
  FlashFigures f;
  const HeadInputs in = head_inputs(scene);
  if (!in.ok) {
    f.why = in.why;
    return f;
  }
  FlashOptions o;
  o.block_q = m.block_q;
  o.block_k = m.block_k;
  o.causal = m.flash_causal;
  o.scale = in.scale;
  f.result = flash_attention(in.q, in.k, in.v, o);
  if (!f.result.status.ok) {
    f.why = f.result.status.message;
    return f;
  }
  AttentionOptions exact;
  exact.scale = in.scale;
  exact.causal = m.flash_causal;
  const AttentionResult r = attention(in.q, in.k, in.v, exact);
  f.exact_weights = r.weights;
  f.exact_output = r.output;
  f.max_difference = max_abs_difference(f.result.output, r.output);
  for (int i = 0; i < r.scores.rows(); ++i) {
    const float mx = r.scores.row(i).maxCoeff();
    f.row_max.push_back(mx);
    f.row_sum.push_back((r.scores.row(i).array() - mx).exp().sum());
  }
  f.step = std::clamp(m.flash_step, 0, static_cast<int>(f.result.steps.size()) - 1);
  f.matrix_floats = static_cast<double>(in.q.rows()) * static_cast<double>(in.k.rows());
  f.ok = true;
  return f;
}

// ---- 5 sinks ----------------------------------------------------------------------------

SinkFigures compute_sinks(const SceneView& scene, const ModernSettings& m) {
  SinkFigures f;
  const HeadInputs in = head_inputs(scene);
  if (!in.ok) {
    f.why = in.why;
    return f;
  }
  const int n = static_cast<int>(in.q.rows());
  for (const HeadTrace& h : scene.trace.heads) f.head_sink_share.push_back(h.weights.col(0).mean());
  AttentionOptions o;
  o.scale = in.scale;
  o.allowed = build_mask(streaming_llm_mask(m.sink_window, m.sinks), n, n);
  const AttentionResult streaming = attention(in.q, in.k, in.v, o);
  f.streaming_allowed = o.allowed.cast<float>();
  f.streaming_weights = streaming.weights;
  f.streaming_sink_share = streaming.weights.leftCols(std::min(m.sinks, n)).rowwise().sum().mean();
  AttentionOptions causal;
  causal.scale = in.scale;
  causal.causal = true;
  f.causal_weights = attention(in.q, in.k, in.v, causal).weights;
  // A row that matches nothing: the cursor's scores moved down by row_offset.
  f.row = std::clamp(scene.cursor, 0, n - 1);
  const RowVec scores = (in.scale * in.q.row(f.row) * in.k.transpose()).array() + m.row_offset;
  f.row_scores.assign(scores.data(), scores.data() + n);
  f.row_softmax.resize(n);
  f.row_off_by_one.resize(n);
  softmax_row(f.row_scores.data(), f.row_softmax.data(), n);
  f.off_by_one_sum = 1.0f - softmax_off_by_one_row(f.row_scores.data(), f.row_off_by_one.data(), n);
  f.ok = true;
  return f;
}

// ---- 6 the query-key space --------------------------------------------------------------

QkSpaceFigures compute_qk_space(const SceneView& scene, const ModernSettings& m) {
  QkSpaceFigures f;
  const HeadInputs in = head_inputs(scene);
  if (!in.ok) {
    f.why = in.why;
    return f;
  }
  const int n_q = static_cast<int>(in.q.rows()), n_k = static_cast<int>(in.k.rows()), d = static_cast<int>(in.q.cols());
  // PCA of the joint set: one plane for queries and keys alike, so a query near a key in the
  // plane points where that key points in the head's space.
  Eigen::MatrixXd joint(n_q + n_k, d);
  joint << in.q.cast<double>(), in.k.cast<double>();
  const Eigen::RowVectorXd mean = joint.colwise().mean();
  joint.rowwise() -= mean;
  const Eigen::MatrixXd cov = joint.transpose() * joint / std::max(1, n_q + n_k - 1);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(cov);
  const Eigen::VectorXd values = eig.eigenvalues();  // ascending
  const double total = values.sum();
  Eigen::MatrixXd axes = Eigen::MatrixXd::Zero(d, 2);
  for (int c = 0; c < std::min(2, d); ++c) {
    Eigen::VectorXd axis = eig.eigenvectors().col(d - 1 - c);
    // A fixed sign (the largest coordinate positive), so the picture does not flip.
    Eigen::Index big = 0;
    axis.cwiseAbs().maxCoeff(&big);
    if (axis(big) < 0) axis = -axis;
    axes.col(c) = axis;
  }
  f.explained = total > 0 ? static_cast<float>((values(d - 1) + (d > 1 ? values(d - 2) : 0.0)) / total) : 1.0f;
  const Eigen::MatrixXd plane = joint * axes;
  for (int i = 0; i < n_q; ++i) f.queries.push_back({static_cast<float>(plane(i, 0)), static_cast<float>(plane(i, 1))});
  for (int j = 0; j < n_k; ++j)
    f.keys.push_back({static_cast<float>(plane(n_q + j, 0)), static_cast<float>(plane(n_q + j, 1))});
  f.weights = focused_head(scene)->weights;
  for (int i = 0; i < f.weights.rows(); ++i) {
    Eigen::Index best = 0;
    f.weights.row(i).maxCoeff(&best);
    f.strongest_key.push_back(static_cast<int>(best));
  }
  f.ok = true;
  return f;
}

// A hash of what a figure depends on: the scene's revision, the head, and the values given.
std::uint64_t inputs_key(const SceneView& scene, std::initializer_list<double> values) {
  std::uint64_t h = scene.revision * 1000003ull + static_cast<std::uint64_t>(scene.head + 1);
  for (double v : values) h = h * 1099511628211ull ^ std::hash<double>{}(v);
  return h;
}

}  // namespace

// ---- 7 the app's door -------------------------------------------------------------------

DecodingCostConfig app_decoding_config(int heads, int kv_heads, int d_k) {
  DecodingCostConfig c;
  c.heads = heads;
  c.kv_heads = kv_heads;
  c.d_k = d_k;
  c.ns.clear();
  for (int n = 64; n <= 16384; n *= 2) c.ns.push_back(n);
  c.max_n_without_cache = 1024;
  c.fit_min_n = 256;
  c.timing.min_seconds = 0.002;
  c.timing.measurements = 3;
  return c;
}

namespace {

// The decoding measurement's next sample: sample k is (n index k / 2, with the cache when k is
// even); samples without the cache past max_n_without_cache are skipped.
void step_decoding(ModernResults& r) {
  const DecodingCostConfig& c = r.decoding_config;
  while (r.decoding_done < r.decoding_total) {
    const int k = r.decoding_done++;
    const int n = c.ns[k / 2];
    const bool with_cache = k % 2 == 0;
    if (with_cache) r.decoding.steps.push_back({n, 0.0, std::numeric_limits<double>::quiet_NaN()});
    if (!with_cache && n > c.max_n_without_cache) continue;
    const Timing t = time_decoding_step(c, n, with_cache);
    if (!t.status.ok) {
      r.decoding.status = t.status;
      r.decoding_running = false;
      return;
    }
    (with_cache ? r.decoding.steps.back().seconds_with_cache : r.decoding.steps.back().seconds_without_cache) = t.median_seconds;
    break;
  }
  // Samples not timed at the end need no frame of their own.
  while (r.decoding_done < r.decoding_total && r.decoding_done % 2 == 1 && c.ns[r.decoding_done / 2] > c.max_n_without_cache)
    ++r.decoding_done;
  if (r.decoding_done == r.decoding_total) {
    fit_decoding_slopes(c, r.decoding);
    r.decoding_running = false;
  }
}

}  // namespace

int effective_kv_heads(int heads, int kv_heads) {
  int g = std::clamp(kv_heads, 1, std::max(1, heads));
  while (heads % g != 0) --g;
  return g;
}

void update_modern_panels(const SceneView& scene, const ModernSettings& m, ModernResults& r) {
  if (!scene.has_results) return;
  auto refresh = [&](std::uint64_t key, std::uint64_t& stored, auto compute) {
    if (key == stored) return;
    compute();
    stored = key;
    ++r.version;
  };
  switch (scene.panel) {
    case Panel::Positions:
      refresh(inputs_key(scene, {double(m.shift), double(scene.cursor)}), r.positions_for, [&] { r.positions = compute_positions(scene, m); });
      break;
    case Panel::Gqa:
      refresh(inputs_key(scene, {double(m.kv_heads), double(m.layers), double(m.bytes_per_value), double(m.decode_step)}),
              r.gqa_for, [&] { r.gqa = compute_gqa(scene, m); });
      break;
    case Panel::Flash:
      refresh(inputs_key(scene, {double(m.block_q), double(m.block_k), double(m.flash_causal), double(m.flash_step)}),
              r.flash_for, [&] { r.flash = compute_flash(scene, m); });
      break;
    case Panel::Sinks:
      refresh(inputs_key(scene, {double(m.sink_window), double(m.sinks), double(m.row_offset), double(scene.cursor)}),
              r.sinks_for, [&] { r.sinks = compute_sinks(scene, m); });
      break;
    case Panel::QkSpace: refresh(inputs_key(scene, {}), r.qk_for, [&] { r.qk = compute_qk_space(scene, m); }); break;
    default: break;
  }
  // Only the shown panel's figures are kept, as only the shown heatmaps keep their textures:
  // the others' are freed (a 900-token scene's positions figures are about 20 MB) and
  // computed again when their panel shows.
  auto drop = [&](Panel p, std::uint64_t& stored, auto& figures) {
    if (scene.panel == p || stored == ~0ull) return;
    figures = std::decay_t<decltype(figures)>{};
    stored = ~0ull;
  };
  drop(Panel::Positions, r.positions_for, r.positions);
  drop(Panel::Gqa, r.gqa_for, r.gqa);
  drop(Panel::Flash, r.flash_for, r.flash);
  drop(Panel::Sinks, r.sinks_for, r.sinks);
  drop(Panel::QkSpace, r.qk_for, r.qk);
  if (m.decode_request != r.decode_request && scene.panel == Panel::Gqa && r.gqa.ok) {
    r.decoding_config = app_decoding_config(r.gqa.heads, r.gqa.kv_heads, r.gqa.d_k);
    r.decoding = DecodingCost{};
    r.decoding.status = validate_decoding_cost_config(r.decoding_config);
    r.decoding_done = 0;
    r.decoding_total = 2 * static_cast<int>(r.decoding_config.ns.size());
    r.decoding_running = r.decoding.status.ok;
    r.has_decoding = true;
    r.decode_request = m.decode_request;
  }
  if (r.decoding_running) {
    step_decoding(r);
    ++r.version;
  }
}

// ---- 8 JSON -----------------------------------------------------------------------------

namespace {

json number_or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

json positions_json(const PositionsFigures& f) {
  if (!f.ok) return {{"error", f.why}};
  json j = {{"alibiSlopes", f.alibi_slopes}};
  if (!f.why.empty()) j["ropeError"] = f.why;
  if (f.rope_fixed.size()) {
    j["shift"] = f.shift;
    j["toeplitzDeviation"] = f.toeplitz_deviation;
    j["ropeShiftDifference"] = f.rope_shift_difference;
    j["sinusoidalShiftDifference"] = f.sinusoidal_shift_difference >= 0 ? json(f.sinusoidal_shift_difference) : json(nullptr);
    j["offsetScores"] = f.offset_scores;
    j["longTokens"] = f.long_tokens.size();
  }
  return j;
}

json gqa_json(const GqaFigures& f, const ModernResults& r) {
  if (!f.ok) return {{"error", f.why}};
  json j = {{"heads", f.heads}, {"kvHeads", f.kv_heads}, {"dk", f.d_k}, {"kvHeadOf", f.kv_head_of},
            {"difference", f.difference}, {"bytesPerToken", f.bytes_per_token},
            {"bytesPerTokenMultiHead", f.bytes_per_token_mha}, {"bytesPerTokenMultiQuery", f.bytes_per_token_mqa},
            {"decodeStep", f.decode_step}, {"cacheBytes", f.bytes_per_token * f.decode_step}};
  if (r.has_decoding) {
    json steps = json::array();
    for (const DecodingStep& s : r.decoding.steps)
      steps.push_back({{"n", s.n}, {"secondsWithCache", number_or_null(s.seconds_with_cache)},
                       {"secondsWithoutCache", number_or_null(s.seconds_without_cache)}});
    j["decoding"] = {{"steps", steps}, {"running", r.decoding_running}, {"done", r.decoding_done}, {"total", r.decoding_total},
                     {"fitMinN", r.decoding_config.fit_min_n}, {"maxNWithoutCache", r.decoding_config.max_n_without_cache}};
    if (!r.decoding_running) {
      j["decoding"]["slopeWithCache"] = number_or_null(r.decoding.slope_with_cache);
      j["decoding"]["slopeWithoutCache"] = number_or_null(r.decoding.slope_without_cache);
    }
    if (!r.decoding.status.ok) j["decoding"]["error"] = r.decoding.status.message;
  }
  return j;
}

json flash_json(const FlashFigures& f) {
  if (!f.ok) return {{"error", f.why}};
  const FlashStep& s = f.result.steps[f.step];
  return {{"steps", f.result.steps.size()}, {"step", f.step}, {"maxDifference", f.max_difference},
          {"workingFloats", f.result.working_floats}, {"matrixFloats", f.matrix_floats},
          {"current", {{"qTile", s.q_tile}, {"kTile", s.k_tile}, {"qBegin", s.q_begin}, {"qEnd", s.q_end},
                       {"kBegin", s.k_begin}, {"kEnd", s.k_end}, {"m", s.m}, {"l", s.l}, {"rescale", s.rescale}}},
          {"rowMax", f.row_max}, {"rowSum", f.row_sum}};
}

json sinks_json(const SinkFigures& f) {
  if (!f.ok) return {{"error", f.why}};
  return {{"headSinkShare", f.head_sink_share}, {"streamingSinkShare", f.streaming_sink_share}, {"row", f.row},
          {"rowScores", f.row_scores}, {"rowSoftmax", f.row_softmax}, {"rowOffByOne", f.row_off_by_one},
          {"offByOneSum", f.off_by_one_sum}};
}

json qk_json(const QkSpaceFigures& f) {
  if (!f.ok) return {{"error", f.why}};
  return {{"explained", f.explained}, {"queries", f.queries}, {"keys", f.keys}, {"strongestKey", f.strongest_key}};
}

}  // namespace

json modern_figures_json(const ModernResults& r, Panel panel) {
  json j = json::object();
  switch (panel) {
    case Panel::Positions: j["positions"] = positions_json(r.positions); break;
    case Panel::Gqa: j["gqa"] = gqa_json(r.gqa, r); break;
    case Panel::Flash: j["flash"] = flash_json(r.flash); break;
    case Panel::Sinks: j["sinks"] = sinks_json(r.sinks); break;
    case Panel::QkSpace: j["qkSpace"] = qk_json(r.qk); break;
    default: break;
  }
  return j;
}

const Mat* modern_matrix(const ModernResults& r, const std::string& name) {
  if (name == "positions/ropeFixed") return &r.positions.rope_fixed;
  if (name == "positions/ropeLong") return &r.positions.rope_long;
  if (name == "positions/ropeScores") return &r.positions.rope_scores;
  if (name == "positions/alibiBias") return &r.positions.alibi_bias;
  if (name == "positions/alibiWeights") return &r.positions.alibi_weights;
  if (name.rfind("gqa/weights/", 0) == 0) {
    const std::string index = name.substr(12);
    if (index.empty() || index.size() > 3 || index.find_first_not_of("0123456789") != std::string::npos) return nullptr;
    const size_t h = std::stoul(index);
    return h < r.gqa.weights.size() ? &r.gqa.weights[h] : nullptr;
  }
  if (name == "flash/exactWeights") return &r.flash.exact_weights;
  if (name == "flash/output") return &r.flash.result.output;
  if (name == "flash/exactOutput") return &r.flash.exact_output;
  if (name == "sinks/streamingAllowed") return &r.sinks.streaming_allowed;
  if (name == "sinks/streamingWeights") return &r.sinks.streaming_weights;
  if (name == "sinks/causalWeights") return &r.sinks.causal_weights;
  if (name == "qk/weights") return &r.qk.weights;
  return nullptr;
}

}  // namespace attn
