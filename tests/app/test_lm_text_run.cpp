// "Train on your text" as the app keeps it (app/lm_text_run.h): a text checked before training,
// a refused text that leaves the run and its curves as they were, and the page's reports
// (points added, heads and sample replaced, a bad report refused whole).
#include "app/lm_text_run.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace {

std::string lines_text(int lines) {
  std::string s;
  for (int i = 0; i < lines; ++i) s += "the cat sat on the mat, line " + std::to_string(i % 10) + ".\n";
  return s;
}

}  // namespace

TEST_CASE("lm text run: a checked text, reports, and refusals that keep the run", "[lm][app]") {
  attn::LmTextRun run;
  run.available = true;
  const std::string text = lines_text(120);
  REQUIRE(attn::check_lm_text(run, text, "cats.txt", "quick").ok);
  REQUIRE(run.phase == attn::LmTextPhase::Ready);
  REQUIRE(run.available);
  REQUIRE(run.steps == 400);  // the quick preset's
  REQUIRE(run.summary.split.characters == static_cast<long long>(text.size()));
  REQUIRE(run.summary.bigram_bits > 0.5);

  REQUIRE(attn::update_lm_text_run(run, R"({"phase":"training","step":50,"steps":400,"trainBits":4.5,)"
                                        R"("heldOutBits":4.2,"charactersPerSecond":30000,"seconds":2.5})").ok);
  REQUIRE(attn::update_lm_text_run(run, R"({"step":100,"trainBits":3.5,"headsStep":100,"heads":[)"
                                        R"({"layer":0,"head":1,"label":"previous","score":0.8,"previous":0.8},)"
                                        R"({"layer":0,"head":2,"label":"mixed","score":0,"previous":0.1}],)"
                                        R"("sample":{"prompt":"the ","text":"cat sat"}})").ok);
  REQUIRE(run.train_steps == std::vector<double>{50, 100});
  REQUIRE(run.train_bits == std::vector<double>{4.5, 3.5});
  REQUIRE(run.held_steps == std::vector<double>{50});
  REQUIRE(run.heads.size() == 2);
  REQUIRE(run.heads[0].label == attn::lm::HeadKind::Previous);
  REQUIRE(run.heads[0].previous == Approx(0.8f));
  REQUIRE(run.sample == "cat sat");

  // Reports that are not valid change nothing, whatever else they carry.
  const attn::LmTextRun before = run;
  for (const char* bad : {R"({"step":500,"trainBits":1})", R"({"phase":"flying"})", R"({"trainBits":"low"})",
                          R"({"heads":[{"layer":0,"head":0,"label":"psychic","score":1,"previous":0}],"step":120})",
                          R"({"step":1.5})", R"([1,2])", "not json"}) {
    INFO(bad);
    REQUIRE(!attn::update_lm_text_run(run, bad).ok);
    REQUIRE(run.train_bits == before.train_bits);
    REQUIRE(run.step == before.step);
    REQUIRE(run.heads.size() == 2);
  }

  // A refused text keeps the run and its curves, and says why.
  REQUIRE(!attn::check_lm_text(run, "too short", "short.txt", "page").ok);
  REQUIRE(run.error.message.find("at least 2000") != std::string::npos);
  REQUIRE(run.phase == attn::LmTextPhase::Training);
  REQUIRE(run.name == "cats.txt");
  REQUIRE(run.train_bits.size() == 2);
  REQUIRE(!attn::check_lm_text(run, text + "\xC3", "broken.txt", "page").ok);
  REQUIRE(run.error.message.find("not valid UTF-8") != std::string::npos);
  // The next report of a run under way clears the refusal.
  REQUIRE(attn::update_lm_text_run(run, R"({"step":150,"trainBits":3.2})").ok);
  REQUIRE(run.error.ok);

  // The end of the run, and getState()'s view of it.
  REQUIRE(attn::update_lm_text_run(run, R"({"phase":"done","step":400,"heldOutFinal":2.9,"modelLoaded":true})").ok);
  const nlohmann::json j = attn::lm_text_run_json(run);
  REQUIRE(j["phase"] == "done");
  REQUIRE(j["heldOutFinal"] == 2.9);
  REQUIRE(j["trainPoints"] == 3);
  REQUIRE(j["heads"][0]["label"] == "previous");
  REQUIRE(j["modelLoaded"] == true);
  REQUIRE(j["name"] == "cats.txt");
  // A failure's text ends up in the error, in the catalog's words.
  REQUIRE(attn::update_lm_text_run(run, R"({"phase":"stopped","error":"out of memory"})").ok);
  REQUIRE(run.error.message == "the training stopped: out of memory");

  // A new text starts afresh, keeping only whether the platform trains.
  REQUIRE(attn::check_lm_text(run, text, "", "page").ok);
  REQUIRE(run.train_bits.empty());
  REQUIRE(run.heads.empty());
  REQUIRE(run.phase == attn::LmTextPhase::Ready);
  REQUIRE(run.steps == 1600);
  REQUIRE(run.available);
}
