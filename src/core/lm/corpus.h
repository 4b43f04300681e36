// The language model's text: fortune files (Debian's fortunes, fortunes-min and fortunes-zh)
// cut into entries, cleaned, and split into training and held-out parts by a fixed rule.
//
// Bytes in, entries out: no file I/O here (attnlab-cli lm-train reads the files).
//
//   1 entries   a fortune file is entries separated by lines holding only "%"
//   2 cleaning  terminal colour codes (ESC [ ... m, which fortunes-zh puts around titles)
//               and carriage returns are removed, tabs become spaces, runs of spaces become
//               one space, every line loses its trailing spaces, and the entry loses its
//               leading and trailing blank lines; an entry left empty is dropped
//   3 split     entry i of a file (counted from 0 after cleaning) is held out when
//               i % 10 == 9: every tenth entry, the same in every run
//   4 stream    the model reads entries one after another, each preceded by the start token,
//               so "a new entry begins" is something it can see and predict
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attn::lm {

inline constexpr int kHeldOutEvery = 10;  // entry i is held out when i % 10 == 9

// Which language a file is in: the held-out figures are reported per language.
enum class TextLanguage { English, Chinese };

struct CorpusFile {
  std::string name;              // e.g. "tang300"
  TextLanguage language = TextLanguage::English;
  int repeat = 1;                // times its training entries appear in the training stream
  std::vector<std::string> train, held_out;
};

// Step 2 on one entry.
std::string clean_entry(std::string_view entry);
// Steps 1 and 2: the file's entries in order, empty ones dropped.
std::vector<std::string> fortune_entries(std::string_view file_text);
// Steps 1 to 3.
CorpusFile split_fortune_file(std::string name, TextLanguage language, int repeat, std::string_view file_text);

}  // namespace attn::lm
