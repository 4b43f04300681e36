// The parts of the lab's JSON format for the attention import (import_parts.h), from the
// text core/io/json_reader.h parsed: "format" and "version" checked, nested arrays of
// numbers turned into float32 arrays (their bytes kept as the parts' buffers), lists of
// strings into tokens, any other key refused. See docs/IMPORT.md for the format.
#include "core/io/import_parts.h"

#include "core/base/bytes.h"
#include "core/io/io_messages.h"
#include "core/io/json_reader.h"

#include <utility>

namespace attn::import_detail {
namespace {

// Nested arrays of numbers -> a float32 array of their (rectangular) shape.
Status json_tensor(const JsonValue& v, const std::string& name, NpyArray& out) {
  std::vector<std::int64_t> shape;
  const JsonValue* probe = &v;
  while (probe->kind == JsonValue::Array) {
    shape.push_back(static_cast<std::int64_t>(probe->items.size()));
    if (probe->items.empty()) break;
    probe = &probe->items[0];
  }
  if (probe->kind != JsonValue::Numbers && !(probe->kind == JsonValue::Array && probe->items.empty()))
    return Status::error(msg::io_json_not_numbers, name).within("JSON");
  if (probe->kind == JsonValue::Numbers) shape.push_back(static_cast<std::int64_t>(probe->numbers.size()));
  // Walk every path, checking each array has the length its depth requires; then copy the
  // rows straight into the array's bytes (one buffer, no float vector in between).
  std::vector<const JsonValue*> rows;
  std::vector<std::pair<const JsonValue*, std::size_t>> stack = {{&v, 0}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    const bool leaf = depth + 1 == shape.size();
    if (leaf ? node->kind != JsonValue::Numbers || static_cast<std::int64_t>(node->numbers.size()) != shape[depth]
             : node->kind != JsonValue::Array || static_cast<std::int64_t>(node->items.size()) != shape[depth])
      return Status::error(msg::io_json_not_rectangular, name, npy_shape_string(shape)).within("JSON");
    if (leaf) {
      rows.push_back(node);
    } else {
      for (std::size_t i = node->items.size(); i-- > 0;) stack.push_back({&node->items[i], depth + 1});
    }
  }
  out = NpyArray();
  out.dtype = NpyDtype::Float32;
  out.shape = shape;
  std::size_t count = 0;
  for (const JsonValue* row : rows) count += row->numbers.size();
  out.data.resize(4 * count);
  std::uint8_t* dst = out.data.data();
  for (const JsonValue* row : rows)
    for (float f : row->numbers) {
      store_le32(dst, float_bits(f));
      dst += 4;
    }
  return Status::success();
}

Status json_strings(const JsonValue& v, const std::string& name, std::vector<std::int64_t>& shape,
                    std::vector<std::string>& out) {
  auto is_list = [](const JsonValue& a) {
    if (a.kind == JsonValue::Numbers && a.numbers.empty()) return true;  // []
    if (a.kind != JsonValue::Array) return false;
    for (const JsonValue& s : a.items)
      if (s.kind != JsonValue::String) return false;
    return true;
  };
  if (is_list(v)) {
    shape = {static_cast<std::int64_t>(v.items.size())};
    for (const JsonValue& s : v.items) out.push_back(s.text);
    return Status::success();
  }
  if (v.kind == JsonValue::Array && !v.items.empty()) {
    shape = {static_cast<std::int64_t>(v.items.size()), 0};
    for (const JsonValue& row : v.items) {
      if (!is_list(row)) break;
      if (&row != &v.items[0] && static_cast<std::int64_t>(row.items.size()) != shape[1])
        return Status::error(msg::io_json_rows_differ, name).within("JSON");
      shape[1] = static_cast<std::int64_t>(row.items.size());
      for (const JsonValue& s : row.items) out.push_back(s.text);
    }
    if (static_cast<std::int64_t>(out.size()) == shape[0] * shape[1]) return Status::success();
  }
  return Status::error(msg::io_json_not_strings, name).within("JSON");
}

// Nested arrays of numbers become float32 arrays whose data the parts keep as buffers.
Status json_array(const JsonValue& v, const std::string& name, Parts& p, ArrayPart& out) {
  NpyArray a;
  if (Status s = json_tensor(v, name, a); !s.ok) return s;
  p.buffers.push_back(std::move(a.data));
  out.meta = std::move(a);
  out.meta.data.clear();
  out.span = {static_cast<int>(p.buffers.size()) - 1, 0, p.buffers.back().size()};
  return Status::success();
}

}  // namespace

Status json_parts(const JsonValue& root, Parts& p) {
  if (root.kind != JsonValue::Object) return Status::error(msg::io_json_not_object).within("JSON");
  const JsonValue* format = root.member("format");
  if (!format || format->kind != JsonValue::String || format->text != "attnlab-attention")
    return Status::error(msg::io_json_bad_format).within("JSON");
  const JsonValue* version = root.member("version");
  if (!version || version->kind != JsonValue::Number || version->number != 1)
    return Status::error(msg::io_json_bad_version).within("JSON");
  for (std::size_t member_index = 0; member_index < root.keys.size(); ++member_index) {
    const std::string& key = root.keys[member_index];
    const JsonValue& v = root.items[member_index];
    Status s;
    if (key == "format" || key == "version") continue;
    if (is_weights_name(key)) {
      if (p.has_weights) return Status::error(msg::io_json_two_weight_arrays, p.weights_name, key);
      p.has_weights = true;
      p.weights_name = key;
      s = json_array(v, key, p, p.weights);
    } else if (key == "tokens") {
      p.has_tokens = true;
      s = json_strings(v, key, p.tokens_shape, p.tokens);
    } else if (key == "query_tokens") {
      p.has_query_tokens = true;
      s = json_strings(v, key, p.query_tokens_shape, p.query_tokens);
    } else if (key == "key_tokens") {
      p.has_key_tokens = true;
      s = json_strings(v, key, p.key_tokens_shape, p.key_tokens);
    } else if (key == "q" || key == "k" || key == "v") {
      (key == "q" ? p.has_q : key == "k" ? p.has_k : p.has_v) = true;
      s = json_array(v, key, p, key == "q" ? p.q : key == "k" ? p.k : p.v);
    } else {
      return Status::error(msg::io_json_unknown_key, key).within("JSON");
    }
    if (!s.ok) return s;
  }
  return Status::success();
}

}  // namespace attn::import_detail
