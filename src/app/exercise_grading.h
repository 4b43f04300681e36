// Grading the exercises (app/exercises.h) against the figures as they are now: the right
// answer is read from the state's results each time (the sentence's weights, the scaling lab's
// measurements, the language model's head scores), never from a stored key.
#pragma once

#include "app/app_state.h"
#include "app/exercises.h"

#include <string>
#include <vector>

namespace attn {

// The right answer to an exercise, as the figures are now.
struct ExerciseExpected {
  bool ready = false;            // false: its figures are not there (the language model still loading)
  ExerciseKind kind = ExerciseKind::Choice;
  std::vector<CellAt> cells;     // cell: every accepted cell (ties happen)
  int choice = -1;               // choice: the right option's index
  double number = 0.0;           // number: the value, within ExerciseInfo::tolerance
  // The figures' values the explanation quotes, formatted, in the order of its template
  // (ui/strings.h: exercise_why_N): a token, a weight, a variance...
  std::vector<std::string> facts;
};

// Reads the right answer to exercise `id` (1..kExercises) off the state's results; the
// results must be current (prepare_exercise_figures).
ExerciseExpected expected_answer(const AppState& state, int id);

// Whether `answer` (of the exercise's kind) is right.
bool answer_is_right(int id, const ExerciseExpected& expected, const ExerciseAnswer& answer);

// Opens the exercise the state's `exercise` names when it changed since the last call: its
// panel and settings, the figure veiled again, no verdict shown (a tour step closes). Returns
// whether one was opened.
bool update_exercise(AppState& state);

// Brings the shown exercise's figures up to date now (what a frame would compute), so an
// answer given between frames is graded against what the page will show.
void prepare_exercise_figures(AppState& state);

// Grades `answer` to the shown exercise: counts the attempt, keeps the verdict for the card,
// and reveals the figure when the answer is right. An answer of another kind, or no exercise
// shown, is refused (nothing counted); so is one while the figures are not ready.
Status answer_exercise(AppState& state, const ExerciseAnswer& answer, ExerciseExpected& expected, bool& correct);

// The page's answer(value): `value_json` is {"row": r, "col": c} for a cell exercise, the
// option's index for a choice, a number for a number. A value of another form, or no exercise
// shown, is refused with `wrong_form` set (the page throws a TypeError); nothing is counted.
Status answer_exercise_value(AppState& state, const std::string& value_json, ExerciseExpected& expected, bool& correct,
                             bool& wrong_form);

// The right answer in the form of the exercise's answers, as JSON: every accepted
// [{"row", "col"}] of a cell exercise, the index of a choice, the number.
std::string expected_json(const ExerciseExpected& expected);

// The figure shown without an answer (the learner gives up or has answered): the veil lifts.
void reveal_exercise(AppState& state);

// The learner's progress as JSON ([{id, attempts, done}]) and back (a stored copy, checked:
// on any error nothing changes); clear_exercise_progress forgets it.
std::string exercise_progress_json(const AppState& state);
Status load_exercise_progress(AppState& state, const std::string& text);
void clear_exercise_progress(AppState& state);

}  // namespace attn
