// The math module's caps (README, "Limits") and the checks that hold its bindings to them.
// Every binding of core_*.cpp checks its arguments here before it allocates anything, so a
// caller of the raw Embind module meets the same caps as a caller of web/attnlab-core.mjs.
// The wrappers there check only JavaScript types (a TypeError); a refused value comes back as
// {error: message}, which they throw as a RangeError. A message names the argument, the
// range it must be in and what was passed, written as JavaScript writes it.
//
// The caps of training (layers, heads, d_model, ...) and of efficient attention's
// parameters are the core's own (core/train, core/efficient); these are the module's.
#pragma once

#include "bindings/js_interop.h"
#include "core/attention/pipeline.h"
#include "core/base/types.h"

#include <emscripten/val.h>

#include <cmath>
#include <string>

namespace attn::bindings {

// ---- the caps --------------------------------------------------------------------------

// Every dimension (nq, nk, dk, dv, n, dModel, heads, rows, cols, ns): 1 to 2^20.
inline constexpr int kMaxDim = 1 << 20;
// Weights returned whole, as 2^kMaxWeightsLog2: attention with weights (nq*nk) and
// multiHeadAttention (nq*nq*heads; the explorer's largest scene, 1024 tokens x 16 heads, is
// exactly that). The streaming paths return no weights and have no such cap.
inline constexpr int kMaxWeightsLog2 = 24;
// randomNormal's draws (rows*cols), one allocation: 2^kMaxDrawsLog2.
inline constexpr int kMaxDrawsLog2 = 26;
// The scaling lab's statistics: d_k, samples and bins of the Monte-Carlo variance and
// histogram; widths, query rows and keys of a saturation curve.
inline constexpr int kMaxStatisticsDk = 4096;
inline constexpr int kMaxSamples = 10000000;
inline constexpr int kMaxBins = 1000;
inline constexpr int kMaxCurveWidths = 64;
inline constexpr int kMaxCurveRows = 100000;
inline constexpr int kMaxCurveKeys = 4096;
// rollout: layers and heads as an imported file's, tokens as the longest self-attention the
// module returns weights for (its product is n^3 per layer).
inline constexpr int kMaxRolloutLayers = 256;
inline constexpr int kMaxRolloutTokens = 4096;
// costChart's timing: seconds per measurement and measurements per point.
inline constexpr double kMaxMinSeconds = 60.0;
inline constexpr int kMaxMeasurements = 1000;
// The largest whole number a JavaScript number holds exactly (Number.MAX_SAFE_INTEGER).
inline constexpr double kMaxSafeInteger = 9007199254740991.0;

// ---- the checks ------------------------------------------------------------------------

// JavaScript's own text for a value (String(value)): 1048577, 2.5, undefined, abc.
inline std::string js_text(const emscripten::val& value) {
  return emscripten::val::global("String")(value).as<std::string>();
}
inline std::string js_text(double x) { return js_text(emscripten::val(x)); }

// The arguments of one call, checked in order; the first refusal is kept and later checks
// do nothing. A refused value reads as the smallest allowed one, so the code between checks
// may go on with it (nothing large is allocated) until it asks refused().
class ArgumentCheck {
 public:
  // A whole number from lo to hi.
  double whole(const std::string& name, const emscripten::val& value, double lo, double hi) {
    if (refused()) return lo;
    if (value.isNumber()) {
      const double x = value.as<double>();
      if (std::isfinite(x) && std::floor(x) == x && x >= lo && x <= hi) return x;
    }
    refuse(name + " must be a whole number from " + js_text(lo) + " to " + js_text(hi) + ", got " + js_text(value));
    return lo;
  }
  int whole_int(const std::string& name, const emscripten::val& value, int lo, int hi) {
    return static_cast<int>(whole(name, value, lo, hi));
  }
  int dimension(const std::string& name, const emscripten::val& value) { return whole_int(name, value, 1, kMaxDim); }

  // Any number from lo to hi.
  double number(const std::string& name, const emscripten::val& value, double lo, double hi) {
    if (refused()) return lo;
    if (value.isNumber()) {
      const double x = value.as<double>();
      if (x >= lo && x <= hi) return x;
    }
    refuse(name + " must be a number from " + js_text(lo) + " to " + js_text(hi) + ", got " + js_text(value));
    return lo;
  }

  // A JavaScript array of `lo` to `hi` elements; `message` if it is not.
  int array_length(const emscripten::val& value, int lo, int hi, const std::string& message) {
    if (refused()) return 0;
    if (emscripten::val::global("Array").call<bool>("isArray", value)) {
      const int n = value["length"].as<int>();
      if (n >= lo && n <= hi) return n;
    }
    refuse(message);
    return 0;
  }

  // A (rows, cols) matrix from a typed array of rows*cols numbers.
  void matrix(const std::string& name, const emscripten::val& array, int rows, int cols, Mat& out) {
    if (refused()) return;
    const double count = static_cast<double>(rows) * static_cast<double>(cols);
    if (read_matrix(array, rows, cols, out)) return;
    const bool missing = array.isUndefined() || array.isNull();
    refuse(name + " must hold " + js_text(count) + " numbers, got " + js_text(missing ? array : array["length"]));
  }

  // At most 2^log2 values in all, `what` being the product's formula (nq*nk).
  void at_most_power_of_two(const std::string& what, double product, int log2, const std::string& advice) {
    if (refused() || product <= std::ldexp(1.0, log2)) return;
    refuse(what + " = " + js_text(product) + " is over 2^" + std::to_string(log2) + advice);
  }

  void refuse(const std::string& message) {
    if (!refused()) error_ = message;
  }
  bool refused() const { return !error_.empty(); }
  const std::string& message() const { return error_; }
  emscripten::val error() const { return error_result(error_); }

 private:
  std::string error_;
};

// The arguments of multiHeadAttention and multiHeadAttentionOutput: the dimensions first,
// then (multi_head_matrices) x (nq, dModel) and wq, wk, wv, wo (dModel, dModel).
struct MultiHeadShape {
  int nq = 1, d_model = 1, heads = 1;
};

inline MultiHeadShape multi_head_shape(const emscripten::val& args, ArgumentCheck& check) {
  MultiHeadShape s;
  s.nq = check.dimension("nq", args["nq"]);
  s.d_model = check.dimension("dModel", args["dModel"]);
  s.heads = check.dimension("heads", args["heads"]);
  return s;
}

// wq, wk, wv, wo (dModel, dModel); multi_head_matrices also x (nq, dModel).
inline void projection_matrices(const emscripten::val& args, const MultiHeadShape& s, ArgumentCheck& check,
                                ProjectionWeights& w) {
  check.matrix("wq", args["wq"], s.d_model, s.d_model, w.wq);
  check.matrix("wk", args["wk"], s.d_model, s.d_model, w.wk);
  check.matrix("wv", args["wv"], s.d_model, s.d_model, w.wv);
  check.matrix("wo", args["wo"], s.d_model, s.d_model, w.wo);
}

inline void multi_head_matrices(const emscripten::val& args, const MultiHeadShape& s, ArgumentCheck& check, Mat& x,
                                ProjectionWeights& w) {
  check.matrix("x", args["x"], s.nq, s.d_model, x);
  projection_matrices(args, s, check, w);
}

}  // namespace attn::bindings
