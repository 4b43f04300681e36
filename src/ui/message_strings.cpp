#include "ui/message_strings.h"

#include "app/app_messages.h"
#include "core/attention/attention_messages.h"
#include "core/io/io_messages.h"
#include "core/lm/lm_messages.h"
#include "core/train/train_messages.h"
#include "files/files_messages.h"
#include "ui/messages_zh_app.h"
#include "ui/messages_zh_attention.h"
#include "ui/messages_zh_files.h"
#include "ui/messages_zh_io.h"
#include "ui/messages_zh_lm.h"
#include "ui/messages_zh_train.h"

#include <cstring>
#include <string_view>
#include <unordered_map>

namespace attn::ui {
namespace {

// Naming msg::id checks at compile time that each translation belongs to a catalog message.
const std::unordered_map<std::string_view, const char*>& chinese_table() {
  static const std::unordered_map<std::string_view, const char*> table = {
#define ATTNLAB_ZH_ENTRY(name, zh) {msg::name.id, zh},
      ATTNLAB_APP_MESSAGES_ZH(ATTNLAB_ZH_ENTRY)
      ATTNLAB_FILES_MESSAGES_ZH(ATTNLAB_ZH_ENTRY)
      ATTNLAB_IO_MESSAGES_ZH(ATTNLAB_ZH_ENTRY)
      ATTNLAB_TRAIN_MESSAGES_ZH(ATTNLAB_ZH_ENTRY)
      ATTNLAB_ATTENTION_MESSAGES_ZH(ATTNLAB_ZH_ENTRY)
      ATTNLAB_LM_MESSAGES_ZH(ATTNLAB_ZH_ENTRY)
#undef ATTNLAB_ZH_ENTRY
  };
  return table;
}

}  // namespace

const char* chinese_message(const char* id) {
  const auto& table = chinese_table();
  auto it = table.find(id);
  return it == table.end() ? nullptr : it->second;
}

std::string status_text(const Status& status, Language language) {
  if (status.ok) return {};
  if (language != Language::Chinese || status.parts.empty()) return status.message;
  std::string out;
  for (const MessagePart& part : status.parts) {
    if (!out.empty()) out += "：";
    if (!part.text) {
      out += part.literal;
      continue;
    }
    const char* zh = chinese_message(part.text->id);
    out += fill_message(zh ? zh : part.text->english, part.args);
  }
  return out;
}

std::string status_text(const Status& status) { return status_text(status, language()); }

}  // namespace attn::ui
