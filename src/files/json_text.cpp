#include "files/json_text.h"

#include "core/base/json_nesting.h"
#include "core/base/utf8.h"
#include "files/files_messages.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace attn {

Status parse_json(std::string_view text, int max_depth, const MessageText& not_json, nlohmann::json& out) {
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos)
    return Status::error(msg::files_json_not_utf8, bad);
  if (const std::size_t deep = json_nesting_past(text, max_depth); deep != std::string_view::npos)
    return Status::error(msg::files_json_too_deep, max_depth, deep);
  nlohmann::json parsed = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return Status::error(not_json);
  out = std::move(parsed);
  return Status::success();
}

nlohmann::json rows_json(const float* values, int rows, int cols) {
  nlohmann::json out = nlohmann::json::array();
  for (int i = 0; i < rows; ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (int j = 0; j < cols; ++j) {
      const float v = values[static_cast<std::size_t>(i) * cols + j];
      row.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr));
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::string json_text(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace attn
