// The state schema as data: each settings key (as a path into settings_to_json's object),
// its kind, its legal range or choices, and its default. apply_state_json() is what
// enforces these rules; this table describes them, so tools can generate legal values for
// every key without knowing the keys (the URL round-trip property tests do), and a test
// fails when settings_to_json() has a key this table lacks (add the entry with the key).
//
// Kinds:
//   bool, int, number        a scalar in [min, max]
//   enum                     one of `choices`
//   enum|number              one of `choices` or a number in [min, max] (scale, maskFill)
//   string                   text (the sentence: at most kMaxSentenceBytes, kMaxTokens tokens)
//   token                    a token index in [min, n - 1] (n = tokens of the sentence)
//   tokens                   a sorted list of distinct token indices in [0, n - 1]
//   vector                   exactly `length` numbers in [min, max]
//   list                     1 to `length` numbers in [min, max]
// Relations: `below` = the value is less than that key's value (head < heads);
// `divides` = that key's value is a multiple of this one (heads divides dModel);
// `fixed` = only the default is legal today (layer).
#pragma once

#include <string>

namespace attn {

// A JSON array of {path, kind, min, max, choices, length, below, divides, fixed, default}.
std::string state_schema_json();

}  // namespace attn
