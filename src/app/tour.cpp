#include "app/tour.h"

#include <algorithm>
#include <string>

namespace attn {
namespace {

// The tutorial's path: similarity, scaling, softmax, weighted values, order, masks, heads,
// variants, training.
constexpr TourStep kSteps[kTourSteps] = {
    {"dot-product", R"({"lab": {"q": [2, 1], "k": [1.5, 2]}})", ""},
    {"qk-space", R"({"source": "generated", "cursor": 2})", "qk/plane"},
    {"variance", R"({"lab": {"dk": 64, "scaled": false}})", "variance/curve"},
    {"saturation", R"({"lab": {"scaled": false, "temperature": 1}})", "saturation/jacobian"},
    {"softmax", "{}", ""},
    {"stability", R"({"lab": {"half": true}})", ""},
    {"walkthrough", R"({"lab": {"wq": [1, 2, 2, 1], "wk": [2, 1, 1, 2], "wv": [3, 0, 0, 3]}})", "walk/weights"},
    // Where a token looks, the mask in use, the heads: the trained language model's, on a
    // sentence whose patterns show (docs/LANGUAGE-MODEL.md). The cursor at 6 is the "a" of "cat".
    {"pipeline", R"({"source": "language", "sentence": "The cat sat on the mat because it was tired.", "layer": 0,)"
                 R"( "head": 0, "cursor": 6})",
     "pipeline/weights"},
    {"positions", R"({"source": "generated", "positional": "rope", "cursor": 3})", "positions/ropeFixed"},
    {"mask", R"({"source": "language", "sentence": "The cat sat on the mat because it was tired.", "layer": 1, "head": 1,)"
             R"( "cursor": 30})",
     "mask/weights"},
    {"heads", R"({"source": "language", "sentence": "The cat sat on the mat because it was tired.", "layer": 1, "cursor": 30,)"
              R"( "lm": {"randomBeside": false}})",
     ""},
    // Random against learned: a head of the model beside one of projections drawn from a seed.
    {"heads", R"({"source": "language", "sentence": "The cat sat on the mat because it was tired.", "layer": 0, "head": 0,)"
              R"( "cursor": 30, "lm": {"randomBeside": true}})",
     "heads/learned"},
    {"cost-chart", "{}", "cost/formulas"},
    {"flash", R"({"source": "generated"})", "flash/exactWeights"},
    {"training", "{}", ""},
};

}  // namespace

const TourStep& tour_step(int step) { return kSteps[std::clamp(step, 1, kTourSteps) - 1]; }

}  // namespace attn
