// attnlab-cli: the attention core without a window, for scripts and other frameworks.
// Arrays go in and out as NumPy .npy files (float32/float64/bool, C order).
// Each command lives in a cmd_*.cpp file and registers itself (cli_common.h).
//
// Exit codes: 0 success; 2 bad arguments or input, with one line on stderr naming the
// file and the problem; no output file is left behind by a failed run.
#include "cli/cli_common.h"

#include <cstdio>
#include <string>

namespace {

void print_usage(std::FILE* out) {
  std::fputs("usage: attnlab-cli COMMAND [options]\n", out);
  for (const attn::cli::Command& c : attn::cli::commands()) std::fputs(c.usage, out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(stdout);
    return 0;
  }
  const attn::cli::Args rest(argv + 2, argv + argc);
  attn::Status st = attn::Status::error("unknown command '" + name + "' (see attnlab-cli --help)");
  for (const attn::cli::Command& c : attn::cli::commands())
    if (name == c.name) st = c.run(rest);
  if (!st.ok) {
    std::fprintf(stderr, "attnlab-cli: %s\n", st.message.c_str());
    return 2;
  }
  return 0;
}
