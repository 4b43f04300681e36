// The imported scene in the app state (layers, heads, special tokens, renormalising, the
// sink, Q/K/V recomputation, the JSON schema) and the exports (PNG scale, SVG cells, CSV,
// JSON, .npy).
#include "app/app_state.h"
#include "app/scene_export.h"
#include "core/attention/rollout.h"
#include "core/io/npy.h"
#include "files/export_figure.h"
#include "files/import_view.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

using namespace attn;

namespace {

// Two layers, two heads, tokens [CLS] a b [SEP]; rows are softmax-like, key 0 gets 0.4.
ImportedAttention sample(bool with_qkv = false) {
  ImportedAttention d;
  d.layers = 2;
  d.heads = 2;
  d.n_q = d.n_k = 4;
  std::vector<float> w(2 * 2 * 4 * 4);
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 2; ++h)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) w[((l * 2 + h) * 4 + i) * 4 + j] = j == 0 ? 0.4f : 0.2f;
  d.weights = NpyArray::from_float({2, 2, 4, 4}, w.data());
  d.query_tokens = d.key_tokens = {"[CLS]", "a", "b", "[SEP]"};
  d.tokens_given = true;
  if (with_qkv) {
    std::vector<float> q(2 * 2 * 4 * 2);
    for (size_t i = 0; i < q.size(); ++i) q[i] = std::sin(static_cast<float>(i));
    d.q = d.k = d.v = NpyArray::from_float({2, 2, 4, 2}, q.data());
    d.has_qkv = true;
    d.d_k = d.d_v = 2;
    // The file's weights are what softmax(q k^T / sqrt(2)) gives.
    std::vector<float> exact;
    for (int l = 0; l < 2; ++l)
      for (int h = 0; h < 2; ++h) {
        const Mat qm = d.head_q(l, h), km = d.head_k(l, h);
        Mat s = (qm * km.transpose()) / std::sqrt(2.0f);
        for (int i = 0; i < 4; ++i) {
          const float mx = s.row(i).maxCoeff();
          float sum = 0;
          for (int j = 0; j < 4; ++j) sum += std::exp(s(i, j) - mx);
          for (int j = 0; j < 4; ++j) exact.push_back(std::exp(s(i, j) - mx) / sum);
        }
      }
    d.weights = NpyArray::from_float({2, 2, 4, 4}, exact.data());
  }
  return d;
}

}  // namespace

TEST_CASE("imported scene: the selected layer is the trace, one head per file head", "[import][state]") {
  AppState state;
  set_imported(state, sample(), "sample.npz");
  update_results(state);
  CHECK(state.settings.source == SceneSource::Imported);
  CHECK(state.settings.panel == Panel::ModelView);
  REQUIRE(state.trace.heads.size() == 2);
  CHECK(state.tokens == std::vector<std::string>{"[CLS]", "a", "b", "[SEP]"});
  CHECK(state.trace.heads[1].weights(2, 0) == 0.4f);
  CHECK(state.trace.heads[1].raw_scores.size() == 0);  // weights only: no scores
  CHECK(imported_panel_needs_qkv(state, Panel::Pipeline));
  CHECK_FALSE(imported_panel_needs_qkv(state, Panel::Heads));
  REQUIRE(state.sink_share.size() == 2);
  CHECK(state.sink_share[0] == Approx(0.4f));

  // Layer, head and the special-token view go through the one door.
  REQUIRE(apply_state_json(state, R"({"layer": 1, "head": 1, "hideSpecial": true})").ok);
  update_results(state);
  CHECK(state.settings.layer == 1);
  CHECK(state.tokens == std::vector<std::string>{"a", "b"});
  CHECK(state.visible_cols == std::vector<int>{1, 2});
  CHECK(state.trace.heads[1].weights.rows() == 2);
  CHECK(state.trace.heads[1].weights.row(0).sum() == Approx(0.4f));  // raw: 0.2 + 0.2
  REQUIRE(apply_state_json(state, R"({"renormalise": true})").ok);
  update_results(state);
  CHECK(state.trace.heads[1].weights.row(0).sum() == Approx(1.0f));
  CHECK(state.sink_share[1] == Approx(0.4f));  // the sink is from the raw weights

  // A layer past the file is clamped to its last; JSON reports the file.
  REQUIRE(apply_state_json(state, R"({"layer": 9})").ok);
  update_results(state);
  CHECK(state.settings.layer == 1);
  const nlohmann::json j = nlohmann::json::parse(state_to_json(state));
  CHECK(j["source"] == "imported");
  CHECK(j["import"]["layers"] == 2);
  CHECK(j["import"]["unavailablePanels"] ==
        nlohmann::json::array({"qk-space", "sinks", "pipeline", "positions", "compare", "gqa", "flash"}));

  // Thumbnails fill a few per frame until every layer and head has one.
  while (advance_thumbnails(state, 1.0)) {
  }
  CHECK(state.thumbnails_done == 4);
  CHECK(state.thumbnails[3].rows() == 2);

  // Leaving the file for a generated scene works, and the file can be chosen again.
  REQUIRE(apply_state_json(state, R"({"source": "generated"})").ok);
  update_results(state);
  CHECK(state.trace.status.ok);
  CHECK(state.key_tokens == state.tokens);
  REQUIRE(apply_state_json(state, R"({"source": "imported"})").ok);
  update_results(state);
  CHECK(state.tokens.size() == 2);  // hidden special tokens still hidden
  AppState fresh;
  CHECK_FALSE(apply_state_json(fresh, R"({"source": "imported"})").ok);
}

TEST_CASE("imported scene with Q, K, V: panels recompute the file's weights", "[import][state]") {
  AppState state;
  set_imported(state, sample(true), "qkv.npz");
  REQUIRE(apply_state_json(state, R"({"layer": 1, "panel": "pipeline"})").ok);
  update_results(state);
  CHECK_FALSE(imported_panel_needs_qkv(state, Panel::Pipeline));
  REQUIRE(state.trace.heads.size() == 2);
  CHECK(state.trace.heads[0].raw_scores.rows() == 4);
  CHECK(state.qkv_max_difference < 1e-6f);
}

// attnlab-cli export takes this path: the file's layer made a trace with the default math and
// a stage picked by name, without the state (files/import_view.h, files/export_figure.h).
TEST_CASE("imported layer without the state: the scene's matrices and export request", "[import][export]") {
  AppState state;
  set_imported(state, sample(true), "qkv.npz");
  REQUIRE(apply_state_json(state, R"({"layer": 1, "head": 1, "hideSpecial": true, "renormalise": true})").ok);
  update_results(state);
  const ImportedAttention& d = *state.imported;
  const VisibleTokens visible = visible_tokens(d, true);
  REQUIRE(visible.rows == std::vector<int>{1, 2});
  float difference = -1.0f;
  const PipelineTrace trace = imported_layer_trace(d, 1, visible, true, PipelineConfig{}, &difference);
  CHECK(difference == state.qkv_max_difference);
  for (const char* name : {"weights", "q", "k", "v", "rawScores", "scaledScores", "maskedScores", "output"}) {
    INFO(name);
    const Mat* alone = stage_matrix(trace, name, 1);
    const Mat* scene = scene_matrix(state, name, 1);
    REQUIRE(alone);
    REQUIRE(scene);
    CHECK(alone->rows() == 2);
    CHECK(*alone == *scene);  // the same floats: the same code on the same inputs
  }
  CHECK(stage_matrix(trace, "weights", 2) == nullptr);
  CHECK(stage_matrix(trace, "nothing", 0) == nullptr);
  const ExportRequest alone = stage_export_request("rawScores", ExportFormat::Svg, 2, {"a", "b"}, {"a", "b"}, 1, 1, "qkv.npz");
  const ExportRequest scene = scene_export_request(state, "rawScores", ExportFormat::Svg, 2);
  CHECK(alone.title == "rawScores, layer 1, head 1 (qkv.npz)");
  CHECK(scene.title == alone.title);
  CHECK(scene.row_labels == alone.row_labels);
  CHECK(scene.col_labels == alone.col_labels);
  CHECK(scene.colormap == Colormap::Diverging);
  CHECK(stage_export_request("q", ExportFormat::Csv, 1, {"a"}, {"b"}, 0, 0, "").col_labels.empty());
}

TEST_CASE("special tokens", "[import][state]") {
  for (const char* t : {"[CLS]", "[SEP]", "[PAD]", "<s>", "</s>", "<pad>", "<|endoftext|>", " [CLS] "}) CHECK(is_special_token(t));
  for (const char* t : {"cat", "<", "[CLS", "s", "<|", "|>"}) CHECK_FALSE(is_special_token(t));
  ImportedAttention all = sample();
  all.query_tokens = all.key_tokens = {"[CLS]", "[SEP]", "<s>", "</s>"};
  // Only special tokens: hiding would leave nothing, so all stay.
  CHECK(visible_tokens(all, true).rows.size() == 4);
}

TEST_CASE("export: PNG scale, SVG cells, CSV, JSON, .npy", "[import][export]") {
  Mat m(2, 3);
  m << 0.1f, 0.2f, 0.7f, 1.0f, 0.0f, -std::numeric_limits<float>::infinity();
  ExportRequest r;
  r.row_labels = {"x", "y,z"};
  r.col_labels = {"a", "<b>", "c"};
  Status s;
  r.format = ExportFormat::Png;
  const std::vector<std::uint8_t> one = export_matrix(m, r, s);
  REQUIRE(s.ok);
  r.scale = 2;
  const std::vector<std::uint8_t> two = export_matrix(m, r, s);
  auto be32 = [](const std::vector<std::uint8_t>& b, int at) {
    return (b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3];
  };
  CHECK(be32(one, 16) == 24);  // IHDR width: 3 cells x 8 px
  CHECK(be32(one, 20) == 16);
  CHECK(be32(two, 16) == 48);
  CHECK(be32(two, 20) == 32);
  r.scale = 9;
  CHECK(export_matrix(m, r, s).empty());
  CHECK_FALSE(s.ok);

  r.scale = 1;
  r.format = ExportFormat::Svg;
  const std::vector<std::uint8_t> svg_bytes = export_matrix(m, r, s);
  const std::string svg(svg_bytes.begin(), svg_bytes.end());
  size_t cells = 0;
  for (size_t at = svg.find("<rect class=\"cell\""); at != std::string::npos; at = svg.find("<rect class=\"cell\"", at + 1)) ++cells;
  CHECK(cells == 6);
  CHECK(svg.find("&lt;b&gt;") != std::string::npos);  // labels are escaped

  r.format = ExportFormat::Csv;
  const std::vector<std::uint8_t> csv_bytes = export_matrix(m, r, s);
  const std::string csv(csv_bytes.begin(), csv_bytes.end());
  CHECK(csv == "query\\key,a,<b>,c\nx,0.100000001,0.200000003,0.699999988\n\"y,z\",1,0,-inf\n");

  r.format = ExportFormat::Json;
  const std::vector<std::uint8_t> json_bytes = export_matrix(m, r, s);
  const nlohmann::json j = nlohmann::json::parse(std::string(json_bytes.begin(), json_bytes.end()));
  CHECK(j["values"][1][2].is_null());
  CHECK(j["values"][0][2].get<float>() == 0.7f);

  r.format = ExportFormat::Npy;
  const std::vector<std::uint8_t> npy = export_matrix(m, r, s);
  NpyArray back;
  REQUIRE(parse_npy(npy.data(), npy.size(), back).ok);
  CHECK(back.shape == std::vector<std::int64_t>{2, 3});
  CHECK(back.to_float()[2] == 0.7f);

  ExportFormat f;
  CHECK_FALSE(parse_export_format("gif", f).ok);
  CHECK(export_matrix(Mat(), r, s).empty());
}

TEST_CASE("imported scene across layers: head mean, max and rollout of the file's heads", "[import][state][rollout]") {
  AppState state;
  ImportedAttention d = sample(true);  // heads that differ (softmax of sin-valued q, k)
  set_imported(state, d, "sample.npz");
  update_results(state);
  REQUIRE(state.across.layers.empty());  // single heads: nothing computed
  REQUIRE(apply_state_json(state, R"({"acrossLayers": "rollout", "rolloutResidual": 0.25, "layer": 1, "cursor": 2})").ok);
  update_results(state);
  std::vector<std::vector<Mat>> heads(2);
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 2; ++h) heads[static_cast<std::size_t>(l)].push_back(d.head_weights(l, h));
  std::vector<Mat> want;
  REQUIRE(attention_rollout(heads, HeadPool::Mean, 0.25, want).ok);
  REQUIRE(state.across.layers.size() == 2);
  REQUIRE(state.across.layers[1].isApprox(want[1]));
  nlohmann::json j = nlohmann::json::parse(state_to_json(state))["figures"]["acrossLayers"];
  REQUIRE(j["mode"] == "rollout");
  REQUIRE(j["rows"] == 4);
  for (const auto& sum : j["rowSums"]) REQUIRE(sum.get<double>() == Approx(1.0).margin(1e-6));
  REQUIRE(j["focusRow"][0].get<double>() == Approx(want[1](2, 0)));
  // Max: each cell the largest of the layer's heads; hidden special tokens leave their rows
  // and columns out of the shown figure.
  REQUIRE(apply_state_json(state, R"({"acrossLayers": "max", "hideSpecial": true})").ok);
  update_results(state);
  const Mat pooled = pool_heads(heads[1], HeadPool::Max);
  REQUIRE(state.across.layers[1].rows() == 2);
  REQUIRE(state.across.layers[1](0, 1) == pooled(1, 2));
  // Another panel frees them; an unknown mode is refused and changes nothing.
  REQUIRE(!apply_state_json(state, R"({"acrossLayers": "median"})").ok);
  REQUIRE(state.settings.across == AcrossLayers::Max);
  REQUIRE(apply_state_json(state, R"({"panel": "heads"})").ok);
  update_results(state);
  REQUIRE(state.across.layers.empty());
}

TEST_CASE("imported cross-attention across layers: a reason, not a figure", "[import][state][rollout]") {
  AppState state;
  ImportedAttention d = sample();
  d.n_k = 2;
  std::vector<float> w(2 * 2 * 4 * 2, 0.5f);
  d.weights = NpyArray::from_float({2, 2, 4, 2}, w.data());
  d.key_tokens = {"x", "y"};
  set_imported(state, d, "cross.npz");
  REQUIRE(apply_state_json(state, R"({"acrossLayers": "mean"})").ok);
  update_results(state);
  REQUIRE(state.across.layers.empty());
  REQUIRE(state.across.status.message.find("cross-attention") != std::string::npos);
}

