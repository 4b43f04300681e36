#include "cli/cli_common.h"

#include "core/lm/language_model.h"
#include "core/train/model.h"
#include "files/native/file_import.h"

#include <fast_float/fast_float.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <system_error>

namespace attn::cli {

namespace {
std::vector<Command>& registry() {
  static std::vector<Command> list;  // filled by static registrars before main()
  return list;
}
}  // namespace

bool register_command(const Command& command) {
  registry().push_back(command);
  return true;
}

const std::vector<Command>& commands() { return registry(); }

Outcome Outcome::usage(std::string why) {
  Outcome o;
  o.kind = OutcomeKind::Usage;
  o.status = Status::error(std::move(why));
  return o;
}

Outcome Outcome::help() {
  Outcome o;
  o.kind = OutcomeKind::Help;
  return o;
}

int exit_code(const Outcome& outcome) {
  switch (outcome.kind) {
    case OutcomeKind::Done:
    case OutcomeKind::Help: return 0;
    case OutcomeKind::Runtime: return 1;
    case OutcomeKind::Usage: return 2;
  }
  return 1;
}

Outcome Options::parse(const Args& args, const std::set<std::string>& value_names,
                       const std::set<std::string>& flag_names, Options& out) {
  // The first refusal is kept and the walk goes on, so that a --help later on still wins.
  Outcome refusal;
  auto refuse = [&](std::string why) {
    if (refusal.ok()) refusal = Outcome::usage(std::move(why));
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") return Outcome::help();
    // "--name=value" is "--name value"; a switch takes no value.
    const size_t eq = a.rfind("--", 0) == 0 ? a.find('=') : std::string::npos;
    const std::string name = eq == std::string::npos ? a : a.substr(0, eq);
    if (flag_names.count(name)) {
      if (eq != std::string::npos) refuse(name + " is a switch and takes no value");
      out.flags.insert(name);
    } else if (value_names.count(name)) {
      if (eq == std::string::npos && i + 1 >= args.size()) {
        refuse(name + " needs a value");
        continue;
      }
      if (out.values.count(name)) refuse(name + " is given twice");
      out.values[name] = eq == std::string::npos ? args[++i] : a.substr(eq + 1);
    } else {
      refuse("unknown option '" + name + "'");
    }
  }
  return refusal;
}

Outcome Options::require(const char* command, std::initializer_list<const char*> names) const {
  for (const char* name : names)
    if (!has(name)) return Outcome::usage(std::string(command) + " needs " + name);
  return {};
}

Outcome Options::whole(const char* name, long long lo, long long hi, long long& out) const {
  if (!has(name)) return {};
  if (!parse_long(get(name), lo, hi, out))
    return Outcome::usage(std::string(name) + " needs a whole number from " + std::to_string(lo) + " to " +
                          std::to_string(hi) + ", got '" + get(name) + "'");
  return {};
}

Outcome Options::whole(const char* name, long long lo, long long hi, int& out) const {
  long long v = out;
  Outcome r = whole(name, lo, hi, v);
  if (r.ok()) out = static_cast<int>(v);
  return r;
}

Outcome Options::number(const char* name, float lo, float hi, float& out) const {
  if (!has(name)) return {};
  float v = 0;
  if (!parse_float(get(name), v) || !(v >= lo && v <= hi)) {
    char range[64];
    std::snprintf(range, sizeof range, "from %g to %g", lo, hi);
    return Outcome::usage(std::string(name) + " needs a number " + range + ", got '" + get(name) + "'");
  }
  out = v;
  return {};
}

Outcome read_init(const Options& o, train::InitScheme& init) {
  if (!o.has("--init")) return {};
  if (o.get("--init") == "unit") init = train::InitScheme::Unit;
  else if (o.get("--init") == "small") init = train::InitScheme::Small;
  else return Outcome::usage("--init must be unit or small, got '" + o.get("--init") + "'");
  return {};
}

bool parse_float(const std::string& text, float& out) {
  // strtod's syntax less hexadecimal: fast_float, like from_chars, takes neither leading
  // spaces nor a '+', so those are stepped over here.
  const char* first = text.data();
  const char* last = first + text.size();
  while (first != last && std::isspace(static_cast<unsigned char>(*first))) ++first;
  if (last - first > 1 && *first == '+' && first[1] != '-') ++first;
  double v = 0;
  const fast_float::from_chars_result r = fast_float::from_chars(first, last, v);
  if (r.ec != std::errc() || r.ptr != last || !std::isfinite(v) || std::fabs(v) > 3.4e38) return false;
  out = static_cast<float>(v);
  return true;
}

bool parse_long(const std::string& text, long long lo, long long hi, long long& out) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end || v < lo || v > hi) return false;
  out = v;
  return true;
}

Status read_float_array(const std::string& path, NpyArray& array, std::vector<float>& values) {
  if (Status st = read_npy_file(path, array); !st.ok) return st;
  if (array.dtype != NpyDtype::Float32 && array.dtype != NpyDtype::Float64)
    return Status::error(path + ": dtype " + npy_descr(array.dtype) + " is not supported here (use float32 or float64)");
  if (Status st = check_finite(array, path); !st.ok) return st;
  values = array.to_float();
  return Status::success();
}

Status read_mask(const std::string& path, MaskArray& mask) {
  NpyArray array;
  if (Status st = read_npy_file(path, array); !st.ok) return st;
  mask.present = true;
  mask.shape = array.shape;
  if (array.dtype == NpyDtype::Bool) {
    mask.is_bool = true;
    mask.flags = array.to_bool();
    return Status::success();
  }
  if (array.dtype != NpyDtype::Float32 && array.dtype != NpyDtype::Float64)
    return Status::error(path + ": a mask must be bool or float, not " + npy_descr(array.dtype));
  mask.values = array.to_float();
  for (size_t i = 0; i < mask.values.size(); ++i)
    if (std::isnan(mask.values[i]) || mask.values[i] == std::numeric_limits<float>::infinity())
      return Status::error(path + ": contains NaN or +inf at index " + std::to_string(i) + " (only -inf may mask)");
  return Status::success();
}

std::int64_t product(const Shape& s, size_t from, size_t to) {
  std::int64_t p = 1;
  for (size_t i = from; i < to; ++i) p *= s[i];
  return p;
}

Mat matrix_at(const std::vector<float>& values, std::int64_t offset, std::int64_t rows, std::int64_t cols) {
  return Eigen::Map<const Mat>(values.data() + offset, rows, cols);
}

Status write_outputs(const std::string& dir, const std::vector<std::pair<std::string, NpyArray>>& outputs) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::error(dir + ": cannot create the output folder (" + ec.message() + ")");
  std::vector<std::string> written;
  for (const auto& [name, array] : outputs) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    if (Status st = attn::write_npy_file(path, array); !st.ok) {
      for (const std::string& p : written) std::filesystem::remove(p, ec);
      return st;
    }
    written.push_back(path);
  }
  return Status::success();
}

nlohmann::json to_json(const Mat& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (int i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (int j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

Status read_file(const std::string& path, std::vector<std::uint8_t>& bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Status::error(path + ": no such file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::error(path + ": cannot open");
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) return Status::error(path + ": read error");
  return Status::success();
}

// Writes beside the target and renames over it, so a failed write leaves no partial file.
Status write_file_atomic(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  const std::string tmp = path + ".tmp-attnlab";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::error(path + ": cannot write (is the folder there?)");
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return Status::error(path + ": write failed");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return Status::error(path + ": cannot write (" + ec.message() + ")");
  }
  return Status::success();
}

Outcome read_imported_attention(const Options& o, ImportedAttention& out, std::string& name, long long& batch) {
  batch = 0;
  if (o.has("--batch") && !parse_long(o.get("--batch"), 0, 1 << 30, batch)) return Outcome::usage("--batch must be >= 0");
  ImportOptions options;
  options.batch_index = static_cast<int>(batch);
  options.uint16_is_bfloat16 = o.flag("--bfloat16");
  return native::import_file(o.get("--in"), options, out, name);
}

Status load_language_model(const std::string& path, lm::LanguageModel& model) {
  std::vector<std::uint8_t> bytes;
  if (Status st = read_file(path, bytes); !st.ok) return st;
  if (Status st = lm::parse_language_model(bytes.data(), bytes.size(), model); !st.ok)
    return Status::error(path + ": " + st.message);
  return Status::success();
}

}  // namespace attn::cli
