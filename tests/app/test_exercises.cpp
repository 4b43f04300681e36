// The exercises (app/exercises.h, app/exercise_grading.h) without a window: the table's
// rows open their panels with settings the state accepts; each grader reads the figures as
// they are now (a new seed, sentence or setting changes the right answer, the exercise stays
// open); answers are counted, refused when of the wrong form, and kept as progress.
#include "app/app_state.h"
#include "app/exercise_grading.h"
#include "app/exercises.h"
#include "app/lm_state.h"
#include "app/url_state.h"
#include "core/lm/language_model.h"
#include "support/tiny_lm.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>

namespace {

using attn::AppState;
using attn::CellAt;
using attn::ExerciseAnswer;
using attn::ExerciseExpected;
using attn::ExerciseKind;

// Opens exercise `id` as a link would and computes its figures.
AppState opened(int id, const std::string& extra = "") {
  AppState state;
  attn::update_results(state);
  REQUIRE(attn::apply_state_json(state, "{\"exercise\": " + std::to_string(id) + "}").ok);
  attn::prepare_exercise_figures(state);
  if (!extra.empty()) {
    REQUIRE(attn::apply_state_json(state, extra).ok);
    attn::prepare_exercise_figures(state);
  }
  return state;
}

ExerciseAnswer cell(int row, int col) {
  ExerciseAnswer a;
  a.kind = ExerciseKind::Cell;
  a.cell = {row, col};
  return a;
}
ExerciseAnswer choice(int c) {
  ExerciseAnswer a;
  a.kind = ExerciseKind::Choice;
  a.choice = c;
  return a;
}
ExerciseAnswer number(double v) {
  ExerciseAnswer a;
  a.kind = ExerciseKind::Number;
  a.number = v;
  return a;
}

// Answers the shown exercise; returns whether it was right (the answer must be taken).
bool right(AppState& state, const ExerciseAnswer& a) {
  ExerciseExpected expected;
  bool correct = false;
  const attn::Status st = attn::answer_exercise(state, a, expected, correct);
  INFO(st.message);
  REQUIRE(st.ok);
  return correct;
}

}  // namespace

TEST_CASE("exercises: every row opens its panel with settings the state takes, over at least 8 chapters", "[exercises]") {
  std::set<int> chapters;
  int cells = 0, choices = 0, numbers = 0;
  for (int id = 1; id <= attn::kExercises; ++id) {
    const attn::ExerciseInfo& info = attn::exercise_info(id);
    INFO("exercise " << id);
    const auto panel = attn::panel_from_id(info.panel);
    REQUIRE(panel);
    chapters.insert(static_cast<int>(attn::panel_info(*panel).chapter));
    AppState state;
    REQUIRE(attn::apply_state_json(state, info.patch).ok);
    REQUIRE(*info.veil);
    switch (info.kind) {
      case ExerciseKind::Cell:
        ++cells;
        REQUIRE(attn::veil_covers(info.veil, info.answer_on));
        break;
      case ExerciseKind::Choice:
        ++choices;
        REQUIRE(info.choices >= 2);
        break;
      case ExerciseKind::Number:
        ++numbers;
        REQUIRE(info.tolerance > 0.0);
        break;
    }
    AppState shown = opened(id);
    REQUIRE(shown.settings.exercise == id);
    REQUIRE(shown.settings.panel == *panel);
    REQUIRE_FALSE(shown.exercise.revealed);
  }
  REQUIRE(attn::kExercises >= 12);
  REQUIRE(chapters.size() >= 8);
  REQUIRE(cells >= 2);
  REQUIRE(choices >= 2);
  REQUIRE(numbers >= 2);
  REQUIRE(attn::veil_covers("heads/label/ lm/bits", "heads/label/3"));
  REQUIRE_FALSE(attn::veil_covers("heads/label/ lm/bits", "heads/3"));
  REQUIRE(attn::veil_covers("heads/label/ lm/bits", "lm/bits"));
  REQUIRE_FALSE(attn::veil_covers("heads/label/ lm/bits", "lm/bitsx"));
  REQUIRE_FALSE(attn::veil_covers("mask/weights", "mask/weight"));
}

TEST_CASE("exercises: the sentence scene's cell exercise follows the seed and the sentence, and stays open", "[exercises]") {
  AppState state = opened(7);
  REQUIRE(state.settings.source == attn::SceneSource::Generated);
  REQUIRE(state.settings.cursor == 7);
  // The right cell is the largest weight of the cursor's row (= the largest scaled score).
  auto best_of = [](const AppState& s) {
    const attn::Mat& w = s.trace.heads[s.settings.head].weights;
    int best = 0;
    for (int j = 1; j < w.cols(); ++j)
      if (w(s.settings.cursor, j) > w(s.settings.cursor, best)) best = j;
    int by_score = 0;
    const attn::Mat& sc = s.trace.heads[s.settings.head].scaled_scores;
    for (int j = 1; j < sc.cols(); ++j)
      if (sc(s.settings.cursor, j) > sc(s.settings.cursor, by_score)) by_score = j;
    REQUIRE(by_score == best);
    return best;
  };
  const int best = best_of(state);
  const ExerciseExpected e = attn::expected_answer(state, 7);
  REQUIRE(e.ready);
  REQUIRE(e.cells.size() == 1);
  REQUIRE(e.cells[0] == CellAt{7, best});
  REQUIRE(e.facts[0] == state.tokens[7]);
  REQUIRE(e.facts[1] == state.tokens[best]);

  const int wrong_col = (best + 1) % static_cast<int>(state.tokens.size());
  REQUIRE_FALSE(right(state, cell(7, wrong_col)));
  REQUIRE_FALSE(state.exercise.revealed);  // a wrong answer leaves the figure veiled
  REQUIRE(state.exercise.progress[6].attempts == 1);
  REQUIRE_FALSE(state.exercise.progress[6].done);
  REQUIRE(right(state, cell(7, best)));
  REQUIRE(state.exercise.revealed);
  REQUIRE(state.exercise.progress[6] == attn::ExerciseProgress{2, true});

  // Another seed: the exercise stays open and its answer is the new row's largest weight.
  bool changed = false;
  for (int seed = 2; seed < 12 && !changed; ++seed) {
    REQUIRE(attn::apply_state_json(state, "{\"seed\": " + std::to_string(seed) + "}").ok);
    attn::prepare_exercise_figures(state);
    REQUIRE(state.settings.exercise == 7);
    const int now = best_of(state);
    REQUIRE(attn::expected_answer(state, 7).cells[0] == CellAt{7, now});
    changed = now != best;
  }
  REQUIRE(changed);
  // Another sentence: the cursor's row is clamped to it and graded there.
  REQUIRE(attn::apply_state_json(state, R"({"sentence": "a b c"})").ok);
  attn::prepare_exercise_figures(state);
  REQUIRE(state.settings.exercise == 7);
  const ExerciseExpected short_e = attn::expected_answer(state, 7);
  REQUIRE(short_e.cells[0].row == 2);
  REQUIRE(short_e.cells[0] == CellAt{2, best_of(state)});
}

TEST_CASE("exercises: the causal mask's cells are every key after the query, in the sentence as it is", "[exercises]") {
  AppState state = opened(9);
  const int n = static_cast<int>(state.tokens.size());
  ExerciseExpected e = attn::expected_answer(state, 9);
  REQUIRE(e.ready);
  REQUIRE(static_cast<int>(e.cells.size()) == n * (n - 1) / 2);
  for (const CellAt& c : e.cells) REQUIRE(c.col > c.row);
  REQUIRE_FALSE(right(state, cell(2, 1)));
  REQUIRE_FALSE(right(state, cell(2, 2)));
  REQUIRE(right(state, cell(2, 3)));
  REQUIRE(attn::apply_state_json(state, R"({"sentence": "one two three"})").ok);
  attn::prepare_exercise_figures(state);
  e = attn::expected_answer(state, 9);
  REQUIRE(e.cells.size() == 3);
  REQUIRE(e.facts == std::vector<std::string>{"3", "3"});
  // A cell outside the matrix is refused and not counted.
  ExerciseExpected out;
  bool correct = true;
  const int attempts = state.exercise.progress[8].attempts;
  REQUIRE_FALSE(attn::answer_exercise(state, cell(3, 0), out, correct).ok);
  REQUIRE(state.exercise.progress[8].attempts == attempts);
}

TEST_CASE("exercises: numbers are read off the figures, within the stated tolerance", "[exercises]") {
  SECTION("the dot product of q and the long key") {
    AppState state = opened(1);
    const ExerciseExpected e = attn::expected_answer(state, 1);
    REQUIRE(e.number == Approx(2 * 4 + 1 * -0.5));
    REQUIRE_FALSE(right(state, number(4.5)));  // q.k, the nearer key's
    REQUIRE(right(state, number(7.52)));
    REQUIRE(attn::apply_state_json(state, R"({"lab": {"kLong": [1, 1]}})").ok);
    REQUIRE(attn::expected_answer(opened(1, R"({"lab": {"kLong": [1, 1]}})"), 1).number == Approx(3.0));
  }
  SECTION("the variance of q.k at d_k = 256, as sampled") {
    AppState state = opened(2);
    const ExerciseExpected e = attn::expected_answer(state, 2);
    REQUIRE(e.ready);
    REQUIRE(e.number == Approx(256).margin(40));
    REQUIRE(right(state, number(256)));
    REQUIRE_FALSE(right(state, number(16)));  // sqrt(d_k) is the spread, not the variance
    AppState wide = opened(2, R"({"lab": {"dk": 1024}})");
    REQUIRE(attn::expected_answer(wide, 2).number == Approx(1024).margin(160));
  }
  SECTION("softmax's weight of the largest score") {
    AppState state = opened(4);
    const double e0 = std::exp(0.0), sum = e0 + std::exp(-1.0) + std::exp(-1.9) + std::exp(-3.0);
    REQUIRE(attn::expected_answer(state, 4).number == Approx(e0 / sum).epsilon(1e-5));
    REQUIRE(right(state, number(0.64)));
    REQUIRE_FALSE(right(state, number(0.5)));
    AppState flat = opened(4, R"({"lab": {"row": [1, 1, 1, 1]}})");
    REQUIRE(attn::expected_answer(flat, 4).number == Approx(0.25));
  }
  SECTION("the worked example's first weight") {
    AppState state = opened(6);
    // Q = [[1,2],[2,1]], K = [[2,1],[1,2]]: row 0 scores 4 and 5, over sqrt(2).
    const double a = 4 / std::sqrt(2.0), b = 5 / std::sqrt(2.0);
    const double w = std::exp(a) / (std::exp(a) + std::exp(b));
    REQUIRE(attn::expected_answer(state, 6).number == Approx(w).epsilon(1e-5));
    REQUIRE(right(state, number(0.33)));
  }
}

TEST_CASE("exercises: choices are graded by what the figures show now", "[exercises]") {
  SECTION("saturation: one-hot without the scale, not with it") {
    REQUIRE(attn::expected_answer(opened(3), 3).choice == 0);
    REQUIRE(attn::expected_answer(opened(3, R"({"lab": {"scaled": true}})"), 3).choice != 0);
  }
  SECTION("stability: the naive float16 softmax overflows at 12, not at 2") {
    AppState state = opened(5);
    REQUIRE(attn::expected_answer(state, 5).choice == 1);
    REQUIRE(right(state, choice(1)));
    REQUIRE(attn::expected_answer(opened(5, R"({"lab": {"row": [2, 1, 0.1, -1]}})"), 5).choice == 0);
  }
  SECTION("positions: RoPE's scores of the shifted sentence equal the sentence's") {
    AppState state = opened(8);
    const ExerciseExpected e = attn::expected_answer(state, 8);
    REQUIRE(e.ready);
    REQUIRE(e.choice == 0);
    REQUIRE(state.modern.positions.shift == 5);
  }
  SECTION("masks: every row still sums to 1") {
    AppState state = opened(10);
    REQUIRE(attn::expected_answer(state, 10).choice == 0);
    REQUIRE_FALSE(right(state, choice(2)));
    REQUIRE(right(state, choice(0)));
  }
  SECTION("FlashAttention agrees with exact attention to rounding") {
    AppState state = opened(12);
    const ExerciseExpected e = attn::expected_answer(state, 12);
    REQUIRE(e.ready);
    REQUIRE(e.choice == 0);
    REQUIRE(state.modern.flash.max_difference < 1e-4f);
  }
}

TEST_CASE("exercises: the language model's exercises wait for it, then read its heads and bits", "[exercises][lm]") {
  AppState state = opened(11);
  REQUIRE_FALSE(attn::expected_answer(state, 11).ready);  // the model is not loaded: the scene waits
  ExerciseExpected e;
  bool correct = false;
  REQUIRE(attn::answer_exercise(state, choice(0), e, correct).message.find("not ready") != std::string::npos);
  REQUIRE(state.exercise.progress[10].attempts == 0);

  attn::lm::LanguageModel m = attn::test::tiny_model(20);
  m.samples = {{0, "The cat sat. A dog ran."}, {1, "床前明月光"}};
  const std::vector<std::uint8_t> bytes = attn::lm::serialize_language_model(m);
  REQUIRE(attn::load_lm_scene(state.lm_scene, bytes.data(), bytes.size(), "tiny").ok);
  REQUIRE(attn::apply_state_json(state, R"({"source": "language", "sentence": "The cat sat", "layer": 0})").ok);
  attn::prepare_exercise_figures(state);
  REQUIRE(state.settings.exercise == 11);
  e = attn::expected_answer(state, 11);
  REQUIRE(e.ready);
  int best = -1;
  float top = -1;
  for (const attn::lm::HeadLabel& l : state.lm.labels)
    if (l.layer == 0 && l.scores[static_cast<int>(attn::lm::HeadKind::Previous)] > top)
      top = l.scores[static_cast<int>(attn::lm::HeadKind::Previous)], best = l.head;
  REQUIRE(e.choice == best);
  REQUIRE(right(state, choice(best)));

  // Opened before the model is here, its patch (no scale) is applied again once the model
  // arrives and the scene is entered with the model's own math.
  AppState waiting = opened(13);
  REQUIRE(waiting.lm_wanted);
  REQUIRE(attn::load_lm_scene(waiting.lm_scene, bytes.data(), bytes.size(), "tiny").ok);
  waiting.lm_wanted = false;
  waiting.settings.source = attn::SceneSource::Language;  // as the page's loadLanguageModel does
  REQUIRE(attn::apply_state_json(waiting, R"({"sentence": "The cat sat"})").ok);
  attn::prepare_exercise_figures(waiting);
  REQUIRE(waiting.settings.source == attn::SceneSource::Language);
  REQUIRE(waiting.settings.math.scale_kind == attn::ScaleKind::None);
  REQUIRE(attn::expected_answer(waiting, 13).number > 0.0);

  REQUIRE(attn::apply_state_json(state, R"({"exercise": 13})").ok);
  attn::prepare_exercise_figures(state);
  REQUIRE(state.settings.panel == attn::Panel::Language);
  REQUIRE(state.settings.math.scale_kind == attn::ScaleKind::None);
  e = attn::expected_answer(state, 13);
  REQUIRE(e.ready);
  REQUIRE(e.number == Approx(state.lm.bits_now[0] - state.lm.bits_base[0]));
  REQUIRE(e.number != 0.0);
  REQUIRE(right(state, number(e.number + 0.05)));
  REQUIRE_FALSE(right(state, number(e.number + 0.2)));
}

TEST_CASE("exercises: wrong forms and no exercise are refused and count nothing; a tour step closes it", "[exercises]") {
  AppState state;
  attn::update_results(state);
  ExerciseExpected e;
  bool correct = false;
  REQUIRE(attn::answer_exercise(state, choice(0), e, correct).message == "no exercise is shown");
  state = opened(4);
  const attn::Status st = attn::answer_exercise(state, cell(0, 0), e, correct);
  REQUIRE(st.message == "exercise 4 takes a 'number' answer");
  REQUIRE(attn::answer_exercise(state, number(NAN), e, correct).ok);  // taken, and wrong
  REQUIRE_FALSE(correct);
  REQUIRE(state.exercise.progress[3].attempts == 1);
  state = opened(5);
  REQUIRE(attn::answer_exercise(state, choice(3), e, correct).message == "the choice must be a whole number from 0 to 2");
  REQUIRE(state.exercise.progress[4].attempts == 0);

  // A state that names an exercise and another panel keeps both (a link copied so).
  REQUIRE(attn::apply_state_json(state, R"({"panel": "pipeline", "exercise": 5})").ok);
  attn::update_exercise(state);
  REQUIRE(state.settings.exercise == 5);
  REQUIRE(state.settings.panel == attn::Panel::Pipeline);
  REQUIRE(attn::apply_state_json(state, R"({"tour": 3})").ok);
  attn::update_tour(state);
  REQUIRE(state.settings.exercise == 0);
  REQUIRE(state.settings.panel == attn::Panel::Variance);
  REQUIRE(attn::apply_state_json(state, R"({"exercise": 2})").ok);
  attn::update_exercise(state);
  REQUIRE(state.settings.tour == 0);
}

TEST_CASE("exercises: a link keeps the exercise; alone it opens with its settings, with more it is taken as it is", "[exercises]") {
  AppState state;
  attn::update_results(state);
  REQUIRE(attn::load_fragment(state, "#v=3&exercise=9").ok);
  attn::prepare_exercise_figures(state);
  REQUIRE(state.settings.panel == attn::Panel::Mask);
  REQUIRE(state.settings.math.mask.causal);
  // The link of the shown exercise, after the learner changed the sentence.
  REQUIRE(attn::apply_state_json(state, R"({"sentence": "one two three four"})").ok);
  attn::prepare_exercise_figures(state);
  const std::string link = attn::settings_to_fragment(state.settings);
  REQUIRE(link.find("exercise=9") != std::string::npos);
  AppState other;
  attn::update_results(other);
  REQUIRE(attn::load_fragment(other, link).ok);
  attn::prepare_exercise_figures(other);
  REQUIRE(other.settings.exercise == 9);
  REQUIRE(other.settings.sentence == "one two three four");
  REQUIRE(attn::expected_answer(other, 9).cells.size() == 6);
}

TEST_CASE("exercises: progress round-trips as JSON, a bad copy is refused, and it can be cleared", "[exercises]") {
  AppState state = opened(10);
  REQUIRE(right(state, choice(0)));
  const std::string json = attn::exercise_progress_json(state);
  REQUIRE(json == R"([{"attempts":1,"done":true,"id":10}])");
  AppState other;
  REQUIRE(attn::load_exercise_progress(other, json).ok);
  REQUIRE(other.exercise.progress == state.exercise.progress);
  for (const char* bad : {"{}", "[{\"id\": 0}]", "[{\"id\": 14}]", "[{\"id\": 1, \"done\": 1}]", "[{\"id\": 1, \"attempts\": -1}]", "[1]", "nope"}) {
    INFO(bad);
    REQUIRE_FALSE(attn::load_exercise_progress(other, bad).ok);
    REQUIRE(other.exercise.progress == state.exercise.progress);
  }
  attn::clear_exercise_progress(other);
  REQUIRE(attn::exercise_progress_json(other) == "[]");
}

TEST_CASE("exercises: the page's answer values by kind; other forms are refused as the wrong form", "[exercises]") {
  AppState state = opened(9);
  ExerciseExpected e;
  bool correct = false, wrong_form = false;
  REQUIRE(attn::answer_exercise_value(state, R"({"row": 1, "col": 4})", e, correct, wrong_form).ok);
  REQUIRE(correct);
  REQUIRE_FALSE(wrong_form);
  const std::string cells = attn::expected_json(e);
  REQUIRE(cells.substr(0, 30) == R"([{"col":1,"row":0},{"col":2,"r)");
  for (const char* bad : {"3", "null", R"({"row": 1})", R"({"row": "1", "col": 2})", R"({"row": 1.5, "col": 2})", "[1, 2]", "nope"}) {
    INFO(bad);
    const attn::Status st = attn::answer_exercise_value(state, bad, e, correct, wrong_form);
    REQUIRE_FALSE(st.ok);
    REQUIRE(wrong_form);
    REQUIRE(st.message == "exercise 9 takes a 'cell' answer");
  }
  REQUIRE(state.exercise.progress[8].attempts == 1);
  REQUIRE(state.exercise.answers == 1);

  state = opened(12);
  REQUIRE(attn::answer_exercise_value(state, "0", e, correct, wrong_form).ok);
  REQUIRE(correct);
  REQUIRE(attn::expected_json(e) == "0");
  REQUIRE_FALSE(attn::answer_exercise_value(state, "0.5", e, correct, wrong_form).ok);
  REQUIRE(wrong_form);
  REQUIRE_FALSE(attn::answer_exercise_value(state, "7", e, correct, wrong_form).ok);  // the form is right, the range not
  REQUIRE_FALSE(wrong_form);

  state = opened(4);
  REQUIRE(attn::answer_exercise_value(state, "0.6381", e, correct, wrong_form).ok);
  REQUIRE(correct);
  REQUIRE(std::stod(attn::expected_json(e)) == Approx(0.638).margin(1e-3));
  REQUIRE_FALSE(attn::answer_exercise_value(state, R"("0.6")", e, correct, wrong_form).ok);
  REQUIRE(wrong_form);

  AppState none;
  REQUIRE(attn::answer_exercise_value(none, "1", e, correct, wrong_form).message == "no exercise is shown");
  REQUIRE(wrong_form);
}
