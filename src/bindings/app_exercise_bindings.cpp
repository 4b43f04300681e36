// Embind functions behind the page's exercises (web/api.mjs: exercises(), answer(),
// exerciseProgress(), loadExerciseProgress(), clearExerciseProgress()).
//   exercisesJson()            [{id, chapter, panel, kind, question: {en, zh}, tolerance?:
//                              {absolute}, choices?: [{en, zh}]}]
//   answerExerciseJson(value)  answers the shown exercise with `value` (JSON: {row, col}, an
//                              index or a number): {ok: true, exercise, correct, attempts,
//                              expected, explanation} or {ok: false, typeError, waiting,
//                              error} (waiting: for the language model, which the page loads)
//   exerciseProgressJson()     [{id, attempts, done}] of the exercises tried
//   loadExerciseProgress(json) "" or why not (nothing changes then)
//   clearExerciseProgress()
//   exerciseAnswerCount()      answers taken so far; lastAnswerJson() {exercise, correct, attempts}
#include "app/app_messages.h"
#include "app/exercise_grading.h"
#include "app/exercises.h"
#include "bindings/app_handle.h"
#include "files/json_text.h"
#include "ui/app.h"
#include "ui/exercise_card.h"
#include "ui/message_strings.h"

#include <emscripten/bind.h>

#include <nlohmann/json.hpp>

#include <string>

namespace {

using attn::bindings::exposed_app;
using attn::ui::Language;

std::string exercises_json() {
  nlohmann::json out = nlohmann::json::array();
  for (int id = 1; id <= attn::kExercises; ++id) {
    const attn::ExerciseInfo& info = attn::exercise_info(id);
    const auto panel = attn::panel_from_id(info.panel);
    nlohmann::json row = {{"id", id},
                          {"chapter", panel ? attn::chapter_id(attn::panel_info(*panel).chapter) : ""},
                          {"panel", info.panel},
                          {"kind", attn::choice_row(attn::kExerciseKinds, info.kind).name},
                          {"question", {{"en", attn::ui::exercise_question(id, Language::English)},
                                        {"zh", attn::ui::exercise_question(id, Language::Chinese)}}}};
    if (info.kind == attn::ExerciseKind::Number) row["tolerance"] = {{"absolute", info.tolerance}};
    if (info.kind == attn::ExerciseKind::Choice) {
      const std::vector<std::string> en = attn::ui::exercise_choices(id, Language::English);
      const std::vector<std::string> zh = attn::ui::exercise_choices(id, Language::Chinese);
      nlohmann::json choices = nlohmann::json::array();
      for (std::size_t k = 0; k < en.size() && k < zh.size(); ++k) choices.push_back({{"en", en[k]}, {"zh", zh[k]}});
      row["choices"] = choices;
    }
    out.push_back(row);
  }
  return attn::json_text(out);
}

std::string answer_exercise_json(const std::string& value) {
  attn::ui::App* app = exposed_app();
  if (!app) return R"({"ok": false, "typeError": false, "error": "the app is not running"})";
  attn::AppState& state = app->state();
  attn::ExerciseExpected expected;
  bool correct = false, wrong_form = false;
  const attn::Status st = attn::answer_exercise_value(state, value, expected, correct, wrong_form);
  if (!st.ok) {
    attn::bindings::refused(st);  // refusalText() gives it in the lab's language
    // The language model still loading: the page loads it and asks again.
    const bool waiting = !wrong_form && state.lm_wanted;
    return attn::json_text({{"ok", false}, {"typeError", wrong_form}, {"waiting", waiting}, {"error", st.message}});
  }
  const int id = state.settings.exercise;
  nlohmann::json expected_value;
  (void)attn::parse_json(attn::expected_json(expected), 3, attn::msg::app_state_not_json, expected_value);  // ours
  return attn::json_text({{"ok", true},
                          {"exercise", id},
                          {"correct", correct},
                          {"attempts", state.exercise.progress[id - 1].attempts},
                          {"expected", expected_value},
                          {"explanation", attn::ui::exercise_explanation(state, id)}});
}

std::string exercise_progress_json() {
  attn::ui::App* app = exposed_app();
  return app ? attn::exercise_progress_json(app->state()) : "[]";
}

std::string load_exercise_progress(const std::string& json) {
  attn::ui::App* app = exposed_app();
  if (!app) return "the app is not running";
  return attn::bindings::refused(attn::load_exercise_progress(app->state(), json));
}

// How many answers were taken (through the card or answerExerciseJson), and the last one:
// {exercise, correct, attempts} (the page's 'answer' event).
int exercise_answer_count() { return exposed_app() ? exposed_app()->state().exercise.answers : 0; }
std::string last_answer_json() {
  attn::ui::App* app = exposed_app();
  if (!app) return "null";
  const attn::ExerciseSession& x = app->state().exercise;
  const int id = x.opened;
  if (id < 1 || id > attn::kExercises || !x.answered) return "null";
  return attn::json_text({{"exercise", id}, {"correct", x.correct}, {"attempts", x.progress[id - 1].attempts}});
}

void clear_exercise_progress() {
  if (attn::ui::App* app = exposed_app()) attn::clear_exercise_progress(app->state());
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_exercises) {
  emscripten::function("exercisesJson", &exercises_json);
  emscripten::function("answerExerciseJson", attn::bindings::waking<&answer_exercise_json>);
  emscripten::function("exerciseProgressJson", &exercise_progress_json);
  emscripten::function("loadExerciseProgress", attn::bindings::waking<&load_exercise_progress>);
  emscripten::function("clearExerciseProgress", attn::bindings::waking<&clear_exercise_progress>);
  emscripten::function("exerciseAnswerCount", &exercise_answer_count);
  emscripten::function("lastAnswerJson", &last_answer_json);
}
