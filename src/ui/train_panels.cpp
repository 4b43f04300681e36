// The training lab's panels. They draw what app/train_state computed (curves, probe
// attention, head scores, rates) and edit its settings; the training itself runs in
// train_tick(), a slice per frame, never here.
//   1 curve plots  2 training panel  3 scaling experiment panel
#include "ui/panels.h"

#include "core/train/heads.h"
#include "ui/heatmap_widget.h"
#include "ui/message_strings.h"
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

// ---- 1 curve plots ----------------------------------------------------------------------

const ImU32 kLossBlue = IM_COL32(90, 160, 255, 255);
const ImU32 kUnscaledOrange = IM_COL32(255, 150, 40, 255);
const ImU32 kHeldOutGreen = IM_COL32(80, 220, 120, 255);
const ImU32 kBatchGrey = IM_COL32(150, 150, 160, 255);

struct Series {
  const CurvePlot* curve;
  ImU32 colour;
  const char* name;
};

// Step on x (0..x_max), value on y (log10 for losses, else linear [lo, hi]) on ui/plot: ticks,
// titles, gridlines and a legend, with the axes there before the first step.
PlotSpec curve_spec(const char* id, const char* y_title, std::initializer_list<Series> series, float x_max, bool log_y,
                    float lo, float hi) {
  PlotSpec plot;
  plot.id = id;
  plot.x_title = tr(S::train_step);
  plot.y_title = y_title;
  plot.log_y = log_y;
  plot.x_range[0] = 0;
  plot.x_range[1] = std::max(1.0f, x_max);
  plot.y_range[0] = lo;
  plot.y_range[1] = hi;
  for (const Series& s : series) {
    PlotSeries p;
    p.label = s.name;
    p.color = s.colour;
    p.x.assign(s.curve->step.begin(), s.curve->step.end());
    p.y.assign(s.curve->value.begin(), s.curve->value.end());
    p.points = s.curve->step.size() == 1;
    plot.series.push_back(std::move(p));
  }
  return plot;
}

// A loss range that shows the whole curve on a log axis: powers of ten around its values.
void loss_range(std::initializer_list<const CurvePlot*> curves, float& lo, float& hi) {
  float mn = 1e9f, mx = 0.0f;
  for (const CurvePlot* c : curves)
    for (float v : c->value)
      if (std::isfinite(v) && v > 0) mn = std::min(mn, v), mx = std::max(mx, v);
  if (mx <= 0) mn = 0.1f, mx = 1.0f;
  lo = std::pow(10.0f, std::floor(std::log10(std::max(mn, 1e-5f))));
  hi = std::pow(10.0f, std::ceil(std::log10(mx)));
  if (hi <= lo) hi = lo * 10.0f;
}

void run_buttons(bool& running, bool finished, void (*reset)(TrainState&), TrainState& t, const char* id) {
  ImGui::PushID(id);
  ImGui::BeginDisabled(finished);
  if (ImGui::Button(running ? tr(S::train_pause) : tr(S::train_start), ImVec2(ImGui::GetFontSize() * 6, 0)))
    running = !running;
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(tr(S::train_reset))) reset(t);
  ImGui::PopID();
}

void error_line(const Status& error) {
  if (error.ok) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
  wrapped_text(status_text(error).c_str());
  ImGui::PopStyleColor();
}

}  // namespace

const char* task_label(train::TrainTask task) {
  switch (task) {
    case train::TrainTask::Copy: return tr(S::task_copy);
    case train::TrainTask::Reverse: return tr(S::task_reverse);
    case train::TrainTask::Sort: return tr(S::task_sort);
    case train::TrainTask::PreviousToken: return tr(S::task_previous);
    case train::TrainTask::Induction: return tr(S::task_induction);
  }
  return "";
}

const char* task_scored(train::TrainTask task) {
  switch (task) {
    case train::TrainTask::Copy: return tr(S::task_copy_scored);
    case train::TrainTask::Reverse: return tr(S::task_reverse_scored);
    case train::TrainTask::Sort: return tr(S::task_sort_scored);
    case train::TrainTask::PreviousToken: return tr(S::task_previous_scored);
    case train::TrainTask::Induction: return tr(S::task_induction_scored);
  }
  return "";
}

// ---- 2 training panel ---------------------------------------------------------------------

namespace {

// Task, architecture and seed of the next run.
void training_settings(TrainSettings& s) {
  ImGui::PushItemWidth(ImGui::GetFontSize() * 9.0f);
  int task = static_cast<int>(s.task);
  const std::vector<train::TaskSpec> tasks = train::all_tasks();
  if (ImGui::BeginCombo(tr(S::train_task), task_label(tasks[task].task))) {
    for (int i = 0; i < static_cast<int>(tasks.size()); ++i)
      if (ImGui::Selectable(task_label(tasks[i].task), i == task)) s.task = static_cast<train::TrainTask>(i);
    ImGui::EndCombo();
  }
  ImGui::SliderInt(fitted(tr(S::train_layers)), &s.layers, 1, train::kMaxLayers);
  head_count_radios(s.heads, s.heads, s.d_model, {1, 2, 4}, "##th");
  int d_model = s.d_model / 8;
  char shown[16];  // the slider steps by 8 and shows d_model itself
  std::snprintf(shown, sizeof shown, "%d", s.d_model);
  if (ImGui::SliderInt(fitted(tr(S::d_model)), &d_model, 1, train::kMaxDModel / 8, shown)) s.d_model = d_model * 8;
  if (s.d_model % s.heads != 0) s.heads = 1;
  seed_field(s.seed);
  ImGui::PopItemWidth();
  ImGui::TextDisabled("%s", task_scored(s.task));
}

// Where the run stands: steps, rates, the last loss and held-out accuracy.
void training_figures(const TrainRun& r) {
  ImGui::Text("%s %lld", tr(S::train_step), static_cast<long long>(r.trainer.steps()));
  ImGui::Text("%s %.0f  (%s %.0f)", tr(S::train_steps_per_second), r.steps_per_second, tr(S::train_compute_rate),
              r.compute_steps_per_second);
  const std::vector<float>& loss = r.trainer.loss_history();
  if (!loss.empty()) ImGui::Text("%s %.4f", tr(S::train_loss), loss.back());
  if (!r.held_out.empty())
    ImGui::Text("%s %.1f%% (%s %lld)", tr(S::train_held_out), 100.0 * r.held_out.back().accuracy, tr(S::train_at_step),
                static_cast<long long>(r.held_out.back().step));
  hint_text(tr(S::train_slice_note));
}

// The desktop: a path to save the run to or load one from (the web page has buttons).
void model_file_row(TrainState& t, UiContext& ctx) {
  char path[1024];
  std::snprintf(path, sizeof path, "%s", ctx.model_path.c_str());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12.0f);
  if (ImGui::InputText("##model-path", path, sizeof path)) ctx.model_path = path;
  ImGui::SameLine();
  if (ImGui::SmallButton(tr(S::train_save))) {
    t.run.error = train_save_file(t, ctx.model_path);
  }
  ImGui::SameLine();
  if (ImGui::SmallButton(tr(S::train_load))) train_load_file(t, ctx.model_path);
}

// Controls: task, architecture, seed, run buttons, figures.
void training_controls(TrainState& t, UiContext& ctx, float left_w, float height) {
  begin_wrapped_child("train-controls", ImVec2(left_w, height));
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 5.0f);  // room for the sliders' labels in a narrow column
  training_settings(t.settings);
  run_buttons(t.settings.running, false, train_reset, t, "run");
  ImGui::Separator();
  training_figures(t.run);
  if (ctx.model_files_on_disk) model_file_row(t, ctx);
  error_line(t.run.error);
  ImGui::PopItemWidth();
  end_wrapped_child();
}

// Curves side by side: loss per step (log scale) and accuracy (batch, and held-out on fresh
// sequences). Before the first step the axes are there, and a line says what Start does.
void training_curves(UiContext& ctx, const TrainRun& r, float width) {
  const float font = ImGui::GetFontSize();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  // Side by side, or one over the other where half the width would cut their legends.
  const bool stacked = (width - gap) * 0.5f < font * 16.0f;
  const float plot_w = stacked ? width : (width - gap) * 0.5f;
  ImGui::BeginGroup();
  if (r.trainer.steps() == 0) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    wrapped_text(tr(S::train_start_hint));
    ImGui::PopTextWrapPos();
  }
  const float x_max = static_cast<float>(std::max<std::int64_t>(r.trainer.steps(), 10));
  float lo = 0, hi = 1;
  loss_range({&r.loss_plot}, lo, hi);
  plot_widget(ctx, curve_spec("train-loss", tr(S::train_loss_curve), {{&r.loss_plot, kLossBlue, tr(S::train_loss)}}, x_max, true, lo, hi),
              ImVec2(plot_w, font * 11.0f));
  if (!stacked) ImGui::SameLine();
  CurvePlot held;
  for (const HeldOutPoint& p : r.held_out) {
    held.step.push_back(static_cast<float>(p.step));
    held.value.push_back(p.accuracy);
  }
  plot_widget(ctx,
              curve_spec("train-accuracy", tr(S::train_accuracy_curve),
                         {{&r.accuracy_plot, kBatchGrey, tr(S::train_batch)}, {&held, kHeldOutGreen, tr(S::train_held_out)}},
                         x_max, false, 0.0f, 1.0f),
              ImVec2(plot_w, font * 11.0f));
  ImGui::EndGroup();
}

// Two wrapped lines at most, within the head's column: its name, then its scores.
void head_caption(const train::HeadScore& sc, int l, int h, float column_w) {
  const bool named = !sc.label.empty();
  const ImVec4 col = named ? ImVec4(1.0f, 0.85f, 0.3f, 1.0f) : ImGui::GetStyle().Colors[ImGuiCol_Text];
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + column_w);
  const char* label = sc.label == "induction"        ? tr(S::label_induction)
                      : sc.label == "previous-token" ? tr(S::label_previous_token)
                                                     : "";
  ImGui::PushStyleColor(ImGuiCol_Text, col);
  ImGui::TextWrapped(tr(S::train_head_scores), l, h, label, sc.previous_token, sc.induction, sc.diagonal);
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
}

// Every head's attention on the task's probe sequence, with its scores and its name.
void probe_heads(const TrainRun& r, UiContext& ctx) {
  const train::ProbeView& p = r.probe;
  if (p.layers == 0) return;
  const float font = ImGui::GetFontSize();
  ImGui::Text("%s (%s %lld)", tr(S::train_probe), tr(S::train_at_step), static_cast<long long>(r.probe_step));
  ImGui::TextDisabled(tr(S::train_thresholds), train::kPreviousTokenThreshold, train::kInductionThreshold);
  const ImVec2 rest = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float cell_w = (rest.x - gap * (p.heads - 1)) / p.heads;
  const float cell_h = rest.y / p.layers - font * 3.2f;  // each row: two caption lines, then the heatmap
  const float side = std::max(font * 6.0f, std::min(cell_w, cell_h));
  for (int l = 0; l < p.layers; ++l)
    for (int h = 0; h < p.heads; ++h) {
      if (h) ImGui::SameLine();
      ImGui::BeginGroup();
      const train::HeadScore* sc = nullptr;
      for (const train::HeadScore& x : r.scores)
        if (x.layer == l && x.head == h) sc = &x;
      if (sc) head_caption(*sc, l, h, cell_w);
      char id[32];
      std::snprintf(id, sizeof id, "train/L%dH%d", l, h);
      HeatmapSpec spec;
      spec.id = id;
      spec.values = &p.weights[static_cast<std::size_t>(l) * p.heads + h];
      spec.version = r.revision;
      spec.colormap = Colormap::Sequential;
      spec.row_labels = &r.probe_labels;
      spec.col_labels = &r.probe_labels;
      heatmap_widget(ctx, spec, ImVec2(std::min(cell_w, side * 1.4f), side));
      ImGui::EndGroup();
    }
}

}  // namespace

void draw_training_panel(AppState& state, UiContext& ctx) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize();
  // The controls at the left, or (a narrow figure) in a scrolling strip above the rest.
  const bool stacked = avail.x < font * 36.0f;
  const float left_w = stacked ? avail.x : std::min(font * 22.0f, avail.x * 0.4f);
  training_controls(state.train, ctx, left_w, font * (stacked ? 11.0f : 23.0f));
  if (!stacked) ImGui::SameLine();
  // Right of the controls (or under them): the curves, and under them every head on the probe sequence.
  ImGui::BeginGroup();
  training_curves(ctx, state.train.run, stacked ? avail.x : avail.x - left_w - ImGui::GetStyle().ItemSpacing.x);
  probe_heads(state.train.run, ctx);
  ImGui::EndGroup();
}

// ---- 3 scaling experiment panel ---------------------------------------------------------------

void draw_scaling_run_panel(AppState& state, UiContext& ctx) {
  TrainState& t = state.train;
  ScalingRunSettings& s = t.scaling;
  const ScalingRunState& e = t.experiment;
  const float font = ImGui::GetFontSize();
  wrapped_text(tr(S::scaling_run_hint));
  ImGui::PushItemWidth(font * 8.0f);
  const int dks[] = {16, 32, 64, 128};
  ImGui::TextUnformatted("d_k");
  for (int dk : dks) {
    ImGui::SameLine();
    char label[16];
    std::snprintf(label, sizeof label, "%d##dk", dk);
    if (ImGui::RadioButton(label, s.d_k == dk)) s.d_k = dk;
  }
  ImGui::SameLine(0, font * 2);
  int init = static_cast<int>(s.init);
  choice_row(tr(S::scaling_run_init), init, {tr(S::scaling_run_unit), tr(S::scaling_run_small)});
  s.init = static_cast<train::InitScheme>(init);
  ImGui::SameLine(0, font * 2);
  int seed = static_cast<int>(s.seed & 0x7fffffff);
  if (ImGui::InputInt(fitted(tr(S::seed)), &seed)) s.seed = static_cast<std::uint64_t>(std::max(seed, 0));
  ImGui::PopItemWidth();
  run_buttons(s.running, e.scaled.steps() >= kScalingTaskSteps, scaling_reset, t, "scaling");
  ImGui::SameLine();
  ImGui::Text("%s %lld / %d   %.0f %s", tr(S::train_step), static_cast<long long>(e.scaled.steps()), kScalingTaskSteps,
              e.steps_per_second, tr(S::scaling_run_pairs_per_second));

  auto run_line = [&](const char* name, ImU32 colour, const train::Trainer& run, int to_target, double peak) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colour), "%s", name);
    ImGui::SameLine();
    const std::vector<float>& loss = run.loss_history();
    char reached[32];
    if (to_target >= 0) std::snprintf(reached, sizeof reached, "%d", to_target);
    else std::snprintf(reached, sizeof reached, "-");
    ImGui::Text(tr(S::scaling_run_line), loss.empty() ? 0.0f : loss.back(), kScalingTargetLoss, reached, peak);
  };
  run_line(tr(S::scaling_run_scaled), kLossBlue, e.scaled, e.scaled_steps_to_target, e.scaled_late_peak);
  run_line(tr(S::scaling_run_unscaled), kUnscaledOrange, e.unscaled, e.unscaled_steps_to_target, e.unscaled_late_peak);
  error_line(e.error);

  float lo = 0, hi = 1;
  loss_range({&e.scaled_plot, &e.unscaled_plot}, lo, hi);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  PlotSpec plot = curve_spec("scaling-loss", tr(S::train_loss_curve),
                             {{&e.scaled_plot, kLossBlue, tr(S::scaling_run_scaled)},
                              {&e.unscaled_plot, kUnscaledOrange, tr(S::scaling_run_unscaled)}},
                             // The axis grows with the runs, up to the budget.
                             static_cast<float>(std::max<std::int64_t>(100, e.scaled.steps())), true,
                             std::min(lo, kScalingTargetLoss), hi);
  // The target loss as a dashed line.
  plot.references.push_back({false, kScalingTargetLoss, tr(S::scaling_target)});
  plot_widget(ctx, plot, ImVec2(avail.x, std::max(font * 12, avail.y - font * 7.5f)));
  wrapped_text(tr(S::scaling_run_note));
}

}  // namespace attn::ui
