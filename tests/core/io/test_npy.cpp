// Tests of the .npy reader and writer (src/core/io/npy.h) and of the half and bfloat16
// decoding it uses (src/core/io/half_float.h).
//
// Everything except the last case works on bytes in memory, so it runs natively and
// under Node alike. The file case is compiled only natively: under Emscripten it does
// not exist, rather than existing and being skipped. The expected header texts are what
// NumPy 1.24's np.save writes for the same arrays.
#include "core/base/bytes.h"
#include "core/io/npy.h"
#include "core/io/half_float.h"
#include "core/base/rng.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using attn::NpyArray;
using attn::NpyDtype;

namespace {

using Bytes = std::vector<std::uint8_t>;

// A .npy file with the given header text (which should end in '\n') and data, with the
// header length field of format major.0: 2 bytes for 1, 4 bytes for 2 and 3.
Bytes npy_file(const std::string& header, const Bytes& data, int major = 1) {
  attn::ByteWriter out;
  out.raw(attn::kNpyMagic, 6);
  out.u8(static_cast<std::uint8_t>(major));
  out.u8(0);
  if (major == 1) out.u16(static_cast<std::uint16_t>(header.size()));
  else out.u32(static_cast<std::uint32_t>(header.size()));
  out.raw(header.data(), header.size());
  out.raw(data.data(), data.size());
  return out.take();
}

Bytes float_bytes(const std::vector<float>& values) {
  Bytes out(values.size() * 4);
  std::memcpy(out.data(), values.data(), out.size());  // both targets are little-endian
  return out;
}

attn::Status parse(const Bytes& bytes, NpyArray& out) { return attn::parse_npy(bytes.data(), bytes.size(), out); }

std::string npy_parse_error(const Bytes& bytes) {
  NpyArray out;
  const attn::Status s = parse(bytes, out);
  return s.ok ? "(parsed fine)" : s.message;
}

// The header text of a version 1.0 file.
std::string header_text(const Bytes& file) {
  const std::size_t n = file[8] | (file[9] << 8);
  return std::string(file.begin() + 10, file.begin() + 10 + static_cast<std::ptrdiff_t>(n));
}

// An array of the dtype with random, valid contents (bool bytes 0/1).
NpyArray random_array(NpyDtype dtype, const std::vector<std::int64_t>& shape, attn::Rng& rng) {
  NpyArray a;
  a.dtype = dtype;
  a.shape = shape;
  a.data.resize(static_cast<std::size_t>(a.size()) * attn::npy_itemsize(dtype));
  for (std::uint8_t& b : a.data) b = static_cast<std::uint8_t>(rng.next_u32() >> 24);
  if (dtype == NpyDtype::Bool)
    for (std::uint8_t& b : a.data) b &= 1;
  return a;
}

const NpyDtype kAllDtypes[] = {NpyDtype::Float32, NpyDtype::Float64, NpyDtype::Float16, NpyDtype::Bool,
                               NpyDtype::UInt16,  NpyDtype::Int32,   NpyDtype::Int64};

}  // namespace

TEST_CASE("half_to_float decodes known values, subnormals, inf and NaN exactly", "[npy]") {
  REQUIRE(attn::half_to_float(0x3C00) == 1.0f);
  REQUIRE(attn::half_to_float(0xC000) == -2.0f);
  REQUIRE(attn::half_to_float(0x7BFF) == 65504.0f);
  REQUIRE(attn::half_to_float(0x0001) == std::ldexp(1.0f, -24));     // smallest subnormal
  REQUIRE(attn::half_to_float(0x03FF) == std::ldexp(1023.0f, -24));  // largest subnormal
  REQUIRE(attn::half_to_float(0x0400) == std::ldexp(1.0f, -14));     // smallest normal
  REQUIRE(attn::half_to_float(0x3555) == 0.333251953125f);
  REQUIRE(attn::half_to_float(0x0000) == 0.0f);
  REQUIRE_FALSE(std::signbit(attn::half_to_float(0x0000)));
  REQUIRE(std::signbit(attn::half_to_float(0x8000)));
  REQUIRE(attn::half_to_float(0x7C00) == std::numeric_limits<float>::infinity());
  REQUIRE(attn::half_to_float(0xFC00) == -std::numeric_limits<float>::infinity());
  // NaNs keep sign and payload in the top mantissa bits, as NumPy's astype(np.float32):
  // 0x7C01 (signalling) -> 0x7F802000, 0xFE00 (quiet, negative) -> 0xFFC00000.
  const auto float_bits = [](float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  };
  REQUIRE(float_bits(attn::half_to_float(0x7C01)) == 0x7F802000u);
  REQUIRE(float_bits(attn::half_to_float(0xFE00)) == 0xFFC00000u);
  REQUIRE(std::isnan(attn::half_to_float(0x7E00)));
  REQUIRE(std::isnan(attn::half_to_float(0x7C01)));  // a NaN with a small payload stays NaN, not inf

  // All finite halves against the textbook formula, evaluated in double.
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const int sign = bits >> 15, exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
    if (exponent == 0x1F) continue;  // inf and NaN, checked above
    const double magnitude = exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
    const double expected = sign ? -magnitude : magnitude;
    const float got = attn::half_to_float(static_cast<std::uint16_t>(bits));
    if (static_cast<double>(got) != expected) FAIL("half " << bits << " decodes to " << got << ", expected " << expected);
  }
}

TEST_CASE("bfloat16_to_float takes the top half of a float32", "[npy]") {
  REQUIRE(attn::bfloat16_to_float(0x3F80) == 1.0f);
  REQUIRE(attn::bfloat16_to_float(0xC000) == -2.0f);
  REQUIRE(attn::bfloat16_to_float(0x4049) == 3.140625f);
  REQUIRE(attn::bfloat16_to_float(0x7F80) == std::numeric_limits<float>::infinity());
  REQUIRE(std::isnan(attn::bfloat16_to_float(0x7FC0)));
  REQUIRE(attn::bfloat16_to_float(0x0001) == std::ldexp(1.0f, -133));  // bfloat16 subnormal
}

TEST_CASE("serialize_npy writes NumPy's exact header for a (2, 3) float32 array", "[npy]") {
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  const Bytes file = attn::serialize_npy(NpyArray::from_float({2, 3}, values.data()));
  // np.save(f, np.arange(1, 7, dtype=np.float32).reshape(2, 3)): magic, version 1.0,
  // header length 118 (0x76), then the dict padded with spaces and a '\n' so that the
  // data starts at byte 128.
  REQUIRE(file.size() == 128 + 24);
  const Bytes prefix = {0x93, 'N', 'U', 'M', 'P', 'Y', 0x01, 0x00, 0x76, 0x00};
  REQUIRE(Bytes(file.begin(), file.begin() + 10) == prefix);
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  REQUIRE(header_text(file) == dict + std::string(118 - 1 - dict.size(), ' ') + "\n");
  REQUIRE(Bytes(file.begin() + 128, file.end()) == float_bytes(values));

  // Other shapes and dtypes, as NumPy 1.24 writes them (including its 21-digit room for
  // growing the first axis, which shows only once the header would cross 128 bytes).
  const auto padded = [](const std::string& d) { return d + std::string(118 - 1 - d.size(), ' ') + "\n"; };
  const double x = 1.5;
  REQUIRE(header_text(attn::serialize_npy(NpyArray::from_double({}, &x))) ==
          padded("{'descr': '<f8', 'fortran_order': False, 'shape': (), }"));
  const std::uint8_t none[1] = {0};
  REQUIRE(header_text(attn::serialize_npy(NpyArray::from_bool({0, 3}, none))) ==
          padded("{'descr': '|b1', 'fortran_order': False, 'shape': (0, 3), }"));
  attn::Rng rng(1);
  REQUIRE(header_text(attn::serialize_npy(random_array(NpyDtype::Int64, {2, 3, 4}, rng))) ==
          padded("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3, 4), }"));
  // 20 ones: the dict (113 characters) fits 128 bytes, but not with the growth room: 192.
  const Bytes long_shape = attn::serialize_npy(random_array(NpyDtype::Bool, std::vector<std::int64_t>(20, 1), rng));
  REQUIRE(long_shape.size() == 192 + 1);
}

TEST_CASE("every dtype round-trips through serialize_npy and parse_npy", "[npy]") {
  attn::Rng rng(42);
  const std::vector<std::vector<std::int64_t>> shapes = {{}, {5}, {2, 3, 4}, {0, 3}, {1, 1, 7}};
  for (NpyDtype dtype : kAllDtypes) {
    for (const std::vector<std::int64_t>& shape : shapes) {
      const NpyArray a = random_array(dtype, shape, rng);
      CAPTURE(attn::npy_descr(dtype), attn::npy_shape_string(shape));
      REQUIRE(attn::validate_npy_array(a).ok);
      const Bytes file = attn::serialize_npy(a);
      REQUIRE((file.size() - a.data.size()) % 64 == 0);
      NpyArray b;
      const attn::Status s = parse(file, b);
      INFO(s.message);
      REQUIRE(s.ok);
      REQUIRE(b.dtype == a.dtype);
      REQUIRE(b.shape == a.shape);
      REQUIRE(b.data == a.data);
      REQUIRE(attn::serialize_npy(b) == file);
    }
  }
  // The makers store the values themselves.
  const std::vector<float> f = {1.5f, -0.0f, std::numeric_limits<float>::infinity()};
  NpyArray back;
  REQUIRE(parse(attn::serialize_npy(NpyArray::from_float({3}, f.data())), back).ok);
  const std::vector<float> f_back = back.to_float();
  REQUIRE(f_back.size() == 3);
  REQUIRE(std::memcmp(f_back.data(), f.data(), 12) == 0);
  const double d[2] = {0.1, -1e300};
  REQUIRE(parse(attn::serialize_npy(NpyArray::from_double({2, 1}, d)), back).ok);
  REQUIRE(back.dtype == NpyDtype::Float64);
  REQUIRE(back.data.size() == 16);
  REQUIRE(std::memcmp(back.data.data(), d, 16) == 0);
  const std::uint8_t flags[3] = {0, 7, 1};
  REQUIRE(parse(attn::serialize_npy(NpyArray::from_bool({3}, flags)), back).ok);
  REQUIRE(back.data == Bytes{0, 1, 1});
}

TEST_CASE("hand-built headers: version 1.0, 2.0, 3.0, quotes, key order, spacing", "[npy]") {
  const Bytes data = float_bytes({1, 2, 3, 4, 5, 6});
  const auto check = [&](const Bytes& file) {
    NpyArray a;
    const attn::Status s = parse(file, a);
    INFO(s.message);
    REQUIRE(s.ok);
    REQUIRE(a.dtype == NpyDtype::Float32);
    REQUIRE(a.shape == std::vector<std::int64_t>{3, 2});
    REQUIRE(a.to_float() == std::vector<float>{1, 2, 3, 4, 5, 6});
  };
  // Unaligned, no trailing comma, no padding.
  check(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2)}\n", data, 1));
  // Version 2.0 (4-byte length), double quotes, another key order, padding.
  check(npy_file("{\"shape\": (3, 2,), \"descr\": \"<f4\", \"fortran_order\": False,}    \n", data, 2));
  check(npy_file("{'fortran_order':False,'shape':(3,2),'descr':'<f4'}\n", data, 3));
  check(npy_file("  {  'descr' : '<f4' ,\t'fortran_order' : False , 'shape' : ( 3 , 2 ) , }  \n", data, 1));

  NpyArray a;
  REQUIRE(parse(npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n", Bytes(8, 0)), a).ok);
  REQUIRE(a.shape.empty());
  REQUIRE(a.size() == 1);
  REQUIRE(parse(npy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n", Bytes{1, 0, 1}), a).ok);
  REQUIRE(a.dtype == NpyDtype::Bool);
  REQUIRE(a.to_bool() == Bytes{1, 0, 1});
  for (const char* bool_descr : {"'=b1'", "'<b1'"}) {
    const std::string header = std::string("{'descr': ") + bool_descr + ", 'fortran_order': False, 'shape': (1,), }\n";
    REQUIRE(parse(npy_file(header, Bytes{1}), a).ok);
  }
  REQUIRE(parse(npy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (0,), }\n", {}), a).ok);
  REQUIRE(a.size() == 0);
}

TEST_CASE("malformed files are refused with a message that names the problem", "[npy]") {
  const Bytes data24 = float_bytes({1, 2, 3, 4, 5, 6});
  const auto with_shape = [](const std::string& shape, const std::string& descr = "<f4") {
    return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }\n";
  };
  const Bytes good = npy_file(with_shape("(2, 3)"), data24);
  REQUIRE(npy_parse_error(good) == "(parsed fine)");

  struct Case {
    const char* what;
    Bytes file;
    std::string message;
  };
  Bytes bad_magic = good;
  bad_magic[5] = 'X';
  Bytes length_past_end = good;
  length_past_end[8] = 200;
  Bytes bad_version = good;
  bad_version[6] = 4;
  const std::vector<Case> cases = {
      {"bad magic", bad_magic, "not a .npy file: bad magic (expected \\x93NUMPY)"},
      {"shorter than the magic", Bytes{0x93, 'N', 'U'}, "truncated: file is 3 bytes, shorter than the .npy magic"},
      {"truncated header length", Bytes(good.begin(), good.begin() + 9),
       "truncated: file ends inside the 2-byte header length"},
      {"truncated v2 header length", Bytes{0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 1, 0, 0},
       "truncated: file ends inside the 4-byte header length"},
      {"header length past the end", Bytes(length_past_end.begin(), length_past_end.begin() + 70),
       "truncated: header length is 200 bytes, only 60 follow"},
      {"unknown version", bad_version, "unsupported .npy format version 4.0"},
      {"missing key", npy_file("{'descr': '<f4', 'fortran_order': False, }\n", data24), "header is missing key 'shape'"},
      {"extra key", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': 1, }\n", data24),
       "unexpected key 'extra' in header (only 'descr', 'fortran_order', 'shape' are allowed)"},
      {"duplicate key", npy_file("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}\n", data24),
       "duplicate key 'descr' in header"},
      {"big-endian", npy_file(with_shape("(2, 3)", ">f4"), data24),
       "big-endian dtype '>f4' is not supported (save it as '<f4')"},
      {"complex", npy_file(with_shape("(2, 3)", "<c8"), data24), "unsupported dtype '<c8'"},
      {"native order", npy_file(with_shape("(2, 3)", "=f4"), data24),
       "dtype '=f4' does not say its byte order (expected '<f4')"},
      {"structured", npy_file("{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (2, 3), }\n", data24),
       "structured dtypes (descr is a list) are not supported"},
      {"fortran order", npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }\n", data24),
       "fortran_order arrays are not supported (save np.ascontiguousarray(a))"},
      {"fortran_order not a bool", npy_file("{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3), }\n", data24),
       "fortran_order must be True or False, found '0'"},
      {"negative shape", npy_file(with_shape("(2, -1)"), data24), "shape (2, -1) is invalid: dimension -1 is negative"},
      {"non-integer shape", npy_file(with_shape("(2, 2.5)"), data24),
       "shape (2, 2.5) is invalid: '2.5' is not a non-negative integer"},
      {"leading zero", npy_file(with_shape("(02, 3)"), data24), "shape (02, 3) is invalid: '02' has a leading zero"},
      {"empty dimension", npy_file(with_shape("(2,, 3)"), data24), "shape (2,, 3) is invalid: empty dimension"},
      {"1-d without comma", npy_file(with_shape("(6)"), data24), "shape (6) is not a tuple (a 1-d shape is written (n,))"},
      {"list shape", npy_file(with_shape("[2, 3]"), data24), "shape must be a tuple, found a list"},
      {"overflowing shape", npy_file(with_shape("(4611686018427387904, 4)"), data24),
       "shape (4611686018427387904, 4) is invalid: its byte size overflows int64"},
      {"overflow hidden by a zero", npy_file(with_shape("(0, 4611686018427387904)"), {}),
       "shape (0, 4611686018427387904) is invalid: its byte size overflows int64"},
      {"beyond int64", npy_file(with_shape("(99999999999999999999,)"), data24),
       "shape (99999999999999999999,) is invalid: dimension 99999999999999999999 does not fit in int64"},
      {"over the cap", npy_file(with_shape("(536870913,)"), data24),
       "shape (536870913,) needs 2147483652 bytes of data, more than the 2 GiB limit"},
      {"exactly the cap", npy_file(with_shape("(536870912,)"), data24),
       "truncated: header says 2147483648 bytes of data, file has 24"},
      {"truncated data", npy_file(with_shape("(2, 3)"), Bytes(20, 0)), "truncated: header says 24 bytes of data, file has 20"},
      {"trailing data", npy_file(with_shape("(2, 3)"), Bytes(28, 0)),
       "trailing bytes: header says 24 bytes of data, file has 28"},
      {"bool byte 2", npy_file(with_shape("(3,)", "|b1"), Bytes{1, 2, 0}),
       "bool array has byte 2 at index 1; only 0 and 1 are allowed"},
      {"no final newline", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }  ", data24),
       "header does not end with '\\n'"},
      {"text after the dict", npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } x\n", data24),
       "unexpected text after the header dict: 'x\\x0a'"},
      {"misplaced quote", npy_file("{'descr: '<f4'}\n", data24),
       "header: expected ':' after key 'descr: ', found '<' at header byte 10"},
      {"unterminated string", npy_file("{'descr}\n", data24), "header: unterminated string 'descr}"},
      {"escape in a string", npy_file("{'de\\x73cr': '<f4'}\n", data24),
       "header: escape sequences in strings are not supported"},
      {"not a dict", npy_file("['descr', '<f4']\n", data24), "header is not a dict: expected '{', found '[' at header byte 0"},
      {"empty header", npy_file("", data24), "header is empty"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    REQUIRE(npy_parse_error(c.file) == c.message);
  }
  // Every proper prefix of a valid file is refused as truncated.
  for (std::size_t n = 0; n < good.size(); ++n) {
    INFO("prefix of " << n << " bytes");
    REQUIRE(npy_parse_error(Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n))).rfind("truncated", 0) == 0);
  }
}

TEST_CASE("random mutations of valid files never crash the parser", "[npy]") {
  attn::Rng rng(2024);
  const std::vector<float> values = {1, -2, 3.5f, 0, 5, 6};
  const std::uint8_t flags[4] = {1, 0, 0, 1};
  const std::vector<Bytes> seeds = {
      attn::serialize_npy(NpyArray::from_float({2, 3}, values.data())),
      attn::serialize_npy(NpyArray::from_bool({2, 2}, flags)),
      npy_file("{\"shape\": (6,), \"fortran_order\": False, \"descr\": \"<f4\"}\n", float_bytes(values), 2),
  };
  // Printable header characters half of the time: they reach deeper into the dict parser.
  const std::string alphabet = "0123456789(),:'\" {}-<>|=fiubTrueFals\n";
  int parsed = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    Bytes file = seeds[trial % seeds.size()];
    const int edits = 1 + static_cast<int>(rng.next_u32() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::uint32_t pick = rng.next_u32();
      const std::uint8_t value = (pick & 1) ? static_cast<std::uint8_t>(pick >> 24)
                                            : static_cast<std::uint8_t>(alphabet[(pick >> 8) % alphabet.size()]);
      const std::size_t at = rng.next_u32() % (file.size() + 1);
      switch (rng.next_u32() % 3) {
        case 0:  // replace
          if (at < file.size()) file[at] = value;
          break;
        case 1:  // insert
          file.insert(file.begin() + static_cast<std::ptrdiff_t>(at), value);
          break;
        default:  // delete
          if (at < file.size()) file.erase(file.begin() + static_cast<std::ptrdiff_t>(at));
      }
    }
    NpyArray a;
    const attn::Status s = parse(file, a);
    if (s.ok) {
      ++parsed;
      REQUIRE(attn::validate_npy_array(a).ok);
      REQUIRE(a.to_float().size() == static_cast<std::size_t>(a.size()));
    } else {
      REQUIRE_FALSE(s.message.empty());
      REQUIRE(s.message.find('\n') == std::string::npos);  // one line, whatever the input
    }
  }
  // Edits that only touch padding or data leave a valid file, so some must parse.
  REQUIRE(parsed > 0);
}

TEST_CASE("to_float and to_bool convert every dtype", "[npy]") {
  NpyArray a;
  a.dtype = NpyDtype::Int32;
  a.shape = {3};
  a.data = {0xFF, 0xFF, 0xFF, 0xFF, 7, 0, 0, 0, 0, 0, 0, 0};  // -1, 7, 0
  REQUIRE(a.to_float() == std::vector<float>{-1, 7, 0});
  REQUIRE(a.to_bool() == Bytes{1, 1, 0});

  a.dtype = NpyDtype::Int64;
  a.shape = {2};
  a.data = {0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0x40};  // -2, 2^62
  REQUIRE(a.to_float() == std::vector<float>{-2.0f, std::ldexp(1.0f, 62)});

  a.dtype = NpyDtype::UInt16;  // the integer value: bfloat16 data needs bfloat16_to_float
  a.shape = {2};
  a.data = {0x80, 0x3F, 0xFF, 0xFF};
  REQUIRE(a.to_float() == std::vector<float>{16256.0f, 65535.0f});

  a.dtype = NpyDtype::Float16;
  a.shape = {2, 2};
  a.data = {0x00, 0x3C, 0x00, 0x80, 0x00, 0x7E, 0x01, 0x00};  // 1, -0, NaN, 2^-24
  const std::vector<float> h = a.to_float();
  REQUIRE(h.size() == 4);
  REQUIRE(h[0] == 1.0f);
  REQUIRE(std::signbit(h[1]));
  REQUIRE(std::isnan(h[2]));
  REQUIRE(h[3] == std::ldexp(1.0f, -24));
  a.data[4] = 0x01;  // element 2 becomes 0x7C01, a signalling NaN: to_float keeps its bits
  a.data[5] = 0x7C;
  const float snan = a.to_float()[2];
  std::uint32_t snan_bits;
  std::memcpy(&snan_bits, &snan, 4);
  REQUIRE(snan_bits == 0x7F802000u);
  REQUIRE(a.to_bool() == Bytes{1, 0, 1, 1});  // -0 is false, NaN is true, as in NumPy

  const double d[3] = {0.1, 1e300, -0.0};
  const NpyArray wide = NpyArray::from_double({3}, d);
  REQUIRE(wide.to_float()[0] == 0.1f);
  REQUIRE(std::isinf(wide.to_float()[1]));  // beyond float's range
  REQUIRE(wide.to_bool() == Bytes{1, 1, 0});

  const std::uint8_t flags[2] = {1, 0};
  REQUIRE(NpyArray::from_bool({2}, flags).to_float() == std::vector<float>{1, 0});

  // Inconsistent arrays convert to nothing rather than reading past their data.
  NpyArray short_data;
  short_data.shape = {4};
  short_data.data = Bytes(12, 0);
  REQUIRE(short_data.to_float().empty());
  REQUIRE(short_data.to_bool().empty());
  REQUIRE_FALSE(attn::validate_npy_array(short_data).ok);
  REQUIRE(attn::serialize_npy(short_data).empty());
  NpyArray negative;
  negative.shape = {2, -3};
  REQUIRE(negative.size() == -1);
  const NpyArray made = NpyArray::from_float({2, -3}, nullptr);
  REQUIRE(made.data.empty());
  REQUIRE(attn::validate_npy_array(made).message == "shape (2, -3) is invalid: dimension -3 is negative");
}

TEST_CASE("check_finite names the array and the first bad index", "[npy]") {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> good = {1, 2, 3, 4}, bad = {1, 2, inf, std::nanf("")};
  REQUIRE(attn::check_finite(NpyArray::from_float({2, 2}, good.data()), "q").ok);
  const attn::Status s = attn::check_finite(NpyArray::from_float({2, 2}, bad.data()), "q");
  REQUIRE_FALSE(s.ok);
  REQUIRE(s.message == "q contains NaN or Inf at index 2");
  const double d[2] = {0.0, std::nan("")};
  REQUIRE(attn::check_finite(NpyArray::from_double({2}, d), "k").message == "k contains NaN or Inf at index 1");
  const double huge[3] = {1.0, 3.4e38, 1e39};
  REQUIRE(attn::check_finite(NpyArray::from_double({3}, huge), "k").message ==
          "k contains a value too large for float at index 2");
  NpyArray half;
  half.dtype = NpyDtype::Float16;
  half.shape = {3};
  half.data = {0x00, 0x3C, 0xFF, 0x7B, 0x00, 0xFC};  // 1, 65504, -inf
  REQUIRE(attn::check_finite(half, "v").message == "v contains NaN or Inf at index 2");
  NpyArray ints;
  ints.dtype = NpyDtype::UInt16;
  ints.shape = {1};
  ints.data = {0x80, 0x7F};  // bfloat16 inf, but the file does not say it is bfloat16
  REQUIRE(attn::check_finite(ints, "ids").ok);
  NpyArray broken;
  broken.shape = {2};
  REQUIRE(attn::check_finite(broken, "x").message == "x: shape (2,) of '<f4' needs 8 bytes of data, the array holds 0");
}

#if !defined(__EMSCRIPTEN__)
// Native only: under Node the files would live in Emscripten's in-memory file system,
// which proves nothing about real folders; the byte-level cases above cover the format.
#include <chrono>
#include <filesystem>
#include <fstream>

TEST_CASE("read_npy_file and write_npy_file on a real folder", "[npy][file]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() /
                       ("attnlab-test-npy-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  REQUIRE(fs::create_directories(dir));
  const auto entries = [&] {
    std::vector<std::string> names;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    return names;
  };
  const auto file_bytes = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const std::string path = (dir / "a.npy").string();

  // Write, read back, byte-identical to serialize_npy, no temporary left behind.
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  const NpyArray a = NpyArray::from_float({2, 3}, values.data());
  attn::Status s = attn::write_npy_file(path, a);
  INFO(s.message);
  REQUIRE(s.ok);
  REQUIRE(file_bytes(path) == attn::serialize_npy(a));
  REQUIRE(entries() == std::vector<std::string>{"a.npy"});
  NpyArray back;
  REQUIRE(attn::read_npy_file(path, back).ok);
  REQUIRE(back.shape == a.shape);
  REQUIRE(back.to_float() == values);

  // Overwrite with another array.
  const std::uint8_t flags[2] = {1, 0};
  REQUIRE(attn::write_npy_file(path, NpyArray::from_bool({2}, flags)).ok);
  REQUIRE(attn::read_npy_file(path, back).ok);
  REQUIRE(back.dtype == NpyDtype::Bool);
  REQUIRE(entries() == std::vector<std::string>{"a.npy"});

  // A refused write leaves the old file as it was and no temporary.
  const Bytes before = file_bytes(path);
  NpyArray broken;
  broken.shape = {3};
  s = attn::write_npy_file(path, broken);
  REQUIRE_FALSE(s.ok);
  REQUIRE(s.message == path + ": shape (3,) of '<f4' needs 12 bytes of data, the array holds 0");
  REQUIRE(file_bytes(path) == before);
  REQUIRE(entries() == std::vector<std::string>{"a.npy"});

  // A folder that does not exist: nothing is created.
  const std::string nowhere = (dir / "missing" / "b.npy").string();
  s = attn::write_npy_file(nowhere, a);
  REQUIRE(s.message == nowhere + ": cannot create a temporary file (No such file or directory)");
  REQUIRE(entries() == std::vector<std::string>{"a.npy"});

  // Reading: a missing file, a folder, a corrupt file; each message starts with the path.
  const std::string missing = (dir / "nope.npy").string();
  REQUIRE(attn::read_npy_file(missing, back).message == missing + ": cannot open (No such file or directory)");
  REQUIRE(attn::read_npy_file(dir.string(), back).message == dir.string() + ": read error (Is a directory)");
  const std::string bad = (dir / "bad.npy").string();
  {
    std::ofstream out(bad, std::ios::binary);
    out << "\x93NUMPY\x01";
    out.put('\0');
  }
  REQUIRE(attn::read_npy_file(bad, back).message == bad + ": truncated: file ends inside the 2-byte header length");

  fs::remove_all(dir);
}
#endif
