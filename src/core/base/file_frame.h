// The frame around the lab's model files (train/model_file.h, lm/language_model.h): a
// header naming the format and its length, the payload, and a checksum, so a reader can say
// "not this kind of file", "cut short" or "damaged" before it reads a field of the payload.
//
// Layout, all little-endian:
//   0      magic        8 bytes  the format's name, e.g. "ATTNLABM"
//   8      version      u32      the format's version
//   12     total_bytes  u64      length of the whole frame, checksum included
//   20     payload      the format's own fields
//   end-4  checksum     u32      CRC-32 (core/base/crc32.h) of every byte before it
//
// Checked in this order: length (at least the format's smallest file), magic, version,
// total_bytes against the bytes given (more = truncated, fewer = trailing bytes), checksum.
#pragma once

#include "core/base/bytes.h"
#include "core/base/types.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn {

inline constexpr std::size_t kFrameHeaderBytes = 20;   // magic, version, total_bytes
inline constexpr std::size_t kFrameTrailerBytes = 4;   // the CRC-32

// A format's frame, and the messages its reader gives for each defect (arguments in order).
struct FrameFormat {
  const char* magic;            // 8 bytes, no terminator needed
  std::uint32_t version;        // the one version this build reads and writes
  std::size_t smallest;         // fewer bytes are refused as too short (at least 24)
  const MessageText& too_short;    // {0} the bytes given
  const MessageText& bad_magic;
  const MessageText& bad_version;  // {0} the file's version, {1} the one this build reads
  const MessageText& truncated;    // {0} the bytes given, {1} total_bytes
  const MessageText& trailing;     // {0} the bytes past total_bytes, {1} total_bytes
  const MessageText& checksum;
};

// A writer holding the header, with total_bytes 0 until finish_frame.
ByteWriter begin_frame(const FrameFormat& format);
// The frame's bytes: the checksum appended, total_bytes filled in.
std::vector<std::uint8_t> finish_frame(ByteWriter&& writer);
// Rewrites total_bytes and the checksum of a whole frame (at least 24 bytes) to match its
// bytes as they are: finish_frame's last step, and for tests and fuzzers that edit a frame
// and want the reader to get past the header.
void seal_frame(std::vector<std::uint8_t>& frame);

// Checks the header and checksum of size bytes; on success `payload` reads the payload
// [20, size - 4). On error the Status is the format's message and `payload` is unchanged.
Status open_frame(const std::uint8_t* bytes, std::size_t size, const FrameFormat& format, ByteReader& payload);

}  // namespace attn
