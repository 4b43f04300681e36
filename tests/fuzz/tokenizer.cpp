// Fuzz target: the tokenizer (src/core/attention/tokenizer.h) on arbitrary bytes, which is what a
// pasted text, a URL or a message may hold.
//
// Tokens come in input order with non-empty, non-overlapping spans inside the bytes read;
// for valid UTF-8 each token's text is exactly its span; every embedding is finite.
#include "core/attention/tokenizer.h"
#include "fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

ATTNLAB_FUZZ_TARGET(tokenizer) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const int read = attn::tokenized_byte_count(text);
  FUZZ_CHECK(read >= 0 && static_cast<std::size_t>(read) <= size);

  // Valid UTF-8 is exactly the input that decoding and encoding again gives back.
  std::string reencoded;
  for (std::uint32_t cp : attn::decode_utf8(text)) reencoded += attn::encode_utf8(cp);
  const bool valid = reencoded == text;

  const std::vector<attn::Token> tokens = attn::tokenize(text);
  int end = 0;
  for (const attn::Token& t : tokens) {
    FUZZ_CHECK(t.byte_begin >= end && t.byte_begin < t.byte_end && t.byte_end <= read);
    FUZZ_CHECK(!t.text.empty());
    if (valid) FUZZ_CHECK(text.substr(t.byte_begin, t.byte_end - t.byte_begin) == t.text);
    end = t.byte_end;
  }
  const attn::Mat e = attn::token_embeddings(tokens, 8, 1);
  FUZZ_CHECK(e.rows() == static_cast<Eigen::Index>(tokens.size()) && e.cols() == 8);
  FUZZ_CHECK(e.allFinite());
  return 0;
}
