#include "app/messages.h"

#include <nlohmann/json.hpp>

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
  }
  return "invalid";
}

}  // namespace

Message parse_message(const std::uint8_t* data, std::size_t size) {
  Message m;
  m.id_json = "null";
  if (size > kMaxMessageBytes) return m;  // too big to be ours; not parsed at all
  const json j = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("attnlab")) return m;
  if (j.contains("id")) {
    const json& id = j["id"];
    const bool ok_id = id.is_number_integer() || (id.is_string() && id.get_ref<const std::string&>().size() <= 64);
    if (!ok_id) return invalid(m, "'id' must be an integer or a string of at most 64 characters");
    m.id_json = id.dump();
  }
  if (j["attnlab"] != kMessageVersion)
    return invalid(m, "'attnlab' must be " + std::to_string(kMessageVersion) + " (the message schema version)");
  for (const auto& item : j.items()) {
    const std::string& k = item.key();
    if (k != "attnlab" && k != "id" && k != "type" && k != "state" && k != "event")
      return invalid(m, "unknown key '" + k.substr(0, 40) + "' in the message");  // keys are UTF-8; dump() replaces a cut character
  }
  if (!j.contains("type") || !j["type"].is_string()) return invalid(m, "'type' must be a string");
  const std::string type = j["type"].get<std::string>();
  if (type == "getState") m.type = MessageType::GetState;
  else if (type == "setState") m.type = MessageType::SetState;
  else if (type == "subscribe") m.type = MessageType::Subscribe;
  else if (type == "unsubscribe") m.type = MessageType::Unsubscribe;
  else return invalid(m, "'type' must be getState, setState, subscribe or unsubscribe");

  const bool wants_state = m.type == MessageType::SetState;
  const bool wants_event = m.type == MessageType::Subscribe || m.type == MessageType::Unsubscribe;
  if (wants_state != j.contains("state")) return invalid(m, wants_state ? "setState needs 'state'" : "only setState takes 'state'");
  if (wants_event != j.contains("event")) return invalid(m, wants_event ? "'" + type + "' needs 'event'" : "only subscribe and unsubscribe take 'event'");
  if (wants_state) {
    if (!j["state"].is_object()) return invalid(m, "'state' must be an object");
    m.state_json = j["state"].dump();
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
  json j = {{"type", type_name(m.type)}, {"id", json::parse(m.id_json, nullptr, false)}};
  if (m.type == MessageType::Invalid) j["error"] = m.error;
  if (m.type == MessageType::SetState) j["state"] = json::parse(m.state_json, nullptr, false);
  if (!m.event.empty()) j["event"] = m.event;
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace attn
