#include "core/lm/evaluate.h"

#include "core/base/utf8.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::lm {

StreamScorer::StreamScorer(const LanguageModel& model, std::vector<int> tokens, const RunOptions& options)
    : model_(&model), tokens_(std::move(tokens)), runner_(model, options), done_(tokens_.size() < 2) {}

void StreamScorer::step() {
  if (done_) return;
  const int T = model_->config.context, stride = T / 2;
  const long long n = static_cast<long long>(tokens_.size());
  const double extra = model_->vocabulary.unknown_extra_bits();
  const int len = static_cast<int>(std::min<long long>(T, n - start_));
  runner_.clear();
  runner_.feed(tokens_.data() + start_, len, logits_, nullptr);
  // Row r predicts the token at start + r + 1. The first window scores every row; a later
  // one only the targets past the previous window's last (start - stride + T - 1).
  const long long first_target = start_ == 0 ? 1 : start_ - stride + T;
  for (int r = 0; r + 1 < len; ++r) {
    const long long target_at = start_ + r + 1;
    if (target_at < first_target) continue;
    const int target = tokens_[static_cast<std::size_t>(target_at)];
    if (target == kStartToken) continue;
    log2_softmax(logits_.row(r).data(), model_->config.vocab, lp_);
    bits_.bits += -lp_[static_cast<std::size_t>(target)] + (target == kUnknownToken ? extra : 0.0);
    ++bits_.scored;
  }
  scanned_ = std::min(n, start_ + len);
  done_ = start_ + len >= n;
  start_ += stride;
}

Bits score_tokens(const LanguageModel& model, const std::vector<int>& tokens, const RunOptions& options,
                  const std::function<void(long long, long long)>& progress) {
  StreamScorer scorer(model, tokens, options);
  while (!scorer.done()) {
    scorer.step();
    if (progress) progress(scorer.scanned(), static_cast<long long>(tokens.size()));
  }
  return scorer.bits();
}

std::vector<int> entry_stream(const Vocabulary& vocabulary, const std::vector<std::string>& entries) {
  std::vector<int> out;
  Encoded e;
  for (const std::string& text : entries) {
    out.push_back(kStartToken);
    if (vocabulary.encode(text, e).ok) out.insert(out.end(), e.tokens.begin(), e.tokens.end());
  }
  return out;
}

TokenChoice choose_token(const float* logits, int vocab, const SampleOptions& o, Rng& rng) {
  TokenChoice c;
  std::vector<double> lp;
  log2_softmax(logits, vocab, lp);
  std::vector<int> order(static_cast<std::size_t>(vocab));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return lp[a] > lp[b]; });
  for (int i = 0; i < std::min(kTopProbabilities, vocab); ++i)
    c.top.emplace_back(order[i], static_cast<float>(std::exp2(lp[order[i]])));
  // Candidates: the tokens in probability order without UNK, cut to top_k.
  std::vector<int> cand;
  for (int t : order)
    if (t != kUnknownToken) cand.push_back(t);
  if (o.top_k > 0 && static_cast<int>(cand.size()) > o.top_k) cand.resize(static_cast<std::size_t>(o.top_k));
  if (o.temperature <= 0.0f || cand.size() == 1) {
    c.token = cand.front();
    return c;
  }
  // p_i proportional to exp(ln p_i / temperature), drawn with one uniform number.
  std::vector<double> w(cand.size());
  const double top = lp[cand.front()] * std::log(2.0) / o.temperature;
  double sum = 0;
  for (std::size_t i = 0; i < cand.size(); ++i) sum += w[i] = std::exp(lp[cand[i]] * std::log(2.0) / o.temperature - top);
  double u = rng.uniform() * sum;
  for (std::size_t i = 0; i < cand.size(); ++i) {
    u -= w[i];
    if (u < 0) {
      c.token = cand[i];
      return c;
    }
  }
  c.token = cand.back();
  return c;
}

// ---- bigram --------------------------------------------------------------------------------

std::vector<std::uint32_t> code_point_stream(const std::vector<std::string>& entries) {
  std::vector<std::uint32_t> out;
  for (const std::string& e : entries) {
    out.push_back(0);
    const std::vector<std::uint32_t> cps = decode_utf8(e);
    out.insert(out.end(), cps.begin(), cps.end());
  }
  return out;
}

int Bigram::index(std::uint32_t cp) const {
  auto it = std::lower_bound(symbols_.begin(), symbols_.end(), cp);
  if (it == symbols_.end() || *it != cp) return static_cast<int>(symbols_.size());
  return static_cast<int>(it - symbols_.begin());
}

void Bigram::train(const std::vector<std::uint32_t>& stream) {
  symbols_ = stream;
  std::sort(symbols_.begin(), symbols_.end());
  symbols_.erase(std::unique(symbols_.begin(), symbols_.end()), symbols_.end());
  const std::size_t V = symbols_.size() + 1;
  unigram_.assign(V, 0);
  first_counts_.assign(V, 0);
  std::vector<std::vector<int>> next(V);
  std::vector<int> idx(stream.size());
  for (std::size_t i = 0; i < stream.size(); ++i) idx[i] = index(stream[i]);
  for (std::size_t i = 0; i < stream.size(); ++i) {
    ++unigram_[idx[i]];
    if (i + 1 < stream.size()) {
      ++first_counts_[idx[i]];
      next[idx[i]].push_back(idx[i + 1]);
    }
  }
  total_ = static_cast<long long>(stream.size());
  pairs_.assign(V, {});
  for (std::size_t a = 0; a < V; ++a) {
    std::sort(next[a].begin(), next[a].end());
    for (std::size_t i = 0; i < next[a].size();) {
      std::size_t j = i;
      while (j < next[a].size() && next[a][j] == next[a][i]) ++j;
      pairs_[a].emplace_back(next[a][i], static_cast<long long>(j - i));
      i = j;
    }
  }
}

Bits Bigram::score(const std::vector<std::uint32_t>& stream) const {
  Bits out;
  const double V = static_cast<double>(symbols_.size() + 1);
  for (std::size_t i = 1; i < stream.size(); ++i) {
    if (stream[i] == 0) continue;  // entry boundaries are read, not scored
    const int a = index(stream[i - 1]), b = index(stream[i]);
    const double uni = (static_cast<double>(unigram_[b]) + 1.0) / (static_cast<double>(total_) + V);
    double p = uni;
    if (first_counts_[a] > 0) {
      const auto& row = pairs_[a];
      auto it = std::lower_bound(row.begin(), row.end(), std::make_pair(b, 0LL));
      const double pair = (it != row.end() && it->first == b) ? static_cast<double>(it->second) : 0.0;
      p = 0.75 * pair / static_cast<double>(first_counts_[a]) + 0.25 * uni;
    }
    out.bits += -std::log2(p);
    ++out.scored;
  }
  return out;
}

}  // namespace attn::lm
