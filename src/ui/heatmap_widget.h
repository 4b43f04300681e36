// One heatmap as an ImGui widget: reserves its space, queues the GL draw (our shader),
// draws token labels on both axes (thinned when cells are small), numbers in cells that
// fit them, a colour scale with its range, the cursor's row highlighted, and handles hover,
// click, and (when zoomable) wheel zoom and drag pan. The widget keeps what it makes from the
// matrix (texture, colour range, label widths) per id and makes it again only when the
// matrix's key changes (ui/heatmap_key.h); what is not drawn for two frames is freed.
#pragma once

#include "core/base/types.h"
#include "ui/ui_context.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attn::ui {

struct HeatmapSpec {
  std::string id;  // the widget's ImGui id and its cache's name; also the name tests use
  const Mat* values = nullptr;
  // The version of the results `values` belongs to, as its owner counts them
  // (AppState::revision, ModernResults::version, VariantResults::version, TrainRun::revision).
  std::uint64_t version = 0;
  // `values` is made by the panel each frame (a difference of two heads): it is keyed by its
  // contents, not by where it lives.
  bool made_in_frame = false;
  Colormap colormap = Colormap::Sequential;  // Sequential: range [0, 1]; Diverging: +-max|finite|
  const std::vector<std::string>* row_labels = nullptr;  // null: no labels
  const std::vector<std::string>* col_labels = nullptr;  // null: column numbers
  int highlight_row = -1;
  bool zoomable = false;
  bool show_scale = true;
  bool show_col_labels = true;  // false: no column label strip (thumbnails)
  // Sequential only: this range instead of the view's (a picture whose weights are all far
  // below 1, such as block means over thousands of keys, is drawn on the log scale).
  std::optional<WeightRange> weight_range;
};

struct HeatmapResult {
  bool hovered = false, clicked = false;
  int row = -1, col = -1;
};

HeatmapResult heatmap_widget(UiContext& ctx, const HeatmapSpec& spec, ImVec2 size);

// The height (label strip included) at which a heatmap `width` wide gets cells big enough for
// every row label and every upright column label; 0 when the width alone keeps the cells
// smaller (the labels are thinned at any height).
float heatmap_height_for_labels(UiContext& ctx, const HeatmapSpec& spec, float width, int rows, int cols);

// The ImDrawList callback that draws a queued heatmap (its user data is a HeatmapDraw).
void heatmap_callback(const ImDrawList* list, const ImDrawCmd* cmd);

// Called once a frame, after the draw data is rendered: frees what the heatmaps not drawn in
// this frame or the one before made (a panel left, a model cell scrolled away, a tooltip
// closed), so live GL objects follow what is on screen, not everything ever shown.
void end_heatmap_frame(UiContext& ctx);

// A heatmap under its title (wrapped to the heatmap's width), token labels on both axes.
HeatmapResult titled_heatmap(UiContext& ctx, const char* title, const std::string& id, const Mat& m,
                             std::uint64_t version, Colormap map, const std::vector<std::string>* labels, ImVec2 size,
                             bool show_scale = true, int highlight_row = -1);

// Frames drawn over heatmaps: pink around what is in focus (the cursor's row in a heatmap, the
// focused head's thumbnail in the model view); every such frame is at least 2 pixels wide,
// wider on dense screens.
constexpr ImU32 kFocusPink = IM_COL32(255, 64, 160, 255);
inline float highlight_frame_thickness(const UiContext& ctx) { return std::max(2.0f, ctx.dpi_scale * 2.0f); }

}  // namespace attn::ui
