// The language model's vocabulary: one token per character (a Unicode code point), plus two
// special tokens.
//
//   token 0   START  begins every entry (and so every text the model reads)
//   token 1   UNK    every character outside the vocabulary
//   token 2.. the characters seen at least `min_count` times in the training text, in code
//             point order
//
// Why characters and not byte pairs: a Chinese character is one token (three bytes of UTF-8
// would make a poem's line three times as long and its heads harder to read), every token
// is something a learner can read in a heatmap's label, and the rule fits in one sentence.
//
// Fair bits for unknown characters: a text scored by the model charges each unknown
// character the UNK token's bits plus log2(K), where K is the number of distinct training
// characters outside the vocabulary plus one (for characters never seen in training): UNK
// stands for K characters, so a small vocabulary cannot make text look cheap.
#pragma once

#include "core/base/types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::lm {

inline constexpr int kStartToken = 0;
inline constexpr int kUnknownToken = 1;
inline constexpr int kSpecialTokens = 2;
inline constexpr int kMaxVocabulary = 8192;

struct Encoded {
  std::vector<int> tokens;                 // one per character
  std::vector<std::uint32_t> characters;   // the code point of each token
  std::vector<std::uint32_t> unknown;      // distinct characters mapped to UNK, in text order
};

class Vocabulary {
 public:
  Vocabulary() = default;
  // From a list of characters (the model file's); false when a character repeats or is not a
  // Unicode scalar value. `unknown_classes` is K above (at least 1).
  bool assign(std::vector<std::uint32_t> characters, std::uint32_t unknown_classes);

  // The characters seen at least min_count times across `texts`.
  static Status build(const std::vector<const std::string*>& texts, int min_count, Vocabulary& out);

  int size() const { return static_cast<int>(characters_.size()) + kSpecialTokens; }
  const std::vector<std::uint32_t>& characters() const { return characters_; }
  std::uint32_t unknown_classes() const { return unknown_classes_; }
  // log2(K): what an unknown character costs on top of the UNK token's own bits.
  double unknown_extra_bits() const;

  // Token of one character (UNK when it is not in the vocabulary).
  int token_of(std::uint32_t code_point) const;
  // The text as tokens, one per character; refuses invalid UTF-8.
  Status encode(std::string_view utf8, Encoded& out) const;
  // How a token reads: the character, or "<s>" / "<unk>".
  std::string token_text(int token) const;

 private:
  std::vector<std::uint32_t> characters_;  // sorted
  std::uint32_t unknown_classes_ = 1;
};

}  // namespace attn::lm
