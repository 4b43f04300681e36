#include "core/lm/vocabulary.h"

#include "core/base/utf8.h"
#include "core/lm/lm_messages.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace attn::lm {

namespace {
bool scalar_value(std::uint32_t cp) { return cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF); }
}  // namespace

bool Vocabulary::assign(std::vector<std::uint32_t> characters, std::uint32_t unknown_classes) {
  for (std::uint32_t cp : characters)
    if (!scalar_value(cp)) return false;
  std::vector<std::uint32_t> sorted = characters;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return false;
  if (sorted != characters) return false;  // the file keeps them in code point order
  if (unknown_classes < 1) return false;
  characters_ = std::move(sorted);
  unknown_classes_ = unknown_classes;
  return true;
}

Status Vocabulary::build(const std::vector<const std::string*>& texts, int min_count, Vocabulary& out) {
  std::unordered_map<std::uint32_t, long long> counts;
  for (const std::string* t : texts) {
    std::size_t pos = 0;
    while (pos < t->size()) {
      Utf8Decoded d = decode_utf8_at(*t, pos);
      if (d.replaced) return Status::error(msg::lm_invalid_utf8, pos);
      ++counts[d.code_point];
      pos += static_cast<std::size_t>(d.length);
    }
  }
  std::vector<std::uint32_t> kept;
  std::uint32_t outside = 0;
  for (const auto& [cp, n] : counts) {
    if (n >= min_count) kept.push_back(cp);
    else ++outside;
  }
  if (kept.empty()) return Status::error(msg::lm_vocab_empty, min_count);
  if (static_cast<int>(kept.size()) + kSpecialTokens > kMaxVocabulary)
    return Status::error(msg::lm_vocab_too_large, kept.size() + kSpecialTokens, kMaxVocabulary);
  std::sort(kept.begin(), kept.end());
  Vocabulary v;
  v.assign(std::move(kept), outside + 1);
  out = std::move(v);
  return Status::success();
}

double Vocabulary::unknown_extra_bits() const { return std::log2(static_cast<double>(unknown_classes_)); }

int Vocabulary::token_of(std::uint32_t cp) const {
  auto it = std::lower_bound(characters_.begin(), characters_.end(), cp);
  if (it == characters_.end() || *it != cp) return kUnknownToken;
  return kSpecialTokens + static_cast<int>(it - characters_.begin());
}

Status Vocabulary::encode(std::string_view utf8, Encoded& out) const {
  Encoded e;
  std::size_t pos = 0;
  while (pos < utf8.size()) {
    Utf8Decoded d = decode_utf8_at(utf8, pos);
    if (d.replaced) return Status::error(msg::lm_invalid_utf8, pos);
    const int token = token_of(d.code_point);
    if (token == kUnknownToken && std::find(e.unknown.begin(), e.unknown.end(), d.code_point) == e.unknown.end())
      e.unknown.push_back(d.code_point);
    e.tokens.push_back(token);
    e.characters.push_back(d.code_point);
    pos += static_cast<std::size_t>(d.length);
  }
  out = std::move(e);
  return Status::success();
}

std::string Vocabulary::token_text(int token) const {
  if (token == kStartToken) return "<s>";
  if (token == kUnknownToken || token < 0 || token >= size()) return "<unk>";
  return encode_utf8(characters_[static_cast<std::size_t>(token - kSpecialTokens)]);
}

}  // namespace attn::lm
