// NumPy .npy reading and writing (npy.h has the file's layout): a strict parser for the
// header's Python dict literal, and conversions of the raw element bytes. It is not a Python
// parser: only the literals NumPy itself writes are understood, and anything else is
// refused, which is what makes the parser safe on arbitrary bytes.
//
// Sections:
//   1 Dtypes and shapes
//   2 NpyArray
//   3 Header parsing
//   4 parse_npy
//   5 serialize_npy
//   6 Files
//   7 check_finite
#include "core/io/npy.h"

#include "core/base/bytes.h"
#include "core/base/utf8.h"
#include "core/io/half_float.h"
#include "core/io/io_messages.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string_view>

namespace attn {

// ---- 1 Dtypes and shapes ---------------------------------------------------------------
std::size_t npy_itemsize(NpyDtype dtype) {
  switch (dtype) {
    case NpyDtype::Float32: return 4;
    case NpyDtype::Float64: return 8;
    case NpyDtype::Float16: return 2;
    case NpyDtype::Bool: return 1;
    case NpyDtype::UInt16: return 2;
    case NpyDtype::Int32: return 4;
    case NpyDtype::Int64: return 8;
  }
  return 0;
}

const char* npy_descr(NpyDtype dtype) {
  switch (dtype) {
    case NpyDtype::Float32: return "<f4";
    case NpyDtype::Float64: return "<f8";
    case NpyDtype::Float16: return "<f2";
    case NpyDtype::Bool: return "|b1";
    case NpyDtype::UInt16: return "<u2";
    case NpyDtype::Int32: return "<i4";
    case NpyDtype::Int64: return "<i8";
  }
  return "?";
}

std::string npy_shape_string(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

namespace {

bool is_valid_dtype(NpyDtype dtype) { return npy_itemsize(dtype) != 0; }

// Checks a shape for an element type and gives its element count. NumPy refuses a shape
// when itemsize times the product of its nonzero dimensions overflows, even if another
// dimension is 0 (np.empty((0, 2**62), np.float32) fails), and so does this.
Status check_shape(const std::vector<std::int64_t>& shape, std::size_t itemsize,
                   std::int64_t& elements) {
  const std::string text = npy_shape_string(shape);
  if (shape.size() > static_cast<size_t>(kNpyMaxDims))
    return Status::error(msg::io_npy_too_many_dims, shape.size(), kNpyMaxDims);
  for (std::int64_t d : shape)
    if (d < 0) return Status::error(msg::io_npy_negative_dim, text, d);
  std::int64_t nonzero_bytes = static_cast<std::int64_t>(itemsize);
  bool empty = false;
  for (std::int64_t d : shape) {
    if (d == 0) {
      empty = true;
      continue;
    }
    if (nonzero_bytes > std::numeric_limits<std::int64_t>::max() / d)
      return Status::error(msg::io_npy_shape_overflow, text);
    nonzero_bytes *= d;
  }
  const std::int64_t bytes = empty ? 0 : nonzero_bytes;
  if (bytes > kNpyMaxDataBytes)
    return Status::error(msg::io_npy_shape_too_large, text, bytes);
  elements = bytes / static_cast<std::int64_t>(itemsize);
  return Status::success();
}

}  // namespace

Status validate_npy_array(const NpyArray& array) {
  if (!is_valid_dtype(array.dtype)) return Status::error(msg::io_npy_invalid_dtype_value);
  const std::size_t itemsize = npy_itemsize(array.dtype);
  std::int64_t elements = 0;
  const Status shape_ok = check_shape(array.shape, itemsize, elements);
  if (!shape_ok.ok) return shape_ok;
  const std::uint64_t expected = static_cast<std::uint64_t>(elements) * itemsize;
  if (array.data.size() != expected)
    return Status::error(msg::io_npy_data_size_mismatch, npy_shape_string(array.shape), npy_descr(array.dtype),
                         expected, array.data.size());
  if (array.dtype == NpyDtype::Bool)
    for (size_t i = 0; i < array.data.size(); ++i)
      if (array.data[i] > 1)
        return Status::error(msg::io_npy_bool_byte, array.data[i], i);
  return Status::success();
}

// ---- 2 NpyArray ------------------------------------------------------------------------
std::int64_t NpyArray::size() const {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<std::int64_t>::max() / d) return -1;
    n *= d;
  }
  return n;
}

namespace {

// Element count when data matches the shape (any byte values), else -1. The conversions
// use this rather than validate_npy_array so that they never read past data's end.
std::int64_t consistent_size(const NpyArray& a) {
  const std::size_t itemsize = npy_itemsize(a.dtype);
  std::int64_t elements = 0;
  if (itemsize == 0 || !check_shape(a.shape, itemsize, elements).ok) return -1;
  if (a.data.size() != static_cast<std::uint64_t>(elements) * itemsize) return -1;
  return elements;
}

// Element i as double: exact for every dtype except the int64 values beyond 2^53.
double element_as_double(const NpyArray& a, std::size_t i) {
  const std::uint8_t* p = a.data.data() + i * npy_itemsize(a.dtype);
  switch (a.dtype) {
    case NpyDtype::Float32: return float_from_bits(load_le32(p));
    case NpyDtype::Float64: return double_from_bits(load_le64(p));
    case NpyDtype::Float16: return half_to_float(load_le16(p));
    case NpyDtype::Bool: return p[0] != 0 ? 1.0 : 0.0;
    case NpyDtype::UInt16: return load_le16(p);
    case NpyDtype::Int32: return static_cast<std::int32_t>(load_le32(p));
    case NpyDtype::Int64: return static_cast<double>(static_cast<std::int64_t>(load_le64(p)));
  }
  return 0.0;
}

// Room for `shape`'s elements of `dtype`, or no data when the shape is invalid or over the
// cap (the maker then gives an array that validate_npy_array refuses, not a huge allocation).
NpyArray make_array(NpyDtype dtype, const std::vector<std::int64_t>& shape, std::int64_t& elements) {
  NpyArray a;
  a.dtype = dtype;
  a.shape = shape;
  if (!check_shape(shape, npy_itemsize(dtype), elements).ok) {
    elements = 0;
    return a;
  }
  a.data.resize(static_cast<std::size_t>(elements) * npy_itemsize(dtype));
  return a;
}

}  // namespace

std::vector<float> NpyArray::to_float() const {
  const std::int64_t n = consistent_size(*this);
  if (n < 0) return {};
  std::vector<float> out(static_cast<std::size_t>(n));
  const std::uint8_t* p = data.data();
  switch (dtype) {
    // Float32 and Float16 never pass through double: a float -> double -> float round
    // trip sets the quiet bit of a signalling NaN, and these should come out bit-exact.
    case NpyDtype::Float32:
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = float_from_bits(load_le32(p + 4 * i));
      break;
    case NpyDtype::Float16:
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = half_to_float(load_le16(p + 2 * i));
      break;
    // Straight from int64 to float: going through double could round twice.
    case NpyDtype::Int64:
      for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<float>(static_cast<std::int64_t>(load_le64(p + 8 * i)));
      break;
    // The rest are exact in double, so exactly one rounding to float happens.
    default:
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(element_as_double(*this, i));
  }
  return out;
}

std::vector<std::uint8_t> NpyArray::to_bool() const {
  const std::int64_t n = consistent_size(*this);
  if (n < 0) return {};
  std::vector<std::uint8_t> out(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < out.size(); ++i) {
    // Compare the value, not the bits: -0.0 is false and NaN true, as bool() in NumPy.
    // (No nonzero int64 becomes 0.0 in double, so Int64 is safe here too.)
    out[i] = element_as_double(*this, i) != 0.0 ? 1 : 0;
  }
  return out;
}

NpyArray NpyArray::from_float(const std::vector<std::int64_t>& shape, const float* values) {
  std::int64_t n = 0;
  NpyArray a = make_array(NpyDtype::Float32, shape, n);
  for (std::int64_t i = 0; i < n; ++i) {
    store_le32(a.data.data() + 4 * i, float_bits(values[i]));
  }
  return a;
}

NpyArray NpyArray::from_double(const std::vector<std::int64_t>& shape, const double* values) {
  std::int64_t n = 0;
  NpyArray a = make_array(NpyDtype::Float64, shape, n);
  for (std::int64_t i = 0; i < n; ++i) {
    store_le64(a.data.data() + 8 * i, double_bits(values[i]));
  }
  return a;
}

NpyArray NpyArray::from_bool(const std::vector<std::int64_t>& shape, const std::uint8_t* values) {
  std::int64_t n = 0;
  NpyArray a = make_array(NpyDtype::Bool, shape, n);
  for (std::int64_t i = 0; i < n; ++i) a.data[i] = values[i] != 0 ? 1 : 0;
  return a;
}

// ---- 3 Header parsing ------------------------------------------------------------------
namespace {

// Untrusted header text, made safe and short for a one-line message.
std::string printable(std::string_view text, size_t max_chars = 40) {
  std::string s;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i == max_chars) return s + "...";
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      s += static_cast<char>(c);
    } else {
      static const char hex[] = "0123456789abcdef";
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 0xF];
    }
  }
  return s;
}

// 'text', made printable. (Built with += : GCC 12 at -O3 gives a false -Wrestrict
// warning on "'" + std::string.)
std::string quoted(std::string_view text) {
  std::string s(1, '\'');
  s += printable(text);
  s += '\'';
  return s;
}

// The parts of the dict, as text; their meaning is checked after the syntax.
struct HeaderFields {
  bool has_descr = false, has_fortran = false, has_shape = false;
  std::string_view descr;
  std::string_view fortran_order;  // "True" or "False"
  std::vector<std::int64_t> shape;
};

// A cursor over the header bytes. Every read checks the position first.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  // header := spaces '{' (key ':' value ',')* [key ':' value] '}' spaces '\n'
  Status parse(HeaderFields& f) {
    skip_spaces();
    if (!take('{')) return found(msg::io_npy_header_not_dict_end, msg::io_npy_header_not_dict_at);
    for (;;) {
      skip_spaces();
      if (take('}')) break;
      std::string_view key;
      Status s = parse_string(msg::io_npy_header_expected_key_end, msg::io_npy_header_expected_key_at, key);
      if (!s.ok) return s;
      skip_spaces();
      if (!take(':'))
        return found(msg::io_npy_header_expected_colon_end, msg::io_npy_header_expected_colon_at, printable(key));
      skip_spaces();
      if (key == "descr") {
        if (f.has_descr) return duplicate(key);
        f.has_descr = true;
        if (peek() == '[')
          return Status::error(msg::io_npy_structured_dtype);
        s = parse_string(msg::io_npy_header_expected_descr_end, msg::io_npy_header_expected_descr_at, f.descr);
      } else if (key == "fortran_order") {
        if (f.has_fortran) return duplicate(key);
        f.has_fortran = true;
        f.fortran_order = take_word();
        if (f.fortran_order != "True" && f.fortran_order != "False") {
          if (f.fortran_order.empty())
            return found(msg::io_npy_fortran_order_value_end, msg::io_npy_fortran_order_value_at);
          return Status::error(msg::io_npy_fortran_order_value, quoted(f.fortran_order));
        }
      } else if (key == "shape") {
        if (f.has_shape) return duplicate(key);
        f.has_shape = true;
        s = parse_shape(f.shape);
      } else {
        return Status::error(msg::io_npy_header_unexpected_key, printable(key));
      }
      if (!s.ok) return s;
      skip_spaces();
      if (take(',')) continue;
      if (take('}')) break;
      return found(msg::io_npy_header_expected_comma_end, msg::io_npy_header_expected_comma_at, std::string(key));
    }
    // NumPy pads with spaces and ends the header with a single '\n'.
    skip_spaces();
    if (pos_ == text_.size()) return Status::error(msg::io_npy_header_no_newline);
    if (text_[pos_] != '\n' || pos_ + 1 != text_.size())
      return Status::error(msg::io_npy_header_trailing_text, printable(text_.substr(pos_)));
    if (!f.has_descr) return missing("descr");
    if (!f.has_fortran) return missing("fortran_order");
    if (!f.has_shape) return missing("shape");
    return Status::success();
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool take(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void skip_spaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  // What the parser found instead of what it expected: `at_end` when the header has ended,
  // else `at_byte` with the character and its position as the two arguments after `args`.
  template <class... A>
  Status found(const MessageText& at_end, const MessageText& at_byte, const A&... args) const {
    if (pos_ >= text_.size()) return Status::error(at_end, args...);
    return Status::error(at_byte, args..., quoted(text_.substr(pos_, 1)), pos_);
  }
  static Status duplicate(std::string_view key) {
    return Status::error(msg::io_npy_header_duplicate_key, std::string(key));
  }
  static Status missing(const char* key) {
    return Status::error(msg::io_npy_header_missing_key, key);
  }

  std::string_view take_word() {
    const size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // A Python string literal in single or double quotes, without escapes (NumPy's keys and
  // descrs never need them).
  // `at_end` and `at_byte` say what was expected (see found()).
  Status parse_string(const MessageText& at_end, const MessageText& at_byte, std::string_view& out) {
    const char quote = peek();
    if (quote != '\'' && quote != '"') return found(at_end, at_byte);
    const size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\') return Status::error(msg::io_npy_header_escape);
      if (text_[pos_] == '\n') break;
      ++pos_;
    }
    if (pos_ >= text_.size() || text_[pos_] != quote)
      return Status::error(msg::io_npy_header_unterminated_string, printable(text_.substr(start - 1, pos_ - start + 1)));
    out = text_.substr(start, pos_ - start);
    ++pos_;
    return Status::success();
  }

  // shape := '(' ')' | '(' int ',' ')' | '(' int (',' int)+ [','] ')', ints non-negative
  // decimals as Python writes them. The raw tuple text goes into the messages.
  Status parse_shape(std::vector<std::int64_t>& shape) {
    if (peek() != '(') {
      if (peek() == '[') return Status::error(msg::io_npy_shape_is_list);
      return found(msg::io_npy_shape_not_tuple_end, msg::io_npy_shape_not_tuple_at);
    }
    const size_t open = pos_;
    const size_t close = text_.find(')', open);
    if (close == std::string_view::npos) return Status::error(msg::io_npy_header_unterminated_shape);
    const std::string_view tuple = text_.substr(open, close - open + 1);
    const std::string shown = printable(tuple, 80);
    pos_ = close + 1;

    // Split the inside at commas; a trailing comma leaves one empty last part.
    std::vector<std::string_view> parts;
    const std::string_view inside = tuple.substr(1, tuple.size() - 2);
    size_t start = 0;
    for (;;) {
      const size_t comma = inside.find(',', start);
      parts.push_back(trim(inside.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    shape.clear();
    if (parts.size() == 1 && parts[0].empty()) return Status::success();  // () : 0-d
    const bool trailing_comma = parts.size() > 1 && parts.back().empty();
    if (trailing_comma) parts.pop_back();
    if (parts.size() == 1 && !trailing_comma)
      return Status::error(msg::io_npy_shape_missing_comma, shown);
    if (parts.size() > static_cast<size_t>(kNpyMaxDims))
      return Status::error(msg::io_npy_too_many_dims, parts.size(), kNpyMaxDims);
    for (std::string_view p : parts) {
      if (p.empty()) return Status::error(msg::io_npy_shape_empty_dim, shown);
      const bool negative = p[0] == '-';
      const std::string_view digits = negative ? trim(p.substr(1)) : p;
      bool all_digits = !digits.empty();
      for (char c : digits) all_digits = all_digits && c >= '0' && c <= '9';
      if (!all_digits) return Status::error(msg::io_npy_shape_not_integer, shown, printable(p));
      if (negative) return Status::error(msg::io_npy_negative_dim, shown, printable(p));
      if (digits.size() > 1 && digits[0] == '0')
        return Status::error(msg::io_npy_shape_leading_zero, shown, printable(p));
      std::int64_t value = 0;
      for (char c : digits) {
        const int digit = c - '0';
        if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
          return Status::error(msg::io_npy_shape_dim_overflow, shown, printable(p));
        value = value * 10 + digit;
      }
      shape.push_back(value);
    }
    return Status::success();
  }

  static std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// descr -> dtype. Multi-byte types must say '<'; a one-byte bool may say any byte order.
Status dtype_from_descr(std::string_view descr, NpyDtype& dtype) {
  const std::string shown = quoted(descr);
  const char order = descr.empty() ? '\0' : descr[0];
  const std::string_view code = descr.size() == 3 ? descr.substr(1) : std::string_view();
  const bool known_order = order == '<' || order == '>' || order == '=' || order == '|';
  if (!known_order || code.empty()) return Status::error(msg::io_npy_unsupported_dtype, shown);
  if (code == "b1") {
    dtype = NpyDtype::Bool;
    return Status::success();
  }
  if (code == "f4") dtype = NpyDtype::Float32;
  else if (code == "f8") dtype = NpyDtype::Float64;
  else if (code == "f2") dtype = NpyDtype::Float16;
  else if (code == "u2") dtype = NpyDtype::UInt16;
  else if (code == "i4") dtype = NpyDtype::Int32;
  else if (code == "i8") dtype = NpyDtype::Int64;
  else return Status::error(msg::io_npy_unsupported_dtype, shown);
  const std::string little = "'<" + std::string(code) + "'";
  if (order == '>')
    return Status::error(msg::io_npy_big_endian_dtype, shown, little);
  if (order != '<') return Status::error(msg::io_npy_dtype_no_byte_order, shown, little);
  return Status::success();
}

}  // namespace

// ---- 4 parse_npy -----------------------------------------------------------------------
namespace {

// Steps 1-3 of every .npy file: magic, version, header length, the header dict. Gives the
// fields and where the data starts (inside the file, checked).
Status parse_prefix(const std::uint8_t* bytes, std::size_t size, HeaderFields& f, std::size_t& data_start) {
  // 1 magic and version.
  if (size < 6) return Status::error(msg::io_npy_too_short, size);
  if (std::memcmp(bytes, kNpyMagic, 6) != 0) return Status::error(msg::io_npy_bad_magic);
  if (size < 8) return Status::error(msg::io_npy_no_version);
  const int major = bytes[6], minor = bytes[7];
  if (!((major == 1 || major == 2 || major == 3) && minor == 0))
    return Status::error(msg::io_npy_unsupported_version, major, minor);

  // 2 header length: 2 bytes in 1.0, 4 in 2.0 and 3.0. The header must lie inside the file.
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (size < 8 + length_bytes)
    return Status::error(msg::io_npy_no_header_length, length_bytes);
  const std::uint64_t header_length = major == 1 ? load_le16(bytes + 8) : load_le32(bytes + 8);
  const std::size_t header_start = 8 + length_bytes;
  const std::size_t after_prefix = size - header_start;
  if (header_length > after_prefix)
    return Status::error(msg::io_npy_header_past_end, header_length, after_prefix);
  if (header_length == 0) return Status::error(msg::io_npy_header_empty);

  // 3 the dict, then the meaning of its three fields.
  const std::string_view header(reinterpret_cast<const char*>(bytes + header_start),
                                static_cast<std::size_t>(header_length));
  Status s = HeaderParser(header).parse(f);
  if (!s.ok) return s;
  data_start = header_start + static_cast<std::size_t>(header_length);
  return Status::success();
}

}  // namespace

Status parse_npy_header(const std::uint8_t* bytes, std::size_t size, NpyArray& out, std::size_t& data_offset) {
  HeaderFields f;
  std::size_t data_start = 0;
  Status s = parse_prefix(bytes, size, f, data_start);
  if (!s.ok) return s;
  NpyDtype dtype = NpyDtype::Float32;
  s = dtype_from_descr(f.descr, dtype);
  if (!s.ok) return s;
  if (f.fortran_order == "True")
    return Status::error(msg::io_npy_fortran_order);
  std::int64_t elements = 0;
  s = check_shape(f.shape, npy_itemsize(dtype), elements);
  if (!s.ok) return s;

  // 4 data: exactly size * itemsize bytes.
  const std::uint64_t have = size - data_start;
  const std::uint64_t need = static_cast<std::uint64_t>(elements) * npy_itemsize(dtype);
  if (have < need) return Status::error(msg::io_npy_data_truncated, need, have);
  if (have > need) return Status::error(msg::io_npy_data_trailing, need, have);
  out.dtype = dtype;
  out.shape = std::move(f.shape);
  out.data.clear();
  data_offset = data_start;
  return Status::success();
}

Status parse_npy(const std::uint8_t* bytes, std::size_t size, NpyArray& out) {
  NpyArray a;
  std::size_t data_start = 0;
  if (Status s = parse_npy_header(bytes, size, a, data_start); !s.ok) return s;
  if (a.dtype == NpyDtype::Bool)
    for (std::size_t i = data_start; i < size; ++i)
      if (bytes[i] > 1)
        return Status::error(msg::io_npy_bool_byte, bytes[i], i - data_start);
  a.data.assign(bytes + data_start, bytes + size);
  out = std::move(a);
  return Status::success();
}

Status parse_npy_strings(const std::uint8_t* bytes, std::size_t size, std::vector<std::int64_t>& shape,
                         std::vector<std::string>& out) {
  HeaderFields f;
  std::size_t data_start = 0;
  Status s = parse_prefix(bytes, size, f, data_start);
  if (!s.ok) return s;
  // descr: '<U' or '|S' (also '=' / '>' for U, which we refuse below) and a width.
  const std::string_view descr = f.descr;
  if (descr == "|O" || descr == "O")
    return Status::error(msg::io_npy_strings_pickled);
  if (descr.size() < 3 || (descr.substr(0, 2) != "<U" && descr.substr(0, 2) != "|S" && descr.substr(0, 2) != ">U"))
    return Status::error(msg::io_npy_strings_wrong_dtype, quoted(descr));
  if (descr[0] == '>') return Status::error(msg::io_npy_strings_big_endian, quoted(descr));
  const bool ucs4 = descr[1] == 'U';
  std::int64_t width = 0;
  for (char c : descr.substr(2)) {
    if (c < '0' || c > '9' || width > 1000000) return Status::error(msg::io_npy_strings_invalid_dtype, quoted(descr));
    width = width * 10 + (c - '0');
  }
  if (width == 0) return Status::error(msg::io_npy_strings_zero_width, quoted(descr));
  if (f.fortran_order == "True") return Status::error(msg::io_npy_strings_fortran_order);
  if (f.shape.size() > 2) return Status::error(msg::io_npy_strings_bad_rank, npy_shape_string(f.shape));
  const std::size_t unit = ucs4 ? 4 : 1;
  std::int64_t elements = 0;
  s = check_shape(f.shape, static_cast<std::size_t>(width) * unit, elements);
  if (!s.ok) return s;
  const std::uint64_t need = static_cast<std::uint64_t>(elements) * static_cast<std::uint64_t>(width) * unit;
  if (need > static_cast<std::uint64_t>(kNpyMaxStringBytes))
    return Status::error(msg::io_npy_strings_too_large, need, kNpyMaxStringBytes >> 20);
  const std::uint64_t have = size - data_start;
  if (have != need)
    return Status::error(have < need ? msg::io_npy_data_truncated : msg::io_npy_data_trailing, need, have);
  std::vector<std::string> strings;
  strings.reserve(static_cast<std::size_t>(elements));
  const std::uint8_t* p = bytes + data_start;
  for (std::int64_t e = 0; e < elements; ++e) {
    std::string text;
    for (std::int64_t c = 0; c < width; ++c, p += unit) {
      std::uint32_t cp = ucs4 ? load_le32(p) : *p;
      if (cp == 0) continue;  // NUL padding (NumPy strips trailing NULs)
      if (!ucs4 && cp >= 0x80) cp = 0xFFFD;  // bytes of unknown encoding: shown as a replacement
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return Status::error(msg::io_npy_strings_bad_code_point, e, cp);
      text += encode_utf8(cp);
    }
    strings.push_back(std::move(text));
  }
  shape = f.shape;
  out = std::move(strings);
  return Status::success();
}

// ---- 5 serialize_npy -------------------------------------------------------------------
std::vector<std::uint8_t> serialize_npy(const NpyArray& array) {
  if (!validate_npy_array(array).ok) return {};
  // The dict as NumPy's format.py writes it: keys sorted, repr() values, ", " after each.
  std::string header = std::string("{'descr': '") + npy_descr(array.dtype) +
                       "', 'fortran_order': False, 'shape': " + npy_shape_string(array.shape) + ", }";
  // NumPy leaves room for the first axis to grow to 21 digits (GROWTH_AXIS_MAX_DIGITS),
  // so the header can be rewritten in place when appending.
  if (!array.shape.empty()) {
    const size_t digits = std::to_string(array.shape[0]).size();
    if (digits < 21) header.append(21 - digits, ' ');
  }
  // Pad so that magic + version + length + header + '\n' is a multiple of 64. As in
  // NumPy, a header that is already aligned still gets 64 spaces (padlen = 64 - 0).
  const size_t prefix = 6 + 2 + 2;
  const size_t padding = 64 - (prefix + header.size() + 1) % 64;
  header.append(padding, ' ');
  header += '\n';
  // Format 1.0 has a 16-bit length; at most kNpyMaxDims dimensions keep us far below it.
  ByteWriter out;
  out.bytes().reserve(prefix + header.size() + array.data.size());
  out.raw(kNpyMagic, 6);
  out.u8(1);
  out.u8(0);
  out.u16(static_cast<std::uint16_t>(header.size()));
  out.raw(header.data(), header.size());
  out.raw(array.data.data(), array.data.size());
  return out.take();
}

// ---- 6 Files ---------------------------------------------------------------------------
namespace {

// `with_reason` with the system's text for `err` as its argument, or `unknown` when there is none.
Status os_error(const MessageText& with_reason, const MessageText& unknown, int err) {
  return err ? Status::error(with_reason, std::strerror(err)) : Status::error(unknown);
}

}  // namespace

Status read_npy_file(const std::string& path, NpyArray& out) {
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return os_error(msg::io_file_cannot_open, msg::io_file_cannot_open_unknown, errno).within(path);
  // Largest file that can hold kNpyMaxDataBytes of data and a generous header.
  const std::uint64_t max_file = static_cast<std::uint64_t>(kNpyMaxDataBytes) + (1u << 20);
  std::vector<std::uint8_t> bytes;
  const std::size_t chunk = 1 << 20;
  for (;;) {
    const std::size_t old_size = bytes.size();
    if (old_size > max_file) {
      std::fclose(f);
      return Status::error(msg::io_npy_file_too_large).within(path);
    }
    if (old_size == chunk) {
      // A big file: size the buffer once if the file can say how long it is (asked only
      // now, after a successful read, because a folder reports a huge bogus length).
      const long here = std::ftell(f);
      if (here >= 0 && std::fseek(f, 0, SEEK_END) == 0) {
        const long end = std::ftell(f);  // -1 beyond 2 GiB where long has 32 bits
        if (end > here && static_cast<std::uint64_t>(end) <= max_file) bytes.reserve(static_cast<std::size_t>(end));
        if (std::fseek(f, here, SEEK_SET) != 0) {
          std::fclose(f);
          return Status::error(msg::io_file_cannot_seek_back).within(path);
        }
      }
    }
    bytes.resize(old_size + chunk);
    errno = 0;
    const std::size_t got = std::fread(bytes.data() + old_size, 1, chunk, f);
    bytes.resize(old_size + got);
    if (got < chunk) break;
  }
  const int read_errno = errno;
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return os_error(msg::io_file_read_error, msg::io_file_read_error_unknown, read_errno).within(path);
  const Status s = parse_npy(bytes.data(), bytes.size(), out);
  if (!s.ok) return s.within(path);
  return s;
}

Status write_npy_file(const std::string& path, const NpyArray& array) {
  const Status valid = validate_npy_array(array);
  if (!valid.ok) return valid.within(path);
  const std::vector<std::uint8_t> bytes = serialize_npy(array);

  // 1 a new temporary beside the target ("x" = fail if it exists, so two writers never
  // share one); same folder, so the rename below does not cross file systems.
  const auto salt = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
  std::string temp;
  std::FILE* f = nullptr;
  for (unsigned attempt = 0; attempt < 100 && !f; ++attempt) {
    temp = path + ".tmp" + std::to_string((salt + attempt) % 1000000007ull);
    errno = 0;
    f = std::fopen(temp.c_str(), "wbx");
    if (!f && errno != EEXIST)
      return os_error(msg::io_file_cannot_create_temp, msg::io_file_cannot_create_temp_unknown, errno).within(path);
  }
  if (!f) return Status::error(msg::io_file_temp_names_taken).within(path);

  // 2 write everything, and check each step: a full disk may only show at fflush/fclose.
  errno = 0;
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = std::fflush(f) == 0 && ok;
  int err = errno;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    if (!err) err = errno;
    std::remove(temp.c_str());
    return os_error(msg::io_file_cannot_write, msg::io_file_cannot_write_unknown, err).within(path);
  }

  // 3 replace the target in one step.
  errno = 0;
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    err = errno;
    std::remove(temp.c_str());
    return os_error(msg::io_file_cannot_replace, msg::io_file_cannot_replace_unknown, err).within(path);
  }
  return Status::success();
}

// ---- 7 check_finite --------------------------------------------------------------------
Status check_finite(const NpyArray& array, const std::string& name) {
  const Status valid = validate_npy_array(array);
  if (!valid.ok) return valid.within(name);
  if (array.dtype != NpyDtype::Float32 && array.dtype != NpyDtype::Float64 && array.dtype != NpyDtype::Float16)
    return Status::success();
  const std::size_t n = array.data.size() / npy_itemsize(array.dtype);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = element_as_double(array, i);
    if (!std::isfinite(v)) return Status::error(msg::io_npy_non_finite, name, i);
    // The lab computes in float: a finite double that to_float turns into inf is as bad.
    if (!std::isfinite(static_cast<float>(v)))
      return Status::error(msg::io_npy_too_large_for_float, name, i);
  }
  return Status::success();
}

}  // namespace attn
