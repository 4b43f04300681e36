// Why this cell (app/cell_why.h), under the pipeline panel's stages: the chosen cell's raw
// score as its largest terms q_c * k_c (bars) and the rest, then the scale, the mask and the
// softmax, and with RoPE the score without the rotation.
#include "ui/message_strings.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <cstdio>
#include <string>

namespace attn::ui {

bool cell_why_shown(const AppState& state) { return state.cell.shown || !state.cell.status.ok; }

void draw_cell_why(const AppState& state, UiContext& ctx, float width, float height) {
  const CellWhy& c = state.cell;
  if (!c.status.ok) {
    hint_text(status_text(c.status).c_str());
    return;
  }
  if (!c.shown || c.row >= static_cast<int>(state.tokens.size()) || c.col >= static_cast<int>(state.key_tokens.size())) return;
  const float font = ImGui::GetFontSize();
  char line[512];
  std::snprintf(line, sizeof line, tr(S::cell_why_title), state.tokens[static_cast<std::size_t>(c.row)].c_str(),
                state.key_tokens[static_cast<std::size_t>(c.col)].c_str(), c.head);
  ImGui::TextUnformatted(line);
  const float plot_w = std::min(width * 0.5f, font * 30.0f);
  std::vector<std::string> dims;
  std::vector<double> terms;
  for (const ScoreTerm& t : c.terms.top) {
    dims.push_back("d" + std::to_string(t.dim));
    terms.push_back(t.product);
  }
  if (c.terms.rest_count > 0) {
    std::snprintf(line, sizeof line, tr(S::cell_why_rest), c.terms.rest_count);
    dims.push_back(line);
    terms.push_back(c.terms.rest);
  }
  const PlotSpec p = category_bars("pipeline/cell-terms", tr(S::cell_why_dimension), tr(S::cell_why_term), std::move(dims), terms);
  plot_widget(ctx, p, ImVec2(plot_w, std::max(font * 7.0f, height - font * 1.6f)));
  ImGui::SameLine();
  ImGui::BeginGroup();
  const float text_w = width - plot_w - ImGui::GetStyle().ItemSpacing.x;
  std::snprintf(line, sizeof line, tr(S::cell_why_sum), static_cast<int>(c.terms.top.size()) + c.terms.rest_count,
                c.terms.sum, static_cast<double>(c.raw));
  wrapped_text(line, text_w);
  std::snprintf(line, sizeof line, tr(S::cell_why_scale), static_cast<double>(c.scale), static_cast<double>(c.scaled));
  wrapped_text(line, text_w);
  if (c.mask_add != 0.0f) {
    std::snprintf(line, sizeof line, tr(S::cell_why_mask), static_cast<double>(c.mask_add), static_cast<double>(c.masked));
    wrapped_text(line, text_w);
  }
  std::snprintf(line, sizeof line, tr(S::cell_why_weight), static_cast<double>(c.weight));
  wrapped_text(line, text_w);
  if (c.rope) {
    std::snprintf(line, sizeof line, tr(S::cell_why_rope), c.raw_unrotated, static_cast<double>(c.raw));
    wrapped_text(line, text_w);
  }
  hint_text(tr(S::cell_why_note));
  ImGui::EndGroup();
}

}  // namespace attn::ui
