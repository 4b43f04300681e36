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
    {"pipeline", R"({"source": "generated", "cursor": 7, "mask": {"causal": false}, "positional": "sinusoidal"})",
     "pipeline/weights"},
    {"positions", R"({"source": "generated", "positional": "rope", "cursor": 3})", "positions/ropeFixed"},
    {"mask", R"({"source": "generated", "mask": {"causal": true}})", "mask/weights"},
    {"heads", R"({"source": "generated", "heads": 4, "mask": {"causal": false}})", ""},
    {"cost-chart", "{}", "cost/formulas"},
    {"flash", R"({"source": "generated"})", "flash/exactWeights"},
    {"training", "{}", ""},
};

}  // namespace

const TourStep& tour_step(int step) { return kSteps[std::clamp(step, 1, kTourSteps) - 1]; }

}  // namespace attn
