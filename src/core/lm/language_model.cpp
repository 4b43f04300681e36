#include "core/lm/language_model.h"

#include "core/attention/softmax.h"
#include "core/base/crc32.h"
#include "core/base/utf8.h"
#include "core/io/half_float.h"
#include "core/io/little_endian.h"
#include "core/lm/lm_messages.h"

#include <cmath>
#include <cstring>

namespace attn::lm {

namespace {

// The float16 bits of a float that is already a float16 value (round_to_half's result).
std::uint16_t half_bits(float x) {
  const float h = round_to_half(x);
  std::uint32_t b;
  std::memcpy(&b, &h, 4);
  const std::uint16_t sign = static_cast<std::uint16_t>((b >> 16) & 0x8000u);
  const std::uint32_t abs_bits = b & 0x7FFFFFFFu;
  if (abs_bits >= 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7C00u | (abs_bits > 0x7F800000u ? 0x200u : 0u));
  float a;
  std::memcpy(&a, &abs_bits, 4);
  if (a < 6.103515625e-05f)  // subnormal: a multiple of 2^-24
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::lround(a * 16777216.0f)));
  const std::uint32_t exponent = ((abs_bits >> 23) & 0xFFu) - 127u + 15u;
  return static_cast<std::uint16_t>(sign | (exponent << 10) | ((abs_bits >> 13) & 0x3FFu));
}

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void putf(std::vector<std::uint8_t>& out, float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  put32(out, b);
}

// Reads forward through the body; every read checks the bytes left.
struct Reader {
  const std::uint8_t* p;
  std::size_t left;
  bool u32(std::uint32_t& v) {
    if (left < 4) return false;
    v = load_le32(p);
    p += 4;
    left -= 4;
    return true;
  }
  bool u64(std::uint64_t& v) {
    if (left < 8) return false;
    v = load_le64(p);
    p += 8;
    left -= 8;
    return true;
  }
  bool f32(float& v) {
    std::uint32_t b;
    if (!u32(b)) return false;
    v = float_from_bits(b);
    return true;
  }
};

constexpr std::size_t kHeaderBytes = 20;
constexpr std::size_t kSmallestFile = kHeaderBytes + 7 * 4 + 2 * 8 + 4 + 4 + 4 + 4 + 4 + 4;

}  // namespace

void round_parameters_to_half(std::vector<float>& parameters) {
  for (float& p : parameters) p = round_to_half(p);
}

std::vector<std::uint8_t> serialize_language_model(const LanguageModel& m) {
  std::vector<std::uint8_t> out(kLanguageModelMagic, kLanguageModelMagic + 8);
  put32(out, kLanguageModelVersion);
  put64(out, 0);  // total, patched below
  const train::ModelConfig& c = m.config;
  for (int v : {c.vocab, c.context, c.layers, c.heads, c.d_model, c.d_mlp}) put32(out, static_cast<std::uint32_t>(v));
  put32(out, c.scale_scores ? 1u : 0u);
  put64(out, m.steps);
  put64(out, m.seed);
  put32(out, m.vocabulary.unknown_classes());
  put32(out, static_cast<std::uint32_t>(m.vocabulary.characters().size()));
  for (std::uint32_t cp : m.vocabulary.characters()) put32(out, cp);
  const std::size_t notes = std::min(m.notes.size(), kMaxNotesBytes);
  put32(out, static_cast<std::uint32_t>(notes));
  out.insert(out.end(), m.notes.begin(), m.notes.begin() + static_cast<std::ptrdiff_t>(notes));
  put32(out, static_cast<std::uint32_t>(m.curve.size()));
  for (const CurvePoint& p : m.curve) {
    put32(out, p.step);
    putf(out, p.train_bits);
    putf(out, p.held_out_english);
    putf(out, p.held_out_chinese);
  }
  const std::size_t samples = std::min(m.samples.size(), kMaxSamples);
  put32(out, static_cast<std::uint32_t>(samples));
  for (std::size_t i = 0; i < samples; ++i) {
    const std::string& t = m.samples[i].text;
    const std::size_t len = std::min(t.size(), kMaxNotesBytes);
    put32(out, m.samples[i].language);
    put32(out, static_cast<std::uint32_t>(len));
    out.insert(out.end(), t.begin(), t.begin() + static_cast<std::ptrdiff_t>(len));
  }
  for (float w : m.parameters) {
    const std::uint16_t h = half_bits(w);
    out.push_back(static_cast<std::uint8_t>(h));
    out.push_back(static_cast<std::uint8_t>(h >> 8));
  }
  const std::uint64_t total = out.size() + 4;
  for (int i = 0; i < 8; ++i) out[12 + i] = static_cast<std::uint8_t>(total >> (8 * i));
  put32(out, crc32(out.data(), out.size()));
  return out;
}

Status parse_language_model(const std::uint8_t* bytes, std::size_t size, LanguageModel& out) {
  if (size < kSmallestFile) return Status::error(msg::lm_file_too_short, size);
  if (std::memcmp(bytes, "ATTNLABM", 8) == 0) return Status::error(msg::lm_file_is_task_model);
  if (std::memcmp(bytes, kLanguageModelMagic, 8) != 0) return Status::error(msg::lm_file_bad_magic);
  const std::uint32_t version = load_le32(bytes + 8);
  if (version != kLanguageModelVersion) return Status::error(msg::lm_file_bad_version, version, kLanguageModelVersion);
  const std::uint64_t total = load_le64(bytes + 12);
  if (total > size) return Status::error(msg::lm_file_truncated, size, total);
  if (total < size) return Status::error(msg::lm_file_trailing, size - total);
  if (crc32(bytes, size - 4) != load_le32(bytes + size - 4)) return Status::error(msg::lm_file_checksum);

  Reader r{bytes + kHeaderBytes, size - kHeaderBytes - 4};
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
  if (r.left / 4 < count) return Status::error(msg::lm_file_short_section);
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
  if (r.left < notes) return Status::error(msg::lm_file_short_section);
  m.notes.assign(reinterpret_cast<const char*>(r.p), notes);
  if (const std::size_t bad = first_invalid_utf8(m.notes); bad != std::string::npos)
    return Status::error(msg::lm_file_notes_not_utf8, bad);
  r.p += notes;
  r.left -= notes;
  std::uint32_t points = 0;
  if (!r.u32(points) || r.left / 16 < points) return Status::error(msg::lm_file_short_section);
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
    if (r.left < len) return Status::error(msg::lm_file_short_section);
    sample.text.assign(reinterpret_cast<const char*>(r.p), len);
    if (const std::size_t bad = first_invalid_utf8(sample.text); bad != std::string::npos)
      return Status::error(msg::lm_file_sample_not_utf8, i, bad);
    r.p += len;
    r.left -= len;
    m.samples.push_back(std::move(sample));
  }
  const std::size_t n = train::parameter_count(m.config);
  if (r.left != 2 * n) return Status::error(msg::lm_file_short_section);
  m.parameters.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    m.parameters[i] = half_to_float(load_le16(r.p + 2 * i));
    if (!std::isfinite(m.parameters[i])) return Status::error(msg::lm_file_non_finite);
  }
  out = std::move(m);
  return Status::success();
}

}  // namespace attn::lm
