#include "core/lm/corpus.h"

#include "core/base/utf8.h"
#include "core/lm/lm_messages.h"

#include <algorithm>
#include <cmath>

namespace attn::lm {

std::string clean_entry(std::string_view entry) {
  std::string out;
  out.reserve(entry.size());
  for (std::size_t i = 0; i < entry.size(); ++i) {
    const char c = entry[i];
    if (c == '\x1b') {
      // ESC [ parameters final-byte: skip up to and including the final byte (@ to ~).
      std::size_t j = i + 1;
      if (j < entry.size() && entry[j] == '[') {
        ++j;
        while (j < entry.size() && !(entry[j] >= '@' && entry[j] <= '~')) ++j;
      }
      i = j < entry.size() ? j : entry.size();
      continue;
    }
    if (c == '\r') continue;
    const char ch = c == '\t' ? ' ' : c;
    if (ch == ' ' && !out.empty() && out.back() == ' ') continue;  // runs of spaces -> one
    if (ch == '\n')
      while (!out.empty() && out.back() == ' ') out.pop_back();    // trailing spaces of a line
    out.push_back(ch);
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\n')) out.pop_back();
  std::size_t start = 0;
  // Leading blank lines (a line of spaces counts as blank; its spaces go with it).
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\n') start = i + 1;
    else if (out[i] != ' ') break;
  }
  return out.substr(start);
}

std::vector<std::string> fortune_entries(std::string_view text) {
  std::vector<std::string> out;
  std::size_t entry_start = 0, pos = 0;
  auto flush = [&](std::size_t end) {
    std::string e = clean_entry(text.substr(entry_start, end - entry_start));
    if (!e.empty()) out.push_back(std::move(e));
  };
  while (pos <= text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line == "%") {
      flush(pos);
      entry_start = eol + 1;
    }
    if (eol == text.size()) break;
    pos = eol + 1;
  }
  if (entry_start < text.size()) flush(text.size());
  return out;
}

CorpusFile split_fortune_file(std::string name, TextLanguage language, int repeat, std::string_view text) {
  CorpusFile f;
  f.name = std::move(name);
  f.language = language;
  f.repeat = repeat;
  std::vector<std::string> entries = fortune_entries(text);
  for (std::size_t i = 0; i < entries.size(); ++i)
    (i % kHeldOutEvery == kHeldOutEvery - 1 ? f.held_out : f.train).push_back(std::move(entries[i]));
  return f;
}

namespace {

// A letter of the CJK blocks (unified ideographs and their extensions, kana, hangul, CJK
// punctuation): a text where these outnumber the other letters is reported as Chinese.
bool is_cjk(std::uint32_t cp) {
  return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x20000 && cp <= 0x3FFFF);
}

}  // namespace

Status split_plain_text(std::string name, std::string_view utf8, double held_out_fraction, CorpusFile& out,
                        TextSplit& split) {
  if (const std::size_t bad = first_invalid_utf8(utf8); bad != std::string_view::npos)
    return Status::error(msg::lm_invalid_utf8, static_cast<long long>(bad));
  if (!(held_out_fraction > 0.0 && held_out_fraction <= 0.5))
    return Status::error(msg::lm_held_out_fraction_range);
  if (utf8.substr(0, 3) == "\xEF\xBB\xBF") utf8.remove_prefix(3);
  // Line ends to "\n", as code points (the split counts characters, not bytes).
  std::vector<std::uint32_t> text;
  text.reserve(utf8.size());
  const std::vector<std::uint32_t> raw = decode_utf8(utf8);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\r') {
      text.push_back('\n');
      if (i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
    } else {
      text.push_back(raw[i]);
    }
  }
  const long long n = static_cast<long long>(text.size());
  if (n == 0) return Status::error(msg::lm_text_empty);
  if (n < kMinTextCharacters) return Status::error(msg::lm_text_too_short, n, kMinTextCharacters);
  if (n > kMaxTextCharacters) return Status::error(msg::lm_text_too_long, n, kMaxTextCharacters);
  // The first line break at or after the mark; the mark itself where none follows.
  // The mark: the first character at or after (1 - fraction) of them (the tolerance absorbs
  // the rounding of 0.9 in binary, so 0.9 n that is whole stays whole).
  const long long mark = std::clamp(
      static_cast<long long>(std::ceil(static_cast<double>(n) * (1.0 - held_out_fraction) - 1e-6)), 1LL, n - 1);
  long long cut = mark;
  while (cut < n && text[static_cast<std::size_t>(cut)] != '\n') ++cut;
  if (cut == n) cut = mark;
  auto utf8_of = [&](long long from, long long to) {
    std::string s;
    for (long long i = from; i < to; ++i) append_utf8(s, text[static_cast<std::size_t>(i)]);
    return s;
  };
  long long cjk = 0, other = 0;
  for (std::uint32_t cp : text) {
    if (is_cjk(cp)) ++cjk;
    else if (cp > ' ') ++other;
  }
  out = CorpusFile{};
  out.name = std::move(name);
  out.language = cjk > other ? TextLanguage::Chinese : TextLanguage::English;
  out.train.push_back(utf8_of(0, cut));
  out.held_out.push_back(utf8_of(cut, n));
  split = TextSplit{n, cut, n - cut, out.language};
  return Status::success();
}

}  // namespace attn::lm
