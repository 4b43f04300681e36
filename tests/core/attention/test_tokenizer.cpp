// Tests of the UTF-8 tokenizer and the deterministic token embeddings (src/core/attention/tokenizer.h).
//
// Each case states the exact tokens it expects, so a change of a boundary rule shows up as a
// readable diff of token texts. The random-bytes case is a fuzz loop, not a property proof.
#include "core/base/rng.h"
#include "core/attention/tokenizer.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using attn::Mat;
using attn::Token;
using attn::TokenKind;

namespace {

const std::string kFffd = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

std::vector<std::string> texts(const std::vector<Token>& tokens) {
  std::vector<std::string> out;
  for (const Token& t : tokens) out.push_back(t.text);
  return out;
}

std::vector<std::string> kinds(const std::vector<Token>& tokens) {
  std::vector<std::string> out;
  for (const Token& t : tokens) out.push_back(attn::token_kind_name(t.kind));
  return out;
}

std::vector<std::string> token_texts(std::string_view input) { return texts(attn::tokenize(input)); }

// For valid UTF-8 every token is exactly its slice of the input, and tokens are in order.
void require_offsets_round_trip(std::string_view input) {
  const std::vector<Token> tokens = attn::tokenize(input);
  int previous_end = 0;
  for (const Token& t : tokens) {
    INFO("token '" << t.text << "' at [" << t.byte_begin << ", " << t.byte_end << ") of '" << input << "'");
    REQUIRE(t.byte_begin >= previous_end);
    REQUIRE(t.byte_end > t.byte_begin);
    REQUIRE(t.byte_end <= static_cast<int>(input.size()));
    REQUIRE(input.substr(t.byte_begin, t.byte_end - t.byte_begin) == t.text);
    previous_end = t.byte_end;
  }
}

}  // namespace

TEST_CASE("English sentence: words and one token per punctuation mark", "[tokenizer]") {
  const std::string input = "Hello, world! It's a test-case.";
  const std::vector<Token> tokens = attn::tokenize(input);
  REQUIRE(texts(tokens) ==
          std::vector<std::string>{"Hello", ",", "world", "!", "It", "'", "s", "a", "test", "-", "case", "."});
  REQUIRE(kinds(tokens) == std::vector<std::string>{"Word", "Punctuation", "Word", "Punctuation", "Word",
                                                    "Punctuation", "Word", "Word", "Word", "Punctuation", "Word",
                                                    "Punctuation"});
  REQUIRE(tokens[2].byte_begin == 7);
  REQUIRE(tokens[2].byte_end == 12);
  require_offsets_round_trip(input);
  // ASCII symbols count as punctuation too; every mark is its own token, even when repeated.
  REQUIRE(token_texts("a+b=c?!") == std::vector<std::string>{"a", "+", "b", "=", "c", "?", "!"});
}

TEST_CASE("Greek and Cyrillic words", "[tokenizer]") {
  REQUIRE(token_texts("Привет, мир!") == std::vector<std::string>{"Привет", ",", "мир", "!"});
  const std::vector<Token> greek = attn::tokenize("Καλημέρα κόσμε");
  REQUIRE(texts(greek) == std::vector<std::string>{"Καλημέρα", "κόσμε"});
  REQUIRE(kinds(greek) == std::vector<std::string>{"Word", "Word"});
  require_offsets_round_trip("Привет, мир! Καλημέρα κόσμε");
}

TEST_CASE("Chinese: one token per ideograph, order does not change the token set", "[tokenizer]") {
  const std::vector<Token> cat_chases_mouse = attn::tokenize("猫追老鼠");
  REQUIRE(texts(cat_chases_mouse) == std::vector<std::string>{"猫", "追", "老", "鼠"});
  REQUIRE(kinds(cat_chases_mouse) == std::vector<std::string>{"Cjk", "Cjk", "Cjk", "Cjk"});
  for (int i = 0; i < 4; ++i) {
    REQUIRE(cat_chases_mouse[i].byte_begin == 3 * i);
    REQUIRE(cat_chases_mouse[i].byte_end == 3 * i + 3);
  }
  const std::vector<Token> mouse_chases_cat = attn::tokenize("老鼠追猫");
  REQUIRE(texts(mouse_chases_cat) == std::vector<std::string>{"老", "鼠", "追", "猫"});
  const std::vector<std::string> a = texts(cat_chases_mouse), b = texts(mouse_chases_cat);
  REQUIRE(std::multiset<std::string>(a.begin(), a.end()) == std::multiset<std::string>(b.begin(), b.end()));
  require_offsets_round_trip("猫追老鼠");
}

TEST_CASE("CJK Extension A and B, compatibility ideographs, 〇 and 々", "[tokenizer]") {
  // U+3400 (Ext A), U+20000 (Ext B, 4 bytes), U+F900 (compatibility), U+3007, U+3005.
  const std::string input = "\xE3\x90\x80\xF0\xA0\x80\x80\xEF\xA4\x80〇人々";
  const std::vector<Token> tokens = attn::tokenize(input);
  REQUIRE(texts(tokens) ==
          std::vector<std::string>{"\xE3\x90\x80", "\xF0\xA0\x80\x80", "\xEF\xA4\x80", "〇", "人", "々"});
  for (const Token& t : tokens) REQUIRE(t.kind == TokenKind::Cjk);
  REQUIRE(tokens[1].byte_begin == 3);
  REQUIRE(tokens[1].byte_end == 7);
  require_offsets_round_trip(input);
}

TEST_CASE("kana: hiragana, katakana, half-width katakana, voiced marks", "[tokenizer]") {
  REQUIRE(token_texts("ひらがな") == std::vector<std::string>{"ひ", "ら", "が", "な"});
  REQUIRE(token_texts("カタカナ") == std::vector<std::string>{"カ", "タ", "カ", "ナ"});
  REQUIRE(token_texts("ｶﾀｶﾅ") == std::vector<std::string>{"ｶ", "ﾀ", "ｶ", "ﾅ"});
  REQUIRE(token_texts("東京タワー") == std::vector<std::string>{"東", "京", "タ", "ワ", "ー"});
  // か + combining voiced mark U+3099 is one character on screen, so one token.
  REQUIRE(token_texts("\xE3\x81\x8B\xE3\x82\x99") == std::vector<std::string>{"\xE3\x81\x8B\xE3\x82\x99"});
  // The katakana middle dot is punctuation, not a kana.
  const std::vector<Token> dotted = attn::tokenize("ア・イ");
  REQUIRE(kinds(dotted) == std::vector<std::string>{"Cjk", "Punctuation", "Cjk"});
  require_offsets_round_trip("ひらがなとカタカナ、ｶﾀｶﾅ。");
}

TEST_CASE("Hangul: one token per syllable, also when typed as conjoining jamo", "[tokenizer]") {
  const std::vector<Token> korean = attn::tokenize("한국어");
  REQUIRE(texts(korean) == std::vector<std::string>{"한", "국", "어"});
  REQUIRE(kinds(korean) == std::vector<std::string>{"Cjk", "Cjk", "Cjk"});
  REQUIRE(token_texts("안녕하세요 세계") == std::vector<std::string>{"안", "녕", "하", "세", "요", "세", "계"});
  // 한 decomposed (NFD): U+1112 U+1161 U+11AB, then 국 decomposed: U+1100 U+116E U+11A8.
  const std::string nfd_han = "\xE1\x84\x92\xE1\x85\xA1\xE1\x86\xAB";
  const std::string nfd_guk = "\xE1\x84\x80\xE1\x85\xAE\xE1\x86\xA8";
  REQUIRE(token_texts(nfd_han + nfd_guk) == std::vector<std::string>{nfd_han, nfd_guk});
  // Precomposed LV syllable 가 followed by a trailing consonant jamo ᆨ is one block.
  REQUIRE(token_texts("가\xE1\x86\xA8") == std::vector<std::string>{"가\xE1\x86\xA8"});
  // Compatibility jamo do not conjoin.
  REQUIRE(token_texts("ㅎㅏ") == std::vector<std::string>{"ㅎ", "ㅏ"});
  require_offsets_round_trip("한국어 " + nfd_han);
}

TEST_CASE("full-width and CJK punctuation are separate Punctuation tokens", "[tokenizer]") {
  const std::vector<Token> tokens = attn::tokenize("你好，世界。");
  REQUIRE(texts(tokens) == std::vector<std::string>{"你", "好", "，", "世", "界", "。"});
  REQUIRE(kinds(tokens) == std::vector<std::string>{"Cjk", "Cjk", "Punctuation", "Cjk", "Cjk", "Punctuation"});
  const std::vector<Token> quoted = attn::tokenize("「猫」『犬』（鳥）：！？、；");
  REQUIRE(texts(quoted) == std::vector<std::string>{"「", "猫", "」", "『", "犬", "』", "（", "鳥", "）", "：",
                                                    "！", "？", "、", "；"});
  for (const Token& t : quoted)
    if (t.text != "猫" && t.text != "犬" && t.text != "鳥") REQUIRE(t.kind == TokenKind::Punctuation);
  require_offsets_round_trip("「猫」，。");
}

TEST_CASE("numbers: digit runs, full-width digits, mixed with letters", "[tokenizer]") {
  const std::vector<Token> tokens = attn::tokenize("12 345 3.14");
  REQUIRE(texts(tokens) == std::vector<std::string>{"12", "345", "3", ".", "14"});
  REQUIRE(kinds(tokens) == std::vector<std::string>{"Number", "Number", "Number", "Punctuation", "Number"});
  const std::vector<Token> full_width = attn::tokenize("１２３年");
  REQUIRE(texts(full_width) == std::vector<std::string>{"１２３", "年"});
  REQUIRE(full_width[0].kind == TokenKind::Number);
  REQUIRE(full_width[0].byte_end == 9);
  REQUIRE(token_texts("abc123def") == std::vector<std::string>{"abc", "123", "def"});
  // Arabic-Indic digits are digits too.
  REQUIRE(kinds(attn::tokenize("\xD9\xA1\xD9\xA2")) == std::vector<std::string>{"Number"});
}

TEST_CASE("GPT-4很强 splits into GPT - 4 很 强", "[tokenizer]") {
  const std::string input = "GPT-4很强";
  const std::vector<Token> tokens = attn::tokenize(input);
  REQUIRE(texts(tokens) == std::vector<std::string>{"GPT", "-", "4", "很", "强"});
  REQUIRE(kinds(tokens) == std::vector<std::string>{"Word", "Punctuation", "Number", "Cjk", "Cjk"});
  REQUIRE(tokens[3].byte_begin == 5);
  REQUIRE(tokens[4].byte_end == 11);
  require_offsets_round_trip(input);
}

TEST_CASE("emoji: ZWJ family, skin tone, presentation selector", "[tokenizer]") {
  // man ZWJ woman ZWJ girl ZWJ boy: 4 pictographs and 3 joiners, 25 bytes, one token.
  const std::string family =
      "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7\xE2\x80\x8D\xF0\x9F\x91\xA6";
  const std::vector<Token> one = attn::tokenize(family);
  REQUIRE(one.size() == 1);
  REQUIRE(one[0].kind == TokenKind::Emoji);
  REQUIRE(one[0].text == family);
  REQUIRE(one[0].byte_end == 25);
  REQUIRE(attn::tokenize(family + family).size() == 2);

  const std::string thumbs_up = "\xF0\x9F\x91\x8D";
  const std::string medium_skin = "\xF0\x9F\x8F\xBD";  // U+1F3FD
  REQUIRE(token_texts(thumbs_up + medium_skin + thumbs_up) ==
          std::vector<std::string>{thumbs_up + medium_skin, thumbs_up});
  // A waving hand with a skin tone between a word and a mark.
  const std::string wave = "\xF0\x9F\x91\x8B\xF0\x9F\x8F\xBB";
  const std::vector<Token> hi = attn::tokenize("hi" + wave + "!");
  REQUIRE(texts(hi) == std::vector<std::string>{"hi", wave, "!"});
  REQUIRE(kinds(hi) == std::vector<std::string>{"Word", "Emoji", "Punctuation"});

  // Red heart U+2764 + U+FE0F; (c) U+00A9 is punctuation unless U+FE0F asks for the emoji.
  const std::vector<Token> heart = attn::tokenize("I \xE2\x9D\xA4\xEF\xB8\x8F NY");
  REQUIRE(texts(heart) == std::vector<std::string>{"I", "\xE2\x9D\xA4\xEF\xB8\x8F", "NY"});
  REQUIRE(heart[1].kind == TokenKind::Emoji);
  REQUIRE(attn::tokenize("\xC2\xA9")[0].kind == TokenKind::Punctuation);
  REQUIRE(attn::tokenize("\xC2\xA9\xEF\xB8\x8F")[0].kind == TokenKind::Emoji);
  // Heart on fire: U+2764 U+FE0F ZWJ U+1F525, one token.
  REQUIRE(attn::tokenize("\xE2\x9D\xA4\xEF\xB8\x8F\xE2\x80\x8D\xF0\x9F\x94\xA5").size() == 1);
  require_offsets_round_trip("hi" + wave + "! " + family + " I \xE2\x9D\xA4\xEF\xB8\x8F NY");
}

TEST_CASE("emoji: flags pair regional indicators, tag sequences, keycaps", "[tokenizer]") {
  const std::string cn = "\xF0\x9F\x87\xA8\xF0\x9F\x87\xB3";  // C N
  const std::string us = "\xF0\x9F\x87\xBA\xF0\x9F\x87\xB8";  // U S
  const std::vector<Token> flags = attn::tokenize(cn + us);
  REQUIRE(texts(flags) == std::vector<std::string>{cn, us});
  REQUIRE(kinds(flags) == std::vector<std::string>{"Emoji", "Emoji"});
  REQUIRE(flags[1].byte_begin == 8);
  // An odd indicator left over is a token of its own.
  const std::string lone_u = "\xF0\x9F\x87\xBA";
  REQUIRE(token_texts(cn + lone_u) == std::vector<std::string>{cn, lone_u});

  // England: black flag U+1F3F4, tags g b e n g, cancel tag U+E007F.
  const std::string england =
      "\xF0\x9F\x8F\xB4\xF3\xA0\x81\xA7\xF3\xA0\x81\xA2\xF3\xA0\x81\xA5\xF3\xA0\x81\xAE\xF3\xA0\x81\xA7"
      "\xF3\xA0\x81\xBF";
  const std::vector<Token> gb = attn::tokenize(england + "!");
  REQUIRE(texts(gb) == std::vector<std::string>{england, "!"});
  REQUIRE(gb[0].kind == TokenKind::Emoji);

  // Keycap one: 1 U+FE0F U+20E3; keycap #; and the older form without the selector.
  const std::string keycap_one = "1\xEF\xB8\x8F\xE2\x83\xA3";
  const std::string keycap_hash = "#\xEF\xB8\x8F\xE2\x83\xA3";
  const std::vector<Token> keys = attn::tokenize(keycap_one + keycap_hash + "7\xE2\x83\xA3" + "42");
  REQUIRE(texts(keys) == std::vector<std::string>{keycap_one, keycap_hash, "7\xE2\x83\xA3", "42"});
  REQUIRE(kinds(keys) == std::vector<std::string>{"Emoji", "Emoji", "Emoji", "Number"});
  // A keycap right after a number is not swallowed by it.
  REQUIRE(token_texts("12" + keycap_one) == std::vector<std::string>{"12", keycap_one});
  require_offsets_round_trip(cn + us + lone_u + " " + england + keycap_one + keycap_hash);
}

TEST_CASE("combining marks stay with their base; a mark without a base is Other", "[tokenizer]") {
  // "café" decomposed: e + U+0301 COMBINING ACUTE ACCENT.
  const std::string cafe = "cafe\xCC\x81";
  const std::vector<Token> tokens = attn::tokenize(cafe + " au lait");
  REQUIRE(texts(tokens) == std::vector<std::string>{cafe, "au", "lait"});
  REQUIRE(tokens[0].kind == TokenKind::Word);
  REQUIRE(tokens[0].byte_end == 6);
  // Marks in the middle keep the word whole; several marks on one base.
  REQUIRE(token_texts("na\xCC\x88ive") == std::vector<std::string>{"na\xCC\x88ive"});
  REQUIRE(token_texts("e\xCC\x81\xCC\xA7x") == std::vector<std::string>{"e\xCC\x81\xCC\xA7x"});
  // A mark at the start or after a space has no base: its own Other token, one per mark.
  const std::vector<Token> baseless = attn::tokenize("\xCC\x81" "a \xCC\x81\xCC\x81");
  REQUIRE(texts(baseless) == std::vector<std::string>{"\xCC\x81", "a", "\xCC\x81", "\xCC\x81"});
  REQUIRE(kinds(baseless) == std::vector<std::string>{"Other", "Word", "Other", "Other"});
  // A mark after punctuation decorates the punctuation.
  REQUIRE(token_texts("!\xCC\x81") == std::vector<std::string>{"!\xCC\x81"});
  require_offsets_round_trip(cafe + " na\xCC\x88ive \xCC\x81");
}

TEST_CASE("whitespace separates and is dropped; empty input gives no tokens", "[tokenizer]") {
  REQUIRE(attn::tokenize("").empty());
  REQUIRE(attn::tokenize(" \t\n\r\v\f").empty());
  // U+00A0, U+3000, U+2003 EM SPACE, U+202F, U+200B, U+FEFF.
  const std::string unicode_spaces = "\xC2\xA0\xE3\x80\x80\xE2\x80\x83\xE2\x80\xAF\xE2\x80\x8B\xEF\xBB\xBF";
  REQUIRE(attn::tokenize(unicode_spaces).empty());
  REQUIRE(token_texts("a\xC2\xA0" "b") == std::vector<std::string>{"a", "b"});
  REQUIRE(token_texts("猫\xE3\x80\x80狗") == std::vector<std::string>{"猫", "狗"});
  REQUIRE(token_texts("\xEF\xBB\xBFHello") == std::vector<std::string>{"Hello"});
  // C0 and C1 controls are dropped, and split the word they interrupt.
  REQUIRE(token_texts(std::string("a\x01" "b\x7F") + "\xC2\x80" "c") == std::vector<std::string>{"a", "b", "c"});
  REQUIRE(attn::tokenize(std::string("\x00\x1B", 2)).empty());
}

TEST_CASE("other symbols are one Other token per code point", "[tokenizer]") {
  // U+2192 RIGHTWARDS ARROW, U+2211 N-ARY SUMMATION, U+2500 BOX DRAWING.
  const std::vector<Token> tokens = attn::tokenize("x\xE2\x86\x92y \xE2\x88\x91\xE2\x94\x80");
  REQUIRE(texts(tokens) == std::vector<std::string>{"x", "\xE2\x86\x92", "y", "\xE2\x88\x91", "\xE2\x94\x80"});
  REQUIRE(kinds(tokens) == std::vector<std::string>{"Word", "Other", "Word", "Other", "Other"});
  // Currency is punctuation-like, as $ is.
  REQUIRE(kinds(attn::tokenize("$5 \xE2\x82\xAC" "5")) ==
          std::vector<std::string>{"Punctuation", "Number", "Punctuation", "Number"});
}

TEST_CASE("invalid UTF-8 becomes U+FFFD, one per maximal invalid subpart", "[tokenizer]") {
  const auto fffd_tokens = [](const std::vector<Token>& tokens) {
    int count = 0;
    for (const Token& t : tokens)
      if (t.text == kFffd) {
        REQUIRE(t.kind == TokenKind::Other);
        ++count;
      }
    return count;
  };

  SECTION("lone continuation byte") {
    const std::vector<Token> tokens = attn::tokenize("a\x80" "b");
    REQUIRE(texts(tokens) == std::vector<std::string>{"a", kFffd, "b"});
    REQUIRE(tokens[1].byte_begin == 1);
    REQUIRE(tokens[1].byte_end == 2);
  }
  SECTION("truncated 3-byte sequence at the end of the input") {
    // The first two bytes of 猫 (E7 8C AB): one replacement spanning both bytes.
    const std::vector<Token> tokens = attn::tokenize("ok\xE7\x8C");
    REQUIRE(texts(tokens) == std::vector<std::string>{"ok", kFffd});
    REQUIRE(tokens[1].byte_begin == 2);
    REQUIRE(tokens[1].byte_end == 4);
  }
  SECTION("overlong encoding of '/'") {
    const std::vector<Token> tokens = attn::tokenize("\xC0\xAF");
    REQUIRE(texts(tokens) == std::vector<std::string>{kFffd, kFffd});
    REQUIRE(attn::decode_utf8("\xC0\xAF") == std::vector<std::uint32_t>{0xFFFD, 0xFFFD});
    REQUIRE(attn::decode_utf8("\xE0\x80\xAF") == std::vector<std::uint32_t>{0xFFFD, 0xFFFD, 0xFFFD});
  }
  SECTION("UTF-16 surrogate encoded in UTF-8") {
    REQUIRE(fffd_tokens(attn::tokenize("\xED\xA0\x80")) == 3);
    REQUIRE(attn::decode_utf8("\xED\xA0\x80") == std::vector<std::uint32_t>{0xFFFD, 0xFFFD, 0xFFFD});
    // The last code point before the surrogates, U+D7FF, is fine.
    REQUIRE(attn::decode_utf8("\xED\x9F\xBF") == std::vector<std::uint32_t>{0xD7FF});
  }
  SECTION("0xFF byte and code points above U+10FFFF") {
    REQUIRE(texts(attn::tokenize("\xFF")) == std::vector<std::string>{kFffd});
    REQUIRE(attn::decode_utf8("\xF4\x90\x80\x80") == std::vector<std::uint32_t>{0xFFFD, 0xFFFD, 0xFFFD, 0xFFFD});
    REQUIRE(attn::decode_utf8("\xF4\x8F\xBF\xBF") == std::vector<std::uint32_t>{0x10FFFF});
  }
  SECTION("the Unicode standard's worked example (Table 3-11)") {
    const std::string bytes = "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
    REQUIRE(attn::decode_utf8(bytes) == std::vector<std::uint32_t>{0x61, 0xFFFD, 0xFFFD, 0xFFFD, 0x62, 0xFFFD,
                                                                   0x63, 0xFFFD, 0xFFFD, 0x64});
    REQUIRE(texts(attn::tokenize(bytes)) ==
            std::vector<std::string>{"a", kFffd, kFffd, kFffd, "b", kFffd, "c", kFffd, kFffd, "d"});
    // repair_utf8 writes the same code points back: valid text, kept as it was elsewhere.
    REQUIRE(attn::repair_utf8(bytes) == std::string("a") + kFffd + kFffd + kFffd + "b" + kFffd + "c" + kFffd + kFffd + "d");
    REQUIRE(attn::repair_utf8("\xE7\x8C\xAB ok") == "\xE7\x8C\xAB ok");
  }
  SECTION("a bad byte splits a word, and a broken sequence does not eat the next character") {
    REQUIRE(token_texts("caf\xC3" "e") == std::vector<std::string>{"caf", kFffd, "e"});
    REQUIRE(token_texts("\xE7\x8C猫") == std::vector<std::string>{kFffd, "猫"});
  }
}

TEST_CASE("encode_utf8 and decode_utf8 agree", "[tokenizer]") {
  REQUIRE(attn::encode_utf8(0x41) == "A");
  REQUIRE(attn::encode_utf8(0xE9) == "\xC3\xA9");
  REQUIRE(attn::encode_utf8(0x732B) == "猫");
  REQUIRE(attn::encode_utf8(0x1F600) == "\xF0\x9F\x98\x80");
  REQUIRE(attn::encode_utf8(0xD800) == kFffd);
  REQUIRE(attn::encode_utf8(0x110000) == kFffd);
  for (std::uint32_t cp : {0x0u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xD7FFu, 0xE000u, 0xFFFFu, 0x10000u, 0x10FFFFu}) {
    INFO("U+" << std::hex << cp);
    REQUIRE(attn::decode_utf8(attn::encode_utf8(cp)) == std::vector<std::uint32_t>{cp});
  }
}

TEST_CASE("byte offsets round-trip on a mixed multilingual text", "[tokenizer]") {
  const std::string input =
      "The cat (猫) chased 老鼠 — 2 times! Ça va? Привет 한국어 ｶﾀｶﾅ "
      "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xF0\x9F\x87\xA8\xF0\x9F\x87\xB3 cafe\xCC\x81 GPT-4很强。";
  const std::vector<Token> tokens = attn::tokenize(input);
  REQUIRE(tokens.size() == 32);
  REQUIRE(tokens[8].text == "—");
  REQUIRE(tokens[25].text == "cafe\xCC\x81");
  require_offsets_round_trip(input);
}

TEST_CASE("random bytes never crash and offsets stay in range", "[tokenizer]") {
  attn::Rng rng(2024);
  // Fragments that make structured garbage: valid sequences, their prefixes, joiners, marks.
  const std::vector<std::string> fragments = {
      "a", " ", "7", "\xCC\x81", "\xE2\x80\x8D", "\xEF\xB8\x8F", "\xE2\x83\xA3", "\xF0\x9F\x91\xA8",
      "\xF0\x9F\x87\xA8", "\xF0\x9F\x8F\xBD", "猫", "\xE1\x84\x92", "\xE1\x85\xA1", "\xE7\x8C", "\xF0\x9F",
      "\xED\xA0\x80", "\xF3\xA0\x81\xA7", "#", "\xC2", "\x80"};
  for (int trial = 0; trial < 3000; ++trial) {
    std::string input;
    const int pieces = static_cast<int>(rng.next_u32() % 40);
    for (int p = 0; p < pieces; ++p) {
      if (rng.next_u32() % 2 == 0) {
        input += static_cast<char>(rng.next_u32() & 0xFF);
      } else {
        input += fragments[rng.next_u32() % fragments.size()];
      }
    }
    const std::vector<Token> tokens = attn::tokenize(input);
    int previous_end = 0;
    for (const Token& t : tokens) {
      REQUIRE(t.byte_begin >= previous_end);
      REQUIRE(t.byte_end > t.byte_begin);
      REQUIRE(t.byte_end <= static_cast<int>(input.size()));
      REQUIRE(!t.text.empty());
      // The text is the slice with each invalid subpart replaced: same code points...
      const std::string_view slice = std::string_view(input).substr(t.byte_begin, t.byte_end - t.byte_begin);
      const std::vector<std::uint32_t> code_points = attn::decode_utf8(t.text);
      REQUIRE(code_points == attn::decode_utf8(slice));
      // ...and it is valid UTF-8 itself: re-encoding gives the same bytes.
      std::string reencoded;
      for (std::uint32_t cp : code_points) reencoded += attn::encode_utf8(cp);
      REQUIRE(reencoded == t.text);
      previous_end = t.byte_end;
    }
  }
}

TEST_CASE("input beyond 1 MiB is cut at a code point boundary", "[tokenizer]") {
  // 猫 is 3 bytes and 2^20 is not a multiple of 3: the cap falls inside a character.
  std::string cats;
  for (int i = 0; i < 350000; ++i) cats += "猫";
  REQUIRE(cats.size() > static_cast<std::size_t>(attn::kMaxTokenizeBytes));
  REQUIRE(attn::tokenized_byte_count(cats) == 1048575);
  const std::vector<Token> tokens = attn::tokenize(cats);
  REQUIRE(tokens.size() == 349525);
  REQUIRE(tokens.back().text == "猫");
  REQUIRE(tokens.back().byte_end == 1048575);
  // Under the cap nothing is cut.
  REQUIRE(attn::tokenized_byte_count("abc") == 3);
}

TEST_CASE("token text hash is pinned, so web and desktop agree", "[tokenizer]") {
  REQUIRE(attn::token_text_hash("") == 17665956581633026203ull);
  REQUIRE(attn::token_text_hash("cat") == 12377401618073479058ull);
  REQUIRE(attn::token_text_hash("猫") == 17029054340839917540ull);
  REQUIRE(attn::token_text_hash("cat") != attn::token_text_hash("cats"));
  REQUIRE(attn::token_embedding_seed("cat", 1) != attn::token_embedding_seed("cat", 2));
}

TEST_CASE("token embeddings: shape, identical rows for identical text, seed dependence", "[tokenizer]") {
  const std::vector<Token> tokens = attn::tokenize("the cat saw the dog");
  const Mat e = attn::token_embeddings(tokens, 16, 42);
  REQUIRE(e.rows() == 5);
  REQUIRE(e.cols() == 16);
  REQUIRE(e.allFinite());
  // "the" at positions 0 and 3: bit-identical rows.
  REQUIRE(e.row(0) == e.row(3));
  REQUIRE(e.row(0) != e.row(1));
  REQUIRE(e.row(1) != e.row(4));
  // The same text elsewhere and in another sentence gives the same row.
  const Mat other = attn::token_embeddings(attn::tokenize("dog"), 16, 42);
  REQUIRE(other.row(0) == e.row(4));
  // Another seed gives other rows.
  const Mat reseeded = attn::token_embeddings(tokens, 16, 43);
  for (int i = 0; i < 5; ++i) REQUIRE(reseeded.row(i) != e.row(i));
  // A narrower embedding is the prefix of a wider one.
  const Mat narrow = attn::token_embeddings(tokens, 8, 42);
  REQUIRE(narrow == e.leftCols(8));
  // Empty inputs and a negative width give empty matrices, not a crash.
  REQUIRE(attn::token_embeddings({}, 16, 42).rows() == 0);
  REQUIRE(attn::token_embeddings({}, 16, 42).cols() == 16);
  REQUIRE(attn::token_embeddings(tokens, -3, 42).cols() == 0);
  // Pinned values: the project's generator makes these the same on web and desktop
  // (to ~1e-7, the last bit of libm's log/cos).
  const Mat cat = attn::token_embeddings(attn::tokenize("cat"), 4, 7);
  REQUIRE(cat(0, 0) == Approx(0.0315618813).margin(1e-5));
  REQUIRE(cat(0, 1) == Approx(-0.436408967).margin(1e-5));
  REQUIRE(cat(0, 2) == Approx(-0.898197055).margin(1e-5));
  REQUIRE(cat(0, 3) == Approx(-1.22386515).margin(1e-5));
}

TEST_CASE("token embeddings are N(0, 1) over many distinct tokens", "[tokenizer]") {
  std::vector<Token> tokens;
  for (int i = 0; i < 2000; ++i) {
    Token t;
    t.text = "token" + std::to_string(i);
    tokens.push_back(t);
  }
  const int d_model = 64;
  const Mat e = attn::token_embeddings(tokens, d_model, 1);
  REQUIRE(e.rows() == 2000);
  REQUIRE(e.cols() == d_model);
  // Reference sums in double on purpose: 128,000 floats.
  double sum = 0.0, sum_sq = 0.0;
  for (int i = 0; i < e.rows(); ++i)
    for (int j = 0; j < e.cols(); ++j) {
      sum += e(i, j);
      sum_sq += static_cast<double>(e(i, j)) * e(i, j);
    }
  const double count = static_cast<double>(e.size());
  const double mean = sum / count;
  const double variance = sum_sq / count - mean * mean;
  // Standard errors: 1/sqrt(128000) = 0.0028 for the mean, sqrt(2/128000) = 0.004 for the variance.
  REQUIRE(std::fabs(mean) < 0.015);
  REQUIRE(std::fabs(variance - 1.0) < 0.02);
  // No two distinct tokens share a row.
  std::set<std::uint64_t> seeds;
  for (const Token& t : tokens) seeds.insert(attn::token_embedding_seed(t.text, 1));
  REQUIRE(seeds.size() == tokens.size());
}
