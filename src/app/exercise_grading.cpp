#include "app/exercise_grading.h"

#include "app/app_messages.h"
#include "core/lm/head_labels.h"
#include "files/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attn {
namespace {

std::string fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

std::string general(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.2g", v);
  return text;
}

const std::string& token_at(const AppState& state, int i) {
  static const std::string none;
  return i >= 0 && i < static_cast<int>(state.tokens.size()) ? state.tokens[i] : none;
}

// The focused head of side A, or null (no results).
const HeadTrace* focused(const AppState& state) {
  if (!state.has_results || !state.trace.status.ok || state.trace.heads.empty()) return nullptr;
  return &state.trace.heads[std::clamp(state.settings.head, 0, static_cast<int>(state.trace.heads.size()) - 1)];
}

// ---- the graders, one per exercise ------------------------------------------------------

// 1 q.k2 on the dot-product panel.
void grade_dot(const AppState& state, ExerciseExpected& e) {
  if (!state.has_scaling_lab) return;
  const ScalingLabSettings& lab = state.scaling_lab_computed_for;
  const ScalingLabResults& r = state.scaling_lab;
  e.number = r.dot_q_long;
  e.facts = {fixed(lab.q[0], 2),     fixed(lab.k_long[0], 2), fixed(lab.q[1], 2),     fixed(lab.k_long[1], 2),
             fixed(r.dot_q_long, 3), fixed(r.dot_qk, 3),      fixed(r.cos_q_long, 3), fixed(r.cos_qk, 3)};
  e.ready = true;
}

// 2 the raw scores' variance at the slider's d_k, as measured.
void grade_variance(const AppState& state, ExerciseExpected& e) {
  if (!state.has_scaling_lab || !state.scaling_lab.has_variance_for(state.scaling_lab_computed_for)) return;
  const ScalingLabResults& r = state.scaling_lab;
  e.number = r.var_raw_at_dk;
  e.facts = {std::to_string(r.hist_dk), fixed(r.var_raw_at_dk, 1), fixed(r.var_scaled_at_dk, 2)};
  e.ready = true;
}

// 3 the d_k = 512 row of the saturation panel: one-hot, flat, or in between.
void grade_saturation(const AppState& state, ExerciseExpected& e) {
  if (!state.has_scaling_lab) return;
  const ScalingLabResults& r = state.scaling_lab;
  const std::vector<float>& row = r.example_weights[2];
  if (row.empty()) return;
  const float max = r.example_max[2];
  e.choice = max >= 0.9f ? 0 : max <= 2.0f / static_cast<float>(row.size()) ? 1 : 2;
  e.facts = {fixed(max, 2), fixed(r.example_entropy[2], 2), fixed(r.example_jacobian[2], 3)};
  e.ready = true;
}

// 4 the first key's weight on the softmax panel.
void grade_softmax(const AppState& state, ExerciseExpected& e) {
  const ScalingLabResults& r = state.scaling_lab;
  if (!state.has_scaling_lab || r.weights.empty()) return;
  const std::vector<float>& row = state.scaling_lab_computed_for.row;
  e.number = r.weights[0];
  e.facts = {fixed(row[0], 2), fixed(r.row_max, 2), fixed(r.exps[0], 4), fixed(r.exp_sum, 4), fixed(r.weights[0], 4)};
  e.ready = true;
}

// 5 the naive softmax in float16: right, overflowing, or all zeros.
void grade_stability(const AppState& state, ExerciseExpected& e) {
  const ScalingLabResults& r = state.scaling_lab;
  if (!state.has_scaling_lab || r.naive16.empty()) return;
  const bool finite = std::all_of(r.naive16.begin(), r.naive16.end(), [](float w) { return std::isfinite(w); });
  const bool zeros = std::all_of(r.naive16.begin(), r.naive16.end(), [](float w) { return w == 0.0f; });
  e.choice = r.naive16_overflow || !finite ? 1 : zeros ? 2 : 0;
  e.facts = {fixed(r.row_max, 2)};
  e.ready = true;
}

// 6 the worked example's first weight.
void grade_walkthrough(const AppState& state, ExerciseExpected& e) {
  const AttentionResult& w = state.scaling_lab.walk;
  if (!state.has_scaling_lab || w.weights.rows() < 1 || w.weights.cols() < 2) return;
  e.number = w.weights(0, 0);
  e.facts = {fixed(w.scores(0, 0), 3), fixed(w.scores(0, 1), 3), fixed(w.weights(0, 0), 4)};
  e.ready = true;
}

// Every cell of `row` within a hair of the row's largest weight.
void largest_in_row(const Mat& weights, int row, std::vector<CellAt>& cells) {
  const float top = weights.row(row).maxCoeff();
  for (int j = 0; j < weights.cols(); ++j)
    if (weights(row, j) >= top - 1e-6f * std::max(1.0f, std::abs(top))) cells.push_back({row, j});
}

// 7 the key the cursor's query weighs most (the largest scaled score).
void grade_pipeline(const AppState& state, ExerciseExpected& e) {
  const HeadTrace* h = focused(state);
  if (!h || h->weights.rows() == 0) return;
  const int row = std::clamp(state.settings.cursor, 0, static_cast<int>(h->weights.rows()) - 1);
  largest_in_row(h->weights, row, e.cells);
  const int col = e.cells.front().col;
  e.facts = {token_at(state, row), token_at(state, col), fixed(h->scaled_scores(row, col), 3), fixed(h->weights(row, col), 3)};
  e.ready = true;
}

// 8 RoPE's scores of the sentence after `shift` tokens against the sentence alone.
void grade_positions(const AppState& state, ExerciseExpected& e) {
  const PositionsFigures& f = state.modern.positions;
  if (!f.ok || f.rope_scores.size() == 0) return;
  const float scale = std::max(1e-6f, f.rope_scores.cwiseAbs().maxCoeff());
  const float d = f.rope_shift_difference;
  e.choice = d <= 1e-4f * scale ? 0 : d <= 0.1f * scale ? 1 : 2;
  e.facts = {std::to_string(f.shift), general(d), fixed(scale, 2)};
  e.ready = true;
}

// 9 every cell the mask takes away.
void grade_mask_cell(const AppState& state, ExerciseExpected& e) {
  const BoolMat& allowed = state.trace.allowed;
  if (!focused(state) || allowed.size() == 0) return;
  for (int i = 0; i < allowed.rows(); ++i)
    for (int j = 0; j < allowed.cols(); ++j)
      if (!allowed(i, j)) e.cells.push_back({i, j});
  e.facts = {std::to_string(allowed.rows()), std::to_string(e.cells.size())};
  e.ready = true;
}

// 10 the sums of the masked weights' rows (a row with every key masked has none).
void grade_mask_sum(const AppState& state, ExerciseExpected& e) {
  const HeadTrace* h = focused(state);
  if (!h || h->weights.rows() == 0) return;
  float lo = 2.0f, hi = -1.0f;
  for (int i = 0; i < h->weights.rows(); ++i) {
    if (i < static_cast<int>(h->fully_masked_rows.size()) && h->fully_masked_rows[i]) continue;
    const float sum = h->weights.row(i).sum();
    lo = std::min(lo, sum), hi = std::max(hi, sum);
  }
  if (hi < 0.0f) return;  // every row fully masked: nothing to sum
  e.choice = lo >= 1.0f - 1e-4f && hi <= 1.0f + 1e-4f ? 0 : hi < 1.0f ? 1 : 2;
  e.facts = {fixed(lo, 4), fixed(hi, 4)};
  e.ready = true;
}

// 11 the head of the shown layer that puts most weight on the previous character.
void grade_heads(const AppState& state, ExerciseExpected& e, int choices) {
  if (state.computed_for.source != SceneSource::Language || state.lm.labels.empty()) return;
  const int kind = static_cast<int>(lm::HeadKind::Previous);
  float best = -1.0f, second = -1.0f;
  for (const lm::HeadLabel& l : state.lm.labels) {
    if (l.layer != state.computed_for.layer || l.head >= choices) continue;
    const float score = l.scores[kind];
    if (score > best) second = best, best = score, e.choice = l.head;
    else second = std::max(second, score);
  }
  if (e.choice < 0) return;
  e.facts = {std::to_string(state.computed_for.layer) + "." + std::to_string(e.choice), fixed(best, 2), fixed(second, 2)};
  e.ready = true;
}

// 12 FlashAttention's output against exact attention's.
void grade_flash(const AppState& state, ExerciseExpected& e) {
  const FlashFigures& f = state.modern.flash;
  if (!f.ok || f.exact_output.size() == 0) return;
  const float scale = std::max(1e-6f, f.exact_output.cwiseAbs().maxCoeff());
  const float relative = f.max_difference / scale;
  e.choice = relative <= 1e-4f ? 0 : relative <= 0.05f ? 1 : 2;
  e.facts = {general(f.max_difference), fixed(scale, 2)};
  e.ready = true;
}

// 13 the rise in held-out bits per character of the first sample (English) under the switches.
void grade_language(const AppState& state, ExerciseExpected& e) {
  const LmResults& r = state.lm;
  if (state.computed_for.source != SceneSource::Language || r.bits_now.empty() || r.bits_base.empty()) return;
  e.number = r.bits_now[0] - r.bits_base[0];
  e.facts = {fixed(r.bits_base[0], 3), fixed(r.bits_now[0], 3), fixed(e.number, 3)};
  e.ready = true;
}

const char* kind_name(ExerciseKind k) { return choice_row(kExerciseKinds, k).name; }

}  // namespace

ExerciseExpected expected_answer(const AppState& state, int id) {
  ExerciseExpected e;
  if (id < 1 || id > kExercises) return e;
  const ExerciseInfo& info = exercise_info(id);
  e.kind = info.kind;
  switch (id) {
    case 1: grade_dot(state, e); break;
    case 2: grade_variance(state, e); break;
    case 3: grade_saturation(state, e); break;
    case 4: grade_softmax(state, e); break;
    case 5: grade_stability(state, e); break;
    case 6: grade_walkthrough(state, e); break;
    case 7: grade_pipeline(state, e); break;
    case 8: grade_positions(state, e); break;
    case 9: grade_mask_cell(state, e); break;
    case 10: grade_mask_sum(state, e); break;
    case 11: grade_heads(state, e, info.choices); break;
    case 12: grade_flash(state, e); break;
    case 13: grade_language(state, e); break;
    default: break;
  }
  return e;
}

bool answer_is_right(int id, const ExerciseExpected& expected, const ExerciseAnswer& answer) {
  if (id < 1 || id > kExercises || !expected.ready || answer.kind != expected.kind) return false;
  switch (answer.kind) {
    case ExerciseKind::Cell:
      return std::find(expected.cells.begin(), expected.cells.end(), answer.cell) != expected.cells.end();
    case ExerciseKind::Choice: return answer.choice == expected.choice;
    case ExerciseKind::Number:
      return std::isfinite(answer.number) && std::abs(answer.number - expected.number) <= exercise_info(id).tolerance;
  }
  return false;
}

bool update_exercise(AppState& state) {
  ExerciseSession& x = state.exercise;
  int& id = state.settings.exercise;
  // Entering a scene sets its own math (the language model's: its scale, causal), so the
  // patch goes on again once the scene it names is entered: at once, or when its model arrives.
  if (x.reapply && id == x.opened && id >= 1 && state.lm_scene) {
    x.reapply = false;
    update_results(state);
    apply_state_json(state, exercise_info(id).patch);
  }
  if (id == x.opened) return false;
  x.set_opened(id);
  if (id < 1 || id > kExercises) return false;
  const ExerciseInfo& info = exercise_info(id);
  open_panel_with(state, info.panel, info.patch);
  update_results(state);
  apply_state_json(state, info.patch);
  x.reapply = state.lm_wanted && !state.lm_scene;
  state.settings.exercise = id;
  state.settings.tour = 0;  // an exercise and a tour step are not shown together
  state.tour_opened = 0;
  return true;
}

void prepare_exercise_figures(AppState& state) {
  update_exercise(state);
  update_results(state);
  update_modern_panels(state);
}

Status answer_exercise(AppState& state, const ExerciseAnswer& answer, ExerciseExpected& expected, bool& correct) {
  prepare_exercise_figures(state);
  const int id = state.settings.exercise;
  if (id < 1 || id > kExercises) return Status::error(msg::app_exercise_none);
  const ExerciseInfo& info = exercise_info(id);
  if (answer.kind != info.kind) return Status::error(msg::app_exercise_kind, id, kind_name(info.kind));
  expected = expected_answer(state, id);
  if (!expected.ready) return Status::error(msg::app_exercise_not_ready, id);
  if (answer.kind == ExerciseKind::Choice && (answer.choice < 0 || answer.choice >= info.choices))
    return Status::error(msg::app_exercise_choice_range, info.choices - 1);
  if (answer.kind == ExerciseKind::Cell) {
    const int rows = state.trace.allowed.rows() > 0 ? static_cast<int>(state.trace.allowed.rows()) : 0;
    const int cols = state.trace.allowed.cols() > 0 ? static_cast<int>(state.trace.allowed.cols()) : 0;
    if (answer.cell.row < 0 || answer.cell.row >= rows || answer.cell.col < 0 || answer.cell.col >= cols)
      return Status::error(msg::app_exercise_cell_range, rows - 1, cols - 1);
  }
  correct = answer_is_right(id, expected, answer);
  ExerciseSession& x = state.exercise;
  ExerciseProgress& p = x.progress[id - 1];
  ++p.attempts;
  p.done = p.done || correct;
  x.answered = true;
  ++x.answers;
  x.correct = correct;
  x.given = answer;
  if (correct) x.revealed = true;
  return Status::success();
}

Status answer_exercise_value(AppState& state, const std::string& value_json, ExerciseExpected& expected, bool& correct,
                             bool& wrong_form) {
  wrong_form = true;
  update_exercise(state);
  const int id = state.settings.exercise;
  if (id < 1 || id > kExercises) return Status::error(msg::app_exercise_none);
  const ExerciseKind kind = exercise_info(id).kind;
  const Status form = Status::error(msg::app_exercise_kind, id, kind_name(kind));
  nlohmann::json j;
  if (!parse_json(value_json, 3, msg::app_state_not_json, j).ok) return form;
  ExerciseAnswer a;
  a.kind = kind;
  const auto whole = [](const nlohmann::json& v) { return v.is_number_integer() || (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() && std::abs(v.get<double>()) < 1e9); };
  switch (kind) {
    case ExerciseKind::Cell:
      if (!j.is_object() || !j.contains("row") || !j.contains("col") || !whole(j["row"]) || !whole(j["col"])) return form;
      a.cell = {static_cast<int>(j["row"].get<double>()), static_cast<int>(j["col"].get<double>())};
      break;
    case ExerciseKind::Choice:
      if (!whole(j)) return form;
      a.choice = static_cast<int>(j.get<double>());
      break;
    case ExerciseKind::Number:
      if (!j.is_number() || !std::isfinite(j.get<double>())) return form;
      a.number = j.get<double>();
      break;
  }
  wrong_form = false;
  return answer_exercise(state, a, expected, correct);
}

std::string expected_json(const ExerciseExpected& expected) {
  switch (expected.kind) {
    case ExerciseKind::Cell: {
      nlohmann::json cells = nlohmann::json::array();
      for (const CellAt& c : expected.cells) cells.push_back({{"row", c.row}, {"col", c.col}});
      return json_text(cells);
    }
    case ExerciseKind::Choice: return std::to_string(expected.choice);
    case ExerciseKind::Number: return json_text(nlohmann::json(expected.number));
  }
  return "null";
}

void reveal_exercise(AppState& state) { state.exercise.revealed = true; }

std::string exercise_progress_json(const AppState& state) {
  nlohmann::json out = nlohmann::json::array();
  for (int id = 1; id <= kExercises; ++id) {
    const ExerciseProgress& p = state.exercise.progress[id - 1];
    if (p.attempts > 0 || p.done) out.push_back({{"id", id}, {"attempts", p.attempts}, {"done", p.done}});
  }
  return json_text(out);
}

Status load_exercise_progress(AppState& state, const std::string& text) {
  nlohmann::json j;
  if (Status st = parse_json(text, 3, msg::app_state_not_json, j); !st.ok) return st;
  const Status wrong = Status::error(msg::app_exercise_progress, kExercises);
  if (!j.is_array()) return wrong;
  std::array<ExerciseProgress, kExercises> progress{};
  for (const nlohmann::json& row : j) {
    if (!row.is_object() || !row.contains("id") || !row["id"].is_number_integer()) return wrong;
    const long long id = row["id"].get<long long>();
    if (id < 1 || id > kExercises) return wrong;
    ExerciseProgress& p = progress[id - 1];
    if (row.contains("attempts")) {
      if (!row["attempts"].is_number_integer() || row["attempts"].get<long long>() < 0 || row["attempts"].get<long long>() > 1000000)
        return wrong;
      p.attempts = static_cast<int>(row["attempts"].get<long long>());
    }
    if (row.contains("done")) {
      if (!row["done"].is_boolean()) return wrong;
      p.done = row["done"].get<bool>();
    }
  }
  state.exercise.progress = progress;
  return Status::success();
}

void clear_exercise_progress(AppState& state) { state.exercise.progress = {}; }

}  // namespace attn
