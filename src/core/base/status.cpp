#include "core/base/types.h"

namespace attn {

std::string fill_message(const char* text, const std::vector<std::string>& args) {
  std::string out;
  for (const char* p = text; *p; ++p) {
    if (p[0] == '{' && p[1] >= '0' && p[1] <= '9' && p[2] == '}') {
      const std::size_t i = static_cast<std::size_t>(p[1] - '0');
      if (i < args.size()) {
        out += args[i];
        p += 2;
        continue;
      }
    }
    out += *p;
  }
  return out;
}

namespace {

std::string english(const MessagePart& part) {
  return part.text ? fill_message(part.text->english, part.args) : part.literal;
}

}  // namespace

Status Status::error(std::string why) {
  Status s;
  s.ok = false;
  s.message = why;
  s.parts.push_back(MessagePart{nullptr, {}, std::move(why)});
  return s;
}

Status Status::coded(const MessageText& text, std::vector<std::string> args) {
  Status s;
  s.ok = false;
  s.parts.push_back(MessagePart{&text, std::move(args), {}});
  s.message = english(s.parts.back());
  return s;
}

Status Status::within(std::string label) const { return prefixed(MessagePart{nullptr, {}, std::move(label)}); }

Status Status::prefixed(MessagePart part) const {
  if (ok) return *this;
  Status s;
  s.ok = false;
  s.message = english(part) + ": " + message;
  s.parts.reserve(parts.size() + 1);
  s.parts.push_back(std::move(part));
  s.parts.insert(s.parts.end(), parts.begin(), parts.end());
  return s;
}

}  // namespace attn
