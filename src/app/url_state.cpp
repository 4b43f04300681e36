// Sections: 1 writing values compactly  2 percent-encoding  3 encode  4 decode
#include "app/url_state.h"

#include "app/app_messages.h"
#include "core/base/json_nesting.h"
#include "core/base/utf8.h"
#include "files/json_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace attn {

using json = nlohmann::json;

namespace {

// ---- 1 writing values compactly -----------------------------------------------------------

// The shortest decimal that reads back as the same value. Settings hold floats, stored as
// doubles in the JSON: for those the shortest text that rounds to the same float is
// enough (apply_state_json reads them as floats), e.g. "0.1" rather than "0.100000001".
std::string shortest_number(double d) {
  const bool is_float = std::isfinite(d) && static_cast<double>(static_cast<float>(d)) == d;
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    const double back = std::strtod(buf, nullptr);
    if (is_float ? static_cast<float>(back) == static_cast<float>(d) : back == d) break;
  }
  return buf;
}

std::string compact(const json& v) {
  switch (v.type()) {
    case json::value_t::number_float: return shortest_number(v.get<double>());
    case json::value_t::array: {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + compact(v[i]);
      return out + "]";
    }
    case json::value_t::object: {
      std::string out = "{";
      bool first = true;
      for (const auto& item : v.items()) {
        out += (first ? "" : ",") + json_text(json(item.key())) + ":" + compact(item.value());
        first = false;
      }
      return out + "}";
    }
    default: return json_text(v);
  }
}

// A string is written bare unless it would read back as other JSON ("12", "true", "\"x\"")
// or be refused as nested past `max_depth`, what read_value allows its path ("[[[[...":
// quoted, its brackets are inside a string).
std::string value_text(const json& v, int max_depth) {
  if (!v.is_string()) return compact(v);
  const std::string& s = v.get_ref<const std::string&>();
  json parsed;
  const bool too_deep = json_nesting_past(s, max_depth) != std::string_view::npos;
  return too_deep || parse_json(s, max_depth, msg::app_state_not_json, parsed).ok ? json_text(v) : s;
}

// A value's text as JSON, or as the string itself when it is not JSON; false when it nests
// deeper than `max_depth` (a link of a few thousand '[' is refused before anything parses it).
bool read_value(const std::string& text, int max_depth, json& out) {
  if (json_nesting_past(text, max_depth) != std::string_view::npos) return false;
  if (!parse_json(text, max_depth, msg::app_state_not_json, out).ok) out = json(text);
  return true;
}

// ---- 2 percent-encoding -------------------------------------------------------------------

// Kept as they are: what a fragment allows and what a reader of JSON wants to see.
bool keep(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  for (const char* k = "-._~!$'()*,;:@/?[]{}"; *k; ++k)
    if (c == static_cast<unsigned char>(*k)) return true;
  return false;
}

std::string percent_encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (keep(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Status percent_decode(const std::string& s, std::string& out) {
  out.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    const int hi = i + 2 < s.size() ? hex_digit(s[i + 1]) : -1;
    const int lo = i + 2 < s.size() ? hex_digit(s[i + 2]) : -1;
    if (hi < 0 || lo < 0) return Status::error(msg::app_link_percent);
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return Status::success();
}

// ---- 3 encode -----------------------------------------------------------------------------

// Appends `path=value` for every leaf of `now` that differs from `base` (objects recurse).
// `levels` counts the objects `now` sits in (the path's names so far).
void write_changes(const json& now, const json& base, const std::string& path, int levels, std::string& out) {
  for (const auto& item : now.items()) {
    const std::string key = path.empty() ? item.key() : path + "." + item.key();
    const json* before = base.is_object() && base.contains(item.key()) ? &base[item.key()] : nullptr;
    if (item.value().is_object() && !item.value().empty()) {
      write_changes(item.value(), before ? *before : json(), key, levels + 1, out);
    } else if (!before || *before != item.value()) {
      out += "&" + percent_encode(key) + "=" + percent_encode(value_text(item.value(), kMaxStateDepth - levels - 1));
    }
  }
}

// ---- 4 decode -----------------------------------------------------------------------------

// For error messages: the printable ASCII of a piece of the link, shortened.
std::string printable(const std::string& s, size_t max = 40) {
  std::string out;
  for (unsigned char c : s.substr(0, max)) out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  return out;
}

bool valid_segment(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (unsigned char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  return true;
}

}  // namespace

std::string settings_to_fragment(const Settings& settings) {
  json now = settings_json(settings);
  const json base = settings_json(Settings{});
  now.erase("version");
  std::string out = "v=" + std::to_string(kStateVersion);
  write_changes(now, base, "", 0, out);
  return out;
}

Status fragment_to_patch(const std::string& fragment_in, std::string& patch_json) {
  std::string fragment = fragment_in;
  if (!fragment.empty() && fragment[0] == '#') fragment.erase(0, 1);
  if (fragment.size() > kMaxFragmentBytes)
    return Status::error(msg::app_link_too_long, fragment.size(), kMaxFragmentBytes);
  json patch = json::object();
  std::set<std::string> seen;
  size_t start = 0;
  while (start <= fragment.size()) {
    size_t end = fragment.find('&', start);
    if (end == std::string::npos) end = fragment.size();
    const std::string pair = fragment.substr(start, end - start);
    start = end + 1;
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    if (eq == std::string::npos) return Status::error(msg::app_link_no_equals, printable(pair));
    std::string path, text;
    if (Status st = percent_decode(pair.substr(0, eq), path); !st.ok) return st;
    if (Status st = percent_decode(pair.substr(eq + 1), text); !st.ok) return st;
    if (!is_valid_utf8(text)) return Status::error(msg::app_link_not_utf8, printable(path));
    if (path == "v") path = "version";
    if (!seen.insert(path).second) return Status::error(msg::app_link_twice, printable(path, 64));
    // Walk (creating) the objects of the path; a path may not pass through a value.
    json* node = &patch;
    size_t from = 0;
    int depth = 0;
    for (;;) {
      const size_t dot = path.find('.', from);
      const std::string segment = path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
      if (!valid_segment(segment) || ++depth > 8) return Status::error(msg::app_link_not_setting, printable(path, 64));
      if (dot == std::string::npos) {
        if (node->contains(segment)) return Status::error(msg::app_link_conflict, printable(path, 64));
        // The path's objects are levels of the state too: 'lab.row' leaves its value 14.
        const int value_depth = kMaxStateDepth - depth;
        if (!read_value(text, value_depth, (*node)[segment]))
          return Status::error(msg::app_link_too_deep, printable(path, 64), value_depth);
        break;
      }
      json& child = (*node)[segment];
      if (child.is_null()) child = json::object();
      if (!child.is_object()) return Status::error(msg::app_link_conflict, printable(path, 64));
      node = &child;
      from = dot + 1;
    }
  }
  patch_json = json_text(patch);
  return Status::success();
}

Status load_settings_json(AppState& state, const std::string& json_text) {
  AppState fresh;
  const Status st = apply_state_json(fresh, json_text);
  if (st.ok) {
    state.settings = fresh.settings;
    state.notice = Status::success();
    state.tour_opened = fresh.tour_opened;  // apply_state_json's rule for the tour (app/tour.h)
    state.exercise.set_opened(fresh.exercise.opened);  // and for an exercise (app/exercises.h)
  }
  return st;
}

Status load_fragment(AppState& state, const std::string& fragment) {
  AppState fresh;
  std::string patch;
  Status st = fragment_to_patch(fragment, patch);
  if (st.ok) st = apply_state_json(fresh, patch);
  if (st.ok) {
    state.settings = fresh.settings;
    state.notice = Status::success();
    state.tour_opened = fresh.tour_opened;
    state.exercise.set_opened(fresh.exercise.opened);
  } else {
    state.settings = Settings{};
    state.notice = st.within(msg::app_link_ignored);
  }
  return st;
}

}  // namespace attn
