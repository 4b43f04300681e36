#include "app/messages.h"

#include "app/app_messages.h"
#include "app/app_state.h"
#include "core/io/import_attention.h"
#include "files/json_text.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace attn {

using json = nlohmann::json;

namespace {

Message invalid(Message m, const std::string& why) {
  m.type = MessageType::Invalid;
  m.error = why;
  return m;
}

const char* type_name(MessageType t) {
  switch (t) {
    case MessageType::NotOurs: return "not-ours";
    case MessageType::Invalid: return "invalid";
    case MessageType::GetState: return "getState";
    case MessageType::SetState: return "setState";
    case MessageType::Subscribe: return "subscribe";
    case MessageType::Unsubscribe: return "unsubscribe";
    case MessageType::ImportFile: return "importFile";
  }
  return "invalid";
}

// importFile's fields: the name, the byte count, the batch entry, the bfloat16 flag.
Message parse_import_file(Message m, const json& j) {
  if (!j.contains("name") || !j["name"].is_string()) return invalid(m, "importFile needs 'name', the file's name (a string)");
  m.file_name = j["name"].get<std::string>();
  if (m.file_name.empty() || m.file_name.size() > 255) return invalid(m, "'name' must be 1 to 255 bytes long");
  if (!j.contains("bytes")) return invalid(m, "importFile needs 'bytes', the file's contents");
  const json& bytes = j["bytes"];
  if (!bytes.is_number_integer() || bytes.get<std::int64_t>() < 0)
    return invalid(m, "'bytes' must be the file's contents (an ArrayBuffer or a typed array)");
  m.file_bytes = bytes.get<std::int64_t>();
  if (m.file_bytes > kImportMaxFileBytes)
    return invalid(m, "the file is larger than the import's limit of " + std::to_string(kImportMaxFileBytes >> 20) + " MiB");
  if (j.contains("batch")) {
    const json& b = j["batch"];
    if (!b.is_number_integer() || b.get<std::int64_t>() < 0 || b.get<std::int64_t>() > 1 << 20)
      return invalid(m, "'batch' must be a whole number >= 0");
    m.batch = b.get<int>();
  }
  if (j.contains("bfloat16")) {
    if (!j["bfloat16"].is_boolean()) return invalid(m, "'bfloat16' must be true or false");
    m.bfloat16 = j["bfloat16"].get<bool>();
  }
  return m;
}

// The keys each type takes beside attnlab, id and type.
bool key_allowed(MessageType t, const std::string& k) {
  if (k == "attnlab" || k == "id" || k == "type") return true;
  if (t == MessageType::ImportFile) return k == "name" || k == "bytes" || k == "batch" || k == "bfloat16";
  return k == "state" || k == "event";
}

}  // namespace

static_assert(kMaxMessageDepth == kMaxStateDepth + 1, "a setState message holds a state patch one level down");

Message parse_message(const std::uint8_t* data, std::size_t size) {
  Message m;
  m.id_json = "null";
  // Text that names the protocol's key is a message meant for the lab even when it fails the
  // gate (too long, a lone surrogate, nested too deep): it is answered with the reason, not
  // ignored. Other text that fails is another script's, and left alone.
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool names_us = text.find("\"attnlab\"") != std::string_view::npos;
  if (size > kMaxMessageBytes)
    return names_us ? invalid(m, "the message is " + std::to_string(size) + " bytes; at most " +
                                     std::to_string(kMaxMessageBytes) + " are read")
                    : m;
  json j;
  if (Status st = parse_json(text, kMaxMessageDepth, msg::app_message_not_json, j); !st.ok)
    return names_us ? invalid(m, st.message) : m;
  if (!j.is_object() || !j.contains("attnlab")) return m;
  if (j.contains("id")) {
    const json& id = j["id"];
    const bool ok_id = id.is_number_integer() || (id.is_string() && id.get_ref<const std::string&>().size() <= 64);
    if (!ok_id) return invalid(m, "'id' must be an integer or a string of at most 64 characters");
    m.id_json = json_text(id);
  }
  if (j["attnlab"] != kMessageVersion)
    return invalid(m, "'attnlab' must be " + std::to_string(kMessageVersion) + " (the message schema version)");
  if (!j.contains("type") || !j["type"].is_string()) return invalid(m, "'type' must be a string");
  const std::string type = j["type"].get<std::string>();
  MessageType t = MessageType::Invalid;
  if (type == "getState") t = MessageType::GetState;
  else if (type == "setState") t = MessageType::SetState;
  else if (type == "subscribe") t = MessageType::Subscribe;
  else if (type == "unsubscribe") t = MessageType::Unsubscribe;
  else if (type == "importFile") t = MessageType::ImportFile;
  else return invalid(m, "'type' must be getState, setState, subscribe, unsubscribe or importFile");
  for (const auto& item : j.items()) {
    const std::string& k = item.key();
    if (!key_allowed(t, k))
      return invalid(m, "unknown key '" + k.substr(0, 40) + "' in the message");  // keys are UTF-8; dump() replaces a cut character
  }
  m.type = t;
  if (t == MessageType::ImportFile) return parse_import_file(m, j);

  const bool wants_state = m.type == MessageType::SetState;
  const bool wants_event = m.type == MessageType::Subscribe || m.type == MessageType::Unsubscribe;
  if (wants_state != j.contains("state")) return invalid(m, wants_state ? "setState needs 'state'" : "only setState takes 'state'");
  if (wants_event != j.contains("event")) return invalid(m, wants_event ? "'" + type + "' needs 'event'" : "only subscribe and unsubscribe take 'event'");
  if (wants_state) {
    if (!j["state"].is_object()) return invalid(m, "'state' must be an object");
    m.state_json = json_text(j["state"]);
  }
  if (wants_event) {
    const json& e = j["event"];
    if (e != "cursor" && e != "state") return invalid(m, "'event' must be \"cursor\" or \"state\"");
    m.event = e.get<std::string>();
  }
  return m;
}

Message parse_message(const std::string& text) {
  return parse_message(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

std::string message_to_json(const Message& m) {
  json id, state;
  (void)parse_json(m.id_json, 0, msg::app_message_not_json, id);  // written by parse_message: a number or a string
  json j = {{"type", type_name(m.type)}, {"id", id}};
  if (m.type == MessageType::Invalid) j["error"] = m.error;
  if (m.type == MessageType::SetState && parse_json(m.state_json, kMaxStateDepth, msg::app_message_not_json, state).ok)
    j["state"] = state;
  if (!m.event.empty()) j["event"] = m.event;
  if (m.type == MessageType::ImportFile) {
    j["name"] = m.file_name;
    j["bytes"] = m.file_bytes;
    j["batch"] = m.batch;
    j["bfloat16"] = m.bfloat16;
  }
  return json_text(j);
}

}  // namespace attn
