// A tiny character-level language model for the tests (core/lm and the app's language
// scene): a small corpus of English lines and a Chinese poem as fortune files, a config of
// two layers x two heads at d_model 16 and context 24, and a model trained from them.
#pragma once

#include "core/lm/corpus.h"
#include "core/lm/language_model.h"
#include "core/lm/trainer.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace attn::test {

// A small corpus: English lines and a Chinese poem, as fortune files.
inline std::string english_file() {
  std::string s;
  const char* lines[] = {"The cat sat on the mat.", "A dog ran to the park.", "The sun is hot today.",
                         "It was tired, so it slept."};
  for (int i = 0; i < 40; ++i) s += std::string(lines[i % 4]) + "\n%\n";
  return s;
}
inline std::string chinese_file() {
  std::string s;
  for (int i = 0; i < 20; ++i) s += "床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n%\n";
  return s;
}
inline std::vector<lm::CorpusFile> small_corpus() {
  return {lm::split_fortune_file("en", lm::TextLanguage::English, 1, english_file()),
          lm::split_fortune_file("zh", lm::TextLanguage::Chinese, 2, chinese_file())};
}
inline lm::LmTrainConfig tiny_config() {
  lm::LmTrainConfig c;
  c.context = 24;
  c.layers = 2;
  c.heads = 2;
  c.d_model = 16;
  c.d_mlp = 32;
  c.min_count = 2;
  c.batch = 4;
  c.steps = 30;
  c.warmup = 5;
  c.threads = 2;
  c.eval_every = 15;
  c.eval_characters = 200;
  c.seed = 3;
  return c;
}
inline lm::LanguageModel tiny_model(int steps = 30) {
  lm::LmTrainer t;
  lm::LmTrainConfig c = tiny_config();
  c.steps = steps;
  c.warmup = std::min(c.warmup, steps);
  REQUIRE(t.reset(c, small_corpus()).ok);
  REQUIRE(t.run_until(steps).ok);
  return t.model();
}

}  // namespace attn::test
