// Fuzz target: the embed's postMessage protocol (src/app/messages.h), which a host page on
// another origin can send anything through.
//
// Any bytes: the message is classified (not ours, invalid with a reason, or one of the
// requests), its JSON form parses back, an importFile's name and size are within their caps
// and its JSON form carries them, a setState patch is a JSON object's text that the
// state door then judges like any other (and a refusal changes nothing).
#include "app/app_state.h"
#include "app/messages.h"
#include "core/io/import_attention.h"
#include "fuzz_check.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>

ATTNLAB_FUZZ_TARGET(message) {
  const attn::Message m = attn::parse_message(data, size);
  const nlohmann::json described = nlohmann::json::parse(attn::message_to_json(m), nullptr, false);
  FUZZ_CHECK(!described.is_discarded());
  switch (m.type) {
    case attn::MessageType::Invalid:
      FUZZ_CHECK(!m.error.empty());
      break;
    case attn::MessageType::SetState: {
      const nlohmann::json patch = nlohmann::json::parse(m.state_json, nullptr, false);
      FUZZ_CHECK(patch.is_object());
      attn::AppState state;
      const std::string before = attn::state_to_json(state);
      const attn::Status st = attn::apply_state_json(state, m.state_json);
      if (!st.ok) FUZZ_CHECK(attn::state_to_json(state) == before);
      break;
    }
    case attn::MessageType::Subscribe:
    case attn::MessageType::Unsubscribe:
      FUZZ_CHECK(m.event == "cursor" || m.event == "state");
      break;
    case attn::MessageType::ImportFile:
      FUZZ_CHECK(!m.file_name.empty() && m.file_name.size() <= 255);
      FUZZ_CHECK(m.file_bytes >= 0 && m.file_bytes <= attn::kImportMaxFileBytes);
      FUZZ_CHECK(m.batch >= 0);
      FUZZ_CHECK(described["name"] == m.file_name && described["bytes"] == m.file_bytes);
      break;
    default:
      break;
  }
  if (m.type != attn::MessageType::NotOurs && m.type != attn::MessageType::Invalid)
    FUZZ_CHECK(!nlohmann::json::parse(m.id_json, nullptr, false).is_discarded());
  return 0;
}
