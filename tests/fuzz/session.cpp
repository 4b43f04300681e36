// Fuzz target: a stored session into the state (app/url_state.h's load_settings_json), the
// door the page opens at start-up from its local storage and the "Load session" button.
// A session that stops the lab would stop it at every visit, so it must never crash.
//
// Any bytes: a refusal says why and changes nothing; a session that is taken is computed,
// and the session the lab then stores reads back to the same settings.
#include "app/app_state.h"
#include "app/url_state.h"
#include "fuzz_check.h"
#include "fuzz_state.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

ATTNLAB_FUZZ_TARGET(session) {
  attn::AppState state = computed_default();
  state.settings.heads = 2;  // not the default: a refusal must keep it
  const std::string before = attn::settings_to_json(state.settings);
  const attn::Status st = attn::load_settings_json(state, std::string(reinterpret_cast<const char*>(data), size));
  if (!st.ok) {
    FUZZ_CHECK(!st.message.empty());
    FUZZ_CHECK(attn::settings_to_json(state.settings) == before);
    return 0;
  }
  attn::update_results(state);
  FUZZ_CHECK(nlohmann::json::parse(attn::state_to_json(state), nullptr, false).is_object());
  const std::string stored = attn::settings_to_json(state.settings);
  attn::AppState again;
  const attn::Status st2 = attn::load_settings_json(again, stored);
  if (!st2.ok) std::fprintf(stderr, "refused its own session: %s\n", st2.message.c_str());
  FUZZ_CHECK(st2.ok);
  attn::update_results(again);
  FUZZ_CHECK(attn::settings_to_json(again.settings) == stored);
  return 0;
}
