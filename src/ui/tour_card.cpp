#include "ui/tour_card.h"

#include "app/tour.h"
#include "ui/drawn_text.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace attn::ui {
namespace {

constexpr ImU32 kTourYellow = IM_COL32(255, 200, 0, 255);

// The step's strings, by number (tour_title_1 ... tour_text_15 of ui/strings.h, a title and a
// text per step, in order).
static_assert(static_cast<int>(S::tour_text_15) == static_cast<int>(S::tour_title_1) + 2 * kTourSteps - 1,
              "ui/strings.h lists each tour step's title and text, step after step");
S title_of(int step) { return static_cast<S>(static_cast<int>(S::tour_title_1) + 2 * (step - 1)); }
S text_of(int step) { return static_cast<S>(static_cast<int>(S::tour_text_1) + 2 * (step - 1)); }

// Where the element the step speaks of was drawn this frame (a heatmap, else a plot).
bool element_box(const UiContext& ctx, const std::string& id, float box[4]) {
  if (auto h = ctx.placements.find(id); h != ctx.placements.end()) {
    box[0] = h->second.x, box[1] = h->second.y, box[2] = h->second.w, box[3] = h->second.h;
    return true;
  }
  if (auto p = ctx.plots.find(id); p != ctx.plots.end()) {
    box[0] = p->second.x, box[1] = p->second.y, box[2] = p->second.w, box[3] = p->second.h;
    return true;
  }
  return false;
}

}  // namespace

void draw_tour_card(AppState& state, UiContext& ctx, const float column[4], bool navigation) {
  TourLayout& out = ctx.tour;
  out = TourLayout();
  int& step = state.settings.tour;
  if (step < 1 || step > kTourSteps) return;
  const TourStep& s = tour_step(step);
  const float font = ImGui::GetFontSize();
  out.step = step;
  out.panel = s.panel;
  out.title = tr(title_of(step));
  out.text = tr(text_of(step));
  out.highlight = s.highlight;

  // The frame around the element spoken of, over everything.
  if (*s.highlight && element_box(ctx, s.highlight, out.highlight_box)) {
    const float* b = out.highlight_box;
    const float pad = std::max(3.0f, font * 0.25f), thick = std::max(2.0f, ctx.dpi_scale * 2.5f);
    ImGui::GetForegroundDrawList()->AddRect(ImVec2(b[0] - pad, b[1] - pad), ImVec2(b[0] + b[2] + pad, b[1] + b[3] + pad),
                                            kTourYellow, font * 0.3f, 0, thick);
  }

  // The card: in the column beside the panel, so it covers nothing the step speaks of.
  begin_side_card("##tour", column, kTourYellow, ctx.dpi_scale);
  record_window_begin();
  ImGui::TextDisabled(tr(S::tour_step_of), step, kTourSteps);
  wrapped_text(out.title);
  ImGui::Separator();
  wrapped_text(out.text);
  // A step of the language model's scene on a page that cannot fetch the model says so.
  if (state.lm_unavailable && std::string_view(s.patch).find(R"("source": "language")") != std::string_view::npos)
    hint_text(tr(S::lm_unavailable));
  int next = step;
  if (navigation) {
    ImGui::Spacing();
    // Where a button was drawn (for layout()).
    auto record = [](float box[4]) {
      const ImVec2 min = ImGui::GetItemRectMin(), size = ImGui::GetItemRectSize();
      box[0] = min.x, box[1] = min.y, box[2] = size.x, box[3] = size.y;
    };
    ImGui::BeginDisabled(step == 1);
    if (ImGui::Button(tr(S::tour_back))) next = step - 1;
    record(out.back_box);
    ImGui::EndDisabled();
    if (step < kTourSteps) {
      flow_button(tr(S::tour_next));
      if (ImGui::Button(tr(S::tour_next))) next = step + 1;
      record(out.next_box);
    }
    flow_button(tr(S::tour_end));
    if (ImGui::Button(tr(S::tour_end))) next = 0;
    hint_text(tr(S::tour_keys));
  }
  record_window_end();
  end_side_card(out.box);
  step = next;
}

}  // namespace attn::ui
