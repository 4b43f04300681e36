// The tokenizer and token embeddings declared in tokenizer.h.
//
// It is a single forward scan over the input with a few code points of lookahead; every read
// goes through decode_at, which checks the length before touching a byte, so no input (however
// broken) can read out of bounds or loop. It is not a Unicode database: the range tables below
// are block-level approximations, good for the scripts the lab shows, and anything they miss
// degrades to one Other token per code point rather than to a wrong merge.
//
// Sections:
//   1 code point classes
//   2 tokenizer
//   3 token embeddings
#include "core/attention/tokenizer.h"

#include "core/base/rng.h"
#include "core/base/utf8.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace attn {
namespace {

// ---- 1 code point classes --------------------------------------------------------------

struct Range {
  std::uint32_t lo, hi;  // inclusive
};

// The binary search in in_ranges needs every table sorted and disjoint; checked at compile time.
template <std::size_t N>
constexpr bool sorted_and_disjoint(const Range (&table)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    if (table[i].lo > table[i].hi) return false;
    if (i > 0 && table[i - 1].hi >= table[i].lo) return false;
  }
  return true;
}

template <std::size_t N>
bool in_ranges(std::uint32_t cp, const Range (&table)[N]) {
  // Tables are sorted and disjoint: the first range ending at or after cp decides.
  const Range* it = std::lower_bound(std::begin(table), std::end(table), cp,
                                     [](const Range& r, std::uint32_t value) { return r.hi < value; });
  return it != std::end(table) && it->lo <= cp;
}

constexpr std::uint32_t kZeroWidthJoiner = 0x200D;
constexpr std::uint32_t kEmojiPresentation = 0xFE0F;  // VS16
constexpr std::uint32_t kTextPresentation = 0xFE0E;   // VS15
constexpr std::uint32_t kCombiningKeycap = 0x20E3;

// Invisible separators beyond ASCII whitespace (which classify handles first).
constexpr Range kSeparators[] = {
    {0x0085, 0x0085}, {0x00A0, 0x00A0}, {0x1680, 0x1680}, {0x2000, 0x200B}, {0x2028, 0x2029},
    {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF},
};

// Code points that belong to the one before them: combining marks outside the word blocks,
// variation selectors, tags, and invisible format characters.
constexpr Range kExtenders[] = {
    {0x00AD, 0x00AD},   {0x0300, 0x036F},   {0x1AB0, 0x1AFF},   {0x1DC0, 0x1DFF},
    {0x200C, 0x200F},   {0x202A, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},
    {0x20D0, 0x20FF},   {0x302A, 0x302F},   {0x3099, 0x309A},   {0xFE00, 0xFE0F},
    {0xFE20, 0xFE2F},   {0xE0001, 0xE0001}, {0xE0020, 0xE007F}, {0xE0100, 0xE01EF},
};

constexpr Range kDigits[] = {
    {0x0660, 0x0669}, {0x06F0, 0x06F9}, {0x07C0, 0x07C9}, {0x0966, 0x096F},   {0x09E6, 0x09EF},
    {0x0A66, 0x0A6F}, {0x0AE6, 0x0AEF}, {0x0B66, 0x0B6F}, {0x0BE6, 0x0BEF},   {0x0C66, 0x0C6F},
    {0x0CE6, 0x0CEF}, {0x0D66, 0x0D6F}, {0x0DE6, 0x0DEF}, {0x0E50, 0x0E59},   {0x0ED0, 0x0ED9},
    {0x0F20, 0x0F29}, {0x1040, 0x1049}, {0x17E0, 0x17E9}, {0x1810, 0x1819},   {0xFF10, 0xFF19},
    {0x1D7CE, 0x1D7FF},
};

constexpr Range kRegionalIndicators[] = {{0x1F1E6, 0x1F1FF}};
constexpr Range kEmojiModifiers[] = {{0x1F3FB, 0x1F3FF}};

// Pictographs shown as emoji by default (the regional indicators are carved out first).
constexpr Range kEmoji[] = {
    {0x231A, 0x231B}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0}, {0x23F3, 0x23F3},   {0x25FD, 0x25FE},
    {0x2600, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55},   {0x1F000, 0x1FAFF},
};

// Pictographs shown as text unless U+FE0F asks for the emoji: (c) (r) TM, !!, arrows, ...
constexpr Range kTextStylePictographs[] = {
    {0x00A9, 0x00A9}, {0x00AE, 0x00AE}, {0x203C, 0x203C}, {0x2049, 0x2049}, {0x2122, 0x2122},
    {0x2139, 0x2139}, {0x2194, 0x2199}, {0x21A9, 0x21AA}, {0x2328, 0x2328}, {0x23CF, 0x23CF},
    {0x23ED, 0x23EF}, {0x23F1, 0x23F2}, {0x23F8, 0x23FA}, {0x24C2, 0x24C2}, {0x25AA, 0x25AB},
    {0x25B6, 0x25B6}, {0x25C0, 0x25C0}, {0x25FB, 0x25FC}, {0x2934, 0x2935}, {0x2B05, 0x2B07},
    {0x3030, 0x3030}, {0x303D, 0x303D}, {0x3297, 0x3297}, {0x3299, 0x3299},
};

// Han, kana, Hangul, Bopomofo and the CJK marks that act as ideographs (々 〆 〇 ...).
constexpr Range kCjk[] = {
    {0x1100, 0x11FF},   {0x2E80, 0x2EFF},   {0x2F00, 0x2FDF}, {0x3005, 0x3007}, {0x3021, 0x3029},
    {0x3031, 0x3035},   {0x3038, 0x303C},   {0x3040, 0x3098}, {0x309B, 0x309F}, {0x30A1, 0x30FA},
    {0x30FC, 0x30FF},   {0x3100, 0x31FF},   {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA960, 0xA97F},
    {0xAC00, 0xD7FF},   {0xF900, 0xFAFF},   {0xFF66, 0xFF9F}, {0xFFA0, 0xFFDC}, {0x1AFF0, 0x1B16F},
    {0x20000, 0x323AF},
};

// Punctuation and the common symbols beside it, one token per character. Checked before
// kLetters, so letter blocks below may contain these without listing the gaps.
constexpr Range kPunctuation[] = {
    {0x00A1, 0x00A9}, {0x00AB, 0x00AC}, {0x00AE, 0x00B4}, {0x00B6, 0x00B9}, {0x00BB, 0x00BF},
    {0x00D7, 0x00D7}, {0x00F7, 0x00F7}, {0x0375, 0x0375}, {0x037E, 0x037E}, {0x0384, 0x0385},
    {0x0387, 0x0387}, {0x055A, 0x055F}, {0x0589, 0x058A}, {0x05BE, 0x05BE}, {0x05C0, 0x05C0},
    {0x05C3, 0x05C3}, {0x05C6, 0x05C6}, {0x05F3, 0x05F4}, {0x0609, 0x060D}, {0x061B, 0x061B},
    {0x061D, 0x061F}, {0x066A, 0x066D}, {0x06D4, 0x06D4}, {0x0964, 0x0965}, {0x0E3F, 0x0E3F},
    {0x0E4F, 0x0E4F}, {0x0E5A, 0x0E5B}, {0x104A, 0x104F}, {0x10FB, 0x10FB}, {0x1360, 0x1368},
    {0x166D, 0x166E}, {0x17D4, 0x17DA}, {0x1800, 0x180A}, {0x2010, 0x2027}, {0x2030, 0x205E},
    {0x20A0, 0x20CF}, {0x2E00, 0x2E7F}, {0x3001, 0x3004}, {0x3008, 0x3020}, {0x3030, 0x3030},
    {0x3036, 0x3037}, {0x303D, 0x303F}, {0x30A0, 0x30A0}, {0x30FB, 0x30FB}, {0xFE10, 0xFE19},
    {0xFE30, 0xFE4F}, {0xFE50, 0xFE6B}, {0xFF01, 0xFF0F}, {0xFF1A, 0xFF20}, {0xFF3B, 0xFF40},
    {0xFF5B, 0xFF65}, {0xFFE0, 0xFFEE},
};

// Letters (and the marks inside words) of alphabetic scripts, block by block.
constexpr Range kLetters[] = {
    {0x00AA, 0x00AA},   {0x00B5, 0x00B5},   {0x00BA, 0x00BA},   {0x00C0, 0x02FF},
    {0x0370, 0x052F},   {0x0531, 0x058F},   {0x0591, 0x05FF},   {0x0610, 0x06FF},
    {0x0700, 0x08FF},   {0x0900, 0x0FFF},   {0x1000, 0x10FF},   {0x1200, 0x167F},
    {0x1681, 0x169A},   {0x16A0, 0x16F8},   {0x1700, 0x1AAF},   {0x1B00, 0x1CBF},
    {0x1CD0, 0x1DBF},   {0x1E00, 0x1FFF},   {0x2071, 0x2071},   {0x207F, 0x207F},
    {0x2090, 0x209C},   {0x2C00, 0x2DFF},   {0xA640, 0xA95F},   {0xA980, 0xABFF},
    {0xFB00, 0xFDFF},   {0xFE70, 0xFEFE},   {0xFF21, 0xFF3A},   {0xFF41, 0xFF5A},
    {0x10400, 0x104FF}, {0x1D400, 0x1D7CD}, {0x1E900, 0x1E95F},
};

static_assert(sorted_and_disjoint(kSeparators) && sorted_and_disjoint(kExtenders) &&
              sorted_and_disjoint(kDigits) && sorted_and_disjoint(kEmoji) &&
              sorted_and_disjoint(kTextStylePictographs) && sorted_and_disjoint(kCjk) &&
              sorted_and_disjoint(kPunctuation) && sorted_and_disjoint(kLetters));

enum class CodePointClass {
  Separator,  // whitespace: ends a token, not emitted
  Control,    // C0/C1 control: ends a token, dropped
  Extender,   // joins the code point before it
  Digit,
  RegionalIndicator,
  Emoji,
  Cjk,
  Punctuation,
  Letter,
  Other,
};

CodePointClass classify(std::uint32_t cp) {
  using C = CodePointClass;
  if (cp < 0x80) {
    if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D)) return C::Separator;
    if (cp < 0x20 || cp == 0x7F) return C::Control;
    if (cp >= '0' && cp <= '9') return C::Digit;
    if ((cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z')) return C::Letter;
    return C::Punctuation;
  }
  // The order matters where tables overlap: digits and punctuation inside letter blocks,
  // emoji inside the symbol blocks, extenders inside Latin-1 and kana.
  if (in_ranges(cp, kSeparators)) return C::Separator;
  if (cp <= 0x9F) return C::Control;
  if (in_ranges(cp, kExtenders)) return C::Extender;
  if (in_ranges(cp, kDigits)) return C::Digit;
  if (in_ranges(cp, kRegionalIndicators)) return C::RegionalIndicator;
  if (in_ranges(cp, kEmoji)) return C::Emoji;
  if (in_ranges(cp, kCjk)) return C::Cjk;
  if (in_ranges(cp, kPunctuation)) return C::Punctuation;
  if (in_ranges(cp, kLetters)) return C::Letter;
  return C::Other;
}

// Anything that may follow a ZWJ inside an emoji sequence.
bool is_pictograph(std::uint32_t cp) {
  return classify(cp) == CodePointClass::Emoji || in_ranges(cp, kTextStylePictographs);
}

// Hangul syllable structure, for joining conjoining jamo into one syllable block
// (leading consonant L, vowel V, trailing consonant T; precomposed LV and LVT).
enum class HangulType { None, L, V, T, LV, LVT };

HangulType hangul_type(std::uint32_t cp) {
  if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0xA960 && cp <= 0xA97C)) return HangulType::L;
  if ((cp >= 0x1160 && cp <= 0x11A7) || (cp >= 0xD7B0 && cp <= 0xD7C6)) return HangulType::V;
  if ((cp >= 0x11A8 && cp <= 0x11FF) || (cp >= 0xD7CB && cp <= 0xD7FB)) return HangulType::T;
  if (cp >= 0xAC00 && cp <= 0xD7A3) return (cp - 0xAC00) % 28 == 0 ? HangulType::LV : HangulType::LVT;
  return HangulType::None;
}

// UAX #29 rules GB6-GB8: which jamo may continue the syllable block ending in prev.
bool hangul_continues(HangulType prev, HangulType next) {
  using H = HangulType;
  switch (prev) {
    case H::L: return next == H::L || next == H::V || next == H::LV || next == H::LVT;
    case H::LV:
    case H::V: return next == H::V || next == H::T;
    case H::LVT:
    case H::T: return next == H::T;
    case H::None: return false;
  }
  return false;
}

// ---- 2 tokenizer ------------------------------------------------------------------------

// The input and a read position; every token is grown through take, which keeps text and
// byte_end in step with pos.
struct Cursor {
  std::string_view input;
  std::size_t pos = 0;

  Utf8Decoded peek() const { return decode_utf8_at(input, pos); }
  Utf8Decoded peek_after(const Utf8Decoded& d) const { return decode_utf8_at(input, pos + d.length); }

  void take(const Utf8Decoded& d, Token& token) {
    if (d.replaced) {
      append_utf8(token.text, kReplacementCharacter);
    } else {
      token.text.append(input.substr(pos, static_cast<std::size_t>(d.length)));
    }
    pos += static_cast<std::size_t>(d.length);
    token.byte_end = static_cast<int>(pos);
  }
};

bool is_keycap_base(std::uint32_t cp) { return (cp >= '0' && cp <= '9') || cp == '#' || cp == '*'; }

// Bytes of the keycap sequence starting at the cursor, 0 if there is none.
int keycap_length(const Cursor& c) {
  const Utf8Decoded base = c.peek();
  if (base.length == 0 || !is_keycap_base(base.code_point)) return 0;
  const Utf8Decoded second = decode_utf8_at(c.input, c.pos + base.length);
  if (second.code_point == kCombiningKeycap && !second.replaced) return base.length + second.length;
  if (second.length == 0 || second.replaced ||
      (second.code_point != kEmojiPresentation && second.code_point != kTextPresentation))
    return 0;
  const Utf8Decoded third = decode_utf8_at(c.input, c.pos + base.length + second.length);
  if (third.code_point == kCombiningKeycap && !third.replaced) return base.length + second.length + third.length;
  return 0;
}

// Everything an emoji base carries: presentation selector, skin tone, tags, marks, and
// ZWJ-joined further pictographs with their own modifiers.
void take_emoji_tail(Cursor& c, Token& token) {
  for (;;) {
    const Utf8Decoded d = c.peek();
    if (d.length == 0 || d.replaced) return;
    if (d.code_point == kZeroWidthJoiner) {
      c.take(d, token);
      // A ZWJ with no pictograph after it still stays here: it never starts a token.
      const Utf8Decoded next = c.peek();
      if (next.length == 0 || next.replaced || !is_pictograph(next.code_point)) return;
      c.take(next, token);
      continue;
    }
    if (in_ranges(d.code_point, kEmojiModifiers) || classify(d.code_point) == CodePointClass::Extender) {
      c.take(d, token);
      continue;
    }
    return;
  }
}

void take_while(Cursor& c, Token& token, CodePointClass run) {
  for (;;) {
    const Utf8Decoded d = c.peek();
    if (d.length == 0 || d.replaced) return;
    const CodePointClass cls = classify(d.code_point);
    if (cls != run && cls != CodePointClass::Extender) return;
    // "12" then "3️⃣": the keycap is an emoji of its own, not the end of the number.
    if (run == CodePointClass::Digit && keycap_length(c) > 0) return;
    c.take(d, token);
  }
}

}  // namespace

const char* token_kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::Word: return "Word";
    case TokenKind::Number: return "Number";
    case TokenKind::Punctuation: return "Punctuation";
    case TokenKind::Cjk: return "Cjk";
    case TokenKind::Emoji: return "Emoji";
    case TokenKind::Other: return "Other";
  }
  return "Other";
}

int tokenized_byte_count(std::string_view utf8) {
  if (utf8.size() <= static_cast<std::size_t>(kMaxTokenizeBytes)) return static_cast<int>(utf8.size());
  // A code point is at most 4 bytes, so its start is at most 3 continuation bytes back.
  int cut = kMaxTokenizeBytes;
  while (cut > kMaxTokenizeBytes - 3 && (static_cast<unsigned char>(utf8[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

std::vector<Token> tokenize(std::string_view utf8) {
  Cursor c{utf8.substr(0, static_cast<std::size_t>(tokenized_byte_count(utf8)))};
  std::vector<Token> tokens;
  // False after a base-less extender: a second mark must not grow it into a "word".
  bool last_token_has_base = false;

  while (c.pos < c.input.size()) {
    const Utf8Decoded first = c.peek();
    // Invalid bytes are U+FFFD, a symbol: classify that, not whatever the bytes looked like.
    const CodePointClass cls = first.replaced ? CodePointClass::Other : classify(first.code_point);

    if (cls == CodePointClass::Separator || cls == CodePointClass::Control) {
      c.pos += static_cast<std::size_t>(first.length);
      continue;
    }

    if (cls == CodePointClass::Extender) {
      const bool adjacent = !tokens.empty() && tokens.back().byte_end == static_cast<int>(c.pos);
      if (adjacent && last_token_has_base) {
        c.take(first, tokens.back());
      } else {
        Token lone;
        lone.byte_begin = static_cast<int>(c.pos);
        lone.kind = TokenKind::Other;
        c.take(first, lone);
        tokens.push_back(std::move(lone));
        last_token_has_base = false;
      }
      continue;
    }

    Token token;
    token.byte_begin = static_cast<int>(c.pos);
    const Utf8Decoded second = c.peek_after(first);
    const bool emoji_by_selector = !first.replaced && second.code_point == kEmojiPresentation &&
                                   !second.replaced && in_ranges(first.code_point, kTextStylePictographs);

    if (const int keycap = keycap_length(c); keycap > 0) {
      token.kind = TokenKind::Emoji;
      const std::size_t end = c.pos + static_cast<std::size_t>(keycap);
      while (c.pos < end) c.take(c.peek(), token);
    } else if (cls == CodePointClass::Emoji || emoji_by_selector) {
      token.kind = TokenKind::Emoji;
      c.take(first, token);
      take_emoji_tail(c, token);
    } else if (cls == CodePointClass::RegionalIndicator) {
      token.kind = TokenKind::Emoji;
      c.take(first, token);
      // Indicators pair left to right, so "CN US" flags never regroup as "NU".
      if (!second.replaced && in_ranges(second.code_point, kRegionalIndicators)) c.take(second, token);
    } else if (cls == CodePointClass::Letter) {
      token.kind = TokenKind::Word;
      c.take(first, token);
      take_while(c, token, CodePointClass::Letter);
    } else if (cls == CodePointClass::Digit) {
      token.kind = TokenKind::Number;
      c.take(first, token);
      take_while(c, token, CodePointClass::Digit);
    } else if (cls == CodePointClass::Cjk) {
      token.kind = TokenKind::Cjk;
      c.take(first, token);
      for (HangulType prev = hangul_type(first.code_point); prev != HangulType::None;) {
        const Utf8Decoded d = c.peek();
        if (d.length == 0 || d.replaced) break;
        const HangulType next = hangul_type(d.code_point);
        if (!hangul_continues(prev, next)) break;
        c.take(d, token);
        prev = next;
      }
    } else {
      token.kind = cls == CodePointClass::Punctuation ? TokenKind::Punctuation : TokenKind::Other;
      c.take(first, token);
    }
    tokens.push_back(std::move(token));
    last_token_has_base = true;
  }
  return tokens;
}

// ---- 3 token embeddings -----------------------------------------------------------------

namespace {

std::uint64_t fnv1a_64(std::string_view bytes) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (const char ch : bytes) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001B3ull;
  }
  return h;
}

// splitmix64's output function: every input bit reaches every output bit.
std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

std::uint64_t token_text_hash(std::string_view text) { return mix64(fnv1a_64(text)); }

std::uint64_t token_embedding_seed(std::string_view text, std::uint64_t seed) {
  // The seed is mixed on its own first, so neighbouring seeds (1, 2, 3) give unrelated
  // embeddings rather than hashes that differ in a low bit.
  return mix64(token_text_hash(text) ^ mix64(seed + 0x9E3779B97F4A7C15ull));
}

Mat token_embeddings(const std::vector<Token>& tokens, int d_model, std::uint64_t seed) {
  const int n = static_cast<int>(tokens.size());
  const int width = std::max(d_model, 0);
  Mat embeddings(n, width);  // (n, d_model)
  for (int i = 0; i < n; ++i) {
    // A fresh generator per row: the row is a function of the text, not of its position.
    Rng rng(token_embedding_seed(tokens[i].text, seed));
    embeddings.row(i) = rng.normal_matrix(1, width);
  }
  return embeddings;
}

}  // namespace attn
