// Fuzz target: the state's one door, apply_state_json (the page's setState, the desktop's
// --state file, a link's fragment, a stored session and postMessage all pass through it).
//
// Any bytes: a refusal has a message and changes nothing; an accepted patch is computed
// (update_results), and the state it then writes must be accepted again and give the
// same state back (what the lab writes, it reads).
#include "app/app_state.h"
#include "fuzz_check.h"
#include "fuzz_state.h"

#include <cstddef>
#include <cstdint>
#include <string>

ATTNLAB_FUZZ_TARGET(state_json) {
  const attn::AppState& base = computed_default();
  const std::string before = attn::state_to_json(base);
  attn::AppState state = base;
  const attn::Status st = attn::apply_state_json(state, std::string(reinterpret_cast<const char*>(data), size));
  if (!st.ok) {
    FUZZ_CHECK(!st.message.empty());
    FUZZ_CHECK(attn::state_to_json(state) == before);
    return 0;
  }
  attn::update_results(state);
  const std::string written = attn::state_to_json(state);

  attn::AppState again = base;
  const attn::Status st2 = attn::apply_state_json(again, written);
  if (!st2.ok) std::fprintf(stderr, "refused its own state: %s\n", st2.message.c_str());
  FUZZ_CHECK(st2.ok);
  attn::update_results(again);
  FUZZ_CHECK(attn::state_to_json(again) == written);
  return 0;
}
