#include "files/json_text.h"

#include "core/base/json_nesting.h"
#include "core/base/utf8.h"
#include "files/files_messages.h"

#include <nlohmann/json.hpp>

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

std::string json_text(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace attn
