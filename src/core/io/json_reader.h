// A strict JSON reader for the import of attention files (docs/IMPORT.md), that can stop
// between any two tokens and go on later: the import job reads a large file a piece per
// animation frame, so the page keeps drawing while a 64 MiB file is parsed.
//
// It takes numbers, strings (escapes decoded, invalid UTF-8 replaced by U+FFFD), true,
// false, null, arrays and objects; at most kJsonMaxDepth levels deep and kJsonMaxValues
// values besides the numbers in lists; a repeated key in one object is refused. An array whose items are all numbers is kept flat as float32
// (`numbers`), 4 bytes an element: what a large matrix needs. Numbers must fit a float.
//
// Errors are one line, "JSON: <what> at byte <offset>", and final: the reader stops.
#pragma once

#include "core/base/types.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace attn {

inline constexpr int kJsonMaxDepth = 16;
// Values other than the numbers in lists of numbers (each array, object, string, ...; a
// node of about 100 bytes): 1 Mi. A 64 MiB text of empty strings would otherwise take GBs.
inline constexpr std::size_t kJsonMaxValues = std::size_t{1} << 20;

struct JsonValue {
  enum Kind { Null, Bool, Number, String, Array, Numbers, Object } kind = Null;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<float> numbers;    // Numbers ([] is an empty Numbers)
  // An array's items; an object's values, in order, keys[i] naming items[i].
  std::vector<JsonValue> items;
  std::vector<std::string> keys;

  // The member named `key` of an object, or null.
  const JsonValue* member(const std::string& key) const;
};

class JsonReader {
 public:
  // Reads `size` bytes at `bytes` (a UTF-8 byte order mark is skipped), which must stay
  // alive and in place until the reader is done. The reader's own address must not change
  // while it reads (it points into the value it builds): keep it where it was made.
  JsonReader(const std::uint8_t* bytes, std::size_t size, std::size_t max_values = kJsonMaxValues);
  JsonReader(const JsonReader&) = delete;
  JsonReader& operator=(const JsonReader&) = delete;

  // Reads on until about `max_bytes` more of the text are read (a token is never split, so
  // at least one is read) or the text ends. Ok while the text is good so far; done() once
  // it was one whole value with nothing but spaces after it.
  Status step(std::size_t max_bytes);
  // The whole text at once.
  Status read_all() { return step(static_cast<std::size_t>(-1)); }
  bool done() const { return done_; }
  std::size_t position() const { return i_; }  // bytes read so far
  std::size_t size() const { return n_; }
  // The value read, once done(); it may be moved out.
  JsonValue& root() { return root_; }

 private:
  // What comes next.
  enum class Expect { Value, FirstItem, Item, AfterItem, FirstKey, Key, AfterMember, End };
  // An open array or object, innermost last; `seen` holds an object's keys so far.
  struct Open {
    JsonValue* value;
    std::unique_ptr<std::unordered_set<std::string>> seen;
  };

  void skip();
  bool literal(const char* word);
  Status read_value(JsonValue& v);
  Status scan_number(std::size_t& start);
  Status too_large(std::size_t start) const;
  Status number(double& out);
  Status number(float& out);  // the same number, read straight to float (in a list)
  Status hex4(std::uint32_t& out);
  Status string(std::string& out);
  void close();
  void after_value();

  const char* p_;
  std::size_t n_;
  std::size_t i_ = 0;
  Expect expect_ = Expect::Value;
  std::vector<Open> open_;
  JsonValue root_;
  std::size_t values_ = 0, max_values_;
  bool done_ = false;
  bool failed_ = false;
};

// The number at text[0..length) (a JSON number, at most 64 characters) as strtod reads
// it, to the bit, read by fast_float (strtod is slow in WebAssembly). Exposed for its test.
double json_number_value(const char* text, std::size_t length);
// The same number as float, as static_cast<float>(strtod(...)) gives it, bit for bit; false
// when it is not finite or beyond float's range (`out` then unchanged).
bool json_float_value(const char* text, std::size_t length, float& out);

}  // namespace attn
