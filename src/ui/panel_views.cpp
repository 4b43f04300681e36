#include "ui/panel_views.h"

#include "files/json_text.h"
#include "ui/panels.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace attn::ui {
namespace {

constexpr PanelView kPanelViews[] = {
#define ATTNLAB_PANEL_VIEW(name, id, chapter, title, draw, keys, flags) {Panel::name, S::title, draw},
    ATTNLAB_PANELS(ATTNLAB_PANEL_VIEW)
#undef ATTNLAB_PANEL_VIEW
};
static_assert(std::size(kPanelViews) == kPanels.size());

}  // namespace

const PanelView* panel_views_begin() { return kPanelViews; }
const PanelView* panel_views_end() { return kPanelViews + std::size(kPanelViews); }

std::string panels_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const PanelInfo& p : kPanels) {
    std::vector<std::string> keys;
    std::istringstream words(p.state_keys);
    for (std::string k; words >> k;) keys.push_back(k);
    out.push_back({{"id", p.id},
                   {"chapter", chapter_id(p.chapter)},
                   {"title", tr(panel_view(p.panel).title)},
                   {"stateKeys", keys},
                   {"heatmaps", p.has(kPanelHeatmaps)},
                   {"scalingLab", p.has(kPanelScalingLab)},
                   {"needsScores", p.has(kPanelNeedsScores)},
                   {"trainingRuns", p.has(kPanelTrainingRuns)}});
  }
  return json_text(out);
}

}  // namespace attn::ui
