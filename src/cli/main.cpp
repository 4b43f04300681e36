// attnlab-cli: the attention core without a window, for scripts and other frameworks.
// Arrays go in and out as NumPy .npy files (float32/float64/bool, C order).
// Each command lives in a cmd_*.cpp file and registers itself (cli_common.h).
//
//   attnlab-cli COMMAND [options]      options as "--name value" or "--name=value"
//   attnlab-cli COMMAND --help         that command's usage, what it does, its defaults
//   attnlab-cli help [COMMAND]         the same, or every command's usage
//   attnlab-cli --help | --version
//
// Results go to stdout, progress and notes to stderr. Exit codes (decided here alone, from
// the command's Outcome): 0 success or help; 2 the command line itself is wrong; 1 anything
// else (files, caps, writes). A failure prints one line on stderr naming the file and the
// problem, and a failed run leaves no output file behind.
#include "cli/cli_common.h"

#include <cstdio>
#include <string>

#ifndef ATTNLAB_VERSION
#error "ATTNLAB_VERSION comes from package.json through CMakeLists.txt"
#endif

namespace {

using attn::cli::Command;
using attn::cli::Outcome;

void print_usage(std::FILE* out) {
  std::fputs("usage: attnlab-cli COMMAND [options]   (--name value or --name=value)\n"
             "       attnlab-cli COMMAND --help | help COMMAND   one command's usage and defaults\n"
             "       attnlab-cli --version\n",
             out);
  for (const Command& c : attn::cli::commands()) std::fputs(c.usage, out);
}

void print_command_help(const Command& c) {
  std::printf("usage: attnlab-cli %s [options]\n%s\n%s", c.name, c.usage, c.about);
}

const Command* find_command(const std::string& name) {
  for (const Command& c : attn::cli::commands())
    if (name == c.name) return &c;
  return nullptr;
}

Outcome unknown_command(const std::string& name) {
  return Outcome::usage("unknown command '" + name + "' (see attnlab-cli --help)");
}

// `help` alone lists every command; `help COMMAND` is `COMMAND --help`.
Outcome run_help(const attn::cli::Args& rest) {
  if (rest.empty()) {
    print_usage(stdout);
    return {};
  }
  if (rest.size() > 1) return Outcome::usage("help takes one command name");
  const Command* c = find_command(rest[0]);
  if (!c) return unknown_command(rest[0]);
  print_command_help(*c);
  return {};
}

// Runs what the command line asks; a command's --help comes back as OutcomeKind::Help.
Outcome dispatch(const std::string& name, const attn::cli::Args& rest) {
  if (name == "--help" || name == "-h" || name == "help") return run_help(rest);
  if (name == "--version") {
    if (!rest.empty()) return Outcome::usage("--version takes no options");
    std::printf("attnlab-cli %s\n", ATTNLAB_VERSION);
    return {};
  }
  const Command* c = find_command(name);
  if (!c) return unknown_command(name);
  const Outcome outcome = c->run(rest);
  if (outcome.kind == attn::cli::OutcomeKind::Help) print_command_help(*c);
  return outcome;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  const Outcome outcome = dispatch(argv[1], attn::cli::Args(argv + 2, argv + argc));
  if (outcome.kind == attn::cli::OutcomeKind::Usage || outcome.kind == attn::cli::OutcomeKind::Runtime)
    std::fprintf(stderr, "attnlab-cli: %s\n", outcome.status.message.c_str());
  return attn::cli::exit_code(outcome);
}
