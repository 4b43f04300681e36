// The state's keys as one table: for each key of settings_json's object (its path), its kind,
// its field (where the value lives in Settings, and how it is read from JSON and written back),
// its legal range or choices, and its relations to other keys. Everything that knows a key
// reads this table: the JSON writer, the reader and its unknown-key check (app/state_json.cpp
// walks it), the clamps of update_results() and the UI's sliders (key_range, slider_range in
// app/app_state.h), the schema the page and tools read (state_schema_json(): the table with
// each default; the URL round-trip property tests generate legal values for every key from it
// without knowing the keys), and the README's list of keys (tests/app/test_readme_keys.cpp).
//
// Kinds:
//   bool, int, number        a scalar in [min, max]
//   enum                     one of `choices`
//   enum|number              one of `choices` or a number in [min, max] (scale, maskFill)
//   string                   text (the sentence: at most kMaxSentenceBytes, kMaxTokens tokens)
//   token                    a token index in [min, n - 1] (n = tokens of the sentence)
//   tokens                   a sorted list of distinct token indices in [0, n - 1]
//   cells                    painted mask cells, "row:col+ row:col-" (app/mask_edit.h)
//   vector                   exactly `length` numbers in [min, max]
//   list                     1 to `length` numbers in [min, max]
//   indices                  a list of distinct whole numbers from min to max (lm.ablate)
// Relations: `below` = the value is less than that key's value (head < heads);
// `divides` = that key's value is a multiple of this one (heads divides dModel);
// `fixed` = only the default is legal today (layer); `needsEvenDk` = the list of choices that
// need d_k = dModel / heads even (the positional choices whose even_dk column is set: "rope",
// as RoPE turns pairs of coordinates); `loadedChoices` = the names beyond `choices` that the key
// takes once what they need is loaded, and that getState() may then show (the scene sources of
// a trained model, an imported file, the language model): any state may choose only `choices`.
//
// It is the state's own: the features below the state never read it (the state hands them
// their settings, read and checked here).
#pragma once

#include "app/app_state.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>
#include <vector>

namespace attn {

struct StateKey;

// What a key's reader works on: the settings being built (it sets its field there; on any
// refusal they are dropped), the state as it was, and the key as its messages name it.
struct KeyRead {
  Settings& settings;
  const AppState& state;
  const StateKey& key;
  std::string name;   // the path's last segment: "window"
  std::string where;  // the path of the object holding it: "" at the top, "compare", "compare.mask", "lm"
};

// Where a key's value lives in Settings: `write` sets the JSON value at the key from it,
// `read` sets it from a JSON value, or says what is wrong.
struct KeyField {
  std::function<void(const Settings&, nlohmann::json&)> write;
  std::function<Status(const nlohmann::json&, KeyRead&)> read;
};

struct StateKey {
  std::string path;
  const char* kind;
  KeyField field;
  double min = 0, max = 0;
  std::vector<const char*> choices = {};
  int length = 0;
  const char* below = nullptr;
  const char* divides = nullptr;
  bool fixed = false;
  std::vector<const char*> needs_even_dk = {};  // these choices need d_k = dModel / heads even (rope)
  std::vector<const char*> loaded_choices = {};  // names taken once what they need is loaded (source)
};

// The table, in the schema's order: side A's math keys at the top level, then side B's
// under "compare.".
const std::vector<StateKey>& state_keys();

// A whole number in [lo, hi] at a key (3.0 counts): "'name' must be a whole number", "'name'
// must be between lo and hi".
Status read_whole(const nlohmann::json& value, const std::string& name, long long lo, long long hi, long long& out);

}  // namespace attn
