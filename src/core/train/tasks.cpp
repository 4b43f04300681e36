#include "core/train/tasks.h"

#include <algorithm>
#include <iterator>

namespace attn::train {

namespace {

// A uniform integer in [0, n): the top bits of a 32 x 32 -> 64 product (bias below n / 2^32).
int uniform_int(Rng& rng, int n) {
  return static_cast<int>((static_cast<std::uint64_t>(rng.next_u32()) * static_cast<std::uint64_t>(n)) >> 32);
}

// m distinct symbols: the first m entries of a Fisher-Yates shuffle of 0..symbols-1.
std::vector<int> distinct_symbols(Rng& rng, int m, int symbols) {
  std::vector<int> pool(symbols);
  for (int i = 0; i < symbols; ++i) pool[i] = i;
  for (int i = 0; i < m; ++i) std::swap(pool[i], pool[i + uniform_int(rng, symbols - i)]);
  pool.resize(m);
  return pool;
}

// The table of tasks, in TrainTask order.
constexpr TaskSpec kTasks[] = {
    {TrainTask::Copy, "copy", kSymbols, kSymbols + 1, 16, 33,
     "the 16 positions from the separator on (each predicts the next copied symbol)"},
    {TrainTask::Reverse, "reverse", kSymbols, kSymbols + 1, 16, 33,
     "the 16 positions from the separator on (each predicts the next reversed symbol)"},
    {TrainTask::Sort, "sort", kSymbols, kSymbols + 1, 16, 33,
     "the 16 positions from the separator on (each predicts the next sorted symbol)"},
    {TrainTask::PreviousToken, "previous", kSymbols, kSymbols + 1, 32, 32,
     "positions 1..31 (each outputs the token before it)"},
    {TrainTask::Induction, "induction", kInductionSymbols, kInductionSymbols + 1, 32, 32,
     "the repeat without its first token: positions m..2m-2 (each predicts the next repeated symbol)"},
};

}  // namespace

std::vector<TaskSpec> all_tasks() { return {std::begin(kTasks), std::end(kTasks)}; }

const TaskSpec& task_spec(TrainTask task) { return kTasks[static_cast<int>(task)]; }

bool parse_task(const std::string& name, TrainTask& out) {
  for (const TaskSpec& s : kTasks)
    if (name == s.name) {
      out = s.task;
      return true;
    }
  if (name == "previous-token") {
    out = TrainTask::PreviousToken;
    return true;
  }
  return false;
}

int Batch::scored_count() const {
  int n = 0;
  for (std::uint8_t s : scored) n += s ? 1 : 0;
  return n;
}

void generate_batch(const TaskSpec& spec, Rng& rng, int sequences, Batch& out) {
  const int T = spec.context;
  if (out.size == 0) {
    out.context = T;
    out.special = spec.special();
  }
  for (int b = 0; b < sequences; ++b) {
    std::vector<int> tok(T, spec.special()), tgt(T, -1);
    std::vector<std::uint8_t> sc(T, 0);
    switch (spec.task) {
      case TrainTask::Copy:
      case TrainTask::Reverse:
      case TrainTask::Sort: {
        // x SEP y, then position t predicts token t+1 for t = n .. 2n-1.
        const int n = spec.length;
        std::vector<int> x(n);
        for (int i = 0; i < n; ++i) x[i] = uniform_int(rng, spec.symbols);
        std::vector<int> y = x;
        if (spec.task == TrainTask::Reverse) std::reverse(y.begin(), y.end());
        if (spec.task == TrainTask::Sort) std::sort(y.begin(), y.end());
        for (int i = 0; i < n; ++i) {
          tok[i] = x[i];
          tok[n + 1 + i] = y[i];
        }
        tok[n] = spec.special();
        for (int t = n; t < 2 * n; ++t) {
          tgt[t] = tok[t + 1];
          sc[t] = 1;
        }
        break;
      }
      case TrainTask::PreviousToken: {
        for (int t = 0; t < T; ++t) tok[t] = uniform_int(rng, spec.symbols);
        for (int t = 1; t < T; ++t) {
          tgt[t] = tok[t - 1];
          sc[t] = 1;
        }
        break;
      }
      case TrainTask::Induction: {
        // s, s, PAD..: m distinct symbols, then their repetition
        const int m = kInductionMinSegment + uniform_int(rng, kInductionMaxSegment - kInductionMinSegment + 1);
        const std::vector<int> s = distinct_symbols(rng, m, spec.symbols);
        for (int i = 0; i < m; ++i) tok[i] = tok[m + i] = s[i];
        for (int t = m; t <= 2 * m - 2; ++t) {
          tgt[t] = tok[t + 1];
          sc[t] = 1;
        }
        break;
      }
    }
    out.tokens.insert(out.tokens.end(), tok.begin(), tok.end());
    out.targets.insert(out.targets.end(), tgt.begin(), tgt.end());
    out.scored.insert(out.scored.end(), sc.begin(), sc.end());
    ++out.size;
  }
}

void generate_repeat_probe(int context, int symbols, Rng& rng, int sequences, Batch& out) {
  // m as in the induction task (uniform in 8..16), capped by what the context and the symbols allow.
  const int m_max = std::min({context / 2, symbols, kInductionMaxSegment});
  const int m_min = std::min(kInductionMinSegment, m_max);
  if (out.size == 0) {
    out.context = context;
    out.special = symbols;
  }
  for (int b = 0; b < sequences; ++b) {
    const int m = m_min + uniform_int(rng, m_max - m_min + 1);
    std::vector<int> tok(context, symbols);  // the special token pads
    const std::vector<int> s = distinct_symbols(rng, m, symbols);
    for (int i = 0; i < m; ++i) tok[i] = tok[m + i] = s[i];
    out.tokens.insert(out.tokens.end(), tok.begin(), tok.end());
    out.targets.insert(out.targets.end(), context, -1);
    out.scored.insert(out.scored.end(), context, 0);
    ++out.size;
  }
}

}  // namespace attn::train
