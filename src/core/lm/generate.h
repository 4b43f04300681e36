// The language model on a text the user types: its attention (every layer and head) and
// token-by-token generation over the key/value cache (runner.h).
//
// A prompt or a text is read after the start token, so it may hold at most context - 1
// characters. Generation feeds the prompt once, then one token per step: each step costs one
// row of attention per layer and head. When the cache is full, the last context / 2 tokens
// are fed again into an empty cache (a sliding window) and generation goes on.
#pragma once

#include "core/base/types.h"
#include "core/lm/evaluate.h"
#include "core/lm/language_model.h"
#include "core/lm/runner.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attn::lm {

inline constexpr int kMaxGeneratedTokens = 2000;

// [start] + the text's tokens; refuses invalid UTF-8, an empty text and one longer than the
// context allows.
Status read_prompt(const LanguageModel& model, std::string_view text, Encoded& encoded, std::vector<int>& tokens);

struct TextAttention {
  Encoded encoded;          // the characters (position p + 1 of the trace is character p)
  std::vector<int> tokens;  // start token first
  FeedTrace trace;          // q, k, v and weights of every position
  Mat logits;               // (positions, vocab)
};
Status text_attention(const LanguageModel& model, std::string_view text, const RunOptions& options,
                      TextAttention& out);

struct GenerateOptions {
  int tokens = 20;
  SampleOptions sample;
};

struct GeneratedToken {
  int token = 0;
  std::vector<std::pair<int, float>> top;   // the model's 10 most probable next tokens
  std::size_t cache_bytes = 0;              // the key/value cache when the token was chosen
  int keys = 0;                             // tokens the choosing query attended to
  std::vector<std::vector<float>> attention;  // layers * heads rows of `keys` weights
};

Status generate(const LanguageModel& model, std::string_view prompt, const RunOptions& options,
                const GenerateOptions& generate, std::vector<GeneratedToken>& out);

}  // namespace attn::lm
