#include "core/lm/evaluate.h"

#include "core/base/utf8.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::lm {

Bits score_tokens(const LanguageModel& model, const std::vector<int>& tokens, const RunOptions& options,
                  const std::function<void(long long, long long)>& progress) {
  Bits out;
  const int T = model.config.context, stride = T / 2;
  const long long n = static_cast<long long>(tokens.size());
  if (n < 2) return out;
  const double extra = model.vocabulary.unknown_extra_bits();
  Runner runner(model, options);
  Mat logits;
  std::vector<double> lp;
  for (long long start = 0;; start += stride) {
    const int len = static_cast<int>(std::min<long long>(T, n - start));
    runner.clear();
    runner.feed(tokens.data() + start, len, logits, nullptr);
    // Targets at stream index start + r + 1, predicted by row r; the first window scores
    // every row, later ones the rows whose target lies past the previous window's end.
    const long long scored_from = start == 0 ? start + 1 : start + T - stride + 0;
    for (int r = 0; r + 1 < len; ++r) {
      const long long target_at = start + r + 1;
      if (target_at < scored_from && start != 0) continue;
      const int target = tokens[static_cast<std::size_t>(target_at)];
      if (target == kStartToken) continue;
      log2_softmax(logits.row(r).data(), model.config.vocab, lp);
      out.bits += -lp[static_cast<std::size_t>(target)] + (target == kUnknownToken ? extra : 0.0);
      ++out.scored;
    }
    if (progress) progress(std::min(n, start + len), n);
    if (start + len >= n) break;
  }
  return out;
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
