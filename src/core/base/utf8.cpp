#include "core/base/utf8.h"

namespace attn {

// One code point at byte pos of s, following Unicode's Table 3-7 of well-formed sequences.
// The second byte has a narrower range after E0, ED, F0 and F4: that is what rules out
// overlongs, surrogates and values above U+10FFFF without decoding them first. On the first
// byte that does not fit, the bytes read so far are one maximal invalid subpart and become one
// U+FFFD; the offending byte is left for the next call.
Utf8Decoded decode_utf8_at(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return {};
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = byte(pos);
  if (lead < 0x80) return {lead, 1, false};

  int continuation_bytes = 0;
  std::uint32_t code_point = 0;
  unsigned char second_lo = 0x80, second_hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    continuation_bytes = 1;
    code_point = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    continuation_bytes = 2;
    code_point = lead & 0x0Fu;
    if (lead == 0xE0) second_lo = 0xA0;  // below: overlong
    if (lead == 0xED) second_hi = 0x9F;  // above: UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    continuation_bytes = 3;
    code_point = lead & 0x07u;
    if (lead == 0xF0) second_lo = 0x90;  // below: overlong
    if (lead == 0xF4) second_hi = 0x8F;  // above: beyond U+10FFFF
  } else {
    // 80-BF (continuation without a lead), C0/C1 (always overlong), F5-FF (beyond U+10FFFF).
    return {kReplacementCharacter, 1, true};
  }

  int length = 1;
  unsigned char lo = second_lo, hi = second_hi;
  for (int k = 0; k < continuation_bytes; ++k) {
    if (pos + length >= s.size()) return {kReplacementCharacter, length, true};
    const unsigned char b = byte(pos + length);
    if (b < lo || b > hi) return {kReplacementCharacter, length, true};
    code_point = (code_point << 6) | (b & 0x3Fu);
    ++length;
    lo = 0x80;
    hi = 0xBF;
  }
  return {code_point, length, false};
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = kReplacementCharacter;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::vector<std::uint32_t> decode_utf8(std::string_view utf8) {
  std::vector<std::uint32_t> code_points;
  code_points.reserve(utf8.size());
  for (std::size_t pos = 0; pos < utf8.size();) {
    const Utf8Decoded d = decode_utf8_at(utf8, pos);
    code_points.push_back(d.code_point);
    pos += static_cast<std::size_t>(d.length);
  }
  return code_points;
}

std::string encode_utf8(std::uint32_t code_point) {
  std::string out;
  append_utf8(out, code_point);
  return out;
}

std::size_t first_invalid_utf8(std::string_view utf8) {
  for (std::size_t pos = 0; pos < utf8.size();) {
    // ASCII runs are most text: skip them a byte at a time without the decoder.
    if (static_cast<unsigned char>(utf8[pos]) < 0x80) {
      ++pos;
      continue;
    }
    const Utf8Decoded d = decode_utf8_at(utf8, pos);
    if (d.replaced) return pos;
    pos += static_cast<std::size_t>(d.length);
  }
  return std::string_view::npos;
}

std::string repair_utf8(std::string_view utf8) {
  std::string out;
  for (std::uint32_t cp : decode_utf8(utf8)) append_utf8(out, cp);
  return out;
}

}  // namespace attn
