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

const char* chapter_id(Chapter c) {
  switch (c) {
    case Chapter::Similarity: return "similarity";
    case Chapter::Scaling: return "scaling";
    case Chapter::Softmax: return "softmax";
    case Chapter::WeightedValues: return "weighted-values";
    case Chapter::Order: return "order";
    case Chapter::Masks: return "masks";
    case Chapter::MultiHead: return "multi-head";
    case Chapter::Variants: return "variants";
    case Chapter::Training: return "training";
    case Chapter::YourModel: return "your-model";
  }
  return "similarity";
}

}  // namespace attn
