// The synthetic tasks (src/core/train/tasks.h): each layout, vocabulary, scored positions and
// targets as train_tasks.h states them, checked on many generated sequences.
#include "core/base/rng.h"
#include "core/train/config.h"
#include "core/train/tasks.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

namespace tr = attn::train;

namespace {

tr::Batch draw(tr::TrainTask task, int sequences, std::uint64_t seed = 1) {
  attn::Rng rng(seed);
  tr::Batch b;
  tr::generate_batch(tr::task_spec(task), rng, sequences, b);
  return b;
}

// Position t of sequence s.
int at(const std::vector<int>& v, const tr::Batch& b, int s, int t) { return v[static_cast<std::size_t>(s) * b.context + t]; }

}  // namespace

TEST_CASE("tasks: the table states vocabulary, length, context", "[train][tasks]") {
  const std::vector<tr::TaskSpec> all = tr::all_tasks();
  REQUIRE(all.size() == 5);
  for (const tr::TaskSpec& s : all) {
    INFO(s.name);
    REQUIRE(s.symbols >= 16);
    REQUIRE(s.length >= 16);
    REQUIRE(s.vocab == s.symbols + 1);
    REQUIRE(s.special() == s.symbols);
    tr::TrainTask parsed;
    REQUIRE(tr::parse_task(s.name, parsed));
    REQUIRE(parsed == s.task);
    REQUIRE(tr::default_steps(s.task) > 0);
  }
  tr::TrainTask t;
  REQUIRE(tr::parse_task("previous-token", t));
  REQUIRE(t == tr::TrainTask::PreviousToken);
  REQUIRE(!tr::parse_task("Copy", t));
}

TEST_CASE("tasks: every token is in the vocabulary, targets only where scored", "[train][tasks]") {
  for (const tr::TaskSpec& spec : tr::all_tasks()) {
    const tr::Batch b = draw(spec.task, 200);
    INFO(spec.name);
    REQUIRE(b.size == 200);
    REQUIRE(b.context == spec.context);
    REQUIRE(b.special == spec.special());
    REQUIRE(b.tokens.size() == 200u * spec.context);
    for (std::size_t i = 0; i < b.tokens.size(); ++i) {
      REQUIRE(b.tokens[i] >= 0);
      REQUIRE(b.tokens[i] < spec.vocab);
      if (b.scored[i]) REQUIRE((b.targets[i] >= 0 && b.targets[i] < spec.symbols));
      else REQUIRE(b.targets[i] == -1);
    }
  }
}

TEST_CASE("tasks: copy, reverse and sort are x SEP f(x), scored from the separator on", "[train][tasks]") {
  for (tr::TrainTask task : {tr::TrainTask::Copy, tr::TrainTask::Reverse, tr::TrainTask::Sort}) {
    const tr::Batch b = draw(task, 100);
    const int n = 16, sep = tr::task_spec(task).special();
    std::set<int> symbols_seen;
    for (int s = 0; s < b.size; ++s) {
      std::vector<int> x(n), y(n);
      for (int i = 0; i < n; ++i) {
        x[i] = at(b.tokens, b, s, i);
        y[i] = at(b.tokens, b, s, n + 1 + i);
        REQUIRE(x[i] != sep);
        symbols_seen.insert(x[i]);
      }
      REQUIRE(at(b.tokens, b, s, n) == sep);
      std::vector<int> want = x;
      if (task == tr::TrainTask::Reverse) std::reverse(want.begin(), want.end());
      if (task == tr::TrainTask::Sort) std::sort(want.begin(), want.end());
      REQUIRE(y == want);
      for (int t = 0; t < b.context; ++t) {
        const bool scored = b.scored[static_cast<std::size_t>(s) * b.context + t] != 0;
        REQUIRE(scored == (t >= n && t < 2 * n));
        if (scored) REQUIRE(at(b.targets, b, s, t) == at(b.tokens, b, s, t + 1));
      }
    }
    REQUIRE(symbols_seen.size() == 16);  // all symbols occur
  }
}

TEST_CASE("tasks: previous token", "[train][tasks]") {
  const tr::Batch b = draw(tr::TrainTask::PreviousToken, 50);
  REQUIRE(b.scored_count() == 50 * 31);
  for (int s = 0; s < b.size; ++s) {
    REQUIRE(b.scored[static_cast<std::size_t>(s) * b.context] == 0);
    for (int t = 1; t < b.context; ++t) REQUIRE(at(b.targets, b, s, t) == at(b.tokens, b, s, t - 1));
  }
}

TEST_CASE("tasks: induction is m distinct symbols repeated, scored on the repeat", "[train][tasks]") {
  const tr::TaskSpec& spec = tr::task_spec(tr::TrainTask::Induction);
  const tr::Batch b = draw(tr::TrainTask::Induction, 400);
  std::set<int> lengths;
  for (int s = 0; s < b.size; ++s) {
    int m = 0;
    while (m < b.context && at(b.tokens, b, s, m) != spec.special() &&
           std::count(b.tokens.begin() + s * b.context, b.tokens.begin() + s * b.context + m, at(b.tokens, b, s, m)) == 0)
      ++m;  // the first repeated token starts the second half
    lengths.insert(m);
    REQUIRE(m >= tr::kInductionMinSegment);
    REQUIRE(m <= tr::kInductionMaxSegment);
    for (int i = 0; i < m; ++i) REQUIRE(at(b.tokens, b, s, m + i) == at(b.tokens, b, s, i));
    for (int t = 2 * m; t < b.context; ++t) REQUIRE(at(b.tokens, b, s, t) == spec.special());
    int scored = 0;
    for (int t = 0; t < b.context; ++t) {
      const bool sc = b.scored[static_cast<std::size_t>(s) * b.context + t] != 0;
      REQUIRE(sc == (t >= m && t <= 2 * m - 2));
      if (sc) {
        ++scored;
        REQUIRE(at(b.targets, b, s, t) == at(b.tokens, b, s, t + 1));
        // the answer is the token after the earlier occurrence of this one
        REQUIRE(at(b.targets, b, s, t) == at(b.tokens, b, s, t - m + 1));
      }
    }
    REQUIRE(scored == m - 1);
  }
  REQUIRE(lengths.size() == static_cast<std::size_t>(tr::kInductionMaxSegment - tr::kInductionMinSegment + 1));
}

TEST_CASE("tasks: the same seed draws the same sequences, another seed others", "[train][tasks]") {
  const tr::Batch a = draw(tr::TrainTask::Sort, 8, 42), b = draw(tr::TrainTask::Sort, 8, 42), c = draw(tr::TrainTask::Sort, 8, 43);
  REQUIRE(a.tokens == b.tokens);
  REQUIRE(a.tokens != c.tokens);
  // The run's streams are distinct: a step's batch, the next step's, the held-out set.
  REQUIRE(tr::stream_seed(1, tr::Stream::TrainBatch, 0) != tr::stream_seed(1, tr::Stream::TrainBatch, 1));
  REQUIRE(tr::stream_seed(1, tr::Stream::TrainBatch, 0) != tr::stream_seed(1, tr::Stream::HeldOut, 0));
  REQUIRE(tr::stream_seed(1, tr::Stream::Init, 0) != tr::stream_seed(2, tr::Stream::Init, 0));
}

TEST_CASE("tasks: the repeat probe", "[train][tasks]") {
  attn::Rng rng(3);
  tr::Batch b;
  tr::generate_repeat_probe(33, 16, rng, 40, b);
  REQUIRE(b.size == 40);
  REQUIRE(b.context == 33);
  REQUIRE(b.special == 16);
  REQUIRE(b.scored_count() == 0);
  std::set<int> lengths;
  for (int s = 0; s < b.size; ++s) {
    // m distinct symbols, their repetition, then padding
    std::set<int> first_half;
    int length = 0;
    while (length < 33 && at(b.tokens, b, s, length) != 16) ++length;
    REQUIRE(length % 2 == 0);
    const int half = length / 2;
    lengths.insert(half);
    REQUIRE(half >= tr::kInductionMinSegment);
    REQUIRE(half <= tr::kInductionMaxSegment);
    for (int i = 0; i < half; ++i) {
      first_half.insert(at(b.tokens, b, s, i));
      REQUIRE(at(b.tokens, b, s, half + i) == at(b.tokens, b, s, i));
    }
    REQUIRE(first_half.size() == static_cast<std::size_t>(half));  // distinct
    for (int t = length; t < 33; ++t) REQUIRE(at(b.tokens, b, s, t) == 16);
  }
  REQUIRE(lengths.size() > 4);  // m varies as in the induction task
}
