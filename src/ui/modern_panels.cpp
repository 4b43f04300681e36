// Panels of attention as current models use it:
//   1 positions   RoPE's scores depend on the offset alone (fixed contents; the sentence
//                 shifted), against the sinusoidal encoding's absolute positions; ALiBi's bias
//                 per head; a score against distance past the sentence
//   2 gqa         query heads sharing key/value heads, and the KV cache of decoding: its
//                 bytes per token, drawn as it grows, the cost of a step with and without it
//   3 flash       FlashAttention's tiles step by step beside the exact weights: m, l and the
//                 rescaling of each row, the memory against the n x n matrix
//   4 sinks       StreamingLLM's window-plus-sink mask; softmax against softmax off by one on
//                 a row that matches nothing; each head's weight on the first token
//   5 qk-space    the focused head's queries and keys in one plane, lines to the strongest keys
// Figures come from app/modern_state.h; these functions only draw them and edit Settings.
#include "ui/heatmap_widget.h"
#include "ui/drawn_text.h"
#include "ui/exercise_card.h"
#include "ui/message_strings.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/schema_controls.h"
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

const ImU32 kQueryColor = IM_COL32(230, 159, 0, 255);
const ImU32 kKeyColor = IM_COL32(86, 180, 233, 255);
const ImU32 kGroupColors[] = {IM_COL32(230, 159, 0, 255), IM_COL32(86, 180, 233, 255), IM_COL32(0, 158, 115, 255),
                              IM_COL32(240, 228, 66, 255), IM_COL32(213, 94, 0, 255),  IM_COL32(204, 121, 167, 255),
                              IM_COL32(0, 114, 178, 255),  IM_COL32(200, 200, 200, 255)};

// A frame around rows [r0, r1) and columns [c0, c1) of a drawn heatmap.
void outline_cells(const UiContext& ctx, const std::string& id, int r0, int r1, int c0, int c1, ImU32 color) {
  const auto it = ctx.placements.find(id);
  if (it == ctx.placements.end() || it->second.rows == 0) return;
  const HeatmapPlacement& p = it->second;
  // The view's origin and size are in cells (what layout() reports as viewX0, viewW).
  const float cw = p.w / p.view.w, ch = p.h / p.view.h;
  const float x0 = p.x + (c0 - p.view.x0) * cw, y0 = p.y + (r0 - p.view.y0) * ch;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(p.x, p.y), ImVec2(p.x + p.w, p.y + p.h), true);
  dl->AddRect(ImVec2(x0, y0), ImVec2(x0 + (c1 - c0) * cw, y0 + (r1 - r0) * ch), color, 0.0f, 0, highlight_frame_thickness(ctx));
  dl->PopClipRect();
}

void hint(S id) {
  wrapped_text(tr(id));
}

PlotSeries named_series(const char* label, ImU32 color) {
  PlotSeries s;
  s.label = label;
  s.color = color;
  return s;
}

bool show_error(const std::string& why) {
  if (why.empty()) return false;
  ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.35f, 1.0f), "%s", why.c_str());
  return true;
}

// A panel's sentence of context, then why its figures are missing, if they are. True when
// they are there to draw.
bool intro(S text, bool ok, const std::string& why) {
  hint(text);
  if (!ok) show_error(why);
  return ok;
}

std::string bytes_text(double bytes) {
  char buf[48];
  if (bytes >= 1 << 30) std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1 << 30));
  else if (bytes >= 1 << 20) std::snprintf(buf, sizeof buf, "%.2f MiB", bytes / (1 << 20));
  else if (bytes >= 1 << 10) std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / (1 << 10));
  else std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  return buf;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// 1 positions
// ---------------------------------------------------------------------------------------

void draw_positions_panel(AppState& state, UiContext& ctx) {
  Settings& s = state.settings;
  const PositionsFigures& f = state.modern.positions;
  if (!intro(S::positions_hint, f.ok, f.why)) return;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.x;
  // Three figures a row, or two in a narrow figure (each keeps 11 em for its title and labels).
  const int columns = avail.x >= 3 * font * 11.0f + 2 * gap ? 3 : 2;
  // (A few pixels under the exact share: a heatmap's group runs a little past its size.)
  const float w = (avail.x - (columns - 1) * gap) / columns - 4, h = std::max(font * 6, (avail.y - font * 12) * 0.5f);
  if (!show_error(f.why)) {
    ImGui::SetNextItemWidth(font * 10);
    schema_slider(tr(S::positions_shift), s.modern.shift, "modern.shift");
    ImGui::SameLine();
    char line[320];
    if (f.sinusoidal_shift_difference >= 0)
      std::snprintf(line, sizeof line, tr(S::positions_shift_result), f.rope_shift_difference, f.sinusoidal_shift_difference);
    else std::snprintf(line, sizeof line, tr(S::positions_shift_result_rope), f.rope_shift_difference);
    {
      VeilGroup veil(ctx, "positions/shift");
      wrapped_text(line);
    }
    const int n = static_cast<int>(f.rope_scores.rows());
    char title[200];
    std::snprintf(title, sizeof title, tr(S::positions_fixed), f.toeplitz_deviation);
    titled_heatmap(ctx, title, "positions/ropeFixed", f.rope_fixed, state.modern.version, Colormap::Diverging, nullptr, ImVec2(w, h));
    flow_item(w);
    titled_heatmap(ctx, tr(S::positions_rope_alone), "positions/ropeScores", f.rope_scores, state.modern.version,
                  Colormap::Diverging, &state.tokens, ImVec2(w, h), true, s.cursor);
    flow_item(w);
    std::snprintf(title, sizeof title, tr(S::positions_rope_long), f.shift);
    titled_heatmap(ctx, title, "positions/ropeLong", f.rope_long, state.modern.version, Colormap::Diverging, &f.long_tokens,
                  ImVec2(w, h));
    outline_cells(ctx, "positions/ropeLong", f.shift, f.shift + n, f.shift, f.shift + n, kFocusPink);
  }
  // ALiBi: the bias and the weights of the focused head, and the slopes of every head.
  const int head = std::clamp(s.head, 0, static_cast<int>(f.alibi_slopes.size()) - 1);
  std::string slopes;
  for (size_t i = 0; i < f.alibi_slopes.size(); ++i) {
    char one[32];
    std::snprintf(one, sizeof one, "%s%.4g", i ? ", " : "", f.alibi_slopes[i]);
    slopes += one;
  }
  ImGui::TextWrapped(tr(S::positions_alibi_slopes), slopes.c_str());
  char title[200];
  std::snprintf(title, sizeof title, tr(S::positions_alibi_bias), head, f.alibi_slopes[head]);
  const float h2 = std::max(columns == 3 ? font * 6 : w * 0.8f, ImGui::GetContentRegionAvail().y - font * 3.5f);
  titled_heatmap(ctx, title, "positions/alibiBias", f.alibi_bias, state.modern.version, Colormap::Diverging, &state.tokens,
                ImVec2(w, h2));
  flow_item(w);
  titled_heatmap(ctx, tr(S::positions_alibi_weights), "positions/alibiWeights", f.alibi_weights, state.modern.version,
                Colormap::Sequential, &state.tokens, ImVec2(w, h2), true, s.cursor);
  flow_item(w);
  // Score against distance: RoPE for fixed contents, past the sentence's end.
  ImGui::BeginGroup();
  wrapped_text(tr(S::positions_distance_title));
  PlotSpec plot;
  plot.id = "positions/distance";
  plot.x_title = tr(S::positions_distance_x);
  plot.y_title = tr(S::positions_distance_y);
  PlotSeries rope = named_series("", kQueryColor);  // one series: the title names it, no legend
  for (size_t d = 0; d < f.offset_scores.size(); ++d) {
    rope.x.push_back(static_cast<double>(d));
    rope.y.push_back(f.offset_scores[d]);
  }
  plot.series.push_back(rope);
  plot.include_zero_y = true;
  plot.references.push_back({true, static_cast<double>(state.tokens.size()), tr(S::positions_sentence_end)});
  if (rope.x.empty()) ImGui::TextUnformatted(tr(S::rope_needs_even));
  else plot_widget(ctx, plot, ImVec2(w, std::max(font * 8, ImGui::GetContentRegionAvail().y - font * 2.6f)));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
  ImGui::TextDisabled(tr(S::positions_alibi_past), f.alibi_slopes[head]);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
}

// ---------------------------------------------------------------------------------------
// 2 grouped-query attention and the KV cache
// ---------------------------------------------------------------------------------------

namespace {

// The cache after `step` tokens: for each key/value head a row of K and a row of V cells, one
// per token; the newest column outlined.
void draw_kv_cache(const GqaFigures& f, const std::vector<std::string>& tokens, UiContext& ctx, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const int n = static_cast<int>(tokens.size());
  const float label_w = font * 4.0f;
  const int rows = 2 * f.kv_heads;
  const float cw = std::max(2.0f, (size.x - label_w) / std::max(1, n));
  const float ch = std::min(font * 1.2f, (size.y - font * 1.6f) / std::max(1, rows));
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), empty = ImGui::GetColorU32(ImGuiCol_FrameBg);
  for (int g = 0; g < f.kv_heads; ++g)
    for (int kv = 0; kv < 2; ++kv) {
      const int r = 2 * g + kv;
      const float y = o.y + r * ch;
      char label[32];
      std::snprintf(label, sizeof label, "%s %d", kv == 0 ? "K" : "V", g);
      add_text(dl, ImVec2(o.x, y + (ch - font) * 0.5f), kGroupColors[g % 8], label);
      for (int t = 0; t < n; ++t) {
        const ImVec2 a(o.x + label_w + t * cw, y + 1), b(o.x + label_w + (t + 1) * cw - 1, y + ch - 1);
        dl->AddRectFilled(a, b, t < f.decode_step ? kGroupColors[g % 8] : empty);
      }
    }
  if (f.decode_step > 0) {
    const float x = o.x + label_w + (f.decode_step - 1) * cw;
    dl->AddRect(ImVec2(x - 1, o.y), ImVec2(x + cw, o.y + rows * ch), kFocusPink, 0, 0, highlight_frame_thickness(ctx));
  }
  // Token labels under the columns, thinned.
  float next_free = -1e9f;
  for (int t = 0; t < n; ++t) {
    const float x = o.x + label_w + (t + 0.5f) * cw;
    const float tw = ImGui::CalcTextSize(tokens[t].c_str()).x;
    if (x - tw * 0.5f < next_free) continue;
    add_text(dl, ImVec2(x - tw * 0.5f, o.y + rows * ch + font * 0.15f), text, tokens[t].c_str());
    next_free = x + tw * 0.5f + font * 0.4f;
  }
  ImGui::Dummy(ImVec2(size.x, rows * ch + font * 1.4f));
}

}  // namespace

void draw_gqa_panel(AppState& state, UiContext& ctx) {
  Settings& s = state.settings;
  ModernSettings& m = s.modern;
  const GqaFigures& f = state.modern.gqa;
  if (!intro(S::gqa_hint, f.ok, f.why)) return;
  const float font = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.x;
  // G: the divisors of H.
  ImGui::TextUnformatted(tr(S::gqa_kv_heads));
  for (int g = 1; g <= f.heads; ++g) {
    if (f.heads % g != 0) continue;
    ImGui::SameLine();
    char label[64];
    std::snprintf(label, sizeof label, "%d%s##g%d", g, g == f.heads ? tr(S::gqa_is_mha) : g == 1 ? tr(S::gqa_is_mqa) : "", g);
    if (ImGui::RadioButton(label, f.kv_heads == g)) m.kv_heads = g;
  }
  // The query heads, coloured by the key/value head they read.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int heads = f.heads;
  const float w = std::min((avail.x - (heads - 1) * gap) / heads, avail.y * 0.32f);
  for (int h = 0; h < heads; ++h) {
    if (h) ImGui::SameLine();
    ImGui::BeginGroup();
    char title[96];
    std::snprintf(title, sizeof title, tr(S::gqa_head_title), h, f.kv_head_of[h]);
    ImGui::PushStyleColor(ImGuiCol_Text, kGroupColors[f.kv_head_of[h] % 8]);
    ImGui::TextUnformatted(title);
    ImGui::PopStyleColor();
    HeatmapSpec spec;
    spec.id = "gqa/weights/" + std::to_string(h);
    spec.values = &f.weights[h];
    spec.version = state.modern.version;
    spec.show_scale = false;
    spec.show_col_labels = false;
    heatmap_widget(ctx, spec, ImVec2(w, w));
    std::snprintf(title, sizeof title, tr(S::gqa_difference), f.difference[h]);
    ImGui::TextUnformatted(title);
    ImGui::EndGroup();
  }
  ImGui::Separator();
  // The KV cache: bytes per token, drawn as it grows.
  ImGui::SetNextItemWidth(font * 8);
  schema_slider(tr(S::gqa_layers), m.layers, "modern.layers");
  ImGui::SameLine(0.0f, font * 1.5f);
  ImGui::TextUnformatted(tr(S::gqa_bytes_per_value));
  for (int b : {2, 4}) {
    ImGui::SameLine();
    if (ImGui::RadioButton(b == 2 ? "2 (float16)##b2" : "4 (float32)##b4", m.bytes_per_value == b)) m.bytes_per_value = b;
  }
  char line[400];
  std::snprintf(line, sizeof line, tr(S::gqa_bytes_formula), f.kv_heads, f.d_k, m.layers, m.bytes_per_value,
                bytes_text(f.bytes_per_token).c_str(), bytes_text(f.bytes_per_token_mha).c_str(),
                bytes_text(f.bytes_per_token_mqa).c_str());
  wrapped_text(line);
  const int n = static_cast<int>(state.tokens.size());
  int step = f.decode_step;
  ImGui::SetNextItemWidth(font * 12);
  if (ImGui::SliderInt(fitted(tr(S::gqa_decode_step)), &step, 1, std::max(1, n))) m.decode_step = step;
  ImGui::SameLine();
  std::snprintf(line, sizeof line, tr(S::gqa_cache_now), f.decode_step, bytes_text(f.bytes_per_token * f.decode_step).c_str());
  ImGui::TextUnformatted(line);
  draw_kv_cache(f, state.tokens, ctx, ImVec2(avail.x, font * 1.2f * 2 * std::min(f.kv_heads, 4) + font * 1.6f));
  // The cost of one decoding step, measured on request.
  const ModernResults& r = state.modern;
  ImGui::BeginDisabled(r.decoding_running);
  if (ImGui::Button(tr(S::gqa_measure))) ++m.decode_request;
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (!r.has_decoding) {
    wrapped_text(tr(S::gqa_not_measured));
    return;
  }
  if (show_error(status_text(r.decoding.status))) return;
  if (r.decoding_running) {
    std::snprintf(line, sizeof line, tr(S::gqa_measuring), r.decoding_done, r.decoding_total);
    ImGui::ProgressBar(static_cast<float>(r.decoding_done) / std::max(1, r.decoding_total), ImVec2(font * 16, 0), line);
  } else {
    std::snprintf(line, sizeof line, tr(S::gqa_slopes), r.decoding_config.fit_min_n, r.decoding.slope_with_cache,
                  r.decoding.slope_without_cache);
    wrapped_text(line);
  }
  PlotSpec plot;
  plot.id = "gqa/decoding";
  plot.x_title = tr(S::gqa_plot_x);
  plot.y_title = tr(S::gqa_plot_y);
  plot.log_x = plot.log_y = true;
  PlotSeries with = named_series(tr(S::gqa_with_cache), kKeyColor);
  PlotSeries without = named_series(tr(S::gqa_without_cache), kQueryColor);
  with.points = without.points = true;
  for (const DecodingStep& d : r.decoding.steps) {
    with.x.push_back(d.n);
    with.y.push_back(d.seconds_with_cache * 1e6);
    without.x.push_back(d.n);
    without.y.push_back(d.seconds_without_cache * 1e6);
  }
  plot.series = {with, without};
  plot_widget(ctx, plot, ImVec2(avail.x, std::max(font * 8, ImGui::GetContentRegionAvail().y)));
}

// ---------------------------------------------------------------------------------------
// 3 FlashAttention tile by tile
// ---------------------------------------------------------------------------------------

void draw_flash_panel(AppState& state, UiContext& ctx) {
  ModernSettings& m = state.settings.modern;
  const FlashFigures& f = state.modern.flash;
  hint(S::flash_hint);
  const float font = ImGui::GetFontSize();
  const int n = static_cast<int>(state.tokens.size());
  ImGui::SetNextItemWidth(font * 8);
  ImGui::SliderInt(fitted(tr(S::flash_block_q)), &m.block_q, 1, std::max(1, n));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 8);
  ImGui::SliderInt(fitted(tr(S::flash_block_k)), &m.block_k, 1, std::max(1, n));
  same_line_or_wrap(tr(S::flash_causal), true);
  wrapped_checkbox(tr(S::flash_causal), &m.flash_causal);
  if (!f.ok) {
    show_error(f.why);
    return;
  }
  const int steps = static_cast<int>(f.result.steps.size());
  ImGui::BeginDisabled(f.step == 0);
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) m.flash_step = f.step - 1;
  ImGui::EndDisabled();
  ImGui::SameLine();
  int step = f.step + 1;
  ImGui::SetNextItemWidth(font * 14);
  char format[64];
  std::snprintf(format, sizeof format, tr(S::flash_step_format), steps);
  if (ImGui::SliderInt("##step", &step, 1, steps, format)) m.flash_step = step - 1;
  ImGui::SameLine();
  ImGui::BeginDisabled(f.step + 1 >= steps);
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) m.flash_step = f.step + 1;
  ImGui::EndDisabled();
  ImGui::SameLine();
  char line[400];
  std::snprintf(line, sizeof line, tr(S::flash_summary), f.max_difference, static_cast<long long>(f.result.working_floats),
                f.matrix_floats);
  {
    VeilGroup veil(ctx, "flash/summary");
    wrapped_text(line);
  }

  const FlashStep& cur = f.result.steps[f.step];
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // The heatmap beside the tile's table, or (a narrow figure) above it.
  const bool stacked = avail.x < font * 36.0f;
  const float side = stacked ? std::min(avail.x * 0.7f, std::max(avail.y - font * 2, font * 12)) : std::min(avail.x * 0.45f, avail.y - font * 2);
  ImGui::BeginGroup();
  titled_heatmap(ctx, tr(S::flash_exact_weights), "flash/exactWeights", f.exact_weights, state.modern.version,
                Colormap::Sequential, &state.tokens, ImVec2(side, side));
  // Tiles done so far (thin), the current one (pink).
  for (int i = 0; i < f.step; ++i) {
    const FlashStep& d = f.result.steps[i];
    outline_cells(ctx, "flash/exactWeights", d.q_begin, d.q_end, d.k_begin, d.k_end, IM_COL32(255, 255, 255, 110));
  }
  outline_cells(ctx, "flash/exactWeights", cur.q_begin, cur.q_end, cur.k_begin, cur.k_end, kFocusPink);
  ImGui::EndGroup();
  if (!stacked) ImGui::SameLine();
  // The running statistics of the current query tile, beside the exact row maximum and sum.
  ImGui::BeginGroup();
  std::snprintf(line, sizeof line, tr(S::flash_tile_title), cur.q_tile, cur.q_begin, cur.q_end - 1, cur.k_tile, cur.k_begin,
                cur.k_end - 1);
  wrapped_text(line);
  if (begin_fitted_table("flash-rows", 6, cur.q_end - cur.q_begin)) {
    for (S col : {S::flash_col_row, S::flash_col_m, S::flash_col_l, S::flash_col_rescale, S::flash_col_exact_m, S::flash_col_exact_l})
      ImGui::TableSetupColumn(tr(col));
    ImGui::TableHeadersRow();
    for (int i = cur.q_begin; i < cur.q_end; ++i) {
      const int r = i - cur.q_begin;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%d %.8s", i, state.tokens[i].c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", cur.m[r]);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", cur.l[r]);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", cur.rescale[r]);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", f.row_max[i]);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", f.row_sum[i]);
    }
    ImGui::EndTable();
  }
  hint_text(tr(S::flash_columns));
  hint_text(tr(S::flash_rule));
  ImGui::EndGroup();
}

// ---------------------------------------------------------------------------------------
// 4 sinks and softmax off by one
// ---------------------------------------------------------------------------------------

void draw_sinks_panel(AppState& state, UiContext& ctx) {
  ModernSettings& m = state.settings.modern;
  const SinkFigures& f = state.modern.sinks;
  if (!intro(S::sinks_hint, f.ok, f.why)) return;
  const float font = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.x;
  ImGui::SetNextItemWidth(font * 8);
  schema_slider(tr(S::sinks_window), m.sink_window, "modern.sinkWindow");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 8);
  schema_slider(tr(S::sinks_count), m.sinks, "modern.sinks");
  ImGui::SameLine();
  char line[300];
  std::snprintf(line, sizeof line, tr(S::sinks_share), 100.0f * f.streaming_sink_share);
  wrapped_text(line);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float w = (avail.x - 2 * gap) / 3.0f, h = std::max(font * 6, (avail.y - font * 7) * 0.5f);
  titled_heatmap(ctx, tr(S::sinks_mask), "sinks/streamingAllowed", f.streaming_allowed, state.modern.version, Colormap::Sequential,
                &state.tokens, ImVec2(w, h));
  ImGui::SameLine();
  titled_heatmap(ctx, tr(S::sinks_weights), "sinks/streamingWeights", f.streaming_weights, state.modern.version,
                Colormap::Sequential, &state.tokens, ImVec2(w, h), true, f.row);
  ImGui::SameLine();
  titled_heatmap(ctx, tr(S::sinks_causal_weights), "sinks/causalWeights", f.causal_weights, state.modern.version,
                Colormap::Sequential, &state.tokens, ImVec2(w, h), true, f.row);
  // Each head's share on the first token.
  std::string shares;
  for (size_t i = 0; i < f.head_sink_share.size(); ++i) {
    char one[40];
    std::snprintf(one, sizeof one, "%s%zu: %.0f%%", i ? ", " : "", i, 100.0f * f.head_sink_share[i]);
    shares += one;
  }
  ImGui::TextWrapped(tr(S::sinks_heads), shares.c_str());
  ImGui::Separator();
  // A row that matches nothing: softmax against off by one.
  ImGui::SetNextItemWidth(font * 10);
  schema_slider(tr(S::sinks_row_offset), m.row_offset, "modern.rowOffset", "%.1f");
  ImGui::SameLine();
  std::snprintf(line, sizeof line, tr(S::sinks_row_sums), f.row, state.tokens[f.row].c_str(), f.off_by_one_sum);
  wrapped_text(line);
  PlotSpec plot;
  plot.id = "sinks/row";
  plot.x_title = tr(S::sinks_plot_x);
  plot.y_title = tr(S::sinks_plot_y);
  plot.x_categories = state.tokens;
  plot.include_zero_y = true;
  PlotSeries softmax = named_series(tr(S::sinks_softmax), kKeyColor);
  PlotSeries off = named_series(tr(S::sinks_off_by_one), kQueryColor);
  softmax.points = off.points = true;
  for (size_t j = 0; j < f.row_softmax.size(); ++j) {
    softmax.x.push_back(static_cast<double>(j));
    softmax.y.push_back(f.row_softmax[j]);
    off.x.push_back(static_cast<double>(j));
    off.y.push_back(f.row_off_by_one[j]);
  }
  plot.series = {softmax, off};
  plot_widget(ctx, plot, ImVec2(avail.x, std::max(font * 7, ImGui::GetContentRegionAvail().y)));
}

// ---------------------------------------------------------------------------------------
// 5 the query-key space
// ---------------------------------------------------------------------------------------

void draw_qk_space_panel(AppState& state, UiContext& ctx) {
  const QkSpaceFigures& f = state.modern.qk;
  if (!intro(S::qk_hint, f.ok, f.why)) return;
  char line[240];
  std::snprintf(line, sizeof line, tr(S::qk_explained), 100.0f * f.explained);
  wrapped_text(line);
  PlotSpec plot;
  plot.id = "qk/plane";
  plot.x_title = tr(S::qk_axis_1);
  plot.y_title = tr(S::qk_axis_2);
  plot.equal_aspect = true;
  PlotSeries q = named_series(tr(S::qk_queries), kQueryColor);
  PlotSeries k = named_series(tr(S::qk_keys), kKeyColor);
  q.line = k.line = false;
  q.points = k.points = true;
  k.square = true;
  for (size_t i = 0; i < f.queries.size(); ++i) {
    q.x.push_back(f.queries[i][0]);
    q.y.push_back(f.queries[i][1]);
    q.point_labels.push_back(i < state.tokens.size() ? state.tokens[i] : "");
  }
  const std::vector<std::string>& key_labels = state.key_tokens.empty() ? state.tokens : state.key_tokens;
  for (size_t j = 0; j < f.keys.size(); ++j) {
    k.x.push_back(f.keys[j][0]);
    k.y.push_back(f.keys[j][1]);
    k.point_labels.push_back(j < key_labels.size() ? key_labels[j] : "");
  }
  // Every query to its strongest key (thin); the cursor's query to its three strongest (thick).
  const int cursor = state.settings.cursor;
  for (size_t i = 0; i < f.queries.size(); ++i) {
    if (static_cast<int>(i) == cursor) continue;
    const int j = f.strongest_key[i];
    plot.segments.push_back({f.queries[i][0], f.queries[i][1], f.keys[j][0], f.keys[j][1], IM_COL32(150, 150, 150, 140), 1.0f});
  }
  if (cursor >= 0 && cursor < static_cast<int>(f.queries.size())) {
    std::vector<int> order(f.keys.size());
    for (size_t j = 0; j < order.size(); ++j) order[j] = static_cast<int>(j);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return f.weights(cursor, a) > f.weights(cursor, b); });
    for (size_t r = 0; r < std::min<size_t>(3, order.size()); ++r) {
      const int j = order[r];
      plot.segments.push_back({f.queries[cursor][0], f.queries[cursor][1], f.keys[j][0], f.keys[j][1], kFocusPink,
                               1.0f + 5.0f * f.weights(cursor, j)});
    }
  }
  plot.series = {k, q};
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  plot_widget(ctx, plot, avail);
}

}  // namespace attn::ui
