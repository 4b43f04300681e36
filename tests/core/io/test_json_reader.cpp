// The resumable JSON reader of the import (core/io/json_reader.h): its numbers are strtod's to
// the bit, and reading in steps of any size builds the same value, or stops with the same
// message, as reading the text at once.
#include "core/io/json_reader.h"
#include "core/base/rng.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <cstring>
#include <string>
#include <vector>

using namespace attn;

namespace {

// The value as canonical text, to compare two readings.
std::string dump(const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Null: return "null";
    case JsonValue::Bool: return v.boolean ? "true" : "false";
    case JsonValue::Number: {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &v.number, 8);
      return std::string("n").append(std::to_string(bits));
    }
    case JsonValue::String: return "s(" + v.text + ")";
    case JsonValue::Numbers: {
      std::string out = "f[";
      for (float f : v.numbers) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        out += std::to_string(bits) + ",";
      }
      return out + "]";
    }
    case JsonValue::Array: {
      std::string out = "[";
      for (const JsonValue& item : v.items) out += dump(item) + ",";
      return out + "]";
    }
    case JsonValue::Object: {
      std::string out = "{";
      for (std::size_t i = 0; i < v.keys.size(); ++i) out += v.keys[i] + ":" + dump(v.items[i]) + ",";
      return out + "}";
    }
  }
  return "?";
}

struct Reading {
  std::string message;  // "" when the text was read whole
  std::string value;
  int steps = 0;
};

Reading read_in_steps(const std::string& text, std::size_t budget) {
  JsonReader reader(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  Reading r;
  Status s;
  while (s.ok && !reader.done()) {
    const std::size_t before = reader.position();
    s = reader.step(budget);
    ++r.steps;
    if (s.ok && !reader.done()) REQUIRE(reader.position() > before);  // every step reads on
  }
  r.message = s.message;
  if (s.ok) r.value = dump(reader.root());
  return r;
}

}  // namespace

namespace {

// A random decimal as files hold them: a sign or not, 1 to `max_digits` digits with a point
// anywhere, and an exponent in [low, high] one time in `exponent_every`.
std::string random_decimal(Rng& rng, int max_digits, int low, int high, int exponent_every) {
  std::string t = rng.next_u32() % 4 == 0 ? "-" : "";
  const int digits = 1 + static_cast<int>(rng.next_u32() % max_digits);
  const int point = static_cast<int>(rng.next_u32() % (digits + 1));
  t += std::to_string(rng.next_u32() % 10);
  for (int d = 1; d < digits; ++d) {
    if (d == point) t += '.';
    t += std::to_string(rng.next_u32() % 10);
  }
  if (rng.next_u32() % exponent_every == 0) {
    t += 'e';
    t += std::to_string(low + static_cast<int>(rng.next_u32() % (high - low + 1)));
  }
  return t;
}

// Texts on which two readings disagree: counted, not checked one by one (a million CHECKs
// are slow under the sanitizers); the first few are kept for the message.
struct Disagreements {
  int count = 0;
  std::string first;
  void add(const std::string& text) {
    if (++count <= 5) first += text + "  ";
  }
};

}  // namespace

TEST_CASE("json reader: numbers are strtod's, to the bit (the fast path and the rest)", "[json]") {
  Disagreements bad;
  auto same = [&bad](const std::string& t) {
    const double fast = json_number_value(t.data(), t.size());
    const double slow = std::strtod(t.c_str(), nullptr);
    if (std::memcmp(&fast, &slow, 8) != 0) bad.add(t);
  };
  for (const char* t : {"0", "-0", "0.1", "0.5", "-2.25", "1e22", "1e23", "1e-22", "1e-23", "123456789012345",
                        "1234567890123456", "9007199254740993", "0.000000000000000000001", "3.4028234663852886e38",
                        "1.17549435e-38", "2.5E+3", "7e0", "0.30000000000000004"})
    same(t);
  Rng rng(11);
  for (int i = 0; i < 200000; ++i) same(random_decimal(rng, 20, -30, 30, 3));
  INFO("disagreeing texts: " << bad.first);
  CHECK(bad.count == 0);
}

TEST_CASE("json reader: numbers in lists are read straight to float, as float(strtod) gives them, to the bit", "[json]") {
  Disagreements bad;
  auto same = [&bad](const std::string& t) {
    float fast = 12345.0f;
    const bool ok = json_float_value(t.data(), t.size(), fast);
    const double d = std::strtod(t.c_str(), nullptr);
    const bool in_range = std::isfinite(d) && std::fabs(d) <= std::numeric_limits<float>::max();
    const float slow = static_cast<float>(d);
    if (ok != in_range || (ok ? std::memcmp(&fast, &slow, 4) != 0 : fast != 12345.0f)) bad.add(t);  // refused: unchanged
  };
  for (const char* t : {"0", "-0", "0.0", "-0.000", "1", "0.1", "0.029030157253146172", "3.4028234663852886e38",
                        "3.4028235677973366e38", "3.5e38", "1e39", "-1e39", "1.401298464324817e-45", "7e-46", "7.1e-46",
                        "1.1754943508222875e-38", "16777217", "16777217.000000001", "33554435", "0.0000000000000000000000001"})
    same(t);
  Rng rng(5);
  // Python's repr of float32 values widened to double (what json.dump of tolist() writes),
  // at every scale a float has.
  for (int i = 0; i < 100000; ++i) {
    const float f = std::ldexp(1.0f + static_cast<float>(rng.uniform()), static_cast<int>(rng.next_u32() % 270) - 145);
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", static_cast<double>(f));
    same(text);
  }
  // Halfway points between neighbouring floats, and the numbers just either side of them:
  // the double the fast path computes is too close to call, so strtod decides.
  for (int i = 0; i < 25000; ++i) {
    const float f = std::ldexp(1.0f + static_cast<float>(rng.uniform()), static_cast<int>(rng.next_u32() % 250) - 130);
    const double half = (static_cast<double>(f) + static_cast<double>(std::nextafter(f, 1e30f))) / 2;
    for (const char* format : {"%.17g", "%.18g", "%.19g", "%.25g"}) {
      for (double x : {half, std::nextafter(half, 0.0), std::nextafter(half, 1e300)}) {
        char text[64];
        std::snprintf(text, sizeof text, format, x);
        same(text);
      }
    }
  }
  // Random decimals of 1 to 22 digits, half of them with exponents.
  for (int i = 0; i < 100000; ++i) same(random_decimal(rng, 22, -55, 44, 2));
  INFO("disagreeing texts: " << bad.first);
  CHECK(bad.count == 0);
}

TEST_CASE("json reader: read in steps of any size, the same value or the same message", "[json]") {
  const std::vector<std::string> texts = {
      R"({"format": "attnlab-attention", "version": 1, "attentions": [[[[0.75, 0.25], [0.5, 0.5]]]], "tokens": ["<s>", "\u732b"]})",
      "\xEF\xBB\xBF  {\"a\": [1, 2, 3], \"b\": [[], [\"x\", 1, true, null, {}]], \"c\": {\"d\": -0.5e-3}}  \n",
      R"({"s": "tab\tquote\"slash\/ \ud83d\ude00 lone \udc00"})",
      R"({"a": [1, "x"]})",
      R"({"a": [1, 2)",
      R"({"a": [[1, 2], 3]})",
      R"({"a": 1, "a": 2})",
      R"({"a" 1})",
      R"({"a": 1,})",
      R"({"a": [1e999]})",
      R"({"a": "unterminated)",
      R"({"a": 1} trailing)",
      R"({"a": tru})",
      "{\"a\": \"\x01\"}",
      "{\"a\":" + std::string(40, '[') + std::string(40, ']') + "}",
      "{\"a\":" + std::string(15, '[') + std::string(15, ']') + "}",
      "",
      "   ",
  };
  for (const std::string& text : texts) {
    const Reading whole = read_in_steps(text, static_cast<std::size_t>(-1));
    INFO(text << " -> " << whole.message);
    CHECK(whole.steps == 1);
    for (std::size_t budget : {1, 2, 3, 7, 64}) {
      const Reading stepped = read_in_steps(text, budget);
      CHECK(stepped.message == whole.message);
      CHECK(stepped.value == whole.value);
    }
  }
  // What the texts above must give.
  CHECK(read_in_steps(texts[1], 5).value ==
        "{a:f[1065353216,1073741824,1077936128,],b:[f[],[s(x),n4607182418800017408,true,null,{},],],"
        "c:{d:n13781122946144774652,},}");
  CHECK(read_in_steps(texts[2], 1).value == "{s:s(tab\tquote\"slash/ \xF0\x9F\x98\x80 lone \xEF\xBF\xBD),}");
  CHECK(read_in_steps(texts[3], 1).message == "JSON: an array mixes numbers with other values at byte 10");
  CHECK(read_in_steps(texts[4], 1).message == "JSON: expected ',' or ']' in an array at byte 11");
  CHECK(read_in_steps(texts[6], 1).message == "JSON: duplicate key \"a\" at byte 12");
  CHECK(read_in_steps(texts[11], 1).message == "JSON: unexpected text after the JSON value at byte 9");
  CHECK(read_in_steps(texts[14], 1).message.find("nesting deeper than 16") != std::string::npos);
  CHECK(read_in_steps(texts[15], 1).message.empty());
  CHECK(read_in_steps(texts[16], 1).message == "JSON: unexpected end of the text at byte 0");
}

TEST_CASE("json reader: a step reads about its budget; a repeated key is found among many", "[json]") {
  std::string text = "{\"m\": [";
  for (int i = 0; i < 20000; ++i) text += (i ? ", " : "") + std::to_string(i % 100) + ".25";
  text += "]}";
  const Reading r = read_in_steps(text, 1000);
  CHECK(r.message.empty());
  // Each step stops at the first token to cross its 1000 bytes (tokens here are 6 or less).
  CHECK(r.steps >= static_cast<int>(text.size() / 1006));
  CHECK(r.steps <= static_cast<int>(text.size() / 1000) + 1);

  // Values besides the numbers in lists are capped (each is a node in memory): at the cap
  // the text is read, one more is refused.
  const std::string four = R"({"a": [null, "x", [0.5, 0.25]]})";  // object, list, null, string, list
  for (std::size_t cap : {5, 4}) {
    JsonReader reader(reinterpret_cast<const std::uint8_t*>(four.data()), four.size(), cap);
    const Status s = reader.read_all();
    INFO(s.message);
    CHECK(s.ok == (cap == 5));
    if (cap == 4) CHECK(s.message == "JSON: more than 4 values besides numbers in lists (use .npz for larger data) at byte 18");
  }

  // 20,000 keys, and a repeat of the first at the end: found.
  std::string keys = "{";
  for (int i = 0; i < 20000; ++i) keys += "\"k" + std::to_string(i) + "\": 0, ";
  const Reading unique = read_in_steps(keys + "\"last\": 1}", static_cast<std::size_t>(-1));
  CHECK(unique.message.empty());
  const Reading repeated = read_in_steps(keys + "\"k0\": 1}", static_cast<std::size_t>(-1));
  CHECK(repeated.message.find("duplicate key \"k0\"") != std::string::npos);
}
