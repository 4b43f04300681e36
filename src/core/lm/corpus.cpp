#include "core/lm/corpus.h"

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

}  // namespace attn::lm
