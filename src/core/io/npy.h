// A small, strict reader and writer for NumPy's .npy files (format versions 1.0, 2.0, 3.0),
// so arrays can travel between the lab and PyTorch/NumPy: `np.save` / `np.load` on one
// side, parse_npy / serialize_npy on this one.
//
// It deliberately is not a general NumPy loader: only little-endian C-order arrays of
// seven plain dtypes (f4, f8, f2, b1, u2, i4, i8) are accepted; no structured or object
// dtypes, no pickles, no big-endian data, no Fortran order, no .npz archives, no memory
// mapping. Anything else is refused with a one-line message that names the problem, and
// the parser never reads outside the bytes it is given, whatever they contain. Nothing
// here throws.
//
// Layout (NumPy's format.py, "NEP 1"), the subset read and written here:
//   0   magic          6 bytes  "\x93NUMPY"
//   6   version        u8 major, u8 minor: 1.0, 2.0 or 3.0 (written: 1.0)
//   8   header_length  u16 LE (1.0) or u32 LE (2.0, 3.0)
//   10 or 12  header   header_length bytes: a dict literal as NumPy writes it,
//                      {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//                      padded with spaces and ended by '\n' (written: the whole prefix a
//                      multiple of 64 bytes, with NumPy's room for the first axis to grow)
//   then      data     size * itemsize bytes, nothing after them
//
// Legend: size = number of elements (product of the shape, 1 for a 0-d array),
// itemsize = bytes per element, data = size * itemsize raw little-endian bytes in C order.
#pragma once

#include "core/base/types.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn {

inline constexpr char kNpyMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

// The element types the lab exchanges. The comment gives the .npy `descr` written.
enum class NpyDtype {
  Float32,  // '<f4'
  Float64,  // '<f8'
  Float16,  // '<f2'  IEEE 754 half
  Bool,     // '|b1'  one byte, 0 or 1
  UInt16,   // '<u2'  also how bfloat16 tensors are usually saved (core/io/half_float.h)
  Int32,    // '<i4'  index arrays
  Int64,    // '<i8'  index arrays (PyTorch's default integer type)
};

// Largest data section accepted or written: 2 GiB. Bigger arrays do not fit a wasm32
// heap anyway, and a cap turns a corrupt shape into a message instead of a huge allocation.
inline constexpr std::int64_t kNpyMaxDataBytes = std::int64_t{1} << 31;
// Most dimensions a shape may have (NumPy 2 allows 64; NumPy 1 allowed 32).
inline constexpr int kNpyMaxDims = 64;

// Bytes per element: 4, 8, 2, 1, 2, 4, 8.
std::size_t npy_itemsize(NpyDtype dtype);
// The descr written for the dtype, e.g. "<f4" or "|b1".
const char* npy_descr(NpyDtype dtype);
// A shape as Python prints it: "()", "(5,)", "(2, 3)". Used in messages.
std::string npy_shape_string(const std::vector<std::int64_t>& shape);

struct NpyArray {
  NpyDtype dtype = NpyDtype::Float32;
  std::vector<std::int64_t> shape;  // empty = 0-d (a single element)
  std::vector<std::uint8_t> data;   // raw little-endian bytes, C order, size() * itemsize

  // Number of elements: the product of the shape, 1 for a 0-d array; -1 when the shape
  // is not valid (a negative dimension, or a product that overflows int64).
  std::int64_t size() const;

  // Every element as float, in C order. Float16 is decoded exactly (subnormals, inf, NaN);
  // Float64 and the integer types are rounded to the nearest float (a finite double beyond
  // float's range becomes inf); UInt16 gives the integer value, NOT a bfloat16 decoding;
  // Bool gives 0 or 1. Empty when the array is inconsistent (see validate_npy_array).
  std::vector<float> to_float() const;
  // 1 where the element is nonzero (NaN counts as nonzero, -0.0 as zero, as in NumPy),
  // else 0. Empty when the array is inconsistent.
  std::vector<std::uint8_t> to_bool() const;

  // Copy size-of-shape values into a new array. `values` may be null for an empty shape.
  // A shape with a negative dimension gives an array with no data, which
  // validate_npy_array refuses.
  static NpyArray from_float(const std::vector<std::int64_t>& shape, const float* values);
  static NpyArray from_double(const std::vector<std::int64_t>& shape, const double* values);
  // Nonzero bytes are stored as 1.
  static NpyArray from_bool(const std::vector<std::int64_t>& shape, const std::uint8_t* values);
};

// The consistency rules a parsed array satisfies: non-negative shape of at most kNpyMaxDims
// dimensions, no overflow, at most kNpyMaxDataBytes of data, data.size() == size * itemsize,
// and bool bytes 0 or 1. serialize_npy and write_npy_file rely on it.
Status validate_npy_array(const NpyArray& array);

// Parses a whole .npy file held in memory (the data is copied into `out`). On error `out`
// is left unchanged and the message says what is wrong, e.g. "unsupported dtype '<c8'" or
// "truncated: header says 24 bytes of data, file has 20".
Status parse_npy(const std::uint8_t* bytes, std::size_t size, NpyArray& out);
// The same checks without reading the data: `out` gets the dtype and shape and no data, and
// `data_offset` where the data starts (its size() * itemsize bytes run exactly to the end).
// Bool bytes are not checked (parse_npy does that). For callers that move a large array's
// data into place themselves, in pieces (core/io/import_job.h).
Status parse_npy_header(const std::uint8_t* bytes, std::size_t size, NpyArray& out, std::size_t& data_offset);
// Reads and parses a file; every message starts with the path, e.g.
// "x.npy: cannot open (No such file or directory)".
Status read_npy_file(const std::string& path, NpyArray& out);

// The bytes NumPy's np.save writes for the array (format 1.0, header padded with spaces
// to a multiple of 64 bytes, including NumPy's spare room for growing the first axis).
// Empty when the array fails validate_npy_array.
std::vector<std::uint8_t> serialize_npy(const NpyArray& array);
// Writes to a temporary file beside `path` and renames it over `path`, so a failed write
// never leaves a partial file (the temporary is removed on failure). The rename replaces
// the target atomically on POSIX; there is no fsync (the standard library has none).
Status write_npy_file(const std::string& path, const NpyArray& array);

// A 1-d or 2-d array of strings, as np.save writes a list of Python str: dtype '<U{w}'
// (w UCS-4 code units per element, NUL-padded) or '|S{w}' (w bytes per element). Each
// element comes out as UTF-8 without its trailing NULs, in C order; `shape` gets the
// array's shape. Refuses other dtypes (an object array '|O' of pickled strings is named as
// such), code points that are not Unicode scalar values, and more than kNpyMaxStringBytes
// of data. On error the outputs are left unchanged.
inline constexpr std::int64_t kNpyMaxStringBytes = std::int64_t{64} << 20;
Status parse_npy_strings(const std::uint8_t* bytes, std::size_t size, std::vector<std::int64_t>& shape,
                         std::vector<std::string>& out);

// For callers about to compute with the array: "NAME contains NaN or Inf at index i"
// (i = flat C-order index of the first bad element) for Float32/Float64/Float16 arrays, and
// "NAME contains a value too large for float at index i" for a finite Float64 value that
// to_float would turn into inf (|x| beyond about 3.4e38).
// Integer and bool arrays always pass; so do UInt16 arrays, whose meaning (bfloat16 or
// integers) the file does not say. An inconsistent array gives validate_npy_array's error.
Status check_finite(const NpyArray& array, const std::string& name);

}  // namespace attn
