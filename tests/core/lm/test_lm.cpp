// The language model (src/core/lm): the corpus rules, the vocabulary and its fair bits for
// unknown characters, the runner against the training engine's forward pass, the key/value
// cache against a whole feed, the sliding-window scoring, the bigram by hand, the file's
// round trip and defects, head labels, generation, the switches that break the math, and a
// tiny training run.
#include "core/base/crc32.h"
#include "core/base/utf8.h"
#include "core/lm/corpus.h"
#include "core/lm/evaluate.h"
#include "core/lm/generate.h"
#include "core/lm/head_labels.h"
#include "core/lm/language_model.h"
#include "core/lm/runner.h"
#include "core/lm/trainer.h"

#include "support/tiny_lm.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace lm = attn::lm;
namespace tr = attn::train;
using attn::test::small_corpus;
using attn::test::tiny_config;
using attn::test::tiny_model;

TEST_CASE("lm corpus: entries, cleaning and the held-out rule", "[lm]") {
  REQUIRE(lm::clean_entry("\x1b[32m《静夜思》\x1b[m\n  a\t\tb   c  \n\n") == "《静夜思》\n a b c");
  REQUIRE(lm::clean_entry("\n\n   \nx") == "x");
  const std::vector<std::string> e = lm::fortune_entries("one\n%\n\n%\ntwo\r\n%\nthree");
  REQUIRE(e == std::vector<std::string>{"one", "two", "three"});
  std::string file;
  for (int i = 0; i < 25; ++i) file += "entry " + std::to_string(i) + "\n%\n";
  const lm::CorpusFile f = lm::split_fortune_file("x", lm::TextLanguage::English, 1, file);
  REQUIRE(f.held_out == std::vector<std::string>{"entry 9", "entry 19"});
  REQUIRE(f.train.size() == 23);
}

TEST_CASE("lm vocabulary: the count rule, UNK and its extra bits", "[lm]") {
  const std::string a = "aab", b = "abc";
  lm::Vocabulary v;
  REQUIRE(lm::Vocabulary::build({&a, &b}, 2, v).ok);
  // a (3 times) and b (2) are kept; c (once) is outside: K = 1 + 1.
  REQUIRE(v.size() == 4);
  REQUIRE(v.unknown_classes() == 2);
  REQUIRE(v.unknown_extra_bits() == Approx(1.0));
  lm::Encoded e;
  REQUIRE(v.encode("abcz", e).ok);
  REQUIRE(e.tokens == std::vector<int>{2, 3, lm::kUnknownToken, lm::kUnknownToken});
  REQUIRE(e.unknown == std::vector<std::uint32_t>{'c', 'z'});
  REQUIRE(v.token_text(2) == "a");
  REQUIRE(v.token_text(lm::kStartToken) == "<s>");
  const attn::Status bad = v.encode("a\xff", e);
  REQUIRE_FALSE(bad.ok);
  REQUIRE(bad.message == "the text is not valid UTF-8 (byte 1)");
  lm::Vocabulary none;
  REQUIRE(lm::Vocabulary::build({&a}, 10, none).message == "the training text has no character seen at least 10 times");
}

TEST_CASE("lm runner: the same logits as the training engine's forward pass", "[lm]") {
  const lm::LanguageModel m = tiny_model(5);
  const int T = m.config.context;
  tr::Batch b;
  b.size = 1;
  b.context = T;
  b.special = lm::kStartToken;
  for (int t = 0; t < T; ++t) {
    b.tokens.push_back((t * 7 + 3) % m.config.vocab);
    b.targets.push_back(0);
    b.scored.push_back(1);
  }
  tr::Activations<float> acts;
  tr::model_forward(m.config, m.parameters.data(), b, acts, false);
  lm::Runner whole(m, lm::RunOptions{});
  attn::Mat logits;
  whole.feed(b.tokens.data(), T, logits, nullptr);
  REQUIRE((logits - acts.logits).cwiseAbs().maxCoeff() < 1e-4f);
  // One token at a time over the cache: the same rows.
  lm::Runner step(m, lm::RunOptions{});
  attn::Mat one;
  float worst = 0;
  for (int t = 0; t < T; ++t) {
    step.feed(&b.tokens[static_cast<std::size_t>(t)], 1, one, nullptr);
    worst = std::max(worst, (one.row(0) - acts.logits.row(t)).cwiseAbs().maxCoeff());
  }
  REQUIRE(worst < 1e-4f);
  REQUIRE(step.cache_bytes() == 2u * m.config.layers * T * m.config.d_model * sizeof(float));
}

TEST_CASE("lm scoring: every character target once, windows of half a context", "[lm]") {
  const lm::LanguageModel m = tiny_model(5);
  std::vector<int> tokens;
  for (int i = 0; i < 100; ++i) tokens.push_back(i % 9 == 0 ? lm::kStartToken : 2 + i % 5);
  long long characters = 0;
  for (std::size_t i = 1; i < tokens.size(); ++i) characters += tokens[i] != lm::kStartToken;
  const lm::Bits bits = lm::score_tokens(m, tokens, lm::RunOptions{});
  REQUIRE(bits.scored == characters);
  // A text that fits one window scores the same as the first window's rows by hand.
  std::vector<int> short_text(tokens.begin(), tokens.begin() + 10);
  lm::Runner r(m, lm::RunOptions{});
  attn::Mat logits;
  r.feed(short_text.data(), 10, logits, nullptr);
  double hand = 0;
  std::vector<double> lp;
  for (int i = 0; i + 1 < 10; ++i) {
    if (short_text[static_cast<std::size_t>(i + 1)] == lm::kStartToken) continue;
    lm::log2_softmax(logits.row(i).data(), m.config.vocab, lp);
    hand -= lp[static_cast<std::size_t>(short_text[static_cast<std::size_t>(i + 1)])];
  }
  REQUIRE(lm::score_tokens(m, short_text, lm::RunOptions{}).bits == Approx(hand).epsilon(1e-9));
}

TEST_CASE("lm bigram: interpolated probabilities by hand", "[lm]") {
  lm::Bigram g;
  // stream <s> a b <s> a a: 6 symbols, V = {0, a, b} + unknown = 4
  g.train({0, 'a', 'b', 0, 'a', 'a'});
  // a is followed twice (by b, by a): P(b | a) = 0.75 * 1/2 + 0.25 * (1 + 1) / (6 + 4);
  // P(a | <s>) = 0.75 * 2/2 + 0.25 * (3 + 1) / 10
  const double p_ba = 0.75 / 2 + 0.25 * 0.2, p_as = 0.75 + 0.25 * 0.4;
  const lm::Bits b = g.score({0, 'a', 'b'});
  REQUIRE(b.scored == 2);
  REQUIRE(b.bits == Approx(-std::log2(p_as) - std::log2(p_ba)));
  // An unseen character after an unseen one: the unknown slot's unigram, (0 + 1) / 10.
  const lm::Bits u = g.score({'z', 'q'});
  REQUIRE(u.bits == Approx(-std::log2(0.1)));
}

TEST_CASE("lm file: round trip in float16, and every defect named", "[lm][file]") {
  lm::LanguageModel m = tiny_model(3);
  m.notes = "licence notes";
  m.samples = {{0, "held-out text"}, {1, "明月"}};
  const std::vector<std::uint8_t> bytes = lm::serialize_language_model(m);
  REQUIRE(bytes.size() > 2 * m.parameters.size());
  lm::LanguageModel back;
  REQUIRE(lm::parse_language_model(bytes.data(), bytes.size(), back).ok);
  REQUIRE(back.notes == "licence notes");
  REQUIRE(back.samples == m.samples);
  REQUIRE(back.vocabulary.characters() == m.vocabulary.characters());
  REQUIRE(back.curve.size() == m.curve.size());
  std::vector<float> rounded = m.parameters;
  lm::round_parameters_to_half(rounded);
  REQUIRE(back.parameters == rounded);
  // Saving the loaded model gives the same bytes (float16 values survive exactly).
  REQUIRE(lm::serialize_language_model(back) == bytes);

  auto error = [](std::vector<std::uint8_t> b) {
    lm::LanguageModel out;
    return lm::parse_language_model(b.data(), b.size(), out).message;
  };
  std::vector<std::uint8_t> flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x40;
  REQUIRE(error(flipped) == "corrupt: the checksum does not match (the file was damaged or edited)");
  REQUIRE(error(std::vector<std::uint8_t>(bytes.begin(), bytes.end() - 7)).rfind("truncated: the file has", 0) == 0);
  std::vector<std::uint8_t> task = bytes;
  std::memcpy(task.data(), "ATTNLABM", 8);
  REQUIRE(error(task).rfind("this is a task model file", 0) == 0);
  std::vector<std::uint8_t> junk(bytes.size(), 7);
  REQUIRE(error(junk).rfind("not an Attention Lab language model file", 0) == 0);
  REQUIRE(error({1, 2, 3}).rfind("truncated: 3 bytes", 0) == 0);
  // Every truncation fails cleanly.
  for (std::size_t n = 0; n < bytes.size(); n += 97) REQUIRE_FALSE(error(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + n)).empty());
}

TEST_CASE("lm head labels: scores from the weights, labels by threshold", "[lm]") {
  // Text "ab\ncd": positions 0 <s>, 1 a, 2 b, 3 \n, 4 c, 5 d.
  const std::vector<std::uint32_t> chars = attn::decode_utf8("ab\ncd");
  const int n = 6;
  attn::Mat prev = attn::Mat::Zero(n, n), line = attn::Mat::Zero(n, n);
  prev(0, 0) = 1;
  line(0, 0) = 1;
  for (int i = 1; i < n; ++i) {
    prev(i, i - 1) = 1;
    line(i, 0) = 1;
  }
  line(4, 0) = 0;  // c (column 0 of line 2) looks at a (column 0 of line 1)
  line(4, 1) = 1;
  line(5, 0) = 0;
  line(5, 2) = 1;  // d looks at b
  const std::vector<lm::HeadLabel> labels = lm::label_heads(chars, {prev, line}, 1, 2);
  REQUIRE(labels[0].label == lm::HeadKind::Previous);
  REQUIRE(labels[0].label_score == Approx(1.0f));
  REQUIRE(labels[1].scores[static_cast<int>(lm::HeadKind::PreviousLine)] == Approx(1.0f));
  REQUIRE(labels[1].counted[static_cast<int>(lm::HeadKind::PreviousLine)] == 2);
  // It also looks at the start token from a, b and \n: first = 2/4 (queries 2..5).
  REQUIRE(labels[1].scores[static_cast<int>(lm::HeadKind::First)] == Approx(0.5f));
  REQUIRE(labels[1].label == lm::HeadKind::PreviousLine);
}

TEST_CASE("lm head labels: the last punctuation mark, in Chinese and ASCII", "[lm]") {
  // "春眠，不觉晓。" : positions 0 <s>, 1 春, 2 眠, 3 ，, 4 不, 5 觉, 6 晓, 7 。
  const std::vector<std::uint32_t> chars = attn::decode_utf8("春眠，不觉晓。");
  const int n = 8;
  attn::Mat w = attn::Mat::Zero(n, n);
  for (int i = 0; i < n; ++i) w(i, 0) = 1;
  w(5, 0) = 0;  // 觉 and 晓 look back at the comma (不 is next to it: not counted)
  w(5, 3) = 1;
  w(6, 0) = 0.4f;
  w(6, 3) = 0.6f;
  const std::vector<lm::HeadLabel> labels = lm::label_heads(chars, {w}, 1, 1);
  const int k = static_cast<int>(lm::HeadKind::Punctuation);
  REQUIRE(labels[0].counted[k] == 3);  // queries 5, 6 and 7 (7 is the full stop; its last mark is still 3)
  REQUIRE(labels[0].scores[k] == Approx((1.0f + 0.6f + 0.0f) / 3.0f));
  REQUIRE(labels[0].label == lm::HeadKind::First);  // both pass; the start token's 4.4 / 6 is the higher
  // ASCII marks count too; a head that looks only there earns the label.
  const std::vector<std::uint32_t> ascii = attn::decode_utf8("ab, cd");
  attn::Mat v = attn::Mat::Zero(7, 7);
  for (int i = 0; i < 7; ++i) v(i, i >= 5 ? 3 : (i > 0 ? i - 1 : 0)) = 1;
  const std::vector<lm::HeadLabel> b = lm::label_heads(ascii, {v}, 1, 1);
  REQUIRE(b[0].counted[k] == 2);
  REQUIRE(b[0].scores[k] == Approx(1.0f));
  REQUIRE(b[0].scores[static_cast<int>(lm::HeadKind::Previous)] == Approx(4.0f / 6.0f));
  REQUIRE(b[0].label == lm::HeadKind::Punctuation);  // both pass their thresholds; the higher score wins
}

TEST_CASE("lm generate: greedy, sampling with a seed, the cache, and bad prompts", "[lm]") {
  const lm::LanguageModel m = tiny_model(30);
  lm::GenerateOptions g;
  g.tokens = 30;  // past the context of 24: the cache slides
  std::vector<lm::GeneratedToken> a, b;
  REQUIRE(lm::generate(m, "The", lm::RunOptions{}, g, a).ok);
  REQUIRE(lm::generate(m, "The", lm::RunOptions{}, g, b).ok);
  REQUIRE(a.size() == 30);
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a[i].token == b[i].token);
    REQUIRE(a[i].token != lm::kUnknownToken);
    REQUIRE(a[i].token == a[i].top.front().first);  // greedy takes the most probable
    float sum = 0;
    for (const auto& [t, p] : a[i].top) sum += p;
    REQUIRE(sum <= 1.0001f);
    REQUIRE(a[i].top.size() == 10);
    REQUIRE(static_cast<int>(a[i].attention.size()) == m.config.layers * m.config.heads);
    float row = 0;
    for (float w : a[i].attention[0]) row += w;
    REQUIRE(row == Approx(1.0f).epsilon(1e-4));
  }
  REQUIRE(a[0].keys == 4);  // <s> T h e
  REQUIRE(a[1].cache_bytes > a[0].cache_bytes);
  g.sample.temperature = 1.0f;
  g.sample.seed = 9;
  std::vector<lm::GeneratedToken> s1, s2;
  REQUIRE(lm::generate(m, "The", lm::RunOptions{}, g, s1).ok);
  REQUIRE(lm::generate(m, "The", lm::RunOptions{}, g, s2).ok);
  for (std::size_t i = 0; i < s1.size(); ++i) REQUIRE(s1[i].token == s2[i].token);

  REQUIRE(lm::generate(m, "", lm::RunOptions{}, g, s1).message == "the prompt is empty: type at least one character");
  REQUIRE(lm::generate(m, std::string(10000, 'a'), lm::RunOptions{}, g, s1).message ==
          "the prompt has 10000 characters; the model reads at most 23");
  g.tokens = 0;
  REQUIRE_FALSE(lm::generate(m, "a", lm::RunOptions{}, g, s1).ok);
  REQUIRE(s1.size() == 30);  // a refusal leaves the previous result
}

TEST_CASE("lm break the math: each switch changes what the model computes", "[lm]") {
  const lm::LanguageModel m = tiny_model(30);
  lm::TextAttention base;
  REQUIRE(lm::text_attention(m, "The cat sat.", lm::RunOptions{}, base).ok);
  auto logits_with = [&](lm::RunOptions o) {
    lm::TextAttention t;
    REQUIRE(lm::text_attention(m, "The cat sat.", o, t).ok);
    return t;
  };
  lm::RunOptions no_scale;
  no_scale.scale = false;
  REQUIRE((logits_with(no_scale).logits - base.logits).cwiseAbs().maxCoeff() > 1e-4f);
  lm::RunOptions no_causal;
  no_causal.causal = false;
  const lm::TextAttention nc = logits_with(no_causal);
  // The last row sees every key either way; earlier rows now see later keys.
  REQUIRE(nc.trace.weights[0](1, 5) > 0.0f);
  REQUIRE(base.trace.weights[0](1, 5) == 0.0f);
  lm::RunOptions fill;
  fill.large_negative_fill = true;
  REQUIRE((logits_with(fill).logits - base.logits).cwiseAbs().maxCoeff() == 0.0f);
  lm::RunOptions half;
  half.half_precision = true;
  const float half_diff = (logits_with(half).logits - base.logits).cwiseAbs().maxCoeff();
  REQUIRE(half_diff > 0.0f);
  REQUIRE(half_diff < 0.1f);
  lm::RunOptions ablate;
  ablate.ablated.assign(4, 0);
  ablate.ablated[1] = 1;
  REQUIRE((logits_with(ablate).logits - base.logits).cwiseAbs().maxCoeff() > 1e-5f);
  lm::RunOptions hot;
  hot.attention_temperature = 100.0f;
  lm::TextAttention refused;
  REQUIRE(lm::text_attention(m, "x", hot, refused).message == "the attention temperature must be from 0.05 to 20");
  lm::RunOptions too_many;
  too_many.ablated.assign(5, 0);
  REQUIRE_FALSE(lm::text_attention(m, "x", too_many, refused).ok);
}

TEST_CASE("lm training: deterministic, and the loss falls", "[lm][train]") {
  const lm::LanguageModel a = tiny_model(30), b = tiny_model(30);
  REQUIRE(a.parameters == b.parameters);
  REQUIRE(a.curve.size() == 2);
  REQUIRE(a.curve[1].train_bits < a.curve[0].train_bits);
  REQUIRE(a.curve[1].train_bits < std::log2(static_cast<double>(a.config.vocab)));  // beyond a uniform guess
  // The threads only share the slices out: one thread gives the same bits.
  lm::LmTrainer t;
  lm::LmTrainConfig c = tiny_config();
  c.threads = 1;
  REQUIRE(t.reset(c, small_corpus()).ok);
  REQUIRE(t.run_until(c.steps).ok);
  REQUIRE(t.model().parameters == a.parameters);
  c.slices = 3;
  REQUIRE(t.reset(c, small_corpus()).message == "slices must divide the batch");
}
