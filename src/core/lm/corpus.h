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
//
// A plain text (one the user brings: no "%" lines, no entries) is split by another rule,
// split_plain_text: the held-out part starts at the first line break at or after 90% of the
// text's characters (at 90% exactly where no line break follows) and runs to the end; the
// part before it is the training text. Each part is one entry. Line ends are made "\n"
// (a "\r\n" or a lone "\r") and a leading byte-order mark is dropped; nothing else changes.
#pragma once

#include "core/base/types.h"

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

// ---- a plain text -----------------------------------------------------------------------

inline constexpr double kDefaultHeldOutFraction = 0.1;
inline constexpr long long kMinTextCharacters = 2000;     // a tenth held out is 200 characters
inline constexpr long long kMaxTextCharacters = 4000000;  // about 12 MB of Chinese

// What split_plain_text found, for the page to show before training.
struct TextSplit {
  long long characters = 0;           // code points after line ends are made "\n"
  long long train_characters = 0, held_out_characters = 0;
  TextLanguage language = TextLanguage::English;  // Chinese when most letters are CJK
};

// The plain-text rule above, with `held_out_fraction` (in (0, 0.5]) in place of a tenth.
// Refuses invalid UTF-8 (naming the byte), a text shorter than kMinTextCharacters or longer
// than kMaxTextCharacters. `out` holds one training and one held-out entry.
Status split_plain_text(std::string name, std::string_view utf8, double held_out_fraction, CorpusFile& out,
                        TextSplit& split);

}  // namespace attn::lm
