// A UTF-8 tokenizer and deterministic token embeddings: text in, (n, d_model) rows out.
//
// It turns whatever a user types (English, Greek, Chinese, Japanese, Korean, emoji, broken
// bytes) into the tokens whose attention the lab draws, each with its byte span in the input,
// and gives every token text a fixed random embedding row so the same sentence gives the same
// pictures on the web and on the desktop. It is deliberately not a subword tokenizer (no BPE,
// no vocabulary, nothing learned) and not full Unicode segmentation (UAX #29): code points are
// classified with a few range tables that cover the scripts the lab demonstrates, and the
// token boundaries are chosen so that a learner can predict them.
//
// Legend: n = tokens, d_model = embedding width.
//
// Token rules, in the order they are tried at each position:
//   - Invalid UTF-8 decodes to U+FFFD, one per maximal invalid subpart (the Unicode
//     recommendation); the token text then holds U+FFFD while the byte span still points at
//     the bad bytes. A lone U+FFFD is an Other token.
//   - Whitespace (ASCII, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028/9, U+202F, U+205F,
//     U+3000) separates tokens and is not emitted; so are U+200B ZERO WIDTH SPACE and U+FEFF
//     (a byte order mark pasted at the front must not become a token). C0/C1 controls are
//     dropped and also separate tokens, so every token's bytes are contiguous in the input.
//   - Keycaps (0-9 # * [U+FE0F] U+20E3) are one Emoji token.
//   - Emoji: a pictograph with its variation selector, skin-tone modifier, tag sequence
//     (England flag) and ZWJ-joined continuations is one token (the family emoji is one
//     token). Two regional indicators make one flag; an odd one is a token of its own. A
//     text-style symbol such as (c) U+00A9 or U+203C is an Emoji only when U+FE0F follows.
//   - Words: runs of letters of alphabetic scripts (Latin, Greek, Cyrillic, Armenian, Hebrew,
//     Arabic, Indic, Thai, ...). Scripts written without spaces other than CJK (Thai, Lao,
//     Khmer, Myanmar) therefore come out as one token per space-separated run: dictionary
//     segmentation is out of scope. Letters of scripts outside the tables are Other tokens.
//   - Numbers: runs of decimal digits (ASCII, full-width, Arabic-Indic, Indic, Thai, ...).
//     "GPT-4" is GPT, -, 4 and "3.14" is 3, ., 14.
//   - CJK: one token per Han ideograph, per kana and per Hangul syllable. Hangul is split like
//     the other CJK scripts, one token per syllable block, so "한국어" gives 3 tokens; a
//     syllable typed as conjoining jamo (NFD, U+1100-U+11FF) is still one token, because it
//     is one syllable on screen. Compatibility and half-width jamo are one token each.
//   - Punctuation: one token per character, for punctuation and the common symbols next to it
//     (ASCII, Latin-1, General Punctuation, currency, CJK and full-width forms).
//   - Anything else (arrows, maths, box drawing, private use, unassigned) is one Other token
//     per code point.
//   - Combining marks (U+0300-U+036F, U+1AB0-U+1AFF, U+1DC0-U+1DFF, U+20D0-U+20FF,
//     U+FE20-U+FE2F, the kana voicing marks U+3099/U+309A), variation selectors, tags and
//     invisible format characters (ZWJ, ZWNJ, soft hyphen, bidi marks) stay with the token
//     right before them, whatever its kind, so "cafe" + U+0301 is the single word "café".
//     One with nothing right before it (start of text, after whitespace) is an Other token.
//
// Input is capped at kMaxTokenizeBytes so that one call is bounded; see tokenized_byte_count.
#pragma once

#include "core/base/types.h"
#include "core/base/utf8.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// The longest input tokenize looks at: 1 MiB, about 350,000 CJK characters.
inline constexpr int kMaxTokenizeBytes = 1 << 20;

enum class TokenKind { Word, Number, Punctuation, Cjk, Emoji, Other };

struct Token {
  std::string text;  // UTF-8; invalid input bytes appear as U+FFFD
  int byte_begin = 0;  // [byte_begin, byte_end) in the input given to tokenize
  int byte_end = 0;
  TokenKind kind = TokenKind::Other;
};

// "Word", "Number", ...: for labels and test messages.
const char* token_kind_name(TokenKind kind);

// How many leading bytes of utf8 tokenize reads: all of them up to kMaxTokenizeBytes,
// otherwise the cap moved back to the start of the code point it would cut. A caller that
// gets less than utf8.size() can tell the user the text was truncated.
int tokenized_byte_count(std::string_view utf8);

// The tokens of utf8 in input order (see the rules above). For valid UTF-8,
// utf8.substr(byte_begin, byte_end - byte_begin) == text for every token.
std::vector<Token> tokenize(std::string_view utf8);

// 64-bit FNV-1a of the bytes followed by the splitmix64 finaliser (FNV alone leaves similar
// strings with similar high bits). Pure integer arithmetic: the same on every platform.
std::uint64_t token_text_hash(std::string_view text);

// The attn::Rng seed of the embedding row of a token text under the embedding seed.
std::uint64_t token_embedding_seed(std::string_view text, std::uint64_t seed);

// (n, d_model) matrix whose row i is d_model N(0, 1) draws of
// Rng(token_embedding_seed(tokens[i].text, seed)). A row depends only on the token text, the
// seed and d_model, so a repeated word gets identical rows wherever it appears; and the row
// for a smaller d_model is the prefix of the row for a larger one. A d_model below 0 is
// treated as 0 (an (n, 0) matrix).
Mat token_embeddings(const std::vector<Token>& tokens, int d_model, std::uint64_t seed);

}  // namespace attn
