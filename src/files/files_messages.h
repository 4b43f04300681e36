// The messages src/files makes (JSON text, a figure's export), with their English texts ({0},
// {1}, ... are arguments; see MessageText in core/base/types.h). Their Chinese texts are in
// ui/messages_zh_files.h.
#pragma once

#include "core/base/types.h"

#define ATTNLAB_FILES_MESSAGES(X) \
  X(files_json_not_utf8, "the JSON text is not UTF-8 (byte {0})") \
  X(files_json_too_deep, "the JSON nests more than {0} levels deep (byte {1})") \
  X(files_export_format, "export format must be png, svg, csv, json or npy, not '{0}'") \
  X(files_export_pixels, "a {0} x {1} PNG is more than the {2} Mpx allowed; choose a smaller scale") \
  X(files_export_nothing, "there is no matrix to export") \
  X(files_export_scale, "export scale must be 1 to {0}")

namespace attn::msg {
#define ATTNLAB_MESSAGE_TEXT(id, en) inline constexpr MessageText id{#id, en};
ATTNLAB_FILES_MESSAGES(ATTNLAB_MESSAGE_TEXT)
#undef ATTNLAB_MESSAGE_TEXT
}  // namespace attn::msg
