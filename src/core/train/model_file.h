// The lab's model file: a trained (or training) run in bytes, so a model made natively by
// `attnlab-cli train` loads in the browser and a model trained in the browser downloads and
// loads again with nothing lost (weights, optimizer state, step count, loss history).
//
// Bytes in, model out: no file I/O here (the CLI and the page add it). The parser is written
// to be fuzzed: it never reads outside the bytes it is given, never allocates more than the
// file's own length justifies, and answers every defect with a Status whose message names it.
//
// Layout, all little-endian (u32/u64 unsigned, f32 IEEE float), inside the frame of
// core/base/file_frame.h (magic, version, total_bytes, checksum):
//   0   magic        8 bytes  "ATTNLABM"
//   8   version      u32      1
//   12  total_bytes  u64      length of the whole file, checksum included
//   20  config       u32 task, vocab, context, layers, heads, d_model, d_mlp,
//                    u32 flags (bit 0 scale_scores, bit 1 optimizer state present),
//                    u32 init (0 unit, 1 small), u32 batch,
//                    f32 learning_rate, beta1, beta2, epsilon, u64 seed, u64 steps
//       tensors      u32 count, then per tensor: u32 name_length (1..64), name (ASCII),
//                    u32 rows, u32 cols        (must equal parameter_layout(config))
//       parameters   f32 x parameter_count, tensor after tensor, row-major
//       optimizer    (flag bit 1) f32 x parameter_count Adam first moments, then second
//       history      u64 length (= steps), f32 x length losses, f32 x length batch accuracies
//   end-4 checksum   u32 CRC-32 (IEEE 802.3, the zlib polynomial) of every byte before it
//
// Checked in this order: header length, magic, version, total length (shorter = truncated,
// longer = trailing bytes), checksum, then the config's ranges, the tensor table against the
// layout the config implies (a shape mismatch names the tensor), the section lengths, and
// finite values.
#pragma once

#include "core/base/file_frame.h"
#include "core/base/types.h"
#include "core/train/config.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn::train {

inline constexpr char kModelMagic[8] = {'A', 'T', 'T', 'N', 'L', 'A', 'B', 'M'};
inline constexpr std::uint32_t kModelFileVersion = 1;
inline constexpr std::size_t kModelHeaderBytes = kFrameHeaderBytes;  // magic, version, total_bytes

struct ModelFile {
  TrainConfig config;
  std::uint64_t steps = 0;
  std::vector<float> parameters;            // parameter_count(model_config(config))
  bool has_optimizer = false;
  std::vector<float> adam_m, adam_v;        // parameter_count each when has_optimizer
  std::vector<float> loss_history;          // steps entries
  std::vector<float> accuracy_history;      // steps entries
};


// The file's bytes. The ModelFile must be consistent (sizes as above); otherwise empty.
std::vector<std::uint8_t> serialize_model_file(const ModelFile& file);

// Parses a whole file held in memory. On error `out` is unchanged.
Status parse_model_file(const std::uint8_t* bytes, std::size_t size, ModelFile& out);

}  // namespace attn::train
