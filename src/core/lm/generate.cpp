#include "core/lm/generate.h"

#include "core/lm/lm_messages.h"

namespace attn::lm {

Status read_prompt(const LanguageModel& model, std::string_view text, Encoded& encoded, std::vector<int>& tokens) {
  Encoded e;
  if (Status st = model.vocabulary.encode(text, e); !st.ok) return st;
  if (e.tokens.empty()) return Status::error(msg::lm_prompt_empty);
  const int limit = model.config.context - 1;
  if (static_cast<int>(e.tokens.size()) > limit) return Status::error(msg::lm_prompt_too_long, e.tokens.size(), limit);
  tokens.assign(1, kStartToken);
  tokens.insert(tokens.end(), e.tokens.begin(), e.tokens.end());
  encoded = std::move(e);
  return Status::success();
}

Status text_attention(const LanguageModel& model, std::string_view text, const RunOptions& options,
                      TextAttention& out) {
  if (model.empty()) return Status::error(msg::lm_no_model);
  if (Status st = check_options(model, options); !st.ok) return st;
  TextAttention t;
  if (Status st = read_prompt(model, text, t.encoded, t.tokens); !st.ok) return st;
  Runner runner(model, options);
  runner.feed(t.tokens.data(), static_cast<int>(t.tokens.size()), t.logits, &t.trace);
  out = std::move(t);
  return Status::success();
}

Status generate(const LanguageModel& model, std::string_view prompt, const RunOptions& options,
                const GenerateOptions& g, std::vector<GeneratedToken>& out) {
  if (model.empty()) return Status::error(msg::lm_no_model);
  if (Status st = check_options(model, options); !st.ok) return st;
  if (g.tokens < 1 || g.tokens > kMaxGeneratedTokens)
    return Status::error(msg::lm_tokens_range, kMaxGeneratedTokens, g.tokens);
  if (!(g.sample.temperature >= 0.0f && g.sample.temperature <= kMaxTemperature))
    return Status::error(msg::lm_temperature_range, "10");
  if (g.sample.top_k < 0 || g.sample.top_k > model.config.vocab)
    return Status::error(msg::lm_top_k_range, model.config.vocab, g.sample.top_k);
  Encoded e;
  std::vector<int> tokens;
  if (Status st = read_prompt(model, prompt, e, tokens); !st.ok) return st;
  Runner runner(model, options);
  Rng rng(g.sample.seed);
  Mat logits;
  FeedTrace trace;
  runner.feed(tokens.data(), static_cast<int>(tokens.size()), logits, &trace);
  std::vector<GeneratedToken> result;
  const int heads = model.config.layers * model.config.heads;
  for (int step = 0; step < g.tokens; ++step) {
    const int last = static_cast<int>(logits.rows()) - 1;
    TokenChoice c = choose_token(logits.row(last).data(), model.config.vocab, g.sample, rng);
    GeneratedToken t;
    t.token = c.token;
    t.top = std::move(c.top);
    t.cache_bytes = runner.cache_bytes();
    t.keys = trace.keys;
    for (int i = 0; i < heads; ++i) {
      const Mat& w = trace.weights[static_cast<std::size_t>(i)];
      t.attention.emplace_back(w.row(last).data(), w.row(last).data() + w.cols());
    }
    result.push_back(std::move(t));
    tokens.push_back(c.token);
    if (step + 1 == g.tokens) break;
    if (runner.position() == runner.capacity()) {
      // Slide: the last context / 2 tokens, fed again from an empty cache.
      const int keep = runner.capacity() / 2;
      runner.clear();
      runner.feed(tokens.data() + tokens.size() - keep, keep, logits, &trace);
    } else {
      runner.feed(&tokens.back(), 1, logits, &trace);
    }
  }
  out = std::move(result);
  return Status::success();
}

}  // namespace attn::lm
