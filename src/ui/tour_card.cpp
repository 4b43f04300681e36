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

void draw_tour_card(AppState& state, UiContext& ctx, const float panel[4], bool navigation) {
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

  // The card: at the panel's lower right, or left where it would cover less of the element
  // (the card's size is the last frame's).
  static float size[2] = {0.0f, 0.0f};
  std::vector<std::array<float, 4>> avoid;
  if (out.highlight_box[2] > 0) avoid.push_back({out.highlight_box[0], out.highlight_box[1], out.highlight_box[2], out.highlight_box[3]});
  begin_corner_card("##tour", panel, kTourYellow, ctx.dpi_scale, 0.96f, corner_card_left(panel, size, avoid));
  record_window_begin();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled(tr(S::tour_step_of), step, kTourSteps);
  wrapped_text(out.title);
  ImGui::Separator();
  wrapped_text(out.text);
  // A step of the language model's scene on a page that cannot fetch the model says so.
  if (state.lm_unavailable && std::string_view(s.patch).find(R"("source": "language")") != std::string_view::npos)
    hint_text(tr(S::lm_unavailable));
  ImGui::PopTextWrapPos();
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
    ImGui::SameLine();
    if (step < kTourSteps) {
      if (ImGui::Button(tr(S::tour_next))) next = step + 1;
      record(out.next_box);
      ImGui::SameLine();
    }
    if (ImGui::Button(tr(S::tour_end))) next = 0;
    ImGui::PushTextWrapPos(0.0f);
    hint_text(tr(S::tour_keys));
    ImGui::PopTextWrapPos();
  }
  record_window_end();
  end_corner_card(out.box);
  size[0] = out.box[2], size[1] = out.box[3];
  step = next;
}

}  // namespace attn::ui
