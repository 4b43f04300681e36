#include "app/exercises.h"

#include <algorithm>

namespace attn {
namespace {

// In the tutorial's order, over nine of its ten chapters. Each patch sets what the question
// speaks of; the learner may change anything after, and the answer follows the figures.
constexpr ExerciseInfo kTable[kExercises] = {
    // 1 similarity: the longer key at a worse angle still wins the dot product.
    {"dot-product", ExerciseKind::Number, R"({"lab": {"q": [2, 1], "k": [1.5, 1.5], "kLong": [4, -0.5]}})", "dot/readout",
     "", 0, 0.05},
    // 2 scaling: Var(q.k) = d_k for unit-variance entries.
    {"variance", ExerciseKind::Number, R"({"lab": {"dk": 256, "scaled": false}})", "variance/", "", 0, 40.0},
    // 3 scaling: without 1/sqrt(d_k) a wide head's softmax is nearly one-hot.
    {"saturation", ExerciseKind::Choice, R"({"lab": {"scaled": false, "temperature": 1}})", "saturation/", "", 3, 0.0},
    // 4 softmax: the weight of the largest score.
    {"softmax", ExerciseKind::Number, R"({"lab": {"row": [2, 1, 0.1, -1]}})", "softmax/", "", 0, 0.01},
    // 5 softmax: the naive form overflows in float16.
    {"stability", ExerciseKind::Choice, R"({"lab": {"row": [12, 1, 0.1, -1], "half": true}})", "stability/", "", 3, 0.0},
    // 6 weighted values: the worked example's first weight.
    {"walkthrough", ExerciseKind::Number, R"({"lab": {"wq": [1, 2, 2, 1], "wk": [2, 1, 1, 2], "wv": [3, 0, 0, 3]}})",
     "walk/weights walk/output", "", 0, 0.01},
    // 7 weighted values, the sentence's scene: softmax keeps the order of a row's scores.
    {"pipeline", ExerciseKind::Cell,
     R"({"source": "generated", "sentence": "The cat sat on the mat because it was tired.", "cursor": 7, "head": 0,)"
     R"( "mask": {"causal": false}})",
     "pipeline/weights pipeline/output", "pipeline/weights", 0, 0.0},
    // 8 order: RoPE scores depend on the offset alone.
    {"positions", ExerciseKind::Choice, R"({"source": "generated", "positional": "rope", "modern": {"shift": 5}})",
     "positions/", "", 3, 0.0},
    // 9 masks, the sentence's scene: where the causal mask puts -inf.
    {"mask", ExerciseKind::Cell, R"({"source": "generated", "mask": {"causal": true}, "cursor": 2})",
     "mask/allowed mask/maskedScores mask/weights", "mask/weights", 0, 0.0},
    // 10 masks: a masked row's weights still sum to 1.
    {"mask", ExerciseKind::Choice, R"({"source": "generated", "mask": {"causal": true}})", "mask/weights", "", 3, 0.0},
    // 11 multi-head, the language model: which head reads the previous character.
    {"heads", ExerciseKind::Choice,
     R"({"source": "language", "sentence": "The cat sat on the mat because it was tired.", "layer": 0})", "heads/label/", "", 4,
     0.0},
    // 12 variants: FlashAttention is exact.
    {"flash", ExerciseKind::Choice, R"({"source": "generated", "modern": {"flashCausal": false}})", "flash/summary", "", 3,
     0.0},
    // 13 training, the language model: the bits the scale is worth.
    {"language", ExerciseKind::Number, R"({"source": "language", "scale": "none"})", "lm/bits", "", 0, 0.1},
};

}  // namespace

const ExerciseInfo& exercise_info(int id) { return kTable[std::clamp(id, 1, kExercises) - 1]; }

int first_exercise_of(Chapter chapter) {
  for (int id = 1; id <= kExercises; ++id) {
    const std::optional<Panel> panel = panel_from_id(exercise_info(id).panel);
    if (panel && panel_info(*panel).chapter == chapter) return id;
  }
  return 1;
}

bool veil_covers(std::string_view veil, std::string_view id) {
  while (!veil.empty()) {
    const std::size_t space = veil.find(' ');
    const std::string_view one = veil.substr(0, space);
    if (!one.empty()) {
      if (one == id) return true;
      if (one.back() == '/' && id.substr(0, one.size()) == one) return true;
    }
    if (space == std::string_view::npos) break;
    veil.remove_prefix(space + 1);
  }
  return false;
}

}  // namespace attn
