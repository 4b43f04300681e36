// Synthetic tasks for the tiny Transformer, generated on the fly from the project's
// generator (attn::Rng), so the browser and the desktop train on the same sequences.
//
// Every task is next-token-style work for a causal (decoder-only) model: position t sees
// tokens 0..t and is trained to output targets[t]; only the positions the task states are
// scored (loss and accuracy). A task has `symbols` content symbols 0..symbols-1 and one
// special token, number `symbols` (the separator, or padding after a sequence): its
// vocabulary is symbols + 1.
//
//   task       symbols  n    context  layout (positions)                   target at t  scored t
//   copy       16       16   33       x_0..x_15  SEP  x_0..x_15            token t+1    16..31
//   reverse    16       16   33       x_0..x_15  SEP  x_15..x_0            token t+1    16..31
//   sort       16       16   33       x_0..x_15  SEP  sorted x (ascending) token t+1    16..31
//   previous   16       32   32       x_0..x_31                            token t-1    1..31
//   induction  32       2m   32       s_0..s_{m-1} s_0..s_{m-1} PAD..      token t+1    m..2m-2
//
// x are uniform symbols (repeats allowed). In induction, m is uniform in 8..16 and s holds m
// distinct symbols, so each token of the repeat has exactly one earlier occurrence and the
// token after it is the answer; the first token of the repeat is not predictable and not
// scored, and neither is anything in the first half. Because m varies, the repeat starts at a
// different position in each sequence: a fixed positional offset cannot solve it, only "find
// the earlier occurrence of this token, read what followed" (an induction head). Its 32
// symbols (not 16) make the alternatives that memorise which symbol followed which (a
// "bag of bigrams" in the MLPs) costlier than a clean induction head: with 16 symbols the
// default model reached 99.7% with no induction head in 3 of 7 seeds (docs/TRAINING.md).
// In previous, position 0 has nothing before it and is not scored.
#pragma once

#include "core/base/rng.h"
#include "core/base/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::train {

enum class TrainTask { Copy, Reverse, Sort, PreviousToken, Induction };

inline constexpr int kSymbols = 16;          // content symbols of copy, reverse, sort, previous
inline constexpr int kInductionSymbols = 32;
inline constexpr int kInductionMinSegment = 8;
inline constexpr int kInductionMaxSegment = 16;

struct TaskSpec {
  TrainTask task = TrainTask::Copy;
  const char* name = "copy";  // "copy", "reverse", "sort", "previous", "induction"
  int symbols = kSymbols;
  int vocab = kSymbols + 1;
  int length = 16;            // the task's sequence length n (symbols in the input)
  int context = 33;           // positions per training sequence
  const char* scored = "";    // which positions are scored, in words
  int special() const { return symbols; }  // the separator / padding token
};

const TaskSpec& task_spec(TrainTask task);
std::vector<TaskSpec> all_tasks();  // in TrainTask order
// "copy" -> TrainTask::Copy; also accepts "previous-token" for previous. False if unknown.
bool parse_task(const std::string& name, TrainTask& out);

// A batch of sequences, row-major: entry b * context + t is position t of sequence b.
struct Batch {
  int size = 0;       // sequences
  int context = 0;    // positions per sequence
  int special = -1;   // the task's separator / padding token
  std::vector<int> tokens;            // in [0, vocab)
  std::vector<int> targets;           // in [0, vocab) where scored, -1 elsewhere
  std::vector<std::uint8_t> scored;   // 1 = this position's output counts
  int scored_count() const;
};

// Appends `sequences` fresh sequences of the task drawn from `rng`.
void generate_batch(const TaskSpec& spec, Rng& rng, int sequences, Batch& out);

// The probe batch the head scores are computed on (train_heads.h): `sequences` repeated
// segments s s PAD.. of m distinct symbols out of `symbols` (the special token `symbols`
// pads), m uniform in 8..16 as in the induction task, capped at context / 2 and at symbols.
// Not scored (targets -1): only the attention weights are read.
void generate_repeat_probe(int context, int symbols, Rng& rng, int sequences, Batch& out);

}  // namespace attn::train
