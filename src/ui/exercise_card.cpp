#include "ui/exercise_card.h"

#include "app/exercise_grading.h"
#include "ui/drawn_text.h"
#include "ui/message_strings.h"
#include "ui/setting_widgets.h"
#include "ui/strings.h"
#include "ui/text_wrap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attn::ui {
namespace {

constexpr ImU32 kAskYellow = IM_COL32(255, 200, 0, 255);
const ImVec4 kRightGreen = ImVec4(0.35f, 0.85f, 0.45f, 1.0f);
const ImVec4 kWrongOrange = ImVec4(1.0f, 0.6f, 0.25f, 1.0f);

// Each exercise's strings (ui/strings.h); S::count where it has none (choices of a number).
struct Texts {
  S question, hint, why, choices;
};
constexpr Texts kTexts[kExercises] = {
    {S::exercise_question_1, S::exercise_hint_1, S::exercise_why_1, S::count},
    {S::exercise_question_2, S::exercise_hint_2, S::exercise_why_2, S::count},
    {S::exercise_question_3, S::exercise_hint_3, S::exercise_why_3, S::exercise_choices_3},
    {S::exercise_question_4, S::exercise_hint_4, S::exercise_why_4, S::count},
    {S::exercise_question_5, S::exercise_hint_5, S::exercise_why_5, S::exercise_choices_5},
    {S::exercise_question_6, S::exercise_hint_6, S::exercise_why_6, S::count},
    {S::exercise_question_7, S::exercise_hint_7, S::exercise_why_7, S::count},
    {S::exercise_question_8, S::exercise_hint_8, S::exercise_why_8, S::exercise_choices_8},
    {S::exercise_question_9, S::exercise_hint_9, S::exercise_why_9, S::count},
    {S::exercise_question_10, S::exercise_hint_10, S::exercise_why_10, S::exercise_choices_10},
    {S::exercise_question_11, S::exercise_hint_11, S::exercise_why_11, S::exercise_choices_11},
    {S::exercise_question_12, S::exercise_hint_12, S::exercise_why_12, S::exercise_choices_12},
    {S::exercise_question_13, S::exercise_hint_13, S::exercise_why_13, S::count},
};
const Texts& texts(int id) { return kTexts[std::clamp(id, 1, kExercises) - 1]; }

// `tmpl` with each "%s" replaced by the next fact, in order.
std::string with_facts(const char* tmpl, const std::vector<std::string>& facts) {
  std::string out;
  std::size_t next = 0;
  for (const char* p = tmpl; *p; ++p) {
    if (p[0] == '%' && p[1] == 's') {
      out += next < facts.size() ? facts[next] : "?";
      ++next;
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

void record_item(float box[4]) {
  const ImVec2 min = ImGui::GetItemRectMin(), size = ImGui::GetItemRectSize();
  box[0] = min.x, box[1] = min.y, box[2] = size.x, box[3] = size.y;
}

// The input of the shown exercise, kept between frames (the card's own; not state).
struct Input {
  int id = 0;
  int choice = -1;
  double number = 0.0;
  std::string error;  // a refused answer's reason (the figures not ready)
};
Input& input() {
  static Input in;
  return in;
}

// The right answer's reason as the figures are now, read off them only when they changed (a
// frame must not list every masked cell of a long sentence again): keyed on the exercise and
// the versions of the results the graders read, in the UI's language.
struct Verdict {
  int id = -1;
  std::uint64_t revision = 0, modern = 0;
  ScalingLabSettings lab;
  std::size_t lab_drawn = 0;  // the lab's sampled figures (drawn for their panel only)
  std::string bits_for, language;
  bool ready = false;
  std::string explanation;
};
const Verdict& verdict(const AppState& state, int id) {
  static Verdict v;
  const std::string lang = language() == Language::Chinese ? "zh" : "en";
  const std::size_t lab_drawn = (state.has_scaling_lab ? 1 : 0) + static_cast<std::size_t>(state.scaling_lab.hist_dk) * 2 +
                                state.scaling_lab.saturation_raw.size() * 4096;
  if (v.id != id || v.revision != state.revision || v.modern != state.modern.version ||
      !(v.lab == state.scaling_lab_computed_for) || v.lab_drawn != lab_drawn || v.bits_for != state.lm.bits_for ||
      v.language != lang) {
    v.lab_drawn = lab_drawn;
    v.id = id, v.revision = state.revision, v.modern = state.modern.version, v.lab = state.scaling_lab_computed_for;
    v.bits_for = state.lm.bits_for, v.language = lang;
    const ExerciseExpected e = expected_answer(state, id);
    v.ready = e.ready;
    v.explanation = e.ready ? with_facts(tr(texts(id).why), e.facts) : std::string();
  }
  return v;
}

void answer(AppState& state, const ExerciseAnswer& a) {
  ExerciseExpected expected;
  bool correct = false;
  const Status st = answer_exercise(state, a, expected, correct);
  input().error = st.ok ? std::string() : status_text(st);
}

// The answer's controls for the exercise's kind.
void draw_answer_controls(AppState& state, UiContext& ctx, const ExerciseInfo& info, int id) {
  ExerciseLayout& out = ctx.exercise;
  Input& in = input();
  if (info.kind == ExerciseKind::Cell) {
    if (!state.exercise.revealed) hint_text(tr(S::exercise_cell_prompt));
    if (ctx.exercise.cell_clicked) {
      ExerciseAnswer a;
      a.kind = ExerciseKind::Cell;
      a.cell = {ctx.exercise.cell_row, ctx.exercise.cell_col};
      answer(state, a);
    }
    if (state.exercise.answered && state.exercise.given.kind == ExerciseKind::Cell) {
      // The row and column by number and by token (the labels of a long sentence are thinned).
      const CellAt c = state.exercise.given.cell;
      const auto token = [&](int i) { return i >= 0 && i < static_cast<int>(state.tokens.size()) ? state.tokens[i].c_str() : ""; };
      char line[256];
      std::snprintf(line, sizeof line, tr(S::exercise_your_cell), c.row, token(c.row), c.col, token(c.col));
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      wrapped_text(line);
      ImGui::PopStyleColor();
    }
    return;
  }
  bool check = false;
  if (info.kind == ExerciseKind::Choice) {
    const std::vector<std::string> options = exercise_choices(id, language());
    for (int k = 0; k < static_cast<int>(options.size()); ++k) {
      // The option's text wraps beside its button (a narrow card); a click on either picks it.
      const std::string label = "##choice" + std::to_string(k);
      ImGui::BeginGroup();
      if (ImGui::RadioButton(label.c_str(), in.choice == k)) in.choice = k;
      ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
      wrapped_text(options[k]);
      ImGui::EndGroup();
      if (ImGui::IsItemClicked()) in.choice = k;
      const ImVec2 min = ImGui::GetItemRectMin(), size = ImGui::GetItemRectSize();
      out.choice_boxes.push_back({min.x, min.y, size.x, size.y});
    }
  } else {
    char prompt[160];
    std::snprintf(prompt, sizeof prompt, tr(S::exercise_tolerance), info.tolerance);
    wrapped_text(prompt);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    // The value follows the typing; Enter in the field checks it, as the button does (listed in
    // ui/key_bindings.h as KeyAction::ExerciseCheck).
    ImGui::InputDouble("##exercise-number", &in.number, 0.0, 0.0, "%.6g");
    check = ImGui::IsItemDeactivated() && ImGui::IsKeyPressed(ImGuiKey_Enter);
    record_item(out.input_box);
    flow_button(tr(S::exercise_check));
  }
  ImGui::BeginDisabled(info.kind == ExerciseKind::Choice && in.choice < 0);
  check = ImGui::Button(tr(S::exercise_check)) || check;
  record_item(out.check_box);
  ImGui::EndDisabled();
  if (!check) return;
  ExerciseAnswer a;
  a.kind = info.kind;
  a.choice = in.choice;
  a.number = in.number;
  answer(state, a);
}

// The verdict: right (with the reason), or not yet (with a hint); the reason once revealed.
void draw_feedback(const AppState& state, UiContext& ctx, int id) {
  const ExerciseSession& x = state.exercise;
  std::string text;
  if (!input().error.empty()) text = input().error;
  if (x.answered) {
    ImGui::TextColored(x.correct ? kRightGreen : kWrongOrange, "%s", tr(x.correct ? S::exercise_right : S::exercise_wrong));
    if (!x.correct && !x.revealed) text = tr(texts(id).hint);
  }
  if (x.revealed) text = verdict(state, id).explanation;
  if (!text.empty()) wrapped_text(text);
  ctx.exercise.feedback = text;
}

// Each box (x, y, w, h) of what the shown exercise asks about, drawn this frame.
template <class Fn>
void for_each_asked(const UiContext& ctx, Fn fn) {
  const ExerciseInfo& info = exercise_info(ctx.exercise.id);
  for (const auto& [id, p] : ctx.placements)
    if (veil_covers(info.veil, id)) fn(p.x, p.y, p.w, p.h);
  for (const auto& [id, p] : ctx.plots)
    if (veil_covers(info.veil, id)) fn(p.x, p.y, p.w, p.h);
  for (const auto& [id, b] : ctx.exercise.asked)
    if (!ctx.placements.count(id) && !ctx.plots.count(id)) fn(b[0], b[1], b[2], b[3]);
}

}  // namespace

void frame_asked(const UiContext& ctx) {
  if (ctx.exercise.id < 1) return;
  const float font = ImGui::GetFontSize();
  const float pad = std::max(3.0f, font * 0.25f), thick = std::max(2.0f, ctx.dpi_scale * 2.5f);
  ImDrawList* list = ImGui::GetWindowDrawList();
  for_each_asked(ctx, [&](float x, float y, float w, float h) {
    list->AddRect(ImVec2(x - pad, y - pad), ImVec2(x + w + pad, y + h + pad), kAskYellow, font * 0.3f, 0, thick);
  });
}

const char* exercise_question(int id, Language language) { return tr(texts(id).question, language); }

std::vector<std::string> exercise_choices(int id, Language language) {
  std::vector<std::string> out;
  if (texts(id).choices == S::count) return out;
  std::string_view all = tr(texts(id).choices, language);
  while (true) {
    const std::size_t nl = all.find('\n');
    out.emplace_back(all.substr(0, nl));
    if (nl == std::string_view::npos) break;
    all.remove_prefix(nl + 1);
  }
  return out;
}

std::string exercise_explanation(const AppState& state, int id) {
  const ExerciseExpected e = expected_answer(state, id);
  return e.ready ? with_facts(tr(texts(id).why), e.facts) : std::string();
}

bool exercise_card_shown(const Settings& s) {
  // (A link may name an exercise and another panel: no card then.)
  return s.exercise >= 1 && s.exercise <= kExercises && to_string(s.panel) == std::string(exercise_info(s.exercise).panel);
}

void begin_exercise_frame(const AppState& state, UiContext& ctx) {
  ExerciseLayout& out = ctx.exercise;
  out = ExerciseLayout();
  if (!exercise_card_shown(state.settings)) return;
  const int id = state.settings.exercise;
  const ExerciseInfo& info = exercise_info(id);
  out.id = id;
  if (!state.exercise.revealed) out.veil = info.veil;
  if (info.kind == ExerciseKind::Cell && !state.exercise.revealed) out.answer_on = info.answer_on;
}

bool veiled(const UiContext& ctx, std::string_view id) { return !ctx.exercise.veil.empty() && veil_covers(ctx.exercise.veil, id); }

void cover_veiled(UiContext& ctx, ImDrawList* list, const std::string& id, ImVec2 min, ImVec2 max) {
  const ImGuiStyle& style = ImGui::GetStyle();
  // The frame colour laid over the window's, opaque: nothing under the veil shows through.
  const ImVec4 frame = style.Colors[ImGuiCol_FrameBg], window = style.Colors[ImGuiCol_WindowBg];
  const float a = frame.w;
  const ImVec4 cover(frame.x * a + window.x * (1 - a), frame.y * a + window.y * (1 - a), frame.z * a + window.z * (1 - a), 1.0f);
  list->AddRectFilled(min, max, ImGui::GetColorU32(cover), 0.0f);
  list->AddRect(min, max, ImGui::GetColorU32(style.Colors[ImGuiCol_Border]), 0.0f);
  const char* words = tr(S::exercise_veiled);
  const ImVec2 size = ImGui::CalcTextSize(words);
  if (size.x < max.x - min.x && size.y < max.y - min.y)
    list->AddText(ImVec2((min.x + max.x - size.x) * 0.5f, (min.y + max.y - size.y) * 0.5f),
                  ImGui::GetColorU32(ImGuiCol_TextDisabled), words);
  ctx.exercise.veiled[id] = {min.x, min.y, max.x - min.x, max.y - min.y};
}

VeilGroup::VeilGroup(UiContext& ctx, const char* id) : ctx_(ctx), id_(id) { ImGui::BeginGroup(); }

VeilGroup::~VeilGroup() {
  ImGui::EndGroup();
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  const int id = ctx_.exercise.id;
  if (id >= 1 && veil_covers(exercise_info(id).veil, id_)) {
    ctx_.exercise.asked[id_] = {min.x, min.y, max.x - min.x, max.y - min.y};
    // In a scrolling part of the panel (a child window), that part scrolls to it first.
    if (ctx_.scroll_to_asked && (ImGui::GetCurrentWindow()->Flags & ImGuiWindowFlags_ChildWindow))
      ImGui::SetScrollFromPosY(min.y - ImGui::GetWindowPos().y, 0.1f);
  }
  if (veiled(ctx_, id_)) cover_veiled(ctx_, ImGui::GetWindowDrawList(), id_, min, max);
}

void draw_exercise_card(AppState& state, UiContext& ctx, const float column[4]) {
  ExerciseLayout& out = ctx.exercise;
  const int id = out.id;
  if (id < 1 || id > kExercises) return;
  const ExerciseInfo& info = exercise_info(id);
  if (input().id != id) {
    input() = Input();
    input().id = id;
  }
  out.question = tr(texts(id).question);

  // In the column beside the panel: it never hides the figure asked about.
  begin_side_card("##exercise", column, kAskYellow, ctx.dpi_scale);
  record_window_begin();
  ImGui::TextDisabled(tr(S::exercise_of), id, kExercises);
  wrapped_text(out.question);
  ImGui::Separator();
  if (!verdict(state, id).ready && state.lm_wanted)
    hint_text(tr(state.lm_unavailable ? S::lm_unavailable : S::exercise_waiting));
  draw_answer_controls(state, ctx, info, id);
  draw_feedback(state, ctx, id);
  ImGui::Spacing();
  int next = id;
  bool first = true;
  const auto button = [&first](const char* label) {
    if (!first) flow_button(label);
    first = false;
    return ImGui::Button(label);
  };
  if (!state.exercise.revealed) {
    if (button(tr(S::exercise_show))) reveal_exercise(state);
    record_item(out.show_box);
  }
  if (id > 1 && button(tr(S::exercise_previous))) next = id - 1;
  if (id < kExercises) {
    if (button(tr(S::exercise_next))) next = id + 1;
    record_item(out.next_box);
  }
  if (button(tr(S::exercise_close))) next = 0;
  const int done = static_cast<int>(std::count_if(state.exercise.progress.begin(), state.exercise.progress.end(),
                                                  [](const ExerciseProgress& p) { return p.done; }));
  ImGui::TextDisabled(tr(S::exercise_done), done, kExercises);
  record_window_end();
  end_side_card(out.box);
  state.settings.exercise = next;
}

}  // namespace attn::ui
