// The checks every door runs on text before a parser sees it (core/base/utf8.h's strict
// check, core/base/json_nesting.h): every class of ill-formed UTF-8 is found at its first
// byte, well-formed text of every length passes, and nesting is measured outside strings.
#include "core/base/json_nesting.h"
#include "core/base/utf8.h"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

namespace {
constexpr std::size_t kValid = std::string_view::npos;
}

TEST_CASE("first_invalid_utf8 accepts well-formed UTF-8 of every length", "[utf8]") {
  REQUIRE(attn::first_invalid_utf8("") == kValid);
  REQUIRE(attn::first_invalid_utf8("plain ASCII, with \x7f") == kValid);
  REQUIRE(attn::first_invalid_utf8("\xC2\x80 \xDF\xBF") == kValid);                   // U+0080, U+07FF
  REQUIRE(attn::first_invalid_utf8("\xE0\xA0\x80 \xED\x9F\xBF \xEE\x80\x80") == kValid);  // U+0800, U+D7FF, U+E000
  REQUIRE(attn::first_invalid_utf8("\xEF\xBF\xBD") == kValid);                        // U+FFFD itself
  REQUIRE(attn::first_invalid_utf8("\xF0\x90\x80\x80 \xF4\x8F\xBF\xBF") == kValid);   // U+10000, U+10FFFF
  REQUIRE(attn::first_invalid_utf8("猫追老鼠 🙂") == kValid);
  REQUIRE(attn::is_valid_utf8("注意力"));
}

TEST_CASE("first_invalid_utf8 finds every class of ill-formed UTF-8 at its first byte", "[utf8]") {
  const std::pair<std::string, std::size_t> bad[] = {
      {"\xC0\x80", 0},                 // overlong NUL (2 bytes)
      {"ab\xC1\xBF", 2},               // C1: always overlong
      {"\xE0\x80\x80", 0},             // overlong (3 bytes)
      {"\xE0\x9F\xBF", 0},             // overlong U+07FF
      {"\xF0\x80\x80\x80", 0},         // overlong (4 bytes)
      {"\xF0\x8F\xBF\xBF", 0},         // overlong U+FFFF
      {"x\xED\xA0\x80", 1},            // high surrogate U+D800
      {"\xED\xBF\xBF", 0},             // low surrogate U+DFFF
      {"\xED\xA0\xBD\xED\xB8\x80", 0}, // a surrogate pair written as two (CESU-8)
      {"\xF4\x90\x80\x80", 0},         // beyond U+10FFFF
      {"\xF5\x80\x80\x80", 0},         // lead bytes F5-FF
      {"\xF7\xBF\xBF\xBF", 0},
      {"\xFE", 0},
      {"\xFF", 0},
      {"abc\x80", 3},                  // a continuation byte without a lead
      {"\xBF", 0},
      {"\xC3", 0},                     // cut at the end
      {"ok\xE4\xB8", 2},
      {"\xF0\x9F\x99", 0},
      {"\xE4\xB8 mid", 0},             // cut in the middle
      {"\xE6\xB3\xA8\xFF\xE6\x84\x8F", 3},  // a valid character after an invalid one
  };
  for (const auto& [text, at] : bad) {
    INFO("bytes at " << at << " of a " << text.size() << "-byte text");
    REQUIRE(attn::first_invalid_utf8(text) == at);
    REQUIRE_FALSE(attn::is_valid_utf8(text));
  }
}

TEST_CASE("json_nesting_past counts brackets outside strings only", "[json]") {
  REQUIRE(attn::json_nesting_past("{}", 1) == kValid);
  REQUIRE(attn::json_nesting_past("{}", 0) == 0);
  REQUIRE(attn::json_nesting_past(R"({"a":[1,{"b":[2]}]})", 4) == kValid);
  REQUIRE(attn::json_nesting_past(R"({"a":[1,{"b":[2]}]})", 3) == 13);
  // Brackets inside strings, and escaped quotes inside strings, do not count.
  REQUIRE(attn::json_nesting_past(R"({"s":"[[[[{{{{"})", 1) == kValid);
  REQUIRE(attn::json_nesting_past(R"({"s":"\"[[[["})", 1) == kValid);
  REQUIRE(attn::json_nesting_past(R"(["\\",[[1]]])", 2) == 7);
  // Siblings do not add up; unmatched closers are left to the parser.
  REQUIRE(attn::json_nesting_past("[[],[],[]]", 2) == kValid);
  REQUIRE(attn::json_nesting_past("]]]]][[", 2) == kValid);
  const std::string deep = std::string(5000, '[') + std::string(5000, ']');
  REQUIRE(attn::json_nesting_past(deep, 16) == 16);
  REQUIRE(attn::json_nesting_past(deep, 5000) == kValid);
}
