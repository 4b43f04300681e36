#include "ui/key_bindings.h"

#include "files/json_text.h"

#include <nlohmann/json.hpp>

namespace attn::ui {

std::string keys_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const KeyActionInfo& a : kKeyActions) {
    nlohmann::json keys = nlohmann::json::array(), page_keys = nlohmann::json::array();
    bool page = true;
    for (const KeyBinding& b : kKeyBindings) {
      if (b.action != a.action) continue;
      keys.push_back(b.legend ? b.legend : tr(b.legend_text));
      if (b.page_key) page_keys.push_back(b.page_key);
      page = page && b.when == KeyWhen::Page;
    }
    out.push_back({{"action", a.name}, {"text", tr(a.text)}, {"keys", keys}, {"page", page}, {"pageKeys", page_keys}});
  }
  return json_text(out);
}

}  // namespace attn::ui
