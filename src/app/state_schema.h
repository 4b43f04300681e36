// The state schema as data: each settings key (as a path into settings_to_json's object),
// its kind, its legal range or choices, and its default. It is where the ranges are written:
// apply_state_json() (every door into the state: the page's handle, --state, URLs, sessions,
// an embed's messages), the clamps of update_results() and the UI's sliders read them from
// here (key_range, slider_range), and tools generate legal values for every key from its
// JSON without knowing the keys (the URL round-trip property tests do). A test fails when
// settings_to_json() has a key this table lacks (add the entry with the key).
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
// `fixed` = only the default is legal today (layer); `needsEvenDk` = that choice needs
// d_k = dModel / heads even (positional "rope": RoPE turns pairs of coordinates).
//
// It sits below the state: the features read their ranges here. The state's
// state_schema_json() (app/app_state.h) gives schema_json() the default settings.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace attn {

// A JSON array of {path, kind, min, max, choices, length, below, divides, fixed, default},
// each default read from `defaults` (settings_json() of the default settings) at its path.
std::string schema_json(const nlohmann::json& defaults);

struct KeyRange {
  double min = 0, max = 0;
  float clamp(float v, float fallback) const;  // v within [min, max]; fallback if v is NaN or infinite
  int clamp(int v) const;
};

// The range the state accepts for the numeric key at `path` ("temperature", "lab.dk",
// "compare.mask.window", "variants.rank"). A path the schema lacks is a bug: it aborts.
KeyRange key_range(std::string_view path);

// The range a slider offers for the key: narrower than key_range where the full range would
// make the slider too coarse to use (a state may still hold any value key_range allows).
KeyRange slider_range(std::string_view path);

}  // namespace attn
