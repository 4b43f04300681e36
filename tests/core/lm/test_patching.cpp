// Activation patching (core/lm/patching.h) and the runner's intervention hook: the hook
// leaves the math alone, the properties that must hold (patching nothing gives 0, the whole
// residual stream before the first layer gives 1, every head and MLP output gives 1 when the
// prompts differ before the last position only, the stream after the last layer counts at
// the last position alone, nothing before the first changed character moves), the job in
// steps against the one-shot grid, and every refusal. On a tiny model as initialised, after 5
// steps and, natively, on the shipped model (assets/fortunes-lm.attnlm; the WebAssembly test binary has
// no file system).
#include "core/lm/patching.h"
#include "core/lm/runner.h"

#include "support/tiny_lm.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace lm = attn::lm;
using attn::test::tiny_model;

namespace {

// The tiny model's weights as the trainer draws them, before any step.
lm::LanguageModel initialised_model() {
  lm::LmTrainer t;
  REQUIRE(t.reset(attn::test::tiny_config(), attn::test::small_corpus()).ok);
  return t.model();
}

lm::PatchRequest patch_request(const std::string& clean, const std::string& corrupt, const std::string& answer,
                               const std::string& foil) {
  return {clean, corrupt, answer, foil, lm::PatchBy::Head, lm::kAllPositions, lm::RunOptions{}};
}

// Two grids cell by cell, NaN equal to NaN.
bool same_cells(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

// The fraction `patches` restore on the job's prompts.
float restored_by(lm::PatchJob& job, const std::vector<lm::Patch>& patches) {
  float d = 0;
  REQUIRE(job.patched_difference(patches, d).ok);
  return lm::restored_fraction(d, job.result().clean_difference, job.result().corrupt_difference);
}

// Every property of patching.h on one pair of prompts that differ at one position
// (`changed`, counted as the model's positions: 1 = the first character) before the last.
void check_patching_properties(const lm::LanguageModel& m, const lm::PatchRequest& head_request, int changed) {
  const int L = m.config.layers, H = m.config.heads;
  lm::PatchJob job;
  REQUIRE(job.begin(m, head_request).ok);
  const lm::PatchResult& base = job.result();
  INFO("D_clean " << base.clean_difference << ", D_corrupt " << base.corrupt_difference);
  REQUIRE(base.defined());
  const int last = static_cast<int>(base.clean_tokens.size()) - 1;
  REQUIRE(changed < last);

  // Patching nothing gives 0; the residual stream entering layer 0 everywhere gives 1.
  REQUIRE(restored_by(job, {}) == 0.0f);
  REQUIRE(std::fabs(restored_by(job, {{lm::PatchSite::Residual, 0, 0, lm::kAllPositions}}) - 1.0f) < 1e-5f);
  // Every head and MLP output of every layer: the last position's stream is the clean one's.
  std::vector<lm::Patch> all;
  for (int l = 0; l < L; ++l) {
    for (int h = 0; h < H; ++h) all.push_back({lm::PatchSite::Head, l, h, lm::kAllPositions});
    all.push_back({lm::PatchSite::Mlp, l, 0, lm::kAllPositions});
  }
  REQUIRE(std::fabs(restored_by(job, all) - 1.0f) < 1e-5f);

  // The residual grid: row 0 moves only at the changed character (to 1: the input is then
  // the clean one), the row after the last layer only at the last position (to 1), and no
  // cell before the changed character moves at all.
  lm::PatchResult residual;
  lm::PatchRequest rr = head_request;
  rr.by = lm::PatchBy::Residual;
  REQUIRE(lm::patch_activations(m, rr, residual).ok);
  REQUIRE(residual.rows == L + 1);
  REQUIRE(residual.cols == last + 1);
  auto cell = [&](int row, int col) { return residual.restored[static_cast<std::size_t>(row) * residual.cols + col]; };
  for (int p = 0; p <= last; ++p) {
    INFO("position " << p);
    REQUIRE(cell(0, p) == (p == changed ? Approx(1.0f).margin(1e-5) : Approx(0.0f).margin(0)));
    REQUIRE(cell(L, p) == (p == last ? Approx(1.0f).margin(1e-5) : Approx(0.0f).margin(0)));
    for (int row = 0; row <= L && p < changed; ++row) REQUIRE(cell(row, p) == 0.0f);
  }

  // The head grid: a last-layer head at the last position alone is the same cell as at
  // every position (its other rows reach no later layer); at the start token nothing moves.
  lm::PatchResult every, at_last, at_start;
  REQUIRE(lm::patch_activations(m, head_request, every).ok);
  lm::PatchRequest one = head_request;
  one.position = last;
  REQUIRE(lm::patch_activations(m, one, at_last).ok);
  one.position = 0;
  REQUIRE(lm::patch_activations(m, one, at_start).ok);
  REQUIRE(every.rows == L);
  REQUIRE(every.cols == H);
  for (int h = 0; h < H; ++h) {
    const std::size_t i = static_cast<std::size_t>(L - 1) * H + h;
    REQUIRE(at_last.restored[i] == every.restored[i]);
  }
  for (float v : at_start.restored) REQUIRE(v == 0.0f);
}

}  // namespace

TEST_CASE("lm patching: the runner's hook records without changing the math", "[lm][patch]") {
  const lm::LanguageModel m = tiny_model(5);
  const std::vector<int> tokens = {lm::kStartToken, 5, 3, 7, 2, 9, 4};
  const int n = static_cast<int>(tokens.size());
  attn::Mat plain, recorded, unpatched;
  lm::Runner runner(m, lm::RunOptions{});
  runner.feed(tokens.data(), n, plain, nullptr);
  lm::Activations acts;
  lm::Intervention record;
  record.record = &acts;
  runner.clear();
  runner.feed(tokens.data(), n, recorded, nullptr, &record);
  REQUIRE((recorded - plain).cwiseAbs().maxCoeff() == 0.0f);
  REQUIRE(acts.residual.size() == static_cast<std::size_t>(m.config.layers) + 1);
  REQUIRE(acts.heads.size() == static_cast<std::size_t>(m.config.layers));
  REQUIRE(acts.mlp.size() == static_cast<std::size_t>(m.config.layers));
  REQUIRE(acts.residual.back().rows() == n);
  REQUIRE(acts.heads[0].cols() == m.config.d_model);
  // A source with no patches changes nothing either.
  lm::Intervention none;
  none.source = &acts;
  runner.clear();
  runner.feed(tokens.data(), n, unpatched, nullptr, &none);
  REQUIRE((unpatched - plain).cwiseAbs().maxCoeff() == 0.0f);
  // A token fed after the others records its rows below theirs.
  const int next = 6;
  runner.feed(&next, 1, unpatched, nullptr, &record);
  REQUIRE(acts.residual[0].rows() == n + 1);
}

TEST_CASE("lm patching: the properties on a model as initialised, and the job in steps", "[lm][patch]") {
  // "cat" against "cot": the a is position 6 of 21.
  const lm::PatchRequest r = patch_request("The cat sat on the ma", "The cot sat on the ma", "t", "n");
  check_patching_properties(initialised_model(), r, 6);
  const lm::LanguageModel m = tiny_model(5);
  check_patching_properties(m, r, 6);

  // The job one cell a step is the one-shot grid.
  for (lm::PatchBy by : {lm::PatchBy::Head, lm::PatchBy::Residual}) {
    lm::PatchRequest q = r;
    q.by = by;
    lm::PatchResult whole;
    REQUIRE(lm::patch_activations(m, q, whole).ok);
    lm::PatchJob job;
    REQUIRE(job.begin(m, q).ok);
    REQUIRE(job.progress() == 0.0);
    REQUIRE(std::isnan(job.result().restored[0]));
    int steps = 0;
    while (!job.done()) {
      REQUIRE(job.step(1) == 1);
      ++steps;
    }
    REQUIRE(steps == whole.rows * whole.cols);
    REQUIRE(job.step(5) == 0);
    REQUIRE(job.progress() == 1.0);
    REQUIRE(same_cells(job.result().restored, whole.restored));
    REQUIRE(same_cells(job.result().patched, whole.patched));
  }
}

TEST_CASE("lm patching: the same prompt twice has no fraction", "[lm][patch]") {
  const lm::LanguageModel m = tiny_model(5);
  lm::PatchResult r;
  REQUIRE(lm::patch_activations(m, patch_request("The cat", "The cat", "s", "a"), r).ok);
  REQUIRE_FALSE(r.defined());
  REQUIRE(r.clean_difference == r.corrupt_difference);
  for (float v : r.restored) REQUIRE(std::isnan(v));
  for (float v : r.patched) REQUIRE(v == r.clean_difference);
}

TEST_CASE("lm patching: refusals name the problem", "[lm][patch]") {
  const lm::LanguageModel m = tiny_model(5);
  auto refusal = [&](const lm::PatchRequest& r) {
    lm::PatchJob job;
    const attn::Status st = job.begin(m, r);
    REQUIRE_FALSE(st.ok);
    REQUIRE(job.cells() == 0);
    REQUIRE_FALSE(job.done());
    return st.message;
  };
  REQUIRE(refusal(patch_request("", "abc", "a", "t")) == "the clean prompt: the prompt is empty: type at least one character");
  REQUIRE(refusal(patch_request("The cat", "", "a", "t")) ==
          "the corrupted prompt: the prompt is empty: type at least one character");
  REQUIRE(refusal(patch_request("The cat", "The cats", "a", "t")) ==
          "the clean prompt has 7 characters and the corrupted prompt 8: patching needs prompts of the same length");
  // Characters, not bytes: 明月 is two characters (six bytes).
  REQUIRE(refusal(patch_request("明月", "The", "a", "t")) ==
          "the clean prompt has 2 characters and the corrupted prompt 3: patching needs prompts of the same length");
  REQUIRE(refusal(patch_request(std::string(24, 'a'), std::string(24, 'a'), "a", "t")) ==
          "the clean prompt: the prompt has 24 characters; the model reads at most 23");
  REQUIRE(refusal(patch_request("The cat", "The caZ", "a", "t")) ==
          "the corrupted prompt: 'Z' (U+005A) is not in the model's vocabulary");
  REQUIRE(refusal(patch_request("The\xff", "The", "a", "t")) == "the clean prompt: the text is not valid UTF-8 (byte 3)");
  REQUIRE(refusal(patch_request("The cat", "The cot", "at", "t")) == "the answer: must be exactly one character; 'at' has 2");
  REQUIRE(refusal(patch_request("The cat", "The cot", "a", "")) == "the foil: must be exactly one character; '' has 0");
  REQUIRE(refusal(patch_request("The cat", "The cot", "Z", "t")) == "the answer: 'Z' (U+005A) is not in the model's vocabulary");
  REQUIRE(refusal(patch_request("The cat", "The cot", "a", "a")) ==
          "the answer and the foil are both 'a': the difference needs two different characters");
  lm::PatchRequest far = patch_request("The cat", "The cot", "a", "t");
  far.position = 8;
  REQUIRE(refusal(far) == "the position must be from 0 (the start token) to 7 (the last character), got 8");
  far.position = -2;
  REQUIRE(refusal(far) == "the position must be from 0 (the start token) to 7 (the last character), got -2");
  far.position = 3;
  far.by = lm::PatchBy::Residual;
  REQUIRE(refusal(far) == "a position applies to the head grid only: the residual grid has a column for every position");
  lm::PatchRequest hot = patch_request("The cat", "The cot", "a", "t");
  hot.options.attention_temperature = 100.0f;
  REQUIRE(refusal(hot) == "the attention temperature must be from 0.05 to 20");
  REQUIRE(refusal(lm::PatchRequest{}) != "");
  lm::PatchJob empty;
  REQUIRE(empty.begin(lm::LanguageModel{}, patch_request("a", "b", "a", "t")).message == "no language model is loaded");

  // Sites outside the model or the prompt.
  lm::PatchJob job;
  REQUIRE(job.begin(m, patch_request("The cat", "The cot", "a", "t")).ok);
  float d = 0;
  const int L = m.config.layers, H = m.config.heads;
  REQUIRE(job.patched_difference({{lm::PatchSite::Residual, L, 0, 7}}, d).ok);
  REQUIRE(job.patched_difference({{lm::PatchSite::Residual, L + 1, 0, 7}}, d).message ==
          "cannot patch that site: layer 3, head 0, position 7 is outside the model or the prompt");
  REQUIRE_FALSE(job.patched_difference({{lm::PatchSite::Mlp, L, 0, 0}}, d).ok);
  REQUIRE_FALSE(job.patched_difference({{lm::PatchSite::Head, 0, H, 0}}, d).ok);
  REQUIRE_FALSE(job.patched_difference({{lm::PatchSite::Head, 0, 0, 8}}, d).ok);
  REQUIRE_FALSE(job.patched_difference({{lm::PatchSite::Head, 0, 0, -3}}, d).ok);

  lm::PatchBy by = lm::PatchBy::Head;
  REQUIRE(lm::parse_patch_by("residual", by).ok);
  REQUIRE(by == lm::PatchBy::Residual);
  REQUIRE(lm::parse_patch_by("mlp", by).message == "unknown patching grid 'mlp'; the grids are head, residual");
  REQUIRE(std::string(lm::patch_by_name(lm::PatchBy::Head)) == "head");
}

#ifdef ATTNLAB_LM_MODEL
TEST_CASE("lm patching: the properties on the shipped model", "[lm][patch]") {
  std::ifstream in(ATTNLAB_LM_MODEL, std::ios::binary);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  lm::LanguageModel m;
  REQUIRE(lm::parse_language_model(bytes.data(), bytes.size(), m).ok);
  // "mat" against "hat": the m is position 20 of 22.
  check_patching_properties(m, patch_request("The cat sat on the mat", "The cat sat on the hat", " ", "s"), 20);
}
#endif
