// The model file: writing and checking it (model_file.h has the layout).
#include "core/train/model_file.h"

#include "core/base/file_frame.h"
#include "core/base/utf8.h"
#include "core/train/train_messages.h"

#include <cmath>
#include <cstring>
#include <string>

namespace attn::train {

namespace {

const FrameFormat kModelFrame{kModelMagic,
                              kModelFileVersion,
                              kModelHeaderBytes + kFrameTrailerBytes,
                              msg::train_file_too_short,
                              msg::train_file_bad_magic,
                              msg::train_file_bad_version,
                              msg::train_file_truncated,
                              msg::train_file_trailing_bytes,
                              msg::train_file_checksum};

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

  ByteWriter w = begin_frame(kModelFrame);
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
  return finish_frame(std::move(w));
}

// =========================================================================================
// reading
// =========================================================================================

namespace {

Status short_file() { return Status::error(msg::train_file_short_section); }

// 2 config: every field range-checked before it is cast, then the whole config validated.
Status read_config(ByteReader& r, ModelFile& f) {
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
Status check_tensor_table(ByteReader& r, const std::vector<TensorInfo>& layout) {
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
Status read_sections(ByteReader& r, std::size_t count, ModelFile& f) {
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
  ByteReader r;
  if (Status st = open_frame(bytes, size, kModelFrame, r); !st.ok) return st;
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
