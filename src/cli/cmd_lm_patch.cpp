// attnlab-cli lm-patch: activation patching on the character-level language model
// (core/lm/patching.h).
//   lm-patch --model FILE --clean TEXT --corrupt TEXT --answer C --foil C [--by head|residual]
//            [--position P]
// Prints one JSON line: the logit differences D = logit(answer) - logit(foil) at the last
// position of the clean and the corrupted run, and the grid of the difference restored when
// one site is taken from the clean run (0 = corrupted, 1 = clean; null where the two runs'
// differences are closer than 1e-6):
//   {"cleanDiff", "corruptDiff", "by", "position", "rows", "cols", "grid": [[...]],
//    "cleanTokens", "corruptTokens"}
// by head: rows = layers, cols = heads (a head's output at every position, or at --position);
// by residual: rows = layers + 1 (entering each layer, then after the last), cols = positions.
// Positions count the model's tokens: 0 is the start token <s>, 1 .. n the prompt's characters.
#include "cli/cli_common.h"
#include "core/lm/language_model.h"
#include "core/lm/patching.h"

#include <climits>
#include <cmath>
#include <cstdio>

namespace attn::cli {
namespace {

using json = nlohmann::json;

Outcome run_lm_patch(const Args& args) {
  Options o;
  if (Outcome r = Options::parse(args, {"--model", "--clean", "--corrupt", "--answer", "--foil", "--by", "--position"},
                                 {}, o);
      !r.ok())
    return r;
  for (const char* needed : {"--model", "--clean", "--corrupt", "--answer", "--foil"})
    if (!o.has(needed)) return Outcome::usage("lm-patch needs --model FILE, --clean TEXT, --corrupt TEXT, --answer C and --foil C");
  lm::PatchRequest request;
  request.clean = o.get("--clean");
  request.corrupt = o.get("--corrupt");
  request.answer = o.get("--answer");
  request.foil = o.get("--foil");
  if (o.has("--by"))
    if (Status st = lm::parse_patch_by(o.get("--by"), request.by); !st.ok) return Outcome::usage(st.message);
  if (o.has("--position")) {
    long long p = 0;
    if (!parse_long(o.get("--position"), 0, INT_MAX, p))
      return Outcome::usage("--position needs a whole number from 0 (the start token) to the prompt's length, got '" +
                           o.get("--position") + "'");
    request.position = static_cast<int>(p);
  }
  lm::LanguageModel model;
  if (Status st = load_language_model(o.get("--model"), model); !st.ok) return st;
  lm::PatchResult r;
  if (Status st = lm::patch_activations(model, request, r); !st.ok) return st;
  const json line = {{"cleanDiff", r.clean_difference},
                     {"corruptDiff", r.corrupt_difference},
                     {"by", lm::patch_by_name(r.by)},
                     {"position", r.position == lm::kAllPositions ? json(nullptr) : json(r.position)},
                     {"rows", r.rows},
                     {"cols", r.cols},
                     {"grid", rows_json(r.restored.data(), r.rows, r.cols)},
                     {"cleanTokens", r.clean_tokens},
                     {"corruptTokens", r.corrupt_tokens}};
  std::printf("%s\n", json_text(line).c_str());
  return Status::success();
}

}  // namespace

ATTNLAB_CLI_COMMAND(lm_patch, "lm-patch",
                    "  lm-patch --model FILE --clean TEXT --corrupt TEXT --answer C --foil C [--by head|residual]\n"
                    "           [--position P]\n",
                    "  Activation patching: the logit difference D = logit(answer) - logit(foil) at the last position\n"
                    "  for the clean and the corrupted prompt (same length), and the share of D restored when one site\n"
                    "  comes from the clean run. --by head (default: layers x heads; --position P: one position only)\n"
                    "  or residual (layers + 1 x positions). One JSON line.\n",
                    run_lm_patch);

}  // namespace attn::cli
