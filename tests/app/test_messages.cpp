// The embed's postMessage protocol: valid messages parse, malformed ones are refused with
// a reason, other scripts' messages are left alone, and random or mutated bytes never
// crash the parser (a small in-test fuzz loop over the byte-buffer entry point).
#include "app/messages.h"
#include "core/io/import_attention.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <random>
#include <string>
#include <vector>

using attn::MessageType;

TEST_CASE("messages of schema version 1 parse", "[messages]") {
  attn::Message m = attn::parse_message(R"({"attnlab":1,"id":7,"type":"getState"})");
  REQUIRE(m.type == MessageType::GetState);
  REQUIRE(m.id_json == "7");
  m = attn::parse_message(R"({"attnlab":1,"id":"a","type":"setState","state":{"cursor":3}})");
  REQUIRE(m.type == MessageType::SetState);
  REQUIRE(m.id_json == "\"a\"");
  REQUIRE(m.state_json == R"({"cursor":3})");
  m = attn::parse_message(R"({"attnlab":1,"type":"subscribe","event":"cursor"})");
  REQUIRE(m.type == MessageType::Subscribe);
  REQUIRE(m.event == "cursor");
  REQUIRE(m.id_json == "null");
  REQUIRE(nlohmann::json::parse(attn::message_to_json(m)) ==
          nlohmann::json{{"type", "subscribe"}, {"id", nullptr}, {"event", "cursor"}});
}

TEST_CASE("other scripts' messages are not ours; malformed ones of ours say why", "[messages]") {
  for (const char* other : {"", "hello", "[1,2]", R"({"type":"setState"})", "null", "{\"attn\"", "\xC0\x80"})
    REQUIRE(attn::parse_message(std::string(other)).type == MessageType::NotOurs);
  const std::pair<const char*, const char*> bad[] = {
      {R"({"attnlab":2,"type":"getState"})", "'attnlab' must be 1"},
      {R"({"attnlab":1,"type":"drop"})", "'type' must be"},
      {R"({"attnlab":1,"type":"setState"})", "setState needs 'state'"},
      {R"({"attnlab":1,"type":"setState","state":[1]})", "'state' must be an object"},
      {R"({"attnlab":1,"type":"getState","state":{}})", "only setState takes 'state'"},
      {R"({"attnlab":1,"type":"subscribe","event":"keys"})", "'event' must be"},
      {R"({"attnlab":1,"type":"getState","extra":1})", "unknown key 'extra'"},
      {R"({"attnlab":1,"id":{"x":1},"type":"getState"})", "'id' must be"},
  };
  for (const auto& [text, why] : bad) {
    INFO(text);
    const attn::Message m = attn::parse_message(std::string(text));
    REQUIRE(m.type == MessageType::Invalid);
    REQUIRE(m.error.find(why) != std::string::npos);
  }
}

TEST_CASE("a message naming attnlab that fails the gate is answered with the reason", "[messages]") {
  // Text a host's JSON.stringify makes from a lone surrogate ("\ud800" stays escaped), raw
  // ill-formed UTF-8, nesting past the message's depth, numbers JSON cannot hold, cut text.
  const std::pair<std::string, const char*> bad[] = {
      {R"({"attnlab":1,"id":1,"type":"setState","state":{"sentence":"\ud800"}})", "not valid JSON"},
      {R"({"attnlab":1,"id":1,"type":"setState","state":{"\udfff":1}})", "not valid JSON"},
      {"{\"attnlab\":1,\"type\":\"setState\",\"state\":{\"sentence\":\"\xED\xA0\x80\"}}", "not UTF-8 (byte 52)"},
      {"{\"attnlab\":1,\"type\":\"setState\",\"state\":{\"sentence\":\"\xC0\x80\"}}", "not UTF-8"},
      {R"({"attnlab":1,"type":"setState","state":{"lab":{"q":)" + std::string(5000, '[') + "}}}", "nests more than 17 levels"},
      {R"({"attnlab":1,"type":"setState","state":{"temperature":1e999}})", "not valid JSON"},
      {"{\"attnlab\"", "not valid JSON"},
      {R"({"attnlab":1,"type":"setState","state":{"sentence":")" + std::string(2 << 20, 'x') + "\"}}",
       "bytes; at most 1052672 are read"},
  };
  for (const auto& [text, why] : bad) {
    INFO(text.substr(0, 120));
    const attn::Message m = attn::parse_message(text);
    REQUIRE(m.type == MessageType::Invalid);
    REQUIRE(m.error.find(why) != std::string::npos);
    REQUIRE(nlohmann::json::parse(attn::message_to_json(m))["type"] == "invalid");
  }
  // A patch as deep as a state may be passes the message's gate (the state's own gate is next).
  std::string deep = "{\"attnlab\":1,\"type\":\"setState\",\"state\":";
  for (int i = 0; i < 16; ++i) deep += "{\"a\":";
  deep += "1" + std::string(16, '}') + "}";
  REQUIRE(attn::parse_message(deep).type == MessageType::SetState);
}

TEST_CASE("importFile carries a file's name, size, batch and bfloat16 flag; bad ones say why", "[messages]") {
  attn::Message m = attn::parse_message(R"({"attnlab":1,"id":3,"type":"importFile","name":"attn.npz","bytes":1234})");
  REQUIRE(m.type == MessageType::ImportFile);
  REQUIRE(m.file_name == "attn.npz");
  REQUIRE(m.file_bytes == 1234);
  REQUIRE(m.batch == 0);
  REQUIRE_FALSE(m.bfloat16);
  m = attn::parse_message(R"({"attnlab":1,"type":"importFile","name":"x.npy","bytes":0,"batch":2,"bfloat16":true})");
  REQUIRE(m.type == MessageType::ImportFile);
  REQUIRE(m.batch == 2);
  REQUIRE(m.bfloat16);
  REQUIRE(nlohmann::json::parse(attn::message_to_json(m)) ==
          nlohmann::json{{"type", "importFile"}, {"id", nullptr}, {"name", "x.npy"}, {"bytes", 0}, {"batch", 2}, {"bfloat16", true}});
  // The largest file the import takes, and one byte more.
  const std::string at_cap = std::to_string(attn::kImportMaxFileBytes);
  const std::string over_cap = std::to_string(attn::kImportMaxFileBytes + 1);
  REQUIRE(attn::parse_message(R"({"attnlab":1,"type":"importFile","name":"a","bytes":)" + at_cap + "}").type == MessageType::ImportFile);
  const std::pair<std::string, const char*> bad[] = {
      {R"({"attnlab":1,"type":"importFile","bytes":10})", "importFile needs 'name'"},
      {R"({"attnlab":1,"type":"importFile","name":"","bytes":10})", "'name' must be 1 to 255 bytes"},
      {R"({"attnlab":1,"type":"importFile","name":"a.npz"})", "importFile needs 'bytes'"},
      {R"({"attnlab":1,"type":"importFile","name":"a.npz","bytes":"AAAA"})", "'bytes' must be the file's contents"},
      {R"({"attnlab":1,"type":"importFile","name":"a.npz","bytes":-1})", "'bytes' must be the file's contents"},
      {R"({"attnlab":1,"type":"importFile","name":"a","bytes":)" + over_cap + "}", "larger than the import's limit of 512 MiB"},
      {R"({"attnlab":1,"type":"importFile","name":"a","bytes":1,"batch":-1})", "'batch' must be a whole number"},
      {R"({"attnlab":1,"type":"importFile","name":"a","bytes":1,"bfloat16":1})", "'bfloat16' must be true or false"},
      {R"({"attnlab":1,"type":"importFile","name":"a","bytes":1,"state":{}})", "unknown key 'state'"},
      {R"({"attnlab":1,"type":"getState","name":"a"})", "unknown key 'name'"},
  };
  for (const auto& [text, why] : bad) {
    INFO(text);
    const attn::Message refused = attn::parse_message(text);
    REQUIRE(refused.type == MessageType::Invalid);
    REQUIRE(refused.error.find(why) != std::string::npos);
  }
}

TEST_CASE("random and mutated bytes never crash the message parser", "[messages]") {
  std::mt19937 rng(8);
  const std::string seeds[] = {R"({"attnlab":1,"id":7,"type":"setState","state":{"sentence":"猫追老鼠","mask":{"causal":true}}})",
                               R"({"attnlab":1,"id":"x","type":"subscribe","event":"cursor"})"};
  int parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = seeds[i % 2];
    const int edits = std::uniform_int_distribution<int>(1, 4)(rng);
    for (int e = 0; e < edits && !bytes.empty(); ++e) {
      const size_t at = std::uniform_int_distribution<size_t>(0, bytes.size() - 1)(rng);
      switch (rng() % 3) {
        case 0: bytes[at] = static_cast<char>(rng()); break;
        case 1: bytes.erase(at, 1); break;
        default: bytes.insert(at, 1, static_cast<char>(rng())); break;
      }
    }
    const attn::Message m = attn::parse_message(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    if (m.type != MessageType::NotOurs) ++parsed;
    REQUIRE_NOTHROW(attn::message_to_json(m));
  }
  REQUIRE(parsed > 1000);  // the mutations reached past the JSON parser
  REQUIRE(attn::parse_message(std::string(attn::kMaxMessageBytes + 1, ' ')).type == MessageType::NotOurs);
}
