// The language-model scene's panel (app/lm_state.h): the model and its next-character
// prediction, token-by-token generation, the switches that break the math with what they
// cost in held-out bits, each head's label on the text, and the heads ranked by ablation.
//
// Sections: 1 prediction  2 generation  3 break the math  4 heads  5 the panel
#include "core/base/utf8.h"
#include "ui/exercise_card.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace attn::ui {

const char* lm_kind_label(lm::HeadKind k) {
  switch (k) {
    case lm::HeadKind::Previous: return tr(S::lm_kind_previous);
    case lm::HeadKind::First: return tr(S::lm_kind_first);
    case lm::HeadKind::Self: return tr(S::lm_kind_self);
    case lm::HeadKind::WordStart: return tr(S::lm_kind_word);
    case lm::HeadKind::PreviousLine: return tr(S::lm_kind_line);
    case lm::HeadKind::Punctuation: return tr(S::lm_kind_punctuation);
    case lm::HeadKind::Mixed: break;
  }
  return tr(S::lm_kind_mixed);
}

namespace {

// A section's title: a rule and the title under it.
void section_title(const char* title) {
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextUnformatted(title);
}

// ---- 1 prediction ------------------------------------------------------------------------

// Probabilities of the 10 most probable next tokens as bars over their characters.
void top_bars(UiContext& ctx, const char* id, const lm::Vocabulary& v, const std::vector<std::pair<int, float>>& top,
              float width) {
  PlotSpec p;
  p.id = id;
  p.x_title = tr(S::lm_next);
  p.y_title = tr(S::lm_probability);
  p.include_zero_y = true;
  PlotSeries bars;
  bars.bars = true;
  bars.color = IM_COL32(86, 180, 233, 255);
  for (std::size_t i = 0; i < top.size(); ++i) {
    p.x_categories.push_back(lm_token_label(v, top[i].first));
    bars.x.push_back(static_cast<double>(i));
    bars.y.push_back(top[i].second);
  }
  p.series.push_back(std::move(bars));
  plot_widget(ctx, p, ImVec2(width, ImGui::GetFontSize() * 9.0f));
}

// ---- 2 generation ------------------------------------------------------------------------

void generation_section(AppState& state, UiContext& ctx, float width) {
  LmSettings& l = state.settings.lm;
  const lm::LanguageModel& m = state.lm_scene->model;
  section_title(tr(S::lm_generate_title));
  wrapped_text(tr(S::lm_generate_note), width);
  ImGui::PushItemWidth(ImGui::GetFontSize() * 9.0f);
  ImGui::SliderInt(fitted(tr(S::lm_tokens)), &l.tokens, 1, kMaxLmTokens);
  ImGui::SliderFloat(fitted(tr(S::lm_sample_temperature)), &l.temperature, 0.0f, 2.0f, "%.2f");
  ImGui::SliderInt(fitted(tr(S::lm_top_k)), &l.top_k, 0, 50);
  int seed = static_cast<int>(l.seed & 0x7fffffff);
  if (ImGui::InputInt(fitted(tr(S::seed)), &seed)) l.seed = static_cast<std::uint64_t>(std::max(seed, 0));
  ImGui::PopItemWidth();
  l.shown = std::min(l.shown, l.tokens);
  if (ImGui::Button(l.playing ? tr(S::pause) : tr(S::play))) {
    l.playing = !l.playing;
    if (l.playing && l.shown >= l.tokens) l.shown = 0;
  }
  ImGui::SameLine();
  if (ImGui::Button(tr(S::lm_step)) && l.shown < l.tokens) ++l.shown;
  ImGui::SameLine();
  if (ImGui::Button(tr(S::lm_generate_all))) l.shown = l.tokens;
  ImGui::SameLine();
  if (ImGui::Button(tr(S::lm_clear))) {
    l.shown = 0;
    l.playing = false;
  }
  const LmResults& r = state.lm;
  if (l.shown > 0 && static_cast<int>(r.generated.size()) >= l.shown) {
    const lm::GeneratedToken& g = r.generated[static_cast<std::size_t>(l.shown - 1)];
    ImGui::TextWrapped(tr(S::lm_generated), l.shown, l.tokens, static_cast<double>(g.cache_bytes) / 1024.0, g.keys);
    // The text so far: the sentence, then what the model wrote, in the focus colour.
    wrapped_text(state.settings.sentence, width);
    if (r.text.size() > state.settings.sentence.size()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.85f, 1.0f));
      wrapped_text(r.text.substr(state.settings.sentence.size()), width);
      ImGui::PopStyleColor();
    }
    top_bars(ctx, "lm/step-next", m.vocabulary, g.top, width);
  }
}

// ---- 3 break the math ---------------------------------------------------------------------

void break_section(AppState& state, UiContext& ctx, float width) {
  Settings& s = state.settings;
  const lm::LanguageModel& m = state.lm_scene->model;
  section_title(tr(S::lm_break_title));
  wrapped_text(tr(S::lm_break_note), width);
  bool scale = s.math.scale_kind != ScaleKind::None;
  if (wrapped_checkbox(tr(S::lm_scale), &scale)) s.math.scale_kind = scale ? ScaleKind::Default : ScaleKind::None;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
  ImGui::SliderFloat(fitted(tr(S::lm_attention_temperature)), &s.math.temperature, lm::kMinAttentionTemperature, 4.0f,
                     "%.2f", ImGuiSliderFlags_Logarithmic);
  wrapped_checkbox(tr(S::lm_causal), &s.math.mask.causal);
  bool finite = s.math.fill == MaskFill::Finite;
  if (wrapped_checkbox(tr(S::lm_fill), &finite)) {
    s.math.fill = finite ? MaskFill::Finite : MaskFill::NegInfinity;
    s.math.finite_fill = -1e9f;
  }
  wrapped_checkbox(tr(S::lm_half), &s.lm.half);
  ImGui::TextUnformatted(tr(S::lm_ablate));
  for (int layer = 0; layer < m.config.layers; ++layer) {
    for (int h = 0; h < m.config.heads; ++h) {
      const int index = layer * m.config.heads + h;
      auto at = std::find(s.lm.ablated.begin(), s.lm.ablated.end(), index);
      bool off = at != s.lm.ablated.end();
      char label[32];
      std::snprintf(label, sizeof label, "%d.%d##ablate", layer, h);
      if (h > 0)
        flow_item(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x);
      if (ImGui::Checkbox(label, &off)) {
        if (off) s.lm.ablated.push_back(index);
        else s.lm.ablated.erase(at);
        std::sort(s.lm.ablated.begin(), s.lm.ablated.end());
      }
    }
  }
  const LmResults& r = state.lm;
  if (m.samples.empty()) {
    hint_text(tr(S::lm_no_held_out));
    return;
  }
  VeilGroup veil(ctx, "lm/bits");
  if (r.bits_now.empty() || !ImGui::BeginTable("lm/bits", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) return;
  for (S col : {S::lm_sample, S::lm_bits_base, S::lm_bits_now, S::lm_bits_rise}) ImGui::TableSetupColumn(tr(col));
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < r.bits_now.size() && i < m.samples.size(); ++i) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%s (%lld)", tr(m.samples[i].language == 0 ? S::lm_english : S::lm_chinese), r.bits_characters[i]);
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", r.bits_base[i]);
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", r.bits_now[i]);
    ImGui::TableNextColumn();
    ImGui::Text("%+.3f", r.bits_now[i] - r.bits_base[i]);
  }
  ImGui::EndTable();
}

// ---- 4 heads ----------------------------------------------------------------------------------

void heads_section(AppState& state) {
  const LmResults& r = state.lm;
  section_title(tr(S::lm_heads_title));
  wrapped_text(tr(S::lm_heads_note));
  if (begin_fitted_table("lm/labels", 3, static_cast<int>(r.labels.size()))) {
    for (S col : {S::lm_head, S::lm_label, S::lm_score}) ImGui::TableSetupColumn(tr(col));
    ImGui::TableHeadersRow();
    for (const lm::HeadLabel& h : r.labels) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (ImGui::Selectable((std::to_string(h.layer) + "." + std::to_string(h.head) + "##lab").c_str(),
                            state.settings.layer == h.layer && state.settings.head == h.head)) {
        state.settings.layer = h.layer;
        state.settings.head = h.head;
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(lm_kind_label(h.label));
      ImGui::TableNextColumn();
      // The winning score, or the best of them for a mixed head.
      const float best = *std::max_element(std::begin(h.scores), std::end(h.scores));
      ImGui::Text("%.2f", h.label == lm::HeadKind::Mixed ? best : h.label_score);
    }
    ImGui::EndTable();
  }
  section_title(tr(S::lm_ablation_title));
  if (state.lm_scene->model.samples.empty()) {
    hint_text(tr(S::lm_no_held_out));
    return;
  }
  std::vector<int> order(r.ablation_rise.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return r.ablation_rise[a] > r.ablation_rise[b]; });
  const int heads = state.lm_scene->model.config.heads;
  const LmAblationProgress measuring = lm_ablation_progress(r, state.lm_scene->model.samples.size());
  if (!begin_fitted_table("lm/ablation", 2, static_cast<int>(order.size()))) return;
  ImGui::TableSetupColumn(tr(S::lm_head));
  ImGui::TableSetupColumn(tr(S::lm_bits_rise));
  ImGui::TableHeadersRow();
  for (int i : order) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%d.%d", i / heads, i % heads);
    ImGui::TableNextColumn();
    if (i == measuring.head) ImGui::TextDisabled(tr(S::lm_measuring_percent), 100.0 * measuring.done);
    else if (r.ablation_rise[i] == -1.0) ImGui::TextDisabled("%s", tr(S::lm_measuring));
    else ImGui::Text("%+.3f", r.ablation_rise[i]);
  }
  ImGui::EndTable();
}

}  // namespace

// ---- 5 the panel --------------------------------------------------------------------------

void draw_lm_head_label(const AppState& state, int head) {
  if (state.computed_for.source != SceneSource::Language) return;
  for (const lm::HeadLabel& l : state.lm.labels) {
    if (l.layer != state.computed_for.layer || l.head != head) continue;
    if (l.label == lm::HeadKind::Mixed) ImGui::TextDisabled("%s", lm_kind_label(l.label));
    else ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s %.2f", lm_kind_label(l.label), l.label_score);
  }
}

void draw_language_panel(AppState& state, UiContext& ctx) {
  const float font = ImGui::GetFontSize();
  // The fortune model is described by its data; any other by its own notes.
  const bool fortunes = !state.lm_scene || state.lm_scene->model.notes.rfind(lm::kFortuneNotesStart, 0) == 0;
  wrapped_text(tr(fortunes ? S::lm_intro : S::lm_intro_file));
  if (!fortunes) hint_text((std::string(tr(S::lm_notes_label)) + " " + state.lm_scene->model.notes).c_str());
  if (!state.lm_scene || state.settings.source != SceneSource::Language || !state.has_results) {
    if (ImGui::Button(tr(S::source_language))) state.settings.source = SceneSource::Language;
    if (state.lm_wanted) hint_text(tr(S::lm_loading));
    return;
  }
  const lm::LanguageModel& m = state.lm_scene->model;
  char summary[512];
  std::snprintf(summary, sizeof summary, tr(S::lm_summary), state.lm_scene->name.c_str(), m.config.layers, m.config.heads,
                m.config.d_model, m.config.vocab - 2, m.config.context, static_cast<double>(m.parameters.size()) / 1e6);
  wrapped_text(summary);  // breaks between hanzi too, never inside a number
  const LmResults& r = state.lm;
  if (!r.attention.encoded.unknown.empty()) {
    std::string list;
    for (std::uint32_t cp : r.attention.encoded.unknown) list += (list.empty() ? "" : " ") + encode_utf8(cp);
    ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.35f, 1.0f), tr(S::lm_unknown), list.c_str());
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // Two columns, or (a narrow figure) one over the other, each scrolling.
  const bool stacked = avail.x < font * 40.0f;
  const float left_w = stacked ? avail.x : std::max(font * 20.0f, avail.x * 0.5f - font);
  begin_wrapped_child("lm/left", ImVec2(left_w, stacked ? font * 22.0f : 0.0f));
  const float inner = ImGui::GetContentRegionAvail().x;  // inside the child's padding and scrollbar
  wrapped_text(tr(S::lm_next_note), inner);
  top_bars(ctx, "lm/next", m.vocabulary, r.next, inner);
  generation_section(state, ctx, inner);
  end_wrapped_child();
  if (!stacked) ImGui::SameLine();
  begin_wrapped_child("lm/right", ImVec2(0, stacked ? std::max(font * 18.0f, ImGui::GetContentRegionAvail().y) : 0.0f));
  break_section(state, ctx, ImGui::GetContentRegionAvail().x);
  heads_section(state);
  end_wrapped_child();
}

}  // namespace attn::ui
