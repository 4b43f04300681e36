#include "core/train/model_file.h"

#include "core/base/crc32.h"
#include "core/base/utf8.h"
#include "core/train/train_messages.h"

#include <cmath>
#include <cstring>
#include <string>

namespace attn::train {

namespace {

// =========================================================================================
// little-endian writing and bounded reading
// =========================================================================================

class Writer {
 public:
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void f32(float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    u32(bits);
  }
  void f32s(const std::vector<float>& v) {
    for (float x : v) f32(x);
  }
  void raw(const void* data, std::size_t n) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    bytes.insert(bytes.end(), p, p + n);
  }
  std::vector<std::uint8_t> bytes;
};

// Reads from [pos, end); every read checks the room left first and fails without moving.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t end) : data_(data), end_(end) {}
  std::size_t left() const { return end_ - pos_; }
  bool u32(std::uint32_t& v) {
    if (left() < 4) return false;
    v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(data_[pos_ + i]) << (8 * i);
    pos_ += 4;
    return true;
  }
  bool u64(std::uint64_t& v) {
    if (left() < 8) return false;
    v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(data_[pos_ + i]) << (8 * i);
    pos_ += 8;
    return true;
  }
  bool f32(float& v) {
    std::uint32_t bits;
    if (!u32(bits)) return false;
    std::memcpy(&v, &bits, 4);
    return true;
  }
  // count floats; the caller has checked that count * 4 <= left().
  void f32s(std::vector<float>& v, std::size_t count) {
    v.resize(count);
    for (std::size_t i = 0; i < count; ++i) f32(v[i]);
  }
  bool text(std::string& s, std::size_t n) {
    if (left() < n) return false;
    s.assign(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return true;
  }

 private:
  const std::uint8_t* data_;
  std::size_t end_;
  std::size_t pos_ = 0;
};

constexpr std::uint32_t kFlagScale = 1u, kFlagOptimizer = 2u;

bool all_finite(const std::vector<float>& v) {
  for (float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

std::string shape_text(std::uint32_t rows, std::uint32_t cols) {
  std::string s = "(";  // appended piece by piece: GCC 12 warns falsely on "(" + to_string(...)
  s += std::to_string(rows);
  s += ", ";
  s += std::to_string(cols);
  s += ")";
  return s;
}

}  // namespace

// =========================================================================================
// writing
// =========================================================================================

std::vector<std::uint8_t> serialize_model_file(const ModelFile& f) {
  if (!validate_train_config(f.config).ok) return {};
  const ModelConfig mc = model_config(f.config);
  const std::vector<TensorInfo> layout = parameter_layout(mc);
  const std::size_t count = parameter_count(mc);
  if (f.parameters.size() != count || f.loss_history.size() != f.steps || f.accuracy_history.size() != f.steps)
    return {};
  if (f.has_optimizer && (f.adam_m.size() != count || f.adam_v.size() != count)) return {};

  Writer w;
  w.raw(kModelMagic, 8);
  w.u32(kModelFileVersion);
  w.u64(0);  // total_bytes, filled in below
  w.u32(static_cast<std::uint32_t>(f.config.task));
  for (int v : {mc.vocab, mc.context, mc.layers, mc.heads, mc.d_model, mc.d_mlp}) w.u32(static_cast<std::uint32_t>(v));
  w.u32((mc.scale_scores ? kFlagScale : 0u) | (f.has_optimizer ? kFlagOptimizer : 0u));
  w.u32(mc.init == InitScheme::Small ? 1u : 0u);
  w.u32(static_cast<std::uint32_t>(f.config.batch));
  w.f32(f.config.learning_rate);
  w.f32(f.config.beta1);
  w.f32(f.config.beta2);
  w.f32(f.config.epsilon);
  w.u64(f.config.seed);
  w.u64(f.steps);
  w.u32(static_cast<std::uint32_t>(layout.size()));
  for (const TensorInfo& t : layout) {
    w.u32(static_cast<std::uint32_t>(t.name.size()));
    w.raw(t.name.data(), t.name.size());
    w.u32(static_cast<std::uint32_t>(t.rows));
    w.u32(static_cast<std::uint32_t>(t.cols));
  }
  w.f32s(f.parameters);
  if (f.has_optimizer) {
    w.f32s(f.adam_m);
    w.f32s(f.adam_v);
  }
  w.u64(f.steps);
  w.f32s(f.loss_history);
  w.f32s(f.accuracy_history);
  const std::uint64_t total = w.bytes.size() + 4;
  for (int i = 0; i < 8; ++i) w.bytes[12 + i] = static_cast<std::uint8_t>(total >> (8 * i));
  w.u32(crc32(w.bytes.data(), w.bytes.size()));
  return std::move(w.bytes);
}

// =========================================================================================
// reading
// =========================================================================================

namespace {

Status short_file() { return Status::error(msg::train_file_short_section); }

// 1 header: magic, version, declared length, checksum. The body is [header, size - 4).
Status check_header(const std::uint8_t* bytes, std::size_t size) {
  if (size < kModelHeaderBytes + 4)
    return Status::error(msg::train_file_too_short, size);
  if (std::memcmp(bytes, kModelMagic, 8) != 0)
    return Status::error(msg::train_file_bad_magic);
  Reader head(bytes + 8, 12);
  std::uint32_t version = 0;
  std::uint64_t total = 0;
  head.u32(version);
  head.u64(total);
  if (version != kModelFileVersion)
    return Status::error(msg::train_file_bad_version, version, kModelFileVersion);
  if (total > size) return Status::error(msg::train_file_truncated, size, total);
  if (total < size) return Status::error(msg::train_file_trailing_bytes, size - total, total);
  const std::size_t body_end = size - 4;
  Reader tail(bytes + body_end, 4);
  std::uint32_t stored_crc = 0;
  tail.u32(stored_crc);
  const std::uint32_t crc = crc32(bytes, body_end);
  if (crc != stored_crc) return Status::error(msg::train_file_checksum);
  return Status::success();
}

// 2 config: every field range-checked before it is cast, then the whole config validated.
Status read_config(Reader& r, ModelFile& f) {
  std::uint32_t task = 0, vocab = 0, context = 0, layers = 0, heads = 0, d_model = 0, d_mlp = 0, flags = 0, init = 0,
                batch = 0;
  for (std::uint32_t* v : {&task, &vocab, &context, &layers, &heads, &d_model, &d_mlp, &flags, &init, &batch})
    if (!r.u32(*v)) return short_file();
  if (!r.f32(f.config.learning_rate) || !r.f32(f.config.beta1) || !r.f32(f.config.beta2) || !r.f32(f.config.epsilon) ||
      !r.u64(f.config.seed) || !r.u64(f.steps))
    return short_file();
  if (task > static_cast<std::uint32_t>(TrainTask::Induction)) return Status::error(msg::train_file_unknown_task, task);
  if (flags & ~(kFlagScale | kFlagOptimizer)) return Status::error(msg::train_file_unknown_flags, flags);
  if (init > 1) return Status::error(msg::train_file_unknown_init, init);
  const auto small = [](std::uint32_t v) { return v <= 1u << 20; };  // before casting to int
  if (!small(layers) || !small(heads) || !small(d_model) || !small(d_mlp) || !small(batch))
    return Status::error(msg::train_file_dimension_range);
  f.config.task = static_cast<TrainTask>(task);
  f.config.layers = static_cast<int>(layers);
  f.config.heads = static_cast<int>(heads);
  f.config.d_model = static_cast<int>(d_model);
  f.config.d_mlp = static_cast<int>(d_mlp);
  f.config.scale_scores = (flags & kFlagScale) != 0;
  f.config.init = init == 1 ? InitScheme::Small : InitScheme::Unit;
  f.config.batch = static_cast<int>(batch);
  f.has_optimizer = (flags & kFlagOptimizer) != 0;
  if (f.config.d_mlp == 0) return Status::error(msg::train_file_d_mlp_zero, kMaxDMlp);
  if (Status st = validate_train_config(f.config); !st.ok) return st.within(msg::train_file_config);
  const TaskSpec& spec = task_spec(f.config.task);
  if (static_cast<int>(vocab) != spec.vocab || static_cast<int>(context) != spec.context)
    return Status::error(msg::train_file_task_mismatch, vocab, context, spec.name, spec.vocab, spec.context);
  return Status::success();
}

// 3 the tensor table must be the layout this config implies
Status check_tensor_table(Reader& r, const std::vector<TensorInfo>& layout) {
  std::uint32_t tensor_count = 0;
  if (!r.u32(tensor_count)) return short_file();
  if (tensor_count != layout.size())
    return Status::error(msg::train_file_tensor_count, tensor_count, layout.size());
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const TensorInfo& want = layout[i];
    std::uint32_t name_length = 0, rows = 0, cols = 0;
    std::string name;
    if (!r.u32(name_length)) return short_file();
    if (name_length < 1 || name_length > 64)
      return Status::error(msg::train_file_tensor_name_length, i, name_length);
    if (!r.text(name, name_length) || !r.u32(rows) || !r.u32(cols)) return short_file();
    if (name != want.name)
      return Status::error(msg::train_file_tensor_name, i, repair_utf8(name), want.name);
    if (rows != static_cast<std::uint32_t>(want.rows) || cols != static_cast<std::uint32_t>(want.cols))
      return Status::error(msg::train_file_tensor_shape, name, shape_text(rows, cols), shape_text(want.rows, want.cols));
  }
  return Status::success();
}

// 4 sections, each length checked against the bytes left before anything is allocated
Status read_sections(Reader& r, std::size_t count, ModelFile& f) {
  const std::size_t sections = f.has_optimizer ? 3 : 1;
  if (r.left() < sections * count * 4) return short_file();
  r.f32s(f.parameters, count);
  if (f.has_optimizer) {
    r.f32s(f.adam_m, count);
    r.f32s(f.adam_v, count);
  }
  std::uint64_t history = 0;
  if (!r.u64(history)) return short_file();
  if (history != f.steps)
    return Status::error(msg::train_file_history_length, history, f.steps);
  if (history > r.left() / 8) return short_file();
  r.f32s(f.loss_history, static_cast<std::size_t>(history));
  r.f32s(f.accuracy_history, static_cast<std::size_t>(history));
  if (r.left() != 0) return Status::error(msg::train_file_extra_bytes, r.left());
  return Status::success();
}

// 5 values: finite everywhere, and Adam's second moments never negative
Status check_values(const ModelFile& f) {
  if (!all_finite(f.parameters)) return Status::error(msg::train_file_parameters_non_finite);
  if (f.has_optimizer) {
    if (!all_finite(f.adam_m) || !all_finite(f.adam_v)) return Status::error(msg::train_file_optimizer_non_finite);
    for (float v : f.adam_v)
      if (v < 0.0f) return Status::error(msg::train_file_negative_moment);
  }
  if (!all_finite(f.loss_history) || !all_finite(f.accuracy_history))
    return Status::error(msg::train_file_history_non_finite);
  return Status::success();
}

}  // namespace

Status parse_model_file(const std::uint8_t* bytes, std::size_t size, ModelFile& out) {
  if (Status st = check_header(bytes, size); !st.ok) return st;
  Reader r(bytes + kModelHeaderBytes, size - 4 - kModelHeaderBytes);
  ModelFile f;
  if (Status st = read_config(r, f); !st.ok) return st;
  const ModelConfig mc = model_config(f.config);
  if (Status st = check_tensor_table(r, parameter_layout(mc)); !st.ok) return st;
  if (Status st = read_sections(r, parameter_count(mc), f); !st.ok) return st;
  if (Status st = check_values(f); !st.ok) return st;
  out = std::move(f);
  return Status::success();
}

}  // namespace attn::train
