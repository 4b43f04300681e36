// What the language model is measured with: bits per character on a text, sampling the next
// token, and a character bigram to compare against.
//
// Scoring a text longer than the context: windows of `context` tokens, each starting `stride`
// = context / 2 after the last; the first window scores all its targets, each later one only
// its last `stride` (so every target is predicted from at least context / 2 earlier tokens,
// and scored once). Only characters are scored (a target that is the start token, an entry
// boundary, is read but not counted). An unknown character costs the UNK token's bits plus
// Vocabulary::unknown_extra_bits().
#pragma once

#include "core/base/rng.h"
#include "core/base/types.h"
#include "core/lm/language_model.h"
#include "core/lm/runner.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attn::lm {

struct Bits {
  double bits = 0;     // total
  long long scored = 0;  // characters scored
  double per_character() const { return scored > 0 ? bits / static_cast<double>(scored) : 0.0; }
  void add(const Bits& b) {
    bits += b.bits;
    scored += b.scored;
  }
};

// Scores a stream window by window (the windows above), so a caller can spread the work of
// a long text over frames: step() until done(), then bits(). The model must outlive it.
class StreamScorer {
 public:
  StreamScorer(const LanguageModel& model, std::vector<int> tokens, const RunOptions& options);
  bool done() const { return done_; }
  void step();  // scores the next window (nothing once done)
  const Bits& bits() const { return bits_; }
  long long scanned() const { return scanned_; }  // tokens read so far, of tokens().size()
  const std::vector<int>& tokens() const { return tokens_; }

 private:
  const LanguageModel* model_;
  std::vector<int> tokens_;
  Runner runner_;
  long long start_ = 0, scanned_ = 0;
  bool done_ = false;
  Bits bits_;
  Mat logits_;
  std::vector<double> lp_;
};

// The whole stream at once; `progress(done, total)` is called after each window when given.
Bits score_tokens(const LanguageModel& model, const std::vector<int>& tokens, const RunOptions& options,
                  const std::function<void(long long, long long)>& progress = {});

// The stream a list of entries makes: start token, entry, start token, entry, ...
std::vector<int> entry_stream(const Vocabulary& vocabulary, const std::vector<std::string>& entries);

// ---- sampling ---------------------------------------------------------------------------

inline constexpr float kMaxTemperature = 10.0f;
inline constexpr int kTopProbabilities = 10;

struct SampleOptions {
  float temperature = 0.0f;  // 0 = greedy (the most probable token, the lowest id on a tie)
  int top_k = 0;             // 0 = every token
  std::uint64_t seed = 1;
};

struct TokenChoice {
  int token = 0;
  std::vector<std::pair<int, float>> top;  // the model's 10 most probable tokens (temperature 1)
};

// The next token from a row of logits. UNK is never chosen (it is not a character to write);
// the start token may be (the model ends the entry).
TokenChoice choose_token(const float* logits, int vocab, const SampleOptions& options, Rng& rng);

// ---- the baseline: an interpolated character bigram --------------------------------------

// P(c | b) = 0.75 count(b c) / count(b) + 0.25 (count(c) + 1) / (N + V), counted over the
// training stream (start tokens included, as context and as targets) with V = the distinct
// training characters plus one unknown slot; where b was never seen, the unigram alone.
// A character never seen in training falls to the unknown slot. Scored like the model: only
// characters count.
class Bigram {
 public:
  void train(const std::vector<std::uint32_t>& stream);  // code points; 0 = the start token
  Bits score(const std::vector<std::uint32_t>& stream) const;

 private:
  std::vector<std::uint32_t> symbols_;        // sorted distinct code points
  std::vector<long long> unigram_;            // per symbol index, + 1 unknown slot at the end
  std::vector<std::vector<std::pair<int, long long>>> pairs_;  // per first symbol, sorted
  std::vector<long long> first_counts_;
  long long total_ = 0;
  int index(std::uint32_t cp) const;  // unknown -> symbols_.size()
};

// Code points of entries as a stream, 0 before each entry.
std::vector<std::uint32_t> code_point_stream(const std::vector<std::string>& entries);

}  // namespace attn::lm
