// Training the language model on a plain text (src/core/lm/text_trainer.h): the split rule
// (the first line break at or after 90% of the characters), its refusals, and a short run
// whose held-out bits fall, whose file loads back to the same bits and the same bytes, and
// which a refused text does not disturb.
#include "core/base/utf8.h"
#include "core/lm/corpus.h"
#include "core/lm/evaluate.h"
#include "core/lm/language_model.h"
#include "core/lm/text_trainer.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace lm = attn::lm;

namespace {

// Lines of a few words each, deterministic and with a little structure to learn: `lines`
// lines, each "word word word." from a small list.
std::string text_of_lines(int lines) {
  const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "then", "ran", "to", "its", "bed"};
  std::string s;
  unsigned x = 7;
  for (int i = 0; i < lines; ++i) {
    for (int w = 0; w < 5; ++w) {
      x = x * 1103515245u + 12345u;
      s += words[(x >> 16) % 12];
      s += w == 4 ? ".\n" : " ";
    }
  }
  return s;
}

long long characters(const std::string& s) { return static_cast<long long>(attn::decode_utf8(s).size()); }

}  // namespace

TEST_CASE("lm text split: held out from the first line break at or after 90%", "[lm]") {
  const std::string text = text_of_lines(200);
  lm::CorpusFile f;
  lm::TextSplit split;
  REQUIRE(lm::split_plain_text("t", text, 0.1, f, split).ok);
  const long long n = characters(text);
  REQUIRE(split.characters == n);
  REQUIRE(f.train.size() == 1);
  REQUIRE(f.held_out.size() == 1);
  REQUIRE(f.train[0] + f.held_out[0] == text);
  // The held-out part starts with the line break; no earlier line break lies at or after 90%.
  REQUIRE(f.held_out[0].front() == '\n');
  const long long mark = (9 * n + 9) / 10;  // the first character at or after 90%
  REQUIRE(split.train_characters >= mark);
  REQUIRE(f.train[0].find('\n', static_cast<std::size_t>(mark)) == std::string::npos);
  REQUIRE(split.train_characters + split.held_out_characters == n);
  REQUIRE(split.language == lm::TextLanguage::English);

  // No line break after the mark: the cut is the mark itself, in characters (not bytes).
  std::string chinese;
  for (int i = 0; i < 2500; ++i) chinese += (i % 7 == 6) ? "。" : "春";
  REQUIRE(lm::split_plain_text("zh", chinese, 0.1, f, split).ok);
  REQUIRE(split.characters == 2500);
  REQUIRE(split.train_characters == 2250);
  REQUIRE(split.held_out_characters == 250);
  REQUIRE(split.language == lm::TextLanguage::Chinese);

  // Line ends become "\n" and a byte-order mark goes, before counting.
  std::string crlf = "\xEF\xBB\xBF";
  for (int i = 0; i < 300; ++i) crlf += "line " + std::to_string(i % 10) + "\r\n";
  REQUIRE(lm::split_plain_text("crlf", crlf, 0.1, f, split).ok);
  REQUIRE((f.train[0] + f.held_out[0]).find('\r') == std::string::npos);
  REQUIRE(split.characters == 300 * 7);
  REQUIRE(f.train[0].rfind("line 0\n", 0) == 0);
}

TEST_CASE("lm text split: refusals name the problem", "[lm]") {
  lm::CorpusFile f;
  lm::TextSplit split;
  attn::Status st = lm::split_plain_text("t", std::string(1999, 'a'), 0.1, f, split);
  REQUIRE_FALSE(st.ok);
  REQUIRE(st.message.find("1999 characters") != std::string::npos);
  REQUIRE(st.message.find("at least 2000") != std::string::npos);
  std::string bad = text_of_lines(100);
  bad[1234] = '\xFF';
  st = lm::split_plain_text("t", bad, 0.1, f, split);
  REQUIRE_FALSE(st.ok);
  REQUIRE(st.message.find("UTF-8 (byte 1234)") != std::string::npos);
  REQUIRE_FALSE(lm::split_plain_text("t", text_of_lines(100), 0.0, f, split).ok);
  REQUIRE_FALSE(lm::split_plain_text("t", text_of_lines(100), 0.6, f, split).ok);
}

TEST_CASE("lm text trainer: the held-out bits fall, the file reads back the same", "[lm][train]") {
  const std::string text = text_of_lines(400);
  lm::TextTrainOptions o;
  o.preset = "quick";
  o.steps = 120;
  lm::TextTrainer t;
  REQUIRE(t.reset(text, o).ok);
  REQUIRE(t.steps_planned() == 120);
  const lm::TextEvaluation start = t.evaluate();
  lm::TextStepResult r;
  REQUIRE(t.step(50, r).ok);
  REQUIRE(r.step == 50);
  REQUIRE(r.evaluated);  // the quick preset evaluates every 50 steps
  REQUIRE(r.train_bits > 0);
  REQUIRE(t.step(1000, r).ok);  // capped at the planned total
  REQUIRE(r.step == 120);
  const lm::TextEvaluation end = t.evaluate();
  INFO("held-out bits " << start.held_out_bits << " -> " << end.held_out_bits << ", bigram " << end.bigram_bits);
  REQUIRE(end.held_out_bits < start.held_out_bits - 1.0);
  REQUIRE(end.tokens == t.split().held_out_characters);
  REQUIRE(end.bigram_bits > 0);

  // The file: parsed back, it scores the held-out part exactly as evaluate() did, and says
  // what it was trained on without carrying the text.
  const std::vector<std::uint8_t> bytes = t.save();
  lm::LanguageModel back;
  REQUIRE(lm::parse_language_model(bytes.data(), bytes.size(), back).ok);
  const std::string held = text.substr(text.size() - static_cast<std::size_t>(t.split().held_out_characters));
  const lm::Bits b = lm::score_tokens(back, lm::entry_stream(back.vocabulary, {held}), lm::RunOptions{});
  REQUIRE(b.per_character() == end.held_out_bits);
  REQUIRE(back.samples.empty());
  REQUIRE(back.notes.find(std::to_string(t.split().characters) + " characters") != std::string::npos);
  REQUIRE(back.notes.find("the cat") == std::string::npos);
  REQUIRE(lm::serialize_language_model(back) == bytes);

  // The same text, seed and steps give the same bytes; a refused text leaves the trainer as it was.
  lm::TextTrainer again;
  REQUIRE(again.reset(text, o).ok);
  REQUIRE(again.step(120, r).ok);
  REQUIRE(again.save() == bytes);
  REQUIRE_FALSE(again.reset("too short", o).ok);
  REQUIRE(again.steps_done() == 120);
  REQUIRE(again.save() == bytes);
  o.preset = "huge";
  const attn::Status st = again.reset(text, o);
  REQUIRE_FALSE(st.ok);
  REQUIRE(st.message.find("quick, page, large") != std::string::npos);
}

TEST_CASE("lm text inspect: the split, the vocabulary kept and the rare characters, before training", "[lm]") {
  std::string text = text_of_lines(200);
  // Two characters seen once each in the training part: rare, so <unk> under min_count 2.
  text.insert(10, "Q");
  text.insert(20, "Z");
  lm::TextSummary s;
  REQUIRE(lm::inspect_text(text, lm::TextTrainOptions{}, s).ok);
  REQUIRE(s.bytes == static_cast<long long>(text.size()));
  REQUIRE(s.split.characters == characters(text));
  REQUIRE(s.rare == 2);
  // The words' distinct letters, the space, '.', '\n', and the two rare ones.
  std::string seen;
  for (char c : text.substr(0, static_cast<std::size_t>(s.split.train_characters)))
    if (seen.find(c) == std::string::npos) seen += c;
  REQUIRE(s.distinct == static_cast<int>(seen.size()));
  REQUIRE(s.vocabulary == s.distinct - s.rare + lm::kSpecialTokens);
  // The trainer builds the same vocabulary.
  lm::TextTrainer t;
  lm::TextTrainOptions quick;
  quick.preset = "quick";
  REQUIRE(t.reset(text, quick).ok);
  REQUIRE(t.model().vocabulary.size() == s.vocabulary);
  REQUIRE(s.bigram_bits == t.evaluate().bigram_bits);
  REQUIRE(s.bigram_bits > 1.0);

  // Refusals as reset() gives them; `out` keeps what it had.
  const lm::TextSummary before = s;
  REQUIRE(lm::inspect_text(text.substr(0, 1000), lm::TextTrainOptions{}, s).message.find("at least 2000") !=
          std::string::npos);
  REQUIRE(lm::inspect_text(text + "\xff", lm::TextTrainOptions{}, s).message.find("not valid UTF-8") != std::string::npos);
  lm::TextTrainOptions odd;
  odd.preset = "huge";
  REQUIRE(lm::inspect_text(text, odd, s).message.find("quick, page, large") != std::string::npos);
  REQUIRE(s.vocabulary == before.vocabulary);
  REQUIRE(s.split.characters == before.split.characters);
  // Above the vocabulary's cap: 8190 distinct CJK characters, each twice, and "a" in the training
  // part: 8191 characters kept, 8193 tokens.
  std::string wide;
  for (int rep = 0; rep < 2; ++rep)
    for (std::uint32_t cp = 0x4E00; cp < 0x4E00 + 8190; ++cp) attn::append_utf8(wide, cp);
  wide += "\n" + std::string(4000, 'a');
  const attn::Status big = lm::inspect_text(wide, lm::TextTrainOptions{}, s);
  REQUIRE(!big.ok);
  REQUIRE(big.message.find("8193 tokens") != std::string::npos);
  REQUIRE(big.message.find("at most 8192") != std::string::npos);
}
