#include "app/panel_registry.h"

namespace attn {

std::optional<Panel> panel_from_id(std::string_view id) {
  for (const PanelInfo& p : kPanels)
    if (id == p.id) return p.panel;
  return std::nullopt;
}

std::string panel_id_list(const char* separator) {
  std::string out;
  for (const PanelInfo& p : kPanels) {
    if (!out.empty()) out += separator;
    out += p.id;
  }
  return out;
}

bool panel_reads_key(Panel p, std::string_view key) {
  std::string_view keys = panel_info(p).state_keys;
  while (!keys.empty()) {
    const size_t space = keys.find(' ');
    const std::string_view k = keys.substr(0, space);
    if (k == key || (k.size() > key.size() && k.substr(0, key.size()) == key && k[key.size()] == '.')) return true;
    if (space == std::string_view::npos) break;
    keys.remove_prefix(space + 1);
  }
  return false;
}

bool panel_uses_scene_controls(Panel p) {
  for (const char* key : {"source", "sentence", "dModel", "heads", "positional", "seed", "scale", "temperature", "score", "mask", "maskFill", "compare"})
    if (panel_reads_key(p, key)) return true;
  return false;
}

}  // namespace attn
