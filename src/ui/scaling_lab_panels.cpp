// The scaling and softmax lab's panels. They draw the figures computed in app/lab_state
// (never compute them), with ImDrawList plots of our own.
//   1 plotting helpers  2 dot product  3 variance  4 saturation  5 softmax  6 stability
#include "ui/panels.h"
#include "ui/drawn_text.h"
#include "ui/exercise_card.h"

#include "app/state_schema.h"
#include "files/colormap.h"
#include "ui/message_strings.h"
#include "ui/plot.h"
#include "ui/schema_controls.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace attn::ui {
namespace {

// ---- 1 plotting helpers -------------------------------------------------------------------

// Lines and axes come from ui/plot.h; the histograms and the row's bars are drawn here.

void bars(const char* title, const std::vector<float>& values, ImVec2 size, float lo, float hi, ImU32 col) {
  wrapped_text(title, size.x);  // the title wraps over its bars (between hanzi too)
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), ImGui::GetColorU32(ImGuiCol_FrameBg));
  const float w = size.x / std::max<size_t>(1, values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const float v = std::isfinite(values[i]) ? values[i] : hi;
    const float f = std::clamp((v - lo) / (hi - lo), 0.0f, 1.0f);
    dl->AddRectFilled(ImVec2(p.x + i * w + 1, p.y + size.y * (1 - f)), ImVec2(p.x + (i + 1) * w - 1, p.y + size.y),
                      std::isfinite(values[i]) ? col : IM_COL32(255, 60, 60, 255));
  }
  ImGui::Dummy(size);
}

const ImU32 kBlue = IM_COL32(90, 160, 255, 255), kOrange = IM_COL32(255, 160, 60, 255), kGrey = IM_COL32(170, 170, 170, 255);

}  // namespace

// ---- 2 dot product as geometry ------------------------------------------------------------

void draw_dot_product_panel(AppState& state, UiContext& ctx) {
  ScalingLabSettings& l = state.settings.scaling_lab;
  const ScalingLabResults& r = state.scaling_lab;
  wrapped_text(tr(S::dot_hint));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side = std::min(avail.x * 0.6f, avail.y - ImGui::GetFontSize() * 2);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 center(origin.x + side * 0.5f, origin.y + side * 0.5f);
  const float unit = side / 2.0f / 5.0f;  // the plane shows [-5, 5]
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(origin, ImVec2(origin.x + side, origin.y + side), ImGui::GetColorU32(ImGuiCol_FrameBg));
  for (int g = -5; g <= 5; ++g) {
    const ImU32 c = g == 0 ? ImGui::GetColorU32(ImGuiCol_TextDisabled) : ImGui::GetColorU32(ImGuiCol_Border, 0.5f);
    dl->AddLine(ImVec2(center.x + g * unit, origin.y), ImVec2(center.x + g * unit, origin.y + side), c);
    dl->AddLine(ImVec2(origin.x, center.y + g * unit), ImVec2(origin.x + side, center.y + g * unit), c);
  }
  struct Handle {
    const char* name;
    std::array<float, 2>* v;
    ImU32 col;
    const char* key;  // in the state schema
  } handles[] = {{"q", &l.q, IM_COL32(255, 64, 160, 255), "lab.q"},
                 {"k", &l.k, kBlue, "lab.k"},
                 {"k2", &l.k_long, kOrange, "lab.kLong"}};
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("plane", ImVec2(side, side));
  const bool active = ImGui::IsItemActive();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  // The handle nearest the pointer follows a drag.
  if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) {
    float best = 1e9f;
    Handle* nearest = nullptr;
    for (Handle& h : handles) {
      const float dx = center.x + (*h.v)[0] * unit - mouse.x, dy = center.y - (*h.v)[1] * unit - mouse.y;
      if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, nearest = &h;
    }
    if (nearest) *nearest->v = {std::clamp((mouse.x - center.x) / unit, -5.0f, 5.0f), std::clamp((center.y - mouse.y) / unit, -5.0f, 5.0f)};
  }
  for (const Handle& h : handles) {
    const ImVec2 tip(center.x + (*h.v)[0] * unit, center.y - (*h.v)[1] * unit);
    dl->AddLine(center, tip, h.col, 3.0f * ctx.dpi_scale);
    dl->AddCircleFilled(tip, 6.0f * ctx.dpi_scale, h.col);
    add_text(dl, ImVec2(tip.x + 8, tip.y - 8), h.col, h.name);
  }
  ImGui::SameLine();
  ImGui::BeginGroup();
  {
  VeilGroup veil(ctx, "dot/readout");
  ImGui::Text("|q| = %.3f", r.q_norm);
  ImGui::Separator();
  ImGui::Text("|k| = %.3f   cos = %.3f", r.k_norm, r.cos_qk);
  ImGui::Text("q.k = |q||k|cos = %.3f", r.dot_qk);
  ImGui::Separator();
  ImGui::Text("|k2| = %.3f   cos = %.3f", r.k_long_norm, r.cos_q_long);
  ImGui::Text("q.k2 = %.3f", r.dot_q_long);
  ImGui::Separator();
  const bool long_wins_dot = r.dot_q_long > r.dot_qk, long_wins_cos = r.cos_q_long > r.cos_qk;
  ImGui::TextWrapped(tr(S::dot_prefers), long_wins_dot ? "k2" : "k", long_wins_cos ? "k2" : "k");
  }
  for (const Handle& h : handles) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    schema_drag(h.name, h.v->data(), 2, 0.02f, h.key);
  }
  ImGui::EndGroup();
}

// ---- 3 variance against d_k -----------------------------------------------------------------

// A named series of a lab plot.
PlotSeries lab_series(const std::string& label, ImU32 color, bool points = true) {
  PlotSeries s;
  s.label = label;
  s.color = color;
  s.points = points;
  return s;
}

void draw_variance_panel(AppState& state, UiContext& ctx) {
  ScalingLabSettings& l = state.settings.scaling_lab;
  const ScalingLabResults& r = state.scaling_lab;
  wrapped_text(tr(S::variance_hint));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize();
  // Side by side, or (a narrow figure) the plot over its readouts.
  const bool stacked = avail.x < font * 36.0f;
  const float w = stacked ? avail.x - 8 : avail.x * 0.5f - 8, h = stacked ? font * 12.0f : avail.y * 0.5f - font * 2;
  PlotSpec plot;
  plot.id = "variance/curve";
  plot.x_title = "d_k";
  plot.y_title = tr(S::variance_axis);
  plot.log_x = plot.log_y = true;
  PlotSeries raw = lab_series("Var(q.k)", kOrange), scaled = lab_series("Var(q.k / sqrt(d_k))", kBlue);
  PlotSeries theory = lab_series(tr(S::variance_theory), kGrey, false);
  theory.dashed = true;
  for (const VariancePoint& p : r.variance) {
    raw.x.push_back(p.dk);
    raw.y.push_back(p.raw);
    scaled.x.push_back(p.dk);
    scaled.y.push_back(p.scaled);
    theory.x.push_back(p.dk);
    theory.y.push_back(p.dk);
  }
  plot.series = {theory, raw, scaled};
  plot.references.push_back({false, 1.0, "y = 1"});
  {
    VeilGroup veil(ctx, "variance/curve");
    wrapped_text(tr(S::variance_title), w);  // the title wraps over its plot
    const float plot_h = stacked ? std::max(font * 14, avail.y * 0.6f) : std::max(font * 10, avail.y - font * 2);
    plot_widget(ctx, plot, ImVec2(w, plot_h));
  }
  if (!stacked) ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::SetNextItemWidth(w * 0.6f);
  schema_slider("d_k", l.dk, "lab.dk", "%d", ImGuiSliderFlags_Logarithmic);
  {
    VeilGroup veil(ctx, "variance/readout");
    ImGui::Text(tr(S::variance_raw_line), r.var_raw_at_dk, l.dk);
    ImGui::Text(tr(S::variance_scaled_line), r.var_scaled_at_dk);
    std::vector<float> hr(r.hist_raw.counts.begin(), r.hist_raw.counts.end()), hs(r.hist_scaled.counts.begin(), r.hist_scaled.counts.end());
    if (!hr.empty() && !hs.empty()) {  // else not drawn yet (update_results samples for this panel)
      const float top = std::max(*std::max_element(hr.begin(), hr.end()), *std::max_element(hs.begin(), hs.end()));
      char title[96];
      std::snprintf(title, sizeof title, tr(S::variance_hist_raw), r.hist_raw.lo, r.hist_raw.hi);
      bars(title, hr, ImVec2(w * 0.9f, h * 0.4f), 0, top, kOrange);
      bars(tr(S::variance_hist_scaled), hs, ImVec2(w * 0.9f, h * 0.4f), 0, top, kBlue);
    }
  }
  ImGui::EndGroup();
}

// ---- 4 saturation ----------------------------------------------------------------------------

void draw_saturation_panel(AppState& state, UiContext& ctx) {
  ScalingLabSettings& l = state.settings.scaling_lab;
  const ScalingLabResults& r = state.scaling_lab;
  wrapped_text(tr(S::saturation_hint));
  ImGui::Checkbox(tr(S::with_scaling), &l.scaled);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  schema_slider(tr(S::temperature), l.temperature, "lab.temperature", "%.2f", ImGuiSliderFlags_Logarithmic);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float w = avail.x / 3.0f - 8;
  const char* names[3] = {"d_k = 4", "d_k = 64", "d_k = 512"};
  {
  VeilGroup veil(ctx, "saturation/examples");
  for (int i = 0; i < 3; ++i) {
    if (i) ImGui::SameLine();
    ImGui::BeginGroup();
    char title[128];
    std::snprintf(title, sizeof title, tr(S::saturation_example), names[i], r.example_max[i], r.example_entropy[i],
                  r.example_jacobian[i]);
    bars(title, r.example_weights[i], ImVec2(w, avail.y * 0.3f), 0.0f, 1.0f, kBlue);
    ImGui::EndGroup();
  }
  }
  PlotSpec plot;
  plot.id = "saturation/jacobian";
  plot.x_title = "d_k";
  plot.y_title = tr(S::jacobian_norm);
  plot.log_x = true;
  plot.include_zero_y = true;
  PlotSeries raw = lab_series(tr(S::without_scaling), kOrange), scaled = lab_series(tr(S::with_scaling), kBlue);
  for (const SaturationPoint& p : r.saturation_raw) {
    raw.x.push_back(p.d_k);
    raw.y.push_back(p.mean_jacobian_norm);
  }
  for (const SaturationPoint& p : r.saturation_scaled) {
    scaled.x.push_back(p.d_k);
    scaled.y.push_back(p.mean_jacobian_norm);
  }
  plot.series = {raw, scaled};
  VeilGroup veil(ctx, "saturation/jacobian");
  plot_widget(ctx, plot, ImVec2(avail.x * 0.7f, std::max(ImGui::GetFontSize() * 10, ImGui::GetContentRegionAvail().y)));
}

// ---- 5 softmax step by step ------------------------------------------------------------------

void draw_softmax_panel(AppState& state, UiContext& ctx) {
  ScalingLabSettings& l = state.settings.scaling_lab;
  const ScalingLabResults& r = state.scaling_lab;
  wrapped_text(tr(S::softmax_hint));
  if (ImGui::BeginTable("steps", static_cast<int>(l.row.size()) + 1, ImGuiTableFlags_Borders)) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(tr(S::softmax_score_row));
    for (size_t j = 0; j < l.row.size(); ++j) {
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(j));
      ImGui::SetNextItemWidth(-1);
      schema_drag("##s", &l.row[j], 1, 0.05f, "lab.row");
      ImGui::PopID();
    }
    // The steps' numbers give the answer away while an exercise veils them.
    const bool hidden = veiled(ctx, "softmax/steps");
    auto row = [hidden](const char* label, const std::vector<float>& v, const char* fmt) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(label);
      for (float x : v) {
        ImGui::TableNextColumn();
        if (hidden) ImGui::TextDisabled("?");
        else ImGui::Text(fmt, x);
      }
    };
    row("s - max", r.shifted, "%.3f");
    row("exp(s - max)", r.exps, "%.4f");
    row("/ sum", r.weights, "%.4f");
    ImGui::EndTable();
  }
  float total = 0.0f;
  for (float w : r.weights) total += w;
  {
    VeilGroup veil(ctx, "softmax/weights");
    ImGui::Text(tr(S::softmax_sums), r.row_max, r.exp_sum, total);
    bars(tr(S::weights), r.weights, ImVec2(ImGui::GetContentRegionAvail().x * 0.5f, ImGui::GetFontSize() * 6), 0.0f, 1.0f, kBlue);
  }
  if (l.row.size() < static_cast<size_t>(kScalingLabMaxRow) && ImGui::Button("+")) l.row.push_back(0.0f);
  ImGui::SameLine();
  if (l.row.size() > 1 && ImGui::Button("-")) l.row.pop_back();
}

// ---- 6 stability -----------------------------------------------------------------------------

void draw_stability_panel(AppState& state, UiContext& ctx) {
  ScalingLabSettings& l = state.settings.scaling_lab;
  const ScalingLabResults& r = state.scaling_lab;
  wrapped_text(tr(S::stability_hint));
  ImGui::TextUnformatted(tr(S::stability_scores));
  for (size_t j = 0; j < l.row.size(); ++j) {
    ImGui::PushID(static_cast<int>(j));
    if (j) flow_item(ImGui::GetFontSize() * 5);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    // The whole range the state accepts: the panel is about overflow.
    const KeyRange range = key_range("lab.row");
    ImGui::DragFloat("##s", &l.row[j], 0.25f, static_cast<float>(range.min), static_cast<float>(range.max), "%.2f");
    ImGui::PopID();
  }
  // Four a row where each gets 9 em, else two.
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const float w = (avail_w / 4.0f - 8 >= ImGui::GetFontSize() * 9 ? avail_w / 4.0f : avail_w / 2.0f) - 8,
              h = ImGui::GetFontSize() * 6;
  const struct {
    const char* name;
    const std::vector<float>* v;
    bool overflow;
  } forms[] = {{tr(S::stability_naive32), &r.naive32, r.naive32_overflow}, {tr(S::stability_stable32), &r.stable32, r.stable32_overflow},
               {tr(S::stability_naive16), &r.naive16, r.naive16_overflow}, {tr(S::stability_stable16), &r.stable16, r.stable16_overflow}};
  {
  VeilGroup veil(ctx, "stability/forms");
  for (int i = 0; i < 4; ++i) {
    if (i) flow_item(w);
    ImGui::BeginGroup();
    char title[64];
    std::snprintf(title, sizeof title, "%s: %s", forms[i].name, forms[i].overflow ? tr(S::overflow) : tr(S::fine));
    bars(title, *forms[i].v, ImVec2(w, h), 0.0f, 1.0f, forms[i].overflow ? IM_COL32(255, 60, 60, 255) : kBlue);
    ImGui::EndGroup();
  }
  }
  ImGui::Separator();
  const struct {
    const char* name;
    const std::vector<float>* v;
  } masks[] = {{tr(S::stability_last_inf), &r.masked_inf}, {tr(S::stability_last_finite), &r.masked_finite},
               {tr(S::stability_all_inf), &r.fully_inf}, {tr(S::stability_all_finite), &r.fully_finite}};
  for (int i = 0; i < 4; ++i) {
    if (i) flow_item(w);
    ImGui::BeginGroup();
    bars(masks[i].name, *masks[i].v, ImVec2(w, h), 0.0f, 1.0f, kBlue);
    std::string nums;
    char buf[16];
    for (float x : *masks[i].v) std::snprintf(buf, sizeof buf, "%.2f ", x), nums += buf;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + w);
    ImGui::TextUnformatted(nums.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
  }
}

// ---- 7 the worked example, step by step ------------------------------------------------------

namespace {

// One small matrix of the worked example: each cell coloured on the heatmaps' scales (diverging
// for scores and values, 0 to 1 for weights) with its number; cells of an `edit` matrix are
// drag fields over their colour. The matrix is reported as a heatmap of layout() under `id`.
// Returns whether a cell was edited.
bool walk_matrix(UiContext& ctx, const char* id, const char* title, const Mat& m, Colormap map, float* edit,
                 std::string_view key) {
  const float font = ImGui::GetFontSize();
  const float cw = font * 4.6f, ch = font * 2.4f;
  float lo = 0.0f, hi = 1.0f;
  if (map == Colormap::Diverging) {
    float top = 0.0f;
    for (Eigen::Index k = 0; k < m.size(); ++k)
      if (std::isfinite(m.data()[k])) top = std::max(top, std::fabs(m.data()[k]));
    if (top == 0.0f) top = 1.0f;
    lo = -top, hi = top;
  }
  bool changed = false;
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const KeyRange range = slider_range(key.empty() ? std::string_view("lab.wq") : key);
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.cols(); ++j) {
      const float v = m(i, j);
      const Rgb8 c = colormap_at(map, (v - lo) / (hi - lo));
      const ImVec2 a(o.x + j * cw, o.y + i * ch), b(a.x + cw - 1.0f, a.y + ch - 1.0f);
      dl->AddRectFilled(a, b, IM_COL32(c.r, c.g, c.b, 255));
      const bool dark_text = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b > 140.0f;
      const ImU32 text = dark_text ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3f", v);
      if (edit) {
        ImGui::SetCursorScreenPos(ImVec2(a.x, a.y + (ch - ImGui::GetFrameHeight()) * 0.5f));
        ImGui::PushID(id);
        ImGui::PushID(i * 8 + j);
        ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
        ImGui::PushStyleColor(ImGuiCol_FrameBgHovered, IM_COL32(255, 255, 255, 50));
        ImGui::PushStyleColor(ImGuiCol_FrameBgActive, IM_COL32(255, 255, 255, 80));
        ImGui::PushStyleColor(ImGuiCol_Text, text);
        ImGui::SetNextItemWidth(cw - 1.0f);
        float& x = edit[i * m.cols() + j];
        changed |= ImGui::DragFloat("##cell", &x, 0.02f, static_cast<float>(range.min), static_cast<float>(range.max),
                                    "%.2f", ImGuiSliderFlags_AlwaysClamp);
        ImGui::PopStyleColor(4);
        ImGui::PopID();
        ImGui::PopID();
      } else {
        const ImVec2 ts = ImGui::CalcTextSize(buf);
        add_text(dl, ImVec2(a.x + (cw - ts.x) * 0.5f, a.y + (ch - ts.y) * 0.5f), text, buf);
      }
    }
  ImGui::SetCursorScreenPos(o);
  ImGui::Dummy(ImVec2(cw * m.cols(), ch * m.rows()));
  ImGui::EndGroup();
  ctx.placements[id] = {o.x, o.y, cw * m.cols(), ch * m.rows(), static_cast<int>(m.rows()), static_cast<int>(m.cols()),
                        gfx::HeatmapView{0, 0, float(m.cols()), float(m.rows())}, lo, hi, 0};
  return changed;
}

// The operation between two matrices, centred beside them: its text over an arrow.
void walk_operation(const char* text, float matrix_h) {
  const float font = ImGui::GetFontSize();
  const float w = std::max(ImGui::CalcTextSize(text).x, font * 2.5f);
  // The arrow and the matrix after it (about as wide as the one before) start a new row
  // where they would not fit on this one.
  flow_item(w + font * 0.6f + ImGui::GetItemRectSize().x, font * 0.6f);
  ImGui::BeginGroup();
  ImGui::Dummy(ImVec2(w, font * 0.4f + matrix_h * 0.5f - font));
  ImGui::TextUnformatted(text);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 c = ImGui::GetColorU32(ImGuiCol_Text);
  const float y = p.y + font * 0.4f;
  dl->AddLine(ImVec2(p.x, y), ImVec2(p.x + w - font * 0.2f, y), c, std::max(1.5f, font / 10.0f));
  dl->AddTriangleFilled(ImVec2(p.x + w, y), ImVec2(p.x + w - font * 0.6f, y - font * 0.35f),
                        ImVec2(p.x + w - font * 0.6f, y + font * 0.35f), c);
  ImGui::Dummy(ImVec2(w, font));
  ImGui::EndGroup();
  ImGui::SameLine(0.0f, font * 0.6f);
}

Mat as_matrix(const std::array<float, 4>& a) {
  Mat m(2, 2);
  m << a[0], a[1], a[2], a[3];
  return m;
}

}  // namespace

// The tutorial's worked example drawn: Q, K and V (editable), then each step as a matrix with
// the operation that makes it from the one before; an edit recomputes at once (the lab's
// figures follow the settings).
void draw_walkthrough_panel(AppState& state, UiContext& ctx) {
  ScalingLabSettings& l = state.settings.scaling_lab;
  const AttentionResult& w = state.scaling_lab.walk;
  const float font = ImGui::GetFontSize();
  wrapped_text(tr(S::walk_hint));
  ImGui::Spacing();
  hint_text(tr(S::walk_inputs));
  const float matrix_h = font * 2.4f * 2;
  walk_matrix(ctx, "walk/q", "Q", as_matrix(l.wq), Colormap::Diverging, l.wq.data(), "lab.wq");
  flow_item(ImGui::GetItemRectSize().x, font * 2.0f);
  walk_matrix(ctx, "walk/k", "K", as_matrix(l.wk), Colormap::Diverging, l.wk.data(), "lab.wk");
  flow_item(ImGui::GetItemRectSize().x, font * 2.0f);
  walk_matrix(ctx, "walk/v", "V", as_matrix(l.wv), Colormap::Diverging, l.wv.data(), "lab.wv");
  if (!w.status.ok) {
    ImGui::TextUnformatted(status_text(w.status).c_str());
    return;
  }
  if (w.output.rows() < 2 || w.output.cols() < 2) return;  // not computed yet: the lab's figures follow the panel
  ImGui::Spacing();
  ImGui::Separator();
  hint_text(tr(S::walk_steps));
  walk_matrix(ctx, "walk/rawScores", tr(S::walk_raw_scores), w.raw_scores, Colormap::Diverging, nullptr, "");
  char op[64];
  std::snprintf(op, sizeof op, tr(S::walk_scale_op), w.scale);
  walk_operation(op, matrix_h);
  walk_matrix(ctx, "walk/scaledScores", tr(S::walk_scaled_scores), w.scores, Colormap::Diverging, nullptr, "");
  walk_operation(tr(S::walk_softmax_op), matrix_h);
  walk_matrix(ctx, "walk/weights", tr(S::walk_weights), w.weights, Colormap::Sequential, nullptr, "");
  walk_operation("· V", matrix_h);
  walk_matrix(ctx, "walk/output", tr(S::walk_output), w.output, Colormap::Diverging, nullptr, "");
  ImGui::Spacing();
  ImGui::Text(tr(S::walk_row_sums), w.weights.row(0).sum(), w.weights.row(1).sum());
  hint_text(tr(S::walk_reading));
}

}  // namespace attn::ui
