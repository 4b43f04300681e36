// Fuzz target: the language model file (src/core/lm/language_model.h), the door for a model a
// user opens in the page or passes to attnlab-cli lm-eval / lm-generate.
//
// Each input is tried twice: as it is, and with its length field and checksum rewritten to
// match, so mutations reach the config, the vocabulary, the notes, the curve and the weights.
// A loaded model must run on a short text (every weight row sums to 1), generate a token, and
// save bytes that load again to the same parameters.
#include "core/lm/generate.h"
#include "core/lm/language_model.h"
#include "fuzz_check.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

void try_load_language_model(const std::uint8_t* data, std::size_t size) {
  attn::lm::LanguageModel model;
  const attn::Status st = attn::lm::parse_language_model(data, size, model);
  if (!st.ok) {
    FUZZ_CHECK(!st.message.empty());
    FUZZ_CHECK(model.empty());
    return;
  }
  if (model.parameters.size() > 200000) return;  // a large model is valid; running it is slow
  attn::lm::TextAttention t;
  if (attn::lm::text_attention(model, "ab", attn::lm::RunOptions{}, t).ok) {
    for (const attn::Mat& w : t.trace.weights)
      for (int i = 0; i < w.rows(); ++i) {
        const float s = w.row(i).sum();
        FUZZ_CHECK(!std::isfinite(s) || std::fabs(s - 1.0f) < 1e-3f);
      }
  }
  std::vector<attn::lm::GeneratedToken> out;
  attn::lm::GenerateOptions g;
  g.tokens = 1;
  (void)attn::lm::generate(model, "a", attn::lm::RunOptions{}, g, out);
  const std::vector<std::uint8_t> saved = attn::lm::serialize_language_model(model);
  attn::lm::LanguageModel again;
  FUZZ_CHECK(attn::lm::parse_language_model(saved.data(), saved.size(), again).ok);
  FUZZ_CHECK(again.parameters == model.parameters);
}

}  // namespace

ATTNLAB_FUZZ_TARGET(lm_file) {
  try_load_language_model(data, size);
  if (size < 24) return 0;
  const std::vector<std::uint8_t> fixed = with_length_and_checksum(data, size);
  try_load_language_model(fixed.data(), fixed.size());
  return 0;
}
