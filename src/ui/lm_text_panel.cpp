// "Train on your text" (app/lm_text_run.h): the text the page checked, the run's progress,
// its loss and held-out bits against the text's bigram line, each head's label as heads form,
// and a sample. The controls (the text box, the file, the size, Train, Pause, Stop, Save) are
// the page's own (web/lm-text-ui.mjs, above the lab); this panel draws what the page reported.
//
// Sections: 1 words  2 the plot  3 heads and sample  4 the panel
#include "ui/message_strings.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace attn::ui {
namespace {

// ---- 1 words ------------------------------------------------------------------------------

std::string duration_text(double seconds) {
  const int s = static_cast<int>(std::lround(std::max(0.0, seconds)));
  char out[64];
  if (s >= 60) std::snprintf(out, sizeof out, tr(S::lm_text_min_sec), s / 60, s % 60);
  else std::snprintf(out, sizeof out, tr(S::lm_text_sec), s);
  return out;
}

void summary_lines(const LmTextRun& r) {
  const lm::TextSummary& t = r.summary;
  char line[768];
  std::snprintf(line, sizeof line, tr(S::lm_text_summary), r.name.empty() ? tr(S::lm_text_pasted) : r.name.c_str(),
                t.split.characters, t.bytes, t.distinct, t.vocabulary - lm::kSpecialTokens, t.rare,
                t.split.train_characters, t.split.held_out_characters);
  wrapped_text(line);
  std::snprintf(line, sizeof line, tr(S::lm_text_bigram_line), t.bigram_bits);
  wrapped_text(line);
}

void progress_lines(const LmTextRun& r) {
  char line[256];
  switch (r.phase) {
    case LmTextPhase::Training:
      std::snprintf(line, sizeof line, tr(S::lm_text_training), r.preset.c_str());
      break;
    case LmTextPhase::Paused: std::snprintf(line, sizeof line, tr(S::lm_text_paused), r.step); break;
    case LmTextPhase::Stopped: std::snprintf(line, sizeof line, tr(S::lm_text_stopped), r.step, r.steps); break;
    case LmTextPhase::Done:
      std::snprintf(line, sizeof line, tr(S::lm_text_done), r.steps, duration_text(r.seconds).c_str());
      break;
    default: return;
  }
  wrapped_text(line);
  char overlay[256];
  int used = std::snprintf(overlay, sizeof overlay, tr(S::lm_text_progress), r.step, r.steps);
  if (r.phase == LmTextPhase::Training && r.step > 0 && r.characters_per_second > 0) {
    const double left = r.seconds / r.step * (r.steps - r.step);
    used += std::snprintf(overlay + used, sizeof overlay - static_cast<std::size_t>(used), " · ");
    std::snprintf(overlay + used, sizeof overlay - static_cast<std::size_t>(used), tr(S::lm_text_speed),
                  r.characters_per_second, duration_text(left).c_str());
  }
  ImGui::ProgressBar(r.steps > 0 ? static_cast<float>(r.step) / static_cast<float>(r.steps) : 0.0f,
                     ImVec2(-1.0f, 0.0f), overlay);
  if (r.held_out_final > 0) {
    std::snprintf(line, sizeof line, tr(S::lm_text_result), r.held_out_final, r.summary.bigram_bits);
    wrapped_text(line);
    const bool beats = r.held_out_final < r.summary.bigram_bits;
    ImGui::TextColored(beats ? ImVec4(0.45f, 0.8f, 0.45f, 1.0f) : ImVec4(1.0f, 0.7f, 0.35f, 1.0f), "%s",
                       tr(beats ? S::lm_text_beats : S::lm_text_not_yet));
  }
  if (r.model_loaded) hint_text(tr(S::lm_text_loaded));
}

// ---- 2 the plot ---------------------------------------------------------------------------

void curve_plot(UiContext& ctx, const LmTextRun& r, float width, float height) {
  PlotSpec p;
  p.id = "lm-text/curve";
  p.x_title = tr(S::lm_text_plot_x);
  p.y_title = tr(S::lm_text_plot_y);
  // The whole run's steps from the start; bits from 0 to a little above the untrained model's
  // (every character equally likely: log2 of the vocabulary) or the highest point.
  p.x_range[0] = 0;
  p.x_range[1] = std::max(1, r.steps);
  double top = std::log2(std::max(2, r.summary.vocabulary));
  for (double b : r.train_bits) top = std::max(top, b);
  for (double b : r.held_bits) top = std::max(top, b);
  p.y_range[0] = 0;
  p.y_range[1] = std::ceil(top + 0.25);
  PlotSeries train;
  train.label = tr(S::lm_text_train_series);
  train.x = r.train_steps;
  train.y = r.train_bits;
  train.color = IM_COL32(86, 180, 233, 255);
  PlotSeries held;
  held.label = tr(S::lm_text_held_series);
  held.x = r.held_steps;
  held.y = r.held_bits;
  held.points = true;
  held.color = IM_COL32(230, 159, 0, 255);
  p.series.push_back(std::move(train));
  p.series.push_back(std::move(held));
  char label[128];
  std::snprintf(label, sizeof label, "%s %.2f", tr(S::lm_text_bigram_series), r.summary.bigram_bits);
  p.references.push_back(PlotReference{false, r.summary.bigram_bits, label});
  plot_widget(ctx, p, ImVec2(width, height));
}

// ---- 3 heads and sample --------------------------------------------------------------------

void heads_table(const LmTextRun& r, int context) {
  if (r.heads.empty()) return;
  char title[256];
  std::snprintf(title, sizeof title, tr(S::lm_text_heads_title), r.heads_step, context - 1);
  wrapped_text(title);
  hint_text(tr(r.heads_step == 0 ? S::lm_text_heads_random : S::lm_text_heads_note));
  if (!begin_fitted_table("lm-text/heads", 3, static_cast<int>(r.heads.size()))) return;
  ImGui::TableSetupColumn(tr(S::lm_text_head));
  ImGui::TableSetupColumn(tr(S::lm_text_label));
  ImGui::TableSetupColumn(tr(S::lm_text_previous));
  ImGui::TableHeadersRow();
  for (const LmTextHead& h : r.heads) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d.%d", h.layer, h.head);
    ImGui::TableNextColumn();
    if (h.label == lm::HeadKind::Mixed) ImGui::TextDisabled("%s", lm_kind_label(h.label));
    else ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s %.2f", lm_kind_label(h.label), h.score);
    ImGui::TableNextColumn();
    const float font = ImGui::GetFontSize();
    char value[32];
    std::snprintf(value, sizeof value, "%.2f", h.previous);
    ImGui::ProgressBar(std::clamp(h.previous, 0.0f, 1.0f), ImVec2(font * 6.0f, 0.0f), value);
  }
  ImGui::EndTable();
}

void sample_lines(const LmTextRun& r) {
  if (r.sample.empty()) return;
  char title[256];
  std::snprintf(title, sizeof title, tr(S::lm_text_sample_title), r.heads_step);
  ImGui::Spacing();
  wrapped_text(title);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  wrapped_text(r.sample_prompt);
  ImGui::PopStyleColor();
  wrapped_text(r.sample);
}

}  // namespace

// ---- 4 the panel ---------------------------------------------------------------------------

void draw_lm_text_panel(AppState& state, UiContext& ctx) {
  const LmTextRun& r = state.lm_text;
  const float font = ImGui::GetFontSize();
  wrapped_text(tr(S::lm_text_intro));
  if (!r.available) {
    hint_text(tr(S::lm_text_unavailable));
    return;
  }
  if (!r.error.ok) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", status_text(r.error).c_str());
  if (r.phase == LmTextPhase::Empty) {
    hint_text(tr(S::lm_text_empty));
    return;
  }
  summary_lines(r);
  if (r.phase == LmTextPhase::Ready) {
    hint_text(tr(S::lm_text_ready));
    return;
  }
  progress_lines(r);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool stacked = avail.x < font * 44.0f;
  const float left_w = stacked ? avail.x : avail.x * 0.55f;
  begin_wrapped_child("lm-text/left", ImVec2(left_w, stacked ? font * 20.0f : 0.0f));
  const float inner = ImGui::GetContentRegionAvail().x;
  wrapped_text(tr(S::lm_text_plot_note), inner);
  curve_plot(ctx, r, inner, std::max(font * 12.0f, ImGui::GetContentRegionAvail().y - font * 0.5f));
  end_wrapped_child();
  if (!stacked) ImGui::SameLine();
  begin_wrapped_child("lm-text/right", ImVec2(0, stacked ? std::max(font * 16.0f, ImGui::GetContentRegionAvail().y) : 0.0f));
  const lm::TextPreset* preset = lm::find_text_preset(r.preset);
  heads_table(r, preset ? preset->context : 0);
  sample_lines(r);
  end_wrapped_child();
}

}  // namespace attn::ui
