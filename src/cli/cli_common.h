// Shared pieces of attnlab-cli: the command registry, how a command ends (its Outcome, which
// alone decides the exit code), option parsing, and reading and writing the .npy files every
// command exchanges. Each command lives in its own cmd_*.cpp and registers itself with
// ATTNLAB_CLI_COMMAND, so adding one touches no other file.
#pragma once

#include "core/base/types.h"
#include "core/io/import_attention.h"
#include "core/io/npy.h"
#include "files/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace attn::lm {
struct LanguageModel;
}
namespace attn::train {
enum class InitScheme;
}

namespace attn::cli {

using Shape = std::vector<std::int64_t>;
using Args = std::vector<std::string>;

// How a command ended. main() turns it into the exit code, and nothing else does:
//   0  done, or --help asked for the command's usage (printed on stdout);
//   2  the command line itself is wrong: an unknown command or option, an option without its
//      value, given twice, or with a value not of its kind (not a number, outside the range
//      the usage gives, not one of the names listed), a required option missing, options
//      that exclude each other;
//   1  everything after the command line: a file missing, unreadable or refused, a size over
//      a cap, settings the computation refuses, a failed write.
// A Status converts to the runtime kind, so the core's and the readers' refusals need no
// wrapping; the option helpers below (and Outcome::usage for a command's own rules about
// its options) make the usage kind.
enum class OutcomeKind { Done, Help, Usage, Runtime };

struct Outcome {
  OutcomeKind kind = OutcomeKind::Done;
  Status status;  // the failure's message (one line on stderr)

  Outcome() = default;
  Outcome(Status st) : kind(st.ok ? OutcomeKind::Done : OutcomeKind::Runtime), status(std::move(st)) {}
  static Outcome usage(std::string why);
  static Outcome help();
  // False for Help as well: a command returns at once, as for a failure.
  bool ok() const { return kind == OutcomeKind::Done; }
};

int exit_code(const Outcome& outcome);

struct Command {
  const char* name;
  const char* usage;  // lines for --help, each starting with two spaces
  const char* about;  // what `COMMAND --help` adds: what it does, its options and defaults
  Outcome (*run)(const Args& args);
};

// Registers a command at start-up; returns true so it can initialise a static.
bool register_command(const Command& command);
const std::vector<Command>& commands();

#define ATTNLAB_CLI_COMMAND(id, name, usage, about, fn) \
  static const bool attnlab_cli_registered_##id = ::attn::cli::register_command({name, usage, about, fn})

// "--name value" (or "--name=value") options and "--flag" switches. Every refusal here is a
// usage error: an unknown name, a missing value, a repeat, a value given to a switch.
// "--help" or "-h" where an option may stand makes parse return Outcome::help().
struct Options {
  std::map<std::string, std::string> values;
  std::set<std::string> flags;

  static Outcome parse(const Args& args, const std::set<std::string>& value_names,
                       const std::set<std::string>& flag_names, Options& out);
  bool has(const std::string& name) const { return values.count(name) > 0; }
  bool flag(const std::string& name) const { return flags.count(name) > 0; }
  const std::string& get(const std::string& name) const { return values.at(name); }

  // "COMMAND needs --name" for the first of `names` not given.
  Outcome require(const char* command, std::initializer_list<const char*> names) const;
  // The value of `name` as a whole number, or a finite number, from lo to hi ("--name needs a
  // whole number from lo to hi, got 'x'"); an absent option leaves `out` as it was.
  Outcome whole(const char* name, long long lo, long long hi, long long& out) const;
  Outcome whole(const char* name, long long lo, long long hi, int& out) const;
  Outcome number(const char* name, float lo, float hi, float& out) const;
};

bool parse_float(const std::string& text, float& out);

// --init unit|small (train, scaling-experiment, lm-train); absent leaves `init` as it was.
Outcome read_init(const Options& o, train::InitScheme& init);

// The attention file of --in as the app's import reads it, with --batch (which batch entry,
// 0 by default) and --bfloat16 (uint16 arrays are bfloat16); `batch` gets the entry read.
Outcome read_imported_attention(const Options& o, ImportedAttention& out, std::string& name, long long& batch);
bool parse_long(const std::string& text, long long lo, long long hi, long long& out);

// Reads a float32/float64 array that must be finite. The message names the file.
Status read_float_array(const std::string& path, NpyArray& array, std::vector<float>& values);

// A mask file: bool (kept as 0/1 flags) or float (values; -inf allowed, NaN/+inf not).
struct MaskArray {
  bool present = false;
  bool is_bool = false;
  Shape shape;
  std::vector<float> values;
  std::vector<std::uint8_t> flags;
};
Status read_mask(const std::string& path, MaskArray& mask);

std::int64_t product(const Shape& s, size_t from, size_t to);
Mat matrix_at(const std::vector<float>& values, std::int64_t offset, std::int64_t rows, std::int64_t cols);

// Writes every output only after all were computed; if one write fails, the ones already
// written are removed, so a failed run leaves nothing behind.
Status write_outputs(const std::string& dir, const std::vector<std::pair<std::string, NpyArray>>& outputs);

nlohmann::json to_json(const Mat& m);

// A whole file's bytes; the message names the file.
Status read_file(const std::string& path, std::vector<std::uint8_t>& bytes);
// Writes beside the target and renames over it, so a failed write leaves no partial file.
Status write_file_atomic(const std::string& path, const std::vector<std::uint8_t>& bytes);

// A language model file (lm-*); the message names the file.
Status load_language_model(const std::string& path, lm::LanguageModel& model);

}  // namespace attn::cli
