// The language model file: writing and checking it (language_model.h has the layout).
#include "core/lm/language_model.h"

#include "core/attention/softmax.h"
#include "core/base/file_frame.h"
#include "core/base/utf8.h"
#include "core/io/half_float.h"
#include "core/lm/lm_messages.h"
#include "core/train/model_file.h"

#include <cmath>
#include <cstring>

namespace attn::lm {

namespace {

// The float16 bits of a float that is already a float16 value (round_to_half's result).
std::uint16_t half_bits(float x) {
  const std::uint32_t b = float_bits(round_to_half(x));
  const std::uint16_t sign = static_cast<std::uint16_t>((b >> 16) & 0x8000u);
  const std::uint32_t abs_bits = b & 0x7FFFFFFFu;
  if (abs_bits >= 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7C00u | (abs_bits > 0x7F800000u ? 0x200u : 0u));
  const float a = float_from_bits(abs_bits);
  if (a < 6.103515625e-05f)  // subnormal: a multiple of 2^-24
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::lround(a * 16777216.0f)));
  const std::uint32_t exponent = ((abs_bits >> 23) & 0xFFu) - 127u + 15u;
  return static_cast<std::uint16_t>(sign | (exponent << 10) | ((abs_bits >> 13) & 0x3FFu));
}

constexpr std::size_t kSmallestFile = kFrameHeaderBytes + 7 * 4 + 2 * 8 + 4 + 4 + 4 + 4 + 4 + kFrameTrailerBytes;

const FrameFormat kLanguageModelFrame{kLanguageModelMagic,
                                      kLanguageModelVersion,
                                      kSmallestFile,
                                      msg::lm_file_too_short,
                                      msg::lm_file_bad_magic,
                                      msg::lm_file_bad_version,
                                      msg::lm_file_truncated,
                                      msg::lm_file_trailing,
                                      msg::lm_file_checksum};

}  // namespace

void round_parameters_to_half(std::vector<float>& parameters) {
  for (float& p : parameters) p = round_to_half(p);
}

std::vector<std::uint8_t> serialize_language_model(const LanguageModel& m) {
  ByteWriter w = begin_frame(kLanguageModelFrame);
  const train::ModelConfig& c = m.config;
  for (int v : {c.vocab, c.context, c.layers, c.heads, c.d_model, c.d_mlp}) w.u32(static_cast<std::uint32_t>(v));
  w.u32(c.scale_scores ? 1u : 0u);
  w.u64(m.steps);
  w.u64(m.seed);
  w.u32(m.vocabulary.unknown_classes());
  w.u32(static_cast<std::uint32_t>(m.vocabulary.characters().size()));
  for (std::uint32_t cp : m.vocabulary.characters()) w.u32(cp);
  const std::size_t notes = std::min(m.notes.size(), kMaxNotesBytes);
  w.u32(static_cast<std::uint32_t>(notes));
  w.raw(m.notes.data(), notes);
  w.u32(static_cast<std::uint32_t>(m.curve.size()));
  for (const CurvePoint& p : m.curve) {
    w.u32(p.step);
    w.f32(p.train_bits);
    w.f32(p.held_out_english);
    w.f32(p.held_out_chinese);
  }
  const std::size_t samples = std::min(m.samples.size(), kMaxSamples);
  w.u32(static_cast<std::uint32_t>(samples));
  for (std::size_t i = 0; i < samples; ++i) {
    const std::string& t = m.samples[i].text;
    const std::size_t len = std::min(t.size(), kMaxNotesBytes);
    w.u32(m.samples[i].language);
    w.u32(static_cast<std::uint32_t>(len));
    w.raw(t.data(), len);
  }
  for (float x : m.parameters) w.u16(half_bits(x));
  return finish_frame(std::move(w));
}

Status parse_language_model(const std::uint8_t* bytes, std::size_t size, LanguageModel& out) {
  if (size >= kSmallestFile && std::memcmp(bytes, train::kModelMagic, 8) == 0)
    return Status::error(msg::lm_file_is_task_model);
  ByteReader r;
  if (Status st = open_frame(bytes, size, kLanguageModelFrame, r); !st.ok) return st;
  LanguageModel m;
  std::uint32_t f[7];
  for (std::uint32_t& v : f)
    if (!r.u32(v)) return Status::error(msg::lm_file_short_section);
  auto as_int = [](std::uint32_t v) { return v > 1000000u ? 1000001 : static_cast<int>(v); };
  m.config.vocab = as_int(f[0]);
  m.config.context = as_int(f[1]);
  m.config.layers = as_int(f[2]);
  m.config.heads = as_int(f[3]);
  m.config.d_model = as_int(f[4]);
  m.config.d_mlp = as_int(f[5]);
  if (f[6] > 1u) return Status::error(msg::lm_file_unknown_flags, f[6]);
  m.config.scale_scores = (f[6] & 1u) != 0;
  m.config.init = train::InitScheme::Small;
  if (Status st = train::validate_model_config(m.config, kLanguageModelLimits); !st.ok) return st;
  std::uint32_t unknown_classes = 0, count = 0;
  if (!r.u64(m.steps) || !r.u64(m.seed) || !r.u32(unknown_classes) || !r.u32(count))
    return Status::error(msg::lm_file_short_section);
  if (count + static_cast<std::uint64_t>(kSpecialTokens) != static_cast<std::uint64_t>(m.config.vocab))
    return Status::error(msg::lm_file_vocab_mismatch, count, m.config.vocab - kSpecialTokens);
  if (r.left() / 4 < count) return Status::error(msg::lm_file_short_section);
  std::vector<std::uint32_t> chars(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    r.u32(chars[i]);
    if (chars[i] > 0x10FFFF || (chars[i] >= 0xD800 && chars[i] <= 0xDFFF))
      return Status::error(msg::lm_file_bad_character, i);
    if (i > 0 && chars[i] <= chars[i - 1]) return Status::error(msg::lm_file_duplicate_character, i);
  }
  if (!m.vocabulary.assign(std::move(chars), unknown_classes < 1 ? 1 : unknown_classes))
    return Status::error(msg::lm_file_bad_character, 0);
  std::uint32_t notes = 0;
  if (!r.u32(notes)) return Status::error(msg::lm_file_short_section);
  if (notes > kMaxNotesBytes) return Status::error(msg::lm_file_notes_too_long, notes, kMaxNotesBytes);
  if (!r.text(m.notes, notes)) return Status::error(msg::lm_file_short_section);
  if (const std::size_t bad = first_invalid_utf8(m.notes); bad != std::string::npos)
    return Status::error(msg::lm_file_notes_not_utf8, bad);
  std::uint32_t points = 0;
  if (!r.u32(points) || r.left() / 16 < points) return Status::error(msg::lm_file_short_section);
  m.curve.resize(points);
  for (CurvePoint& p : m.curve) {
    r.u32(p.step);
    r.f32(p.train_bits);
    r.f32(p.held_out_english);
    r.f32(p.held_out_chinese);
  }
  std::uint32_t samples = 0;
  if (!r.u32(samples)) return Status::error(msg::lm_file_short_section);
  if (samples > kMaxSamples) return Status::error(msg::lm_file_samples, samples, kMaxSamples);
  for (std::uint32_t i = 0; i < samples; ++i) {
    HeldOutSample sample;
    std::uint32_t len = 0;
    if (!r.u32(sample.language) || !r.u32(len)) return Status::error(msg::lm_file_short_section);
    if (sample.language > 1u || len > kMaxNotesBytes) return Status::error(msg::lm_file_samples, samples, kMaxSamples);
    if (!r.text(sample.text, len)) return Status::error(msg::lm_file_short_section);
    if (const std::size_t bad = first_invalid_utf8(sample.text); bad != std::string::npos)
      return Status::error(msg::lm_file_sample_not_utf8, i, bad);
    m.samples.push_back(std::move(sample));
  }
  const std::size_t n = train::parameter_count(m.config);
  const std::uint8_t* halves = nullptr;
  if (r.left() != 2 * n || !r.take(halves, n, 2)) return Status::error(msg::lm_file_short_section);
  m.parameters.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    m.parameters[i] = half_to_float(load_le16(halves + 2 * i));
    if (!std::isfinite(m.parameters[i])) return Status::error(msg::lm_file_non_finite);
  }
  out = std::move(m);
  return Status::success();
}

}  // namespace attn::lm
