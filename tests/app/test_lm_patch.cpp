// Activation patching in the app (app/lm_patch.h): the panel's grid, computed a few runs a
// frame, equals the core's grid computed at once; a refused request keeps the last grid.
#include "app/app_state.h"
#include "app/lm_patch.h"
#include "core/lm/patching.h"
#include "support/tiny_lm.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {

// Frames until the grid is done (or `frames` have passed).
void run_frames(attn::AppState& state, int frames) {
  for (int f = 0; f < frames && (f == 0 || state.lm_patch.job); ++f) {
    attn::advance_lm(state, 0.0);
    attn::update_results(state);
  }
}

nlohmann::json patch_figures(const attn::AppState& state) {
  return nlohmann::json::parse(attn::state_to_json(state))["figures"]["lmPatch"];
}

}  // namespace

TEST_CASE("activation patching in the app: the grid a frame at a time equals the core's", "[lm][app][patch]") {
  attn::AppState state;
  const std::vector<std::uint8_t> bytes = attn::lm::serialize_language_model(attn::test::tiny_model(20));
  REQUIRE(attn::load_lm_scene(state.lm_scene, bytes.data(), bytes.size(), "tiny").ok);
  const attn::Status opened = attn::apply_state_json(state, R"({"source": "language", "sentence": "The cat", "panel": "lm-patch",
      "patch": {"clean": "The cat sat on th", "corrupt": "The cat sat on ta", "answer": "e", "foil": "a", "by": "residual"}})");
  INFO(opened.message);
  REQUIRE(opened.ok);
  attn::update_results(state);
  // While the grid fills, the frames have work (the web loop does not idle); done, they do not.
  run_frames(state, 1);
  REQUIRE(attn::frames_have_work(state) == (state.lm_patch.job != nullptr));
  run_frames(state, 1000);
  REQUIRE(state.lm_patch.status.ok);
  REQUIRE(!state.lm_patch.job);
  REQUIRE_FALSE(attn::frames_have_work(state));

  attn::lm::PatchRequest request;
  request.clean = "The cat sat on th";
  request.corrupt = "The cat sat on ta";
  request.answer = "e";
  request.foil = "a";
  request.by = attn::lm::PatchBy::Residual;
  attn::lm::PatchResult want;
  REQUIRE(attn::lm::patch_activations(state.lm_scene->model, request, want).ok);
  const nlohmann::json f = patch_figures(state);
  REQUIRE(f["gridBy"] == "residual");
  REQUIRE(f["rows"] == 3);  // the embeddings, after layer 0, after layer 1
  REQUIRE(f["cols"] == 18);  // <s> and 17 characters
  REQUIRE(f["cellsDone"] == 54);
  REQUIRE(f["cleanDiff"].get<float>() == want.clean_difference);
  REQUIRE(f["changed"] == 17);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 18; ++c) {
      const float w = want.restored[static_cast<std::size_t>(r) * 18 + c];
      INFO("cell " << r << ", " << c);
      if (std::isfinite(w)) REQUIRE(f["grid"][r][c].get<float>() == w);
      else REQUIRE(f["grid"][r][c].is_null());
    }
  // The first row restores the gap only at the changed character, the last only at the end.
  REQUIRE(f["grid"][0][17].get<float>() == Approx(1.0f).margin(1e-5));
  REQUIRE(std::fabs(f["grid"][0][5].get<float>()) < 1e-6f);
  REQUIRE(f["grid"][2][17].get<float>() == Approx(1.0f).margin(1e-5));

  // The head grid: each cell the core's, and the largest cell's head named with where it looks.
  REQUIRE(attn::apply_state_json(state, R"({"patch": {"by": "head"}})").ok);
  run_frames(state, 1000);
  request.by = attn::lm::PatchBy::Head;
  REQUIRE(attn::lm::patch_activations(state.lm_scene->model, request, want).ok);
  const nlohmann::json g = patch_figures(state);
  REQUIRE(g["rows"] == 2);
  REQUIRE(g["cols"] == 2);
  int best = 0;
  for (int i = 0; i < 4; ++i) {
    REQUIRE(g["grid"][i / 2][i % 2].get<float>() == want.restored[static_cast<std::size_t>(i)]);
    if (want.restored[static_cast<std::size_t>(i)] > want.restored[static_cast<std::size_t>(best)]) best = i;
  }
  REQUIRE(g["peak"]["row"] == best / 2);
  REQUIRE(g["peak"]["col"] == best % 2);
  const float on_changed = g["peak"]["weightOnChanged"].get<float>();
  REQUIRE(on_changed >= 0.0f);
  REQUIRE(on_changed <= 1.0f);

  // A refused request (prompts of different lengths) says why and keeps the last grid.
  const std::string before = g["grid"].dump();
  REQUIRE(attn::apply_state_json(state, R"({"patch": {"corrupt": "The cat sat on t"}})").ok);
  run_frames(state, 3);
  const nlohmann::json refused = patch_figures(state);
  REQUIRE(refused["error"].get<std::string>().find("17") != std::string::npos);
  REQUIRE(refused["grid"].dump() == before);
  // An unknown grid is refused by the state itself.
  REQUIRE_FALSE(attn::apply_state_json(state, R"({"patch": {"by": "mlp"}})").ok);
  REQUIRE(state.settings.patch.by == attn::lm::PatchBy::Head);
}
