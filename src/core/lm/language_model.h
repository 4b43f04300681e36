// A trained character-level language model: the tiny Transformer of core/train (model.h),
// larger, with a vocabulary of characters (vocabulary.h), the notes that say where its data
// came from, and its training curve; and its file.
//
// The file keeps the weights as IEEE float16 (half the bytes; the model is evaluated and
// shipped with the rounded weights, so every figure reported is the file's). Bytes in,
// model out: no file I/O here. Written to be fuzzed, like train/model_file.h: it never
// reads outside the bytes given, allocates only what the file's length justifies, and
// answers every defect with a Status that names it.
//
// Layout, all little-endian (u16/u32/u64 unsigned, f32 IEEE float), inside the frame of
// core/base/file_frame.h (magic, version, total_bytes, checksum):
//   0   magic        8 bytes  "ATTNLABL"
//   8   version      u32      1
//   12  total_bytes  u64      length of the whole file, checksum included
//   20  config       u32 vocab, context, layers, heads, d_model, d_mlp, flags (bit 0 scale),
//                    u64 steps, u64 seed, u32 unknown_classes (K of vocabulary.h)
//       vocabulary   u32 count (= vocab - 2), then u32 code points in ascending order
//       notes        u32 length (at most 65536), UTF-8 text
//       curve        u32 points, then per point u32 step, f32 training bits per token,
//                    f32 held-out bits per character in English, f32 the same in Chinese
//       samples      u32 count (at most 8), then per sample u32 language (0 English,
//                    1 Chinese), u32 length (at most 65536), UTF-8 text: held-out text the lab
//                    scores when the math is broken
//       parameters   u16 float16 x parameter_count, in train::parameter_layout order
//   end-4 checksum   u32 CRC-32 of every byte before it
#pragma once

#include "core/base/types.h"
#include "core/lm/vocabulary.h"
#include "core/train/model.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::lm {

inline constexpr char kLanguageModelMagic[8] = {'A', 'T', 'T', 'N', 'L', 'A', 'B', 'L'};
inline constexpr std::uint32_t kLanguageModelVersion = 1;
inline constexpr std::size_t kMaxNotesBytes = 65536;

// The largest language model the lab reads (the training panel's limits are smaller).
inline constexpr train::ModelLimits kLanguageModelLimits{4, 8, 256, 1024, 256, kMaxVocabulary};

struct CurvePoint {
  std::uint32_t step = 0;
  float train_bits = 0;        // mean bits per token of the batches since the last point
  float held_out_english = 0;  // bits per character on the fixed held-out sample
  float held_out_chinese = 0;
};

inline constexpr std::size_t kMaxSamples = 8;

// A piece of held-out text carried in the file (never trained on).
struct HeldOutSample {
  std::uint32_t language = 0;  // 0 English, 1 Chinese
  std::string text;
  bool operator==(const HeldOutSample&) const = default;
};

// How the notes of a model lm-train made from the fortune files begin (attnlab-cli lm-train
// writes them; the lab's panel describes such a model by its data, any other by its notes).
inline constexpr const char* kFortuneNotesStart = "Trained by attnlab-cli lm-train from the fortune files";

struct LanguageModel {
  train::ModelConfig config;  // vocab == vocabulary.size(); init is not stored
  Vocabulary vocabulary;
  std::vector<float> parameters;  // train::parameter_count(config)
  std::string notes;
  std::uint64_t steps = 0, seed = 0;
  std::vector<CurvePoint> curve;
  std::vector<HeldOutSample> samples;

  bool empty() const { return parameters.empty(); }
  int head_dim() const { return config.d_model / config.heads; }
};

// Rounds every parameter to the nearest float16 (what the file keeps).
void round_parameters_to_half(std::vector<float>& parameters);

// The file's bytes (the parameters rounded to float16).
std::vector<std::uint8_t> serialize_language_model(const LanguageModel& model);
// Parses a whole file held in memory. On error `out` is unchanged.
Status parse_language_model(const std::uint8_t* bytes, std::size_t size, LanguageModel& out);

}  // namespace attn::lm
