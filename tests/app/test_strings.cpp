// The UI string table: every entry has a Chinese translation, and both columns take the
// same printf arguments.
#include "ui/strings.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

namespace {

struct Entry {
  const char* id;
  std::string en, zh;
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> all = {
#define ATTNLAB_UI_STRING_ENTRY(id, en, zh) {#id, en, zh},
      ATTNLAB_UI_STRINGS(ATTNLAB_UI_STRING_ENTRY)
#undef ATTNLAB_UI_STRING_ENTRY
  };
  return all;
}

// Entries that are notation, identical in both languages.
const std::set<std::string> kSameInBoth = {"d_model", "scale_default", "fill_neg_inf", "fill_finite",
                                           "half_precision", "preset_cat_mouse", "preset_mouse_cat"};

std::string conversions(const std::string& s) {
  std::string out;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] != '%') continue;
    if (s[i + 1] == '%') { ++i; continue; }
    size_t j = i + 1;
    while (j < s.size() && std::string("0123456789.-+ #lhz").find(s[j]) != std::string::npos) ++j;
    if (j < s.size()) out += s.substr(i, j - i + 1) + " ";
    i = j;
  }
  return out;
}

bool has_non_ascii(const std::string& s) {
  for (unsigned char c : s)
    if (c >= 0x80) return true;
  return false;
}

}  // namespace

TEST_CASE("every UI string has a Chinese translation", "[strings]") {
  REQUIRE(entries().size() == static_cast<size_t>(attn::ui::S::count));
  for (const Entry& e : entries()) {
    INFO("string " << e.id);
    CHECK(!e.en.empty());
    CHECK(!e.zh.empty());
    if (kSameInBoth.count(e.id) == 0) CHECK(has_non_ascii(e.zh));
    CHECK(conversions(e.en) == conversions(e.zh));
  }
}

TEST_CASE("the conversion check sees a missing argument", "[strings]") {
  CHECK(conversions("Row %d of %.2f") == "%d %.2f ");
  CHECK(conversions("100%% sure") == "");
  CHECK(conversions("Row %d") != conversions("Row"));
}
