// UTF-8 decoding and encoding: the one copy that the tokenizer, the file readers (labels
// read from .npy, .npz and JSON), the doors of the state (links, sessions, messages, model
// files) and the UI use. Invalid input decodes to U+FFFD, one per maximal invalid subpart
// (the Unicode recommendation, and what a browser's TextDecoder does), so text from anywhere
// can always be drawn and written back as JSON; a door that refuses invalid text instead asks
// first_invalid_utf8 (the same rules: overlongs, surrogates, values above U+10FFFF and cut
// sequences are invalid).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

inline constexpr std::uint32_t kReplacementCharacter = 0xFFFD;

struct Utf8Decoded {
  std::uint32_t code_point = 0;
  int length = 0;         // bytes consumed; 0 only at the end of the input
  bool replaced = false;  // the bytes were invalid and code_point is U+FFFD
};

// One code point at byte pos of s (see utf8.cpp for the rules); length 0 at the end.
Utf8Decoded decode_utf8_at(std::string_view s, std::size_t pos);

// Appends the UTF-8 bytes of cp; surrogates and values above U+10FFFF give U+FFFD.
void append_utf8(std::string& out, std::uint32_t cp);

// Code points of utf8, with U+FFFD for each maximal invalid subpart. Not capped.
std::vector<std::uint32_t> decode_utf8(std::string_view utf8);

// The UTF-8 bytes of one code point; surrogates and values above U+10FFFF give U+FFFD.
std::string encode_utf8(std::uint32_t code_point);

// The byte offset of the first byte that is not well-formed UTF-8, or std::string_view::npos
// when all of utf8 is (the strict check of every door: docs/INPUT.md).
std::size_t first_invalid_utf8(std::string_view utf8);
inline bool is_valid_utf8(std::string_view utf8) { return first_invalid_utf8(utf8) == std::string_view::npos; }

// utf8 with U+FFFD for each maximal invalid subpart: text that can always be drawn and
// written back as JSON (labels read from files).
std::string repair_utf8(std::string_view utf8);

}  // namespace attn
