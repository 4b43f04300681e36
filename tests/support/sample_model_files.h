// A small task model file and a small language model with fixed contents (no training), for
// checking that saving them gives the same bytes in every build and every version of the
// writer (tests/core/base/test_bytes.cpp).
#pragma once

#include "core/lm/language_model.h"
#include "core/train/model_file.h"

#include <cstddef>
#include <vector>

namespace attn::test {

// The copy task at one layer, two heads and d_model 8, with the optimizer state and a
// three-step history; every value exact in float.
inline train::ModelFile sample_model_file() {
  train::ModelFile f;
  f.config.task = train::TrainTask::Copy;
  f.config.layers = 1;
  f.config.heads = 2;
  f.config.d_model = 8;
  f.config.batch = 4;
  f.config.seed = 5;
  const std::size_t n = train::parameter_count(train::model_config(f.config));
  f.parameters.resize(n);
  f.adam_m.resize(n);
  f.adam_v.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    f.parameters[i] = static_cast<float>(static_cast<int>(i % 17) - 8) * 0.125f;
    f.adam_m[i] = static_cast<float>(i % 5) * 0.5f - 1.0f;
    f.adam_v[i] = static_cast<float>(i % 7) * 0.25f;
  }
  f.has_optimizer = true;
  f.steps = 3;
  f.loss_history = {2.5f, 2.0f, 1.75f};
  f.accuracy_history = {0.125f, 0.25f, 0.5f};
  return f;
}

// Four characters (one Chinese), one layer of two heads at d_model 8, notes, a curve and two
// held-out samples; every parameter exact in float16.
inline lm::LanguageModel sample_language_model() {
  lm::LanguageModel m;
  m.vocabulary.assign({'a', 'b', 'c', 0x660E}, 2);  // ascending scalar values: accepted
  m.config.vocab = m.vocabulary.size();
  m.config.context = 8;
  m.config.layers = 1;
  m.config.heads = 2;
  m.config.d_model = 8;
  m.config.d_mlp = 16;
  m.config.init = train::InitScheme::Small;
  m.parameters.resize(train::parameter_count(m.config));
  for (std::size_t i = 0; i < m.parameters.size(); ++i)
    m.parameters[i] = static_cast<float>(static_cast<int>(i % 13) - 6) * 0.0625f;
  m.notes = "notes \xE6\x98\x8E";
  m.steps = 10;
  m.seed = 7;
  m.curve = {{5, 4.5f, 4.25f, 5.0f}, {10, 3.5f, 3.25f, 4.0f}};
  m.samples = {{0, "held out"}, {1, "\xE6\x98\x8E\xE6\x9C\x88"}};
  return m;
}

}  // namespace attn::test
