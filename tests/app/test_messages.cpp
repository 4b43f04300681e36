// The embed's postMessage protocol: valid messages parse, malformed ones are refused with
// a reason, other scripts' messages are left alone, and random or mutated bytes never
// crash the parser (a small in-test fuzz loop over the byte-buffer entry point).
#include "app/messages.h"

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
  for (const char* other : {"", "hello", "[1,2]", R"({"type":"setState"})", "null", "{\"attnlab\""})
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
