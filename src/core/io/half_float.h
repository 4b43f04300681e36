// 16-bit floats as float: IEEE half (float16) and bfloat16, one value at a time, and one
// head's block of an imported (L, H, rows, cols) array, whatever float type the file kept
// it in (float32, float16, float64, or uint16 holding bfloat16).
//
// Decoding only: the lab computes in float and never writes 16-bit floats.
#pragma once

#include "core/base/types.h"
#include "core/io/npy.h"

#include <cstdint>

namespace attn {

// Exact IEEE half -> float (every half is representable as a float).
float half_to_float(std::uint16_t bits);
// bfloat16 -> float: the 16 bits are the top half of a float32.
float bfloat16_to_float(std::uint16_t bits);

// Block (layer, head) of an (L, H, rows, cols) array as a (rows, cols) float matrix; uint16
// elements are bfloat16 when `bfloat16`, else integers. An empty matrix for an array of
// another rank, an index out of range, or data shorter than the shape says.
Mat decode_head_block(const NpyArray& a, bool bfloat16, int layer, int head);

}  // namespace attn
