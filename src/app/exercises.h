// The exercises: questions asked about a figure before it is shown, answered by clicking a
// cell, picking a choice or typing a number, and graded against the figures as they are now
// (app/exercise_grading.h), so a changed sentence or seed changes the right answer.
//
// Like the tour (app/tour.h), an exercise is a row of a table: the panel it asks about, the
// settings it sets when it opens (a state patch, as setState takes), what of the panel stays
// veiled until it is answered, and for a cell exercise the heatmap whose click answers it.
// The state key `exercise` (0: none; 1..kExercises) opens one, so each has a link. Its texts
// are the UI's (ui/strings.h: exercise_question_N, exercise_choices_N, exercise_why_N).
#pragma once

#include "app/panel_registry.h"
#include "core/base/choices.h"

#include <array>
#include <string>
#include <string_view>

namespace attn {

#define ATTNLAB_EXERCISE_KINDS(X) X(Cell, "cell") X(Choice, "choice") X(Number, "number")
enum class ExerciseKind { ATTNLAB_EXERCISE_KINDS(ATTNLAB_CHOICE_ENUMERATOR) };
#define ATTNLAB_EXERCISE_KIND_ROW(value, name) {ExerciseKind::value, name},
inline constexpr NamedChoice<ExerciseKind> kExerciseKinds[] = {ATTNLAB_EXERCISE_KINDS(ATTNLAB_EXERCISE_KIND_ROW)};
#undef ATTNLAB_EXERCISE_KIND_ROW
static_assert(choices_in_order(kExerciseKinds));

struct ExerciseInfo {
  const char* panel;      // the panel's id
  ExerciseKind kind;
  const char* patch;      // settings set when it opens (a JSON object)
  // What stays hidden until the learner answers: ids of heatmaps, plots and readouts, separated
  // by spaces; an id ending in '/' veils every id under it ("heads/" veils heads/0, heads/1...).
  const char* veil;
  const char* answer_on;  // cell: the heatmap whose click answers ("" for the other kinds)
  int choices;            // choice: how many (the texts are the UI's)
  double tolerance;       // number: the largest accepted |answer - expected|
};

inline constexpr int kExercises = 13;
const ExerciseInfo& exercise_info(int id);  // id in 1..kExercises

// The first exercise asked on a panel of `chapter`; the first of all where it has none.
int first_exercise_of(Chapter chapter);

// Whether the veil `veil` (an ExerciseInfo::veil) hides the element `id`.
bool veil_covers(std::string_view veil, std::string_view id);

// A learner's record of one exercise: answers given and whether one was right. Kept beside
// the stored session by the page (never in links); cleared on request.
struct ExerciseProgress {
  int attempts = 0;
  bool done = false;
  bool operator==(const ExerciseProgress&) const = default;
};

struct CellAt {
  int row = 0, col = 0;
  bool operator==(const CellAt&) const = default;
};

// An answer, in the form of its exercise's kind.
struct ExerciseAnswer {
  ExerciseKind kind = ExerciseKind::Choice;
  CellAt cell;
  int choice = -1;
  double number = 0.0;
};

// The shown exercise as the learner left it: opened (the id whose panel and settings were last
// opened, as tour_opened), whether its figure is revealed, and the last answer's verdict.
struct ExerciseSession {
  int opened = 0;
  bool revealed = false;
  bool answered = false;       // `correct` and `given` hold the last answer to this exercise
  bool correct = false;
  ExerciseAnswer given;
  int answers = 0;             // answers taken since the start (the page tells its listeners of each)
  bool reapply = false;        // its patch to apply again once the language model is here
  std::array<ExerciseProgress, kExercises> progress{};
  // Taken as opened without its settings (a link or session made while it was shown); -1
  // opens it again.
  void set_opened(int id) {
    opened = id;
    revealed = answered = correct = reapply = false;
  }
};

}  // namespace attn
