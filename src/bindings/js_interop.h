// Helpers shared by the Embind binding files: typed arrays in, typed arrays out.
// Inputs are copied into Eigen matrices; results go back as fresh Float32Arrays that own
// their memory, so they stay valid when the wasm heap grows.
#pragma once

#include "core/base/types.h"

#include <emscripten/val.h>

#include <string>
#include <vector>

namespace attn::bindings {

inline emscripten::val float32_copy(const float* data, size_t count) {
  // A view on the wasm heap, copied by the Float32Array constructor.
  return emscripten::val::global("Float32Array").new_(emscripten::typed_memory_view(count, data));
}

// The result `name` of a call: written into into[name], the caller's Float32Array of
// `count` floats, when the JS wrapper passed one (it checked the type and the length), else
// a fresh copy.
inline emscripten::val float32_result(const emscripten::val& into, const char* name, const float* data,
                                      size_t count) {
  if (into.isUndefined()) return float32_copy(data, count);
  emscripten::val dst = into[name];
  if (dst.isUndefined()) return float32_copy(data, count);
  dst.call<void>("set", emscripten::typed_memory_view(count, data));
  return dst;
}

// {error: message}; the JS wrapper turns it into a thrown Error.
inline emscripten::val error_result(const std::string& message) {
  emscripten::val out = emscripten::val::object();
  out.set("error", message);
  return out;
}

// Copies a typed array into a (rows, cols) matrix in one pass (TypedArray.set onto a view
// of the matrix's memory); false if it is missing or its length is not rows*cols.
inline bool read_matrix(const emscripten::val& array, int rows, int cols, Mat& out) {
  const size_t count = static_cast<size_t>(rows) * static_cast<size_t>(cols);
  if (array.isUndefined() || array.isNull()) return false;
  const emscripten::val length = array["length"];
  if (!length.isNumber() || length.as<double>() != static_cast<double>(count)) return false;
  out.resize(rows, cols);
  emscripten::val(emscripten::typed_memory_view(count, out.data())).call<void>("set", array);
  return true;
}

}  // namespace attn::bindings
