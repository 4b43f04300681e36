// The model files' frame: writing one and checking one (file_frame.h has the layout).
#include "core/base/file_frame.h"

#include "core/base/crc32.h"

#include <cstring>

namespace attn {

ByteWriter begin_frame(const FrameFormat& format) {
  ByteWriter w;
  w.raw(format.magic, 8);
  w.u32(format.version);
  w.u64(0);  // total_bytes, filled in by finish_frame
  return w;
}

std::vector<std::uint8_t> finish_frame(ByteWriter&& writer) {
  writer.u32(0);  // the checksum, filled in by seal_frame
  std::vector<std::uint8_t> frame = writer.take();
  seal_frame(frame);
  return frame;
}

void seal_frame(std::vector<std::uint8_t>& frame) {
  const std::size_t size = frame.size();
  if (size < kFrameHeaderBytes + kFrameTrailerBytes) return;
  store_le64(frame.data() + 12, size);
  store_le32(frame.data() + size - kFrameTrailerBytes, crc32(frame.data(), size - kFrameTrailerBytes));
}

Status open_frame(const std::uint8_t* bytes, std::size_t size, const FrameFormat& f, ByteReader& payload) {
  if (size < f.smallest || size < kFrameHeaderBytes + kFrameTrailerBytes) return Status::error(f.too_short, size);
  if (std::memcmp(bytes, f.magic, 8) != 0) return Status::error(f.bad_magic);
  const std::uint32_t version = load_le32(bytes + 8);
  if (version != f.version) return Status::error(f.bad_version, version, f.version);
  const std::uint64_t total = load_le64(bytes + 12);
  if (total > size) return Status::error(f.truncated, size, total);
  if (total < size) return Status::error(f.trailing, size - total, total);
  const std::size_t end = size - kFrameTrailerBytes;
  if (crc32(bytes, end) != load_le32(bytes + end)) return Status::error(f.checksum);
  payload = ByteReader(bytes + kFrameHeaderBytes, end - kFrameHeaderBytes);
  return Status::success();
}

}  // namespace attn
