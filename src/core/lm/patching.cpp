#include "core/lm/patching.h"

#include "core/base/utf8.h"
#include "core/lm/generate.h"
#include "core/lm/lm_messages.h"

#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

namespace attn::lm {

namespace {

constexpr float kNotComputed = std::numeric_limits<float>::quiet_NaN();

Status not_in_vocabulary(std::uint32_t code_point) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "%04X", static_cast<unsigned>(code_point));
  return Status::error(msg::lm_patch_not_in_vocabulary, encode_utf8(code_point), std::string(hex));
}

// A prompt as the model reads it ([start] + one token per character), every character in the
// vocabulary: an unknown character would make two different prompts the same tokens.
Status read_patch_prompt(const LanguageModel& model, std::string_view text, Encoded& encoded, std::vector<int>& tokens) {
  if (Status st = read_prompt(model, text, encoded, tokens); !st.ok) return st;
  if (!encoded.unknown.empty()) return not_in_vocabulary(encoded.unknown.front());
  return Status::success();
}

// The token of a text that must be one character of the vocabulary.
Status read_character(const Vocabulary& vocabulary, std::string_view text, int& token) {
  Encoded e;
  if (Status st = vocabulary.encode(text, e); !st.ok) return st;
  if (e.tokens.size() != 1) return Status::error(msg::lm_patch_one_character, std::string(text), e.tokens.size());
  if (e.tokens[0] == kUnknownToken) return not_in_vocabulary(e.characters[0]);
  token = e.tokens[0];
  return Status::success();
}

// D = logit_answer - logit_foil at the last position.
float logit_difference(const Mat& logits, int answer, int foil) {
  const Eigen::Index last = logits.rows() - 1;
  return logits(last, answer) - logits(last, foil);
}

std::vector<std::string> token_texts(const Vocabulary& vocabulary, const std::vector<int>& tokens) {
  std::vector<std::string> out;
  out.reserve(tokens.size());
  for (int t : tokens) out.push_back(vocabulary.token_text(t));
  return out;
}

}  // namespace

const char* patch_by_name(PatchBy by) { return choice_row(kPatchGrids, by).name; }

Status parse_patch_by(std::string_view name, PatchBy& out) {
  std::string names;
  for (const NamedChoice<PatchBy>& c : kPatchGrids) {
    if (name == c.name) {
      out = c.value;
      return Status::success();
    }
    names += (names.empty() ? "" : ", ") + std::string(c.name);
  }
  return Status::error(msg::lm_patch_by_unknown, std::string(name), names);
}

bool PatchResult::defined() const { return std::fabs(clean_difference - corrupt_difference) >= kMinDifferenceGap; }

float restored_fraction(float patched, float clean, float corrupt) {
  const float gap = clean - corrupt;
  if (!(std::fabs(gap) >= kMinDifferenceGap)) return std::numeric_limits<float>::quiet_NaN();
  return (patched - corrupt) / gap + 0.0f;  // + 0 writes a cell no patch moved as 0, not -0
}

Status PatchJob::begin(const LanguageModel& model, const PatchRequest& r) {
  *this = PatchJob();
  if (model.empty()) return Status::error(msg::lm_no_model);
  if (Status st = check_options(model, r.options); !st.ok) return st;
  Encoded clean, corrupt;
  std::vector<int> clean_tokens, corrupt_tokens;
  if (Status st = read_patch_prompt(model, r.clean, clean, clean_tokens); !st.ok)
    return st.within(msg::lm_patch_clean_prompt);
  if (Status st = read_patch_prompt(model, r.corrupt, corrupt, corrupt_tokens); !st.ok)
    return st.within(msg::lm_patch_corrupt_prompt);
  const int n = static_cast<int>(clean.tokens.size());
  if (corrupt.tokens.size() != clean.tokens.size())
    return Status::error(msg::lm_patch_lengths_differ, n, corrupt.tokens.size());
  int answer = 0, foil = 0;
  if (Status st = read_character(model.vocabulary, r.answer, answer); !st.ok) return st.within(msg::lm_patch_answer);
  if (Status st = read_character(model.vocabulary, r.foil, foil); !st.ok) return st.within(msg::lm_patch_foil);
  if (answer == foil) return Status::error(msg::lm_patch_answer_is_foil, r.answer);
  if (r.position != kAllPositions) {
    if (r.by == PatchBy::Residual) return Status::error(msg::lm_patch_position_residual);
    if (r.position < 0 || r.position > n) return Status::error(msg::lm_patch_position_range, n, r.position);
  }

  // 1 the clean run, recording every site; 2 the corrupted run.
  Runner runner(model, r.options);
  Mat logits;
  Intervention record;
  record.record = &clean_;
  runner.feed(clean_tokens.data(), n + 1, logits, nullptr, &record);
  PatchResult& res = result_;
  res.clean_difference = logit_difference(logits, answer, foil);
  runner.clear();
  runner.feed(corrupt_tokens.data(), n + 1, logits, nullptr);
  res.corrupt_difference = logit_difference(logits, answer, foil);
  res.by = r.by;
  res.position = r.position;
  res.rows = r.by == PatchBy::Head ? model.config.layers : model.config.layers + 1;
  res.cols = r.by == PatchBy::Head ? model.config.heads : n + 1;
  res.answer_token = answer;
  res.foil_token = foil;
  res.patched.assign(static_cast<std::size_t>(res.rows) * res.cols, kNotComputed);
  res.restored = res.patched;
  res.clean_tokens = token_texts(model.vocabulary, clean_tokens);
  res.corrupt_tokens = token_texts(model.vocabulary, corrupt_tokens);
  model_ = &model;
  runner_.emplace(std::move(runner));
  corrupt_tokens_ = std::move(corrupt_tokens);
  return Status::success();
}

// 3 and 4 for the next cells.
int PatchJob::step(int max_cells) {
  int computed = 0;
  while (model_ && computed < max_cells && next_ < cells()) {
    Intervention patch;
    patch.source = &clean_;
    patch.patches = {cell_patch(next_)};
    const float d = run_corrupt(patch);
    const std::size_t i = static_cast<std::size_t>(next_);
    result_.patched[i] = d;
    result_.restored[i] = restored_fraction(d, result_.clean_difference, result_.corrupt_difference);
    ++next_;
    ++computed;
  }
  return computed;
}

double PatchJob::progress() const { return cells() == 0 ? 0.0 : static_cast<double>(next_) / cells(); }

Patch PatchJob::cell_patch(int cell) const {
  Patch p;
  const int row = cell / result_.cols, col = cell % result_.cols;
  p.layer = row;
  if (result_.by == PatchBy::Head) {
    p.site = PatchSite::Head;
    p.head = col;
    p.position = result_.position;
  } else {
    p.site = PatchSite::Residual;
    p.position = col;
  }
  return p;
}

Status PatchJob::patched_difference(const std::vector<Patch>& patches, float& out) {
  if (!model_) return Status::error(msg::lm_no_model);
  const int layers = model_->config.layers, heads = model_->config.heads;
  const int positions = static_cast<int>(corrupt_tokens_.size());
  for (const Patch& p : patches) {
    const int top = p.site == PatchSite::Residual ? layers : layers - 1;
    const bool head_ok = p.site != PatchSite::Head || (p.head >= 0 && p.head < heads);
    const bool position_ok = p.position == kAllPositions || (p.position >= 0 && p.position < positions);
    if (p.layer < 0 || p.layer > top || !head_ok || !position_ok)
      return Status::error(msg::lm_patch_site_range, p.layer, p.head, p.position);
  }
  Intervention patch;
  patch.source = &clean_;
  patch.patches = patches;
  out = run_corrupt(patch);
  return Status::success();
}

float PatchJob::run_corrupt(const Intervention& intervention) {
  Mat logits;
  runner_->clear();
  runner_->feed(corrupt_tokens_.data(), static_cast<int>(corrupt_tokens_.size()), logits, nullptr, &intervention);
  return logit_difference(logits, result_.answer_token, result_.foil_token);
}

Status patch_activations(const LanguageModel& model, const PatchRequest& request, PatchResult& out) {
  PatchJob job;
  if (Status st = job.begin(model, request); !st.ok) return st;
  job.step(job.cells());
  out = job.result();
  return Status::success();
}

}  // namespace attn::lm
