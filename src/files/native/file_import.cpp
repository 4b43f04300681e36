// A file read from disk and zlib's inflate, natively (files/native/file_import.h).
#include "files/native/file_import.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

namespace attn::native {

Status zlib_inflate(const std::uint8_t* data, std::size_t size, std::size_t expected, std::vector<std::uint8_t>& out) {
  // zlib counts in uInt (32 bits): the caps keep members far below that, and larger are refused.
  if (size > std::numeric_limits<uInt>::max() || expected > std::numeric_limits<uInt>::max() - 1)
    return Status::error("member too large to inflate");
  // The output grows as the stream fills it (from 1 MiB, doubling, up to the announced size
  // and one spare byte that shows a stream too long), so a header that announces far more
  // than its stream holds costs only what the stream gives.
  std::vector<std::uint8_t> buffer(std::min<std::size_t>(expected + 1, std::size_t{1} << 20));
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return Status::error("zlib could not start");
  z.next_in = const_cast<Bytef*>(data);
  z.avail_in = static_cast<uInt>(size);
  std::size_t produced = 0;
  int rc = Z_OK;
  while (rc == Z_OK && produced <= expected) {
    if (produced == buffer.size()) buffer.resize(std::min(buffer.size() * 2, expected + 1));
    z.next_out = buffer.data() + produced;
    z.avail_out = static_cast<uInt>(buffer.size() - produced);
    rc = inflate(&z, Z_NO_FLUSH);  // Z_BUF_ERROR once the input is spent before the end
    produced = buffer.size() - z.avail_out;
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) {
    if (produced > expected) return Status::error("the stream inflates to more than the " + std::to_string(expected) + " bytes announced");
    return Status::error(rc == Z_DATA_ERROR ? "corrupt deflate data" : "the deflate stream ends early");
  }
  if (produced != expected)
    return Status::error("inflated to " + std::to_string(produced) + " bytes, the archive says " + std::to_string(expected));
  buffer.resize(expected);
  out = std::move(buffer);
  return Status::success();
}

Status import_file(const std::string& path, const ImportOptions& options, ImportedAttention& out, std::string& name) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return Status::error(path + ": cannot open (" + std::strerror(errno) + ")");
  std::vector<std::uint8_t> bytes;
  long size = -1;
  if (std::fseek(f, 0, SEEK_END) == 0) size = std::ftell(f);
  if (size < 0 || std::fseek(f, 0, SEEK_SET) != 0) {
    std::fclose(f);
    return Status::error(path + ": cannot read its size");
  }
  if (size > options.max_file_bytes) {
    std::fclose(f);
    return Status::error(path + ": the file is " + std::to_string(size >> 20) + " MiB; at most " +
                         std::to_string(options.max_file_bytes >> 20) + " MiB can be imported");
  }
  bytes.resize(static_cast<size_t>(size));
  const size_t got = size > 0 ? std::fread(bytes.data(), 1, bytes.size(), f) : 0;
  std::fclose(f);
  if (got != bytes.size()) return Status::error(path + ": read " + std::to_string(got) + " of " + std::to_string(size) + " bytes");
  const size_t slash = path.find_last_of('/');
  name = slash == std::string::npos ? path : path.substr(slash + 1);
  const Status s = import_attention(bytes.data(), bytes.size(), options, zlib_inflate, out);
  return s.ok ? s : s.within(name);
}

}  // namespace attn::native
