// What each head of a language model does on a text, as scores and a label.
//
// On the text read from the start token (position 0), with w_l,h(i, j) the head's weight of
// query i on key j, each score is a mean over the queries it applies to:
//   previous       w(i, i - 1)                   queries i >= 1
//   first          w(i, 0), the start token      queries i >= 2 (at i = 1 it is the previous)
//   self           w(i, i)                       queries i >= 1
//   word start     w(i, s), s the first letter of i's word, queries inside a word with
//                  s <= i - 2 (a word is a run of letters or digits; Chinese has no words)
//   previous line  w(i, p), p the same column in the line before, queries on the second line or
//                  later whose column the previous line has (lines end at '\n')
//   punctuation    w(i, p), p the last punctuation mark before i (，。！？；：、 and their ASCII
//                  kin), queries with p <= i - 2 (in verse: the end of the half-line before)
// A head earns the label of its highest score among those at or above their threshold
// (0.5 for previous, first and self; 0.3 for word start, previous line and punctuation, which
// are spread over fewer, farther keys); otherwise it is "mixed".
#pragma once

#include "core/base/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::lm {

enum class HeadKind { Previous, First, Self, WordStart, PreviousLine, Punctuation, Mixed };
inline constexpr int kHeadKinds = 6;  // the scored kinds (Mixed is no score)

// "previous", "first", "self", "word-start", "previous-line", "punctuation", "mixed"
const char* head_kind_name(HeadKind kind);
float head_kind_threshold(HeadKind kind);

struct HeadLabel {
  int layer = 0, head = 0;
  float scores[kHeadKinds] = {};
  int counted[kHeadKinds] = {};  // queries each score averaged (0 = not applicable)
  HeadKind label = HeadKind::Mixed;
  float label_score = 0;  // the winning score (0 for mixed)
};

// `characters` are the text's code points (position p + 1 of the weights is characters[p]);
// `weights` per layer and head (layers * heads entries of (n, n), n = characters + 1).
std::vector<HeadLabel> label_heads(const std::vector<std::uint32_t>& characters, const std::vector<Mat>& weights,
                                   int layers, int heads);

}  // namespace attn::lm
