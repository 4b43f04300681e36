// The embed's postMessage protocol, version 1: what a host page may ask an embedded lab.
//
// Host -> embed (one JSON object; `id` is echoed in the reply, a number or a string):
//   {"attnlab": 1, "id": 7, "type": "getState"}
//   {"attnlab": 1, "id": 8, "type": "setState", "state": {...a settings patch...}}
//   {"attnlab": 1, "id": 9, "type": "subscribe",   "event": "cursor" | "state"}
//   {"attnlab": 1, "id": 10, "type": "unsubscribe", "event": "cursor" | "state"}
//   {"attnlab": 1, "id": 11, "type": "importFile", "name": "attn.npz", "bytes": <the file>,
//    "batch": 0, "bfloat16": false}     (batch and bfloat16 optional, as the page's import bar)
//     an attention file (.npy, .npz or JSON: docs/IMPORT.md) for the same import as a dropped
//     file. The bytes travel beside the JSON (an ArrayBuffer or typed array, posted by
//     structured clone: a file may be far larger than a JSON message); the page passes this
//     parser the message with `bytes` replaced by their count, which must be within the
//     import's file cap. The reply comes when the file is shown, or with the import's refusal.
// Embed -> host:
//   {"attnlab": 1, "type": "reply", "id": 8, "ok": true, "state": {...}}
//   {"attnlab": 1, "type": "reply", "id": 8, "ok": false, "error": "..."}
//   {"attnlab": 1, "type": "event", "event": "cursor", "cursor": 3, "token": "sat"}
//   {"attnlab": 1, "type": "event", "event": "height", "height": 480}   (to the parent)
//   {"attnlab": 1, "type": "event", "event": "ready"}                   (to the parent)
//
// This file only parses and validates (the state patch itself is validated later by
// apply_state_json). parse_message() takes raw bytes, so a fuzzer can call it directly;
// it never throws and never reads past `size`. The bytes must be UTF-8 and nest at most
// kMaxMessageDepth levels (files/json_text.h) in at most kMaxMessageBytes; text that fails
// any of these, or is no JSON, is ignored unless it names "attnlab", in which case it is
// Invalid with the reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace attn {

inline constexpr int kMessageVersion = 1;
inline constexpr std::size_t kMaxMessageBytes = (1 << 20) + 4096;
// Levels of arrays and objects in a message: a setState's patch may nest as deep as a state
// (kMaxStateDepth in app/app_state.h), one level below the message itself.
inline constexpr int kMaxMessageDepth = 17;

enum class MessageType { NotOurs, Invalid, GetState, SetState, Subscribe, Unsubscribe, ImportFile };

struct Message {
  MessageType type = MessageType::NotOurs;
  std::string error;       // why an Invalid message was refused
  std::string id_json;     // the id as JSON text ("null" when absent), echoed in replies
  std::string state_json;  // setState: the patch (a JSON object's text)
  std::string event;       // subscribe / unsubscribe: "cursor" or "state"
  // importFile: the file's name (1-255 bytes), its size in bytes (<= kImportMaxFileBytes),
  // the batch entry to show and whether uint16 data is bfloat16.
  std::string file_name;
  std::int64_t file_bytes = 0;
  int batch = 0;
  bool bfloat16 = false;
};

// NotOurs: not an object with an "attnlab" key (other scripts' messages; ignore quietly).
// Invalid: ours but malformed; `error` says why (reply with it if the id is known).
Message parse_message(const std::uint8_t* data, std::size_t size);
Message parse_message(const std::string& text);

// The parsed message as JSON text (for the page): {"type", "id", "state", "event", "error",
// and for importFile "name", "bytes", "batch", "bfloat16"}.
std::string message_to_json(const Message& m);

}  // namespace attn
