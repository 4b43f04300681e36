// The resumable JSON reader (see json_reader.h). The text is read as a state machine over
// a stack of open arrays and objects, not by recursion, so it can stop between tokens and
// pick up where it stopped.
#include "core/io/json_reader.h"

#include "core/base/utf8.h"
#include "core/io/io_messages.h"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace attn {
namespace {

// A refusal at byte `at` of the text, "JSON: ... at byte N": the position is the last
// argument of `text`.
template <class... A>
Status json_error(std::size_t at, const MessageText& text, const A&... args) {
  return Status::error(text, args..., at).within("JSON");
}

}  // namespace

const JsonValue* JsonValue::member(const std::string& key) const {
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &items[i];
  return nullptr;
}

double json_number_value(const char* text, std::size_t length) {
  // The text was checked against JSON's grammar (scan_number), which fast_float's general
  // format accepts whole. It rounds correctly, as strtod does; out of range it gives
  // +-infinity or +-0, as strtod does.
  double value = 0;
  fast_float::from_chars(text, text + length, value);
  return value;
}

bool json_float_value(const char* text, std::size_t length, float& out) {
  // Through the double, not straight to float: (float)strtod rounds twice, and a decimal
  // just beside a halfway point between two floats can land on that point as a double, then
  // round to the other float than the decimal rounded once would.
  const double value = json_number_value(text, length);
  if (!std::isfinite(value) || std::fabs(value) > std::numeric_limits<float>::max()) return false;
  out = static_cast<float>(value);
  return true;
}

JsonReader::JsonReader(const std::uint8_t* bytes, std::size_t size, std::size_t max_values)
    : p_(reinterpret_cast<const char*>(bytes)), n_(size), max_values_(max_values) {
  if (n_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) i_ = 3;
}

void JsonReader::skip() {
  while (i_ < n_ && (p_[i_] == ' ' || p_[i_] == '\t' || p_[i_] == '\n' || p_[i_] == '\r')) ++i_;
}

bool JsonReader::literal(const char* word) {
  const std::size_t len = std::strlen(word);
  if (n_ - i_ < len || std::memcmp(p_ + i_, word, len) != 0) return false;
  i_ += len;
  return true;
}

// number := -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
// Reads one; `start` is where it began.
Status JsonReader::scan_number(std::size_t& start) {
  start = i_;
  auto digits = [&] {
    const std::size_t d = i_;
    while (i_ < n_ && p_[i_] >= '0' && p_[i_] <= '9') ++i_;
    return i_ > d;
  };
  if (i_ < n_ && p_[i_] == '-') ++i_;
  if (i_ < n_ && p_[i_] == '0') ++i_;
  else if (!digits()) return json_error(i_, msg::io_json_expected_value);
  if (i_ < n_ && p_[i_] == '.') {
    ++i_;
    if (!digits()) return json_error(i_, msg::io_json_expected_fraction);
  }
  if (i_ < n_ && (p_[i_] == 'e' || p_[i_] == 'E')) {
    ++i_;
    if (i_ < n_ && (p_[i_] == '+' || p_[i_] == '-')) ++i_;
    if (!digits()) return json_error(i_, msg::io_json_expected_exponent);
  }
  if (i_ - start > 64) return json_error(i_, msg::io_json_number_too_long);
  return Status::success();
}

Status JsonReader::too_large(std::size_t start) const {
  return json_error(i_, msg::io_json_number_too_large, std::string(p_ + start, i_ - start));
}

Status JsonReader::number(double& out) {
  std::size_t start = 0;
  if (Status s = scan_number(start); !s.ok) return s;
  out = json_number_value(p_ + start, i_ - start);
  if (!std::isfinite(out) || std::fabs(out) > std::numeric_limits<float>::max()) return too_large(start);
  return Status::success();
}

Status JsonReader::number(float& out) {
  std::size_t start = 0;
  if (Status s = scan_number(start); !s.ok) return s;
  if (!json_float_value(p_ + start, i_ - start, out)) return too_large(start);
  return Status::success();
}

Status JsonReader::hex4(std::uint32_t& out) {
  if (n_ - i_ < 4) return json_error(i_, msg::io_json_short_unicode_escape);
  out = 0;
  for (int k = 0; k < 4; ++k) {
    const char h = p_[i_++];
    const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
    if (d < 0) return json_error(i_, msg::io_json_bad_hex_digit);
    out = out * 16 + static_cast<std::uint32_t>(d);
  }
  return Status::success();
}

Status JsonReader::string(std::string& out) {
  ++i_;  // the opening quote
  std::string s;
  for (;;) {
    if (i_ >= n_) return json_error(i_, msg::io_json_unterminated_string);
    const char c = p_[i_++];
    if (c == '"') break;
    if (static_cast<unsigned char>(c) < 0x20) return json_error(i_, msg::io_json_control_character);
    if (c != '\\') {
      s += c;
      continue;
    }
    if (i_ >= n_) return json_error(i_, msg::io_json_unterminated_escape);
    const char e = p_[i_++];
    switch (e) {
      case '"': s += '"'; break;
      case '\\': s += '\\'; break;
      case '/': s += '/'; break;
      case 'b': s += '\b'; break;
      case 'f': s += '\f'; break;
      case 'n': s += '\n'; break;
      case 'r': s += '\r'; break;
      case 't': s += '\t'; break;
      case 'u': {
        std::uint32_t cp = 0;
        if (Status st = hex4(cp); !st.ok) return st;
        if (cp >= 0xD800 && cp <= 0xDBFF && n_ - i_ >= 6 && p_[i_] == '\\' && p_[i_ + 1] == 'u') {
          i_ += 2;
          std::uint32_t low = 0;
          if (Status st = hex4(low); !st.ok) return st;
          cp = low >= 0xDC00 && low <= 0xDFFF ? 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD;
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
          cp = 0xFFFD;  // a lone surrogate
        }
        s += encode_utf8(cp);
        break;
      }
      default: return json_error(i_, msg::io_json_unknown_escape, std::string(1, e));
    }
  }
  out = repair_utf8(s);  // invalid UTF-8 -> U+FFFD
  return Status::success();
}

// A value starting at i_ (spaces skipped): a scalar is read whole; an array or object is
// opened, its items follow in later turns of step()'s loop.
Status JsonReader::read_value(JsonValue& v) {
  if (open_.size() > static_cast<std::size_t>(kJsonMaxDepth))
    return json_error(i_, msg::io_json_too_deep, kJsonMaxDepth);
  if (i_ >= n_) return json_error(i_, msg::io_json_unexpected_end);
  if (++values_ > max_values_)
    return json_error(i_, msg::io_json_too_many_values, max_values_);
  const char c = p_[i_];
  if (c == '{' || c == '[') {
    ++i_;
    v.kind = c == '{' ? JsonValue::Object : JsonValue::Array;
    open_.push_back({&v, c == '{' ? std::make_unique<std::unordered_set<std::string>>() : nullptr});
    expect_ = c == '{' ? Expect::FirstKey : Expect::FirstItem;
    return Status::success();
  }
  if (c == '"') {
    v.kind = JsonValue::String;
    if (Status s = string(v.text); !s.ok) return s;
  } else if (literal("true") || literal("false")) {
    v.kind = JsonValue::Bool;
    v.boolean = p_[i_ - 1] == 'e' && p_[i_ - 2] == 'u';
  } else if (literal("null")) {
    v.kind = JsonValue::Null;
  } else {
    v.kind = JsonValue::Number;
    if (Status s = number(v.number); !s.ok) return s;
  }
  after_value();
  return Status::success();
}

// The innermost array or object ends (its closing bracket read).
void JsonReader::close() {
  open_.pop_back();
  after_value();
}

void JsonReader::after_value() {
  if (open_.empty()) expect_ = Expect::End;
  else expect_ = open_.back().value->kind == JsonValue::Object ? Expect::AfterMember : Expect::AfterItem;
}

Status JsonReader::step(std::size_t max_bytes) {
  if (failed_) return Status::error(msg::io_json_reader_failed).within("JSON");
  const std::size_t stop = i_ + std::min(std::max<std::size_t>(max_bytes, 1), n_ - i_);
  auto fail = [this](Status s) {
    failed_ = true;
    return s;
  };
  while (!done_) {
    if (i_ >= stop && i_ < n_) return Status::success();  // the rest in a later step
    skip();
    switch (expect_) {
      case Expect::Value: {  // the root, or a member's value (its key read)
        JsonValue* v = &root_;
        if (!open_.empty()) {
          JsonValue& object = *open_.back().value;
          object.items.emplace_back();
          v = &object.items.back();
        }
        if (Status s = read_value(*v); !s.ok) return fail(s);
        break;
      }
      case Expect::FirstItem:  // after '['
        if (i_ < n_ && p_[i_] == ']') {
          ++i_;
          open_.back().value->kind = JsonValue::Numbers;  // [] is an empty list of numbers
          close();
        } else {
          expect_ = Expect::Item;
        }
        break;
      case Expect::Item: {  // an array's item: numbers stay flat, other values nest
        if (i_ >= n_) return fail(json_error(i_, msg::io_json_unterminated_array));
        JsonValue& array = *open_.back().value;
        const char c = p_[i_];
        const bool numeric = c == '-' || (c >= '0' && c <= '9');
        if (numeric && array.items.empty()) {
          float f = 0;
          if (Status s = number(f); !s.ok) return fail(s);
          array.kind = JsonValue::Numbers;
          array.numbers.push_back(f);
          expect_ = Expect::AfterItem;
        } else if (array.kind == JsonValue::Numbers) {
          return fail(json_error(i_, msg::io_json_mixed_array));
        } else {
          array.items.emplace_back();
          if (Status s = read_value(array.items.back()); !s.ok) return fail(s);
        }
        break;
      }
      case Expect::AfterItem:
      case Expect::AfterMember: {  // ',' and the next, or the closing bracket
        const bool array = expect_ == Expect::AfterItem;
        if (i_ < n_ && p_[i_] == ',') {
          ++i_;
          expect_ = array ? Expect::Item : Expect::Key;
        } else if (i_ < n_ && p_[i_] == (array ? ']' : '}')) {
          ++i_;
          close();
        } else {
          return fail(json_error(i_, array ? msg::io_json_expected_array_comma : msg::io_json_expected_object_comma));
        }
        break;
      }
      case Expect::FirstKey:  // after '{'
        if (i_ < n_ && p_[i_] == '}') {
          ++i_;
          close();
        } else {
          expect_ = Expect::Key;
        }
        break;
      case Expect::Key: {
        if (i_ >= n_ || p_[i_] != '"') return fail(json_error(i_, msg::io_json_expected_key));
        std::string key;
        if (Status s = string(key); !s.ok) return fail(s);
        Open& object = open_.back();
        if (!object.seen->insert(key).second) return fail(json_error(i_, msg::io_json_duplicate_key, key));
        skip();
        if (i_ >= n_ || p_[i_] != ':') return fail(json_error(i_, msg::io_json_expected_colon));
        ++i_;
        object.value->keys.push_back(std::move(key));
        expect_ = Expect::Value;
        break;
      }
      case Expect::End:
        if (i_ != n_) return fail(json_error(i_, msg::io_json_trailing_text));
        done_ = true;
        break;
    }
  }
  return Status::success();
}

}  // namespace attn
