// The parts of NumPy files for the attention import (import_parts.h): a whole .npy file is
// the weights; an .npz archive (what np.savez / np.savez_compressed write) gives its
// members by name, each an .npy file, stored or inflated through the caller's InflateFn.
// Only the headers, tokens and the bfloat16 flag are read here; array data and the CRC-32s
// that cover it are left to the job's steps.
#include "core/io/import_parts.h"

#include "core/base/crc32.h"
#include "core/io/io_messages.h"

#include <algorithm>

namespace attn::import_detail {
namespace {

std::string member_key(const std::string& name) {
  const std::string suffix = ".npy";
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    return name.substr(0, name.size() - suffix.size());
  return name;
}

bool wanted_member(const std::string& key) {
  return is_weights_name(key) || key == "tokens" || key == "query_tokens" || key == "key_tokens" || key == "q" ||
         key == "k" || key == "v" || key == "bfloat16";
}

Status check_file_size(std::size_t size, const ImportOptions& options) {
  if (static_cast<std::int64_t>(size) <= options.max_file_bytes) return Status::success();
  return Status::error(msg::io_import_file_too_large, mib(static_cast<std::int64_t>(size)), mib(options.max_file_bytes));
}

}  // namespace

Status read_npy_parts(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, Parts& p) {
  if (Status s = check_file_size(size, options); !s.ok) return s;
  std::size_t start = 0;
  if (Status s = parse_npy_header(bytes, size, p.weights.meta, start); !s.ok) return s.within(".npy");
  p.weights.span = {-1, start, size - start};
  p.has_weights = true;
  p.weights_name = kWholeFileArray;
  return Status::success();
}

Status read_npz_parts(const std::uint8_t* bytes, std::size_t size, const ImportOptions& options, const InflateFn& inflate,
                      Parts& p) {
  if (Status s = check_file_size(size, options); !s.ok) return s;
  std::vector<ZipMember> members;
  if (Status s = list_zip_members(bytes, size, members); !s.ok) return s.within(".npz");
  std::int64_t inflated_total = 0;
  for (const ZipMember& m : members) {
    const std::string key = member_key(m.name);
    if (!wanted_member(key)) continue;  // other arrays (input ids, logits, ...) are not ours
    // A refusal about this member: ".npz member 'key': ...".
    auto in_member = [&key](const Status& s) { return s.within(msg::io_npz_member, key); };
    // 1 the member's .npy bytes: stored as they are, or inflated (within the caps).
    Span span{-1, static_cast<std::size_t>(m.data_offset), static_cast<std::size_t>(m.compressed_size)};
    const std::uint8_t* data = bytes + m.data_offset;
    if (m.method == 8) {
      if (!inflate) return in_member(Status::error(msg::io_npz_deflate_unavailable));
      inflated_total += static_cast<std::int64_t>(std::min<std::uint64_t>(m.uncompressed_size, kImportMaxInflatedBytes + 1));
      if (inflated_total > kImportMaxInflatedBytes)
        return Status::error(msg::io_npz_inflate_limit, mib(kImportMaxInflatedBytes));
      std::vector<std::uint8_t> inflated;
      if (Status s = inflate(data, span.size, static_cast<std::size_t>(m.uncompressed_size), inflated); !s.ok)
        return in_member(s.within(msg::io_npz_cannot_inflate));
      if (inflated.size() != m.uncompressed_size) return in_member(Status::error(msg::io_npz_inflated_wrong_size));
      p.buffers.push_back(std::move(inflated));
      span = {static_cast<int>(p.buffers.size()) - 1, 0, p.buffers.back().size()};
      data = p.buffers.back().data();
    } else if (m.method == 0) {
      if (m.compressed_size != m.uncompressed_size) return in_member(Status::error(msg::io_npz_stored_sizes_differ));
    } else {
      return in_member(Status::error(msg::io_npz_unsupported_method, m.method));
    }
    const Status crc_error = in_member(Status::error(msg::io_npz_crc_mismatch));
    // 2 its meaning. Arrays: the header now, the data (and the CRC, which covers it) in steps.
    if (is_weights_name(key) || key == "q" || key == "k" || key == "v") {
      ArrayPart a;
      std::size_t start = 0;
      if (Status s = parse_npy_header(data, span.size, a.meta, start); !s.ok)
        return crc32(data, span.size) != m.crc32 ? crc_error : in_member(s);
      p.crcs.push_back({span, m.crc32, key});  // CrcCheck::where: the key, which the job names as in_member does
      a.span = {span.buffer, span.offset + start, span.size - start};
      if (is_weights_name(key)) {
        if (p.has_weights) return Status::error(msg::io_npz_two_weight_arrays, p.weights_name, key);
        p.has_weights = true;
        p.weights_name = key;
        p.weights = std::move(a);
      } else {
        (key == "q" ? p.q : key == "k" ? p.k : p.v) = std::move(a);
        (key == "q" ? p.has_q : key == "k" ? p.has_k : p.has_v) = true;
      }
      continue;
    }
    if (crc32(data, span.size) != m.crc32) return crc_error;
    Status s;
    if (key == "tokens") {
      s = parse_npy_strings(data, span.size, p.tokens_shape, p.tokens);
      p.has_tokens = s.ok;
    } else if (key == "query_tokens") {
      s = parse_npy_strings(data, span.size, p.query_tokens_shape, p.query_tokens);
      p.has_query_tokens = s.ok;
    } else if (key == "key_tokens") {
      s = parse_npy_strings(data, span.size, p.key_tokens_shape, p.key_tokens);
      p.has_key_tokens = s.ok;
    } else {  // bfloat16
      NpyArray flag;
      s = parse_npy(data, span.size, flag);
      if (s.ok && (flag.dtype != NpyDtype::Bool || flag.size() != 1)) s = Status::error(msg::io_npz_flag_not_bool);
      if (s.ok) p.bfloat16 = flag.data[0] != 0;
    }
    if (!s.ok) return in_member(s);
  }
  return Status::success();
}


}  // namespace attn::import_detail
