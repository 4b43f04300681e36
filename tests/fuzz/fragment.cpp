// Fuzz target: a link's fragment into the state (app/url_state.h's load_fragment), the door
// a course page's link opens: percent-decoding, strict UTF-8, each value's nesting and
// JSON, the path walk, then the state's own door (apply_state_json).
//
// Any bytes: a refused link leaves the default settings and a notice saying why; either way
// the state is computed and written as valid JSON, and the link it then writes reads back to
// the same settings (what the lab writes into the address bar, it opens).
#include "app/app_state.h"
#include "app/url_state.h"
#include "fuzz_check.h"
#include "fuzz_state.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

ATTNLAB_FUZZ_TARGET(fragment) {
  const std::string fragment(reinterpret_cast<const char*>(data), size);
  attn::AppState state = computed_default();
  const attn::Status st = attn::load_fragment(state, fragment);
  if (!st.ok) {
    FUZZ_CHECK(!st.message.empty() && !state.notice.ok);
    FUZZ_CHECK(attn::settings_to_json(state.settings) == attn::settings_to_json(attn::Settings{}));
  }
  attn::update_results(state);
  FUZZ_CHECK(nlohmann::json::parse(attn::state_to_json(state), nullptr, false).is_object());

  const std::string link = attn::settings_to_fragment(state.settings);
  attn::AppState again;
  const attn::Status st2 = attn::load_fragment(again, link);
  if (!st2.ok) std::fprintf(stderr, "refused its own link %s: %s\n", link.c_str(), st2.message.c_str());
  FUZZ_CHECK(st2.ok);
  FUZZ_CHECK(attn::settings_to_json(again.settings) == attn::settings_to_json(state.settings));
  return 0;
}
