// attnlab-cli: the attention core without a window, for scripts and other frameworks.
//
//   attnlab-cli example                  the tutorial's worked example as JSON
//   attnlab-cli random --seed S --rows R --cols C
//                                        N(0,1) draws of the project's generator, as JSON
// Exit codes: 0 success, 2 bad arguments or input (one line on stderr says why).
#include "core/attention.h"
#include "core/rng.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using json = nlohmann::json;

constexpr const char* kUsage =
    "usage: attnlab-cli COMMAND [options]\n"
    "commands:\n"
    "  example                               the tutorial's 2-token worked example (JSON)\n"
    "  random --seed S --rows R --cols C     N(0,1) matrix from the project's generator (JSON)\n"
    "  --help                                this text\n";

int fail(const std::string& message) {
  std::fprintf(stderr, "attnlab-cli: %s\n", message.c_str());
  return 2;
}

json to_json(const attn::Mat& m) {
  json rows = json::array();
  for (int i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (int j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

bool parse_long(const std::string& text, long long lo, long long hi, long long& out) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || v < lo || v > hi) return false;
  out = v;
  return true;
}

int run_example() {
  const attn::WorkedExample ex = attn::worked_example();
  const attn::AttentionResult r = attn::attention(ex.q, ex.k, ex.v);
  json out;
  out["rawScores"] = to_json(r.raw_scores);
  out["scale"] = r.scale;
  out["scores"] = to_json(r.scores);
  out["weights"] = to_json(r.weights);
  out["output"] = to_json(r.output);
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

int run_random(const std::vector<std::string>& args) {
  long long seed = -1, rows = -1, cols = -1;
  for (size_t i = 0; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return fail(args[i] + " needs a value");
    long long* target = args[i] == "--seed" ? &seed : args[i] == "--rows" ? &rows
                      : args[i] == "--cols" ? &cols : nullptr;
    if (!target) return fail("unknown option '" + args[i] + "' for random");
    const long long hi = target == &seed ? (1ll << 53) - 1 : 4096;
    if (!parse_long(args[i + 1], target == &seed ? 0 : 1, hi, *target))
      return fail(args[i] + " needs a whole number from " + (target == &seed ? "0" : "1") +
                  " to " + std::to_string(hi));
  }
  if (seed < 0 || rows < 0 || cols < 0) return fail("random needs --seed, --rows and --cols");
  attn::Rng rng(static_cast<std::uint64_t>(seed));
  std::printf("%s\n", to_json(rng.normal_matrix(static_cast<int>(rows), static_cast<int>(cols))).dump().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string command = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (command == "example") {
    if (!rest.empty()) return fail("example takes no options");
    return run_example();
  }
  if (command == "random") return run_random(rest);
  std::fputs(kUsage, stderr);
  return fail("unknown command '" + command + "'");
}
