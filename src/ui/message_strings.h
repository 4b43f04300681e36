// The Chinese texts of the messages that src/core and src/app make (their catalogs hold the
// English: core/io/io_messages.h, core/train/train_messages.h, core/attention/
// attention_messages.h, app/app_messages.h). Each catalog has its table here, under the same
// ids with the same {0}, {1}, ... arguments; tests/app/test_message_strings.cpp checks that
// every message has its translation. status_text() is what the UI shows of a refusal.
#pragma once

#include "core/base/types.h"
#include "ui/strings.h"

#include <string>

namespace attn::ui {

// A Status in the given language (the UI's by default): each part translated, literals (file
// names) as they are, parts joined by ": " or "：". An ok status gives "".
std::string status_text(const Status& status, Language language);
std::string status_text(const Status& status);

// The Chinese text of a catalog message, or nullptr when it has none.
const char* chinese_message(const char* id);

}  // namespace attn::ui
