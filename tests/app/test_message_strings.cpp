// The message catalogs of src/core, src/files and src/app against their Chinese texts: every message has
// a translation with the same arguments, and a refusal reads in Chinese part by part.
#include "app/app_messages.h"
#include "core/attention/attention_messages.h"
#include "core/io/io_messages.h"
#include "core/lm/lm_messages.h"
#include "core/train/train_messages.h"
#include "files/files_messages.h"
#include "ui/message_strings.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

namespace {

const std::vector<attn::MessageText>& catalog() {
  static const std::vector<attn::MessageText> all = {
#define ATTNLAB_CATALOG_ENTRY(id, en) attn::msg::id,
      ATTNLAB_APP_MESSAGES(ATTNLAB_CATALOG_ENTRY)
      ATTNLAB_FILES_MESSAGES(ATTNLAB_CATALOG_ENTRY)
      ATTNLAB_IO_MESSAGES(ATTNLAB_CATALOG_ENTRY)
      ATTNLAB_TRAIN_MESSAGES(ATTNLAB_CATALOG_ENTRY)
      ATTNLAB_ATTENTION_MESSAGES(ATTNLAB_CATALOG_ENTRY)
      ATTNLAB_LM_MESSAGES(ATTNLAB_CATALOG_ENTRY)
#undef ATTNLAB_CATALOG_ENTRY
  };
  return all;
}

// The {0}..{9} a text names, as a set of digits.
std::string placeholders(const std::string& s) {
  std::set<char> seen;
  for (std::size_t i = 0; i + 2 < s.size(); ++i)
    if (s[i] == '{' && s[i + 1] >= '0' && s[i + 1] <= '9' && s[i + 2] == '}') seen.insert(s[i + 1]);
  return std::string(seen.begin(), seen.end());
}

bool has_han(const std::string& s) {
  for (std::size_t i = 0; i + 2 < s.size(); ++i) {
    const unsigned char a = static_cast<unsigned char>(s[i]);
    if (a >= 0xE4 && a <= 0xE9) return true;  // U+4000..U+9FFF start with E4..E9
  }
  return false;
}

}  // namespace

TEST_CASE("every catalog message has a Chinese text with the same arguments", "[strings]") {
  REQUIRE(catalog().size() > 100);
  std::set<std::string> ids;
  for (const attn::MessageText& m : catalog()) {
    INFO("message " << m.id);
    CHECK(ids.insert(m.id).second);
    const char* zh = attn::ui::chinese_message(m.id);
    REQUIRE(zh != nullptr);
    CHECK(has_han(zh));
    CHECK(placeholders(zh) == placeholders(m.english));
    // Arguments are numbered from 0 without gaps.
    const std::string used = placeholders(m.english);
    for (std::size_t i = 0; i < used.size(); ++i) CHECK(used[i] == static_cast<char>('0' + i));
  }
}

TEST_CASE("a coded refusal is English in its message and Chinese in the UI", "[strings]") {
  using attn::Status;
  using attn::ui::Language;
  const Status st = Status::error(attn::msg::app_text_too_many_tokens, 2000, 1024);
  CHECK(st.message == "the text has 2000 tokens; the explorer shows at most 1024");
  CHECK(attn::ui::status_text(st, Language::English) == st.message);
  const std::string zh = attn::ui::status_text(st, Language::Chinese);
  CHECK(zh.find("2000") != std::string::npos);
  CHECK(zh.find("1024") != std::string::npos);
  CHECK(zh.find("tokens") == std::string::npos);

  // A file name stays as it is; the outer message is translated too.
  const Status in_file = Status::error(attn::msg::app_text_too_many_tokens, 5, 4).within("a.npz");
  CHECK(in_file.message == "a.npz: the text has 5 tokens; the explorer shows at most 4");
  CHECK(attn::ui::status_text(in_file, Language::Chinese).rfind("a.npz：", 0) == 0);
  const Status link = st.within(attn::msg::app_link_ignored);
  CHECK(link.message == "The link's state was ignored: " + st.message);
  CHECK(attn::ui::status_text(link, Language::Chinese).find("ignored") == std::string::npos);

  // A message without an id is shown as written; an ok status as nothing.
  CHECK(attn::ui::status_text(Status::error("plain words"), Language::Chinese) == "plain words");
  CHECK(attn::ui::status_text(Status::success(), Language::Chinese).empty());
  CHECK(Status::success().within("x").ok);
}

TEST_CASE("fill_message puts each argument where its number stands", "[strings]") {
  CHECK(attn::fill_message("{1} before {0}", {"a", "b"}) == "b before a");
  CHECK(attn::fill_message("{0} and {0}", {"x"}) == "x and x");
  CHECK(attn::fill_message("{2} is missing", {"a"}) == "{2} is missing");
  CHECK(attn::fill_message("no braces {x} {", {"a"}) == "no braces {x} {");
}
