// Listing a zip archive's members (see zip.h), and the inflater that hands out members the
// browser inflated beforehand.
//   end of central directory  "PK\5\6": entries (u16 @10), directory size (u32 @12) and
//                             offset (u32 @16), comment length (u16 @20); ZIP64 archives put
//                             a locator "PK\6\7" in front of it pointing at "PK\6\6"
//   central directory entry   "PK\1\2": flags @8, method @10, crc @16, sizes @20 @24, name,
//                             extra, comment lengths @28 @30 @32, local header offset @42
//   local header              "PK\3\4": name and extra lengths @26 @28, then the data
#include "core/io/zip.h"

#include "core/base/bytes.h"
#include "core/base/utf8.h"
#include "core/io/io_messages.h"

namespace attn {
namespace {

std::string quoted_name(const std::string& name) { return "'" + name + "'"; }

}  // namespace

Status list_zip_members(const std::uint8_t* bytes, std::size_t size, std::vector<ZipMember>& out) {
  constexpr std::size_t kEocd = 22;
  if (size < kEocd) return Status::error(msg::io_zip_too_short, size);
  // 1 the end record: the last "PK\5\6" whose comment reaches exactly to the end.
  std::size_t eocd = std::string::npos;
  const std::size_t lowest = size > kEocd + 65535 ? size - kEocd - 65535 : 0;
  for (std::size_t p = size - kEocd + 1; p-- > lowest;) {
    if (load_le32(bytes + p) == 0x06054b50 && p + kEocd + load_le16(bytes + p + 20) == size) {
      eocd = p;
      break;
    }
  }
  if (eocd == std::string::npos) return Status::error(msg::io_zip_no_end_record);
  std::uint64_t entries = load_le16(bytes + eocd + 10), dir_size = load_le32(bytes + eocd + 12), dir_offset = load_le32(bytes + eocd + 16);
  if (entries == 0xFFFF || dir_size == 0xFFFFFFFFu || dir_offset == 0xFFFFFFFFu) {
    if (eocd < 20 || load_le32(bytes + eocd - 20) != 0x07064b50)
      return Status::error(msg::io_zip64_no_locator);
    const std::uint64_t z = load_le64(bytes + eocd - 20 + 8);
    if (z > size || size - z < 56 || load_le32(bytes + z) != 0x06064b50)
      return Status::error(msg::io_zip64_end_outside);
    entries = load_le64(bytes + z + 32);
    dir_size = load_le64(bytes + z + 40);
    dir_offset = load_le64(bytes + z + 48);
  }
  if (dir_offset > size || dir_size > size - dir_offset)
    return Status::error(msg::io_zip_directory_outside);
  if (entries > 64) return Status::error(msg::io_zip_too_many_members, entries);

  // 2 the directory entries, each leading to a local header and the data after it.
  std::vector<ZipMember> members;
  std::uint64_t p = dir_offset;
  const std::uint64_t dir_end = dir_offset + dir_size;
  for (std::uint64_t e = 0; e < entries; ++e) {
    if (dir_end - p < 46 || load_le32(bytes + p) != 0x02014b50)
      return Status::error(msg::io_zip_entry_damaged, e);
    const std::uint8_t* c = bytes + p;
    const std::uint16_t flags = load_le16(c + 8);
    ZipMember m;
    m.method = load_le16(c + 10);
    m.crc32 = load_le32(c + 16);
    m.compressed_size = load_le32(c + 20);
    m.uncompressed_size = load_le32(c + 24);
    const std::uint64_t name_len = load_le16(c + 28), extra_len = load_le16(c + 30), comment_len = load_le16(c + 32);
    std::uint64_t local = load_le32(c + 42);
    if (dir_end - p - 46 < name_len + extra_len + comment_len)
      return Status::error(msg::io_zip_entry_past_directory, e);
    m.name.assign(reinterpret_cast<const char*>(c + 46), name_len);
    m.name = repair_utf8(m.name);
    // ZIP64 extra field (id 1): the 64-bit values of the fields that read 0xFFFFFFFF, in order.
    const std::uint8_t* x = c + 46 + name_len;
    for (std::uint64_t q = 0; q + 4 <= extra_len;) {
      const std::uint16_t id = load_le16(x + q), len = load_le16(x + q + 2);
      if (q + 4 + len > extra_len) return Status::error(msg::io_zip_damaged_extra_field, quoted_name(m.name));
      if (id == 1) {
        std::uint64_t r = q + 4;
        auto take = [&](std::uint64_t& field) {
          if (field != 0xFFFFFFFFu) return true;
          if (r + 8 > q + 4 + len) return false;
          field = load_le64(x + r);
          r += 8;
          return true;
        };
        if (!take(m.uncompressed_size) || !take(m.compressed_size) || !take(local))
          return Status::error(msg::io_zip64_short_field, quoted_name(m.name));
      }
      q += 4 + len;
    }
    p += 46 + name_len + extra_len + comment_len;
    if (flags & 1) return Status::error(msg::io_zip_member_encrypted, quoted_name(m.name));
    if (local > size || size - local < 30 || load_le32(bytes + local) != 0x04034b50)
      return Status::error(msg::io_zip_local_header_missing, quoted_name(m.name));
    m.data_offset = local + 30 + load_le16(bytes + local + 26) + load_le16(bytes + local + 28);
    if (m.data_offset > size || m.compressed_size > size - m.data_offset)
      return Status::error(msg::io_zip_member_truncated, quoted_name(m.name));
    for (const ZipMember& other : members)
      if (other.name == m.name) return Status::error(msg::io_zip_duplicate_member, quoted_name(m.name));
    members.push_back(std::move(m));
  }
  out = std::move(members);
  return Status::success();
}

InflateFn preinflated_members(const std::vector<std::uint64_t>* offsets,
                              std::vector<std::vector<std::uint8_t>>* inflated, const std::uint8_t* archive) {
  return [offsets, inflated, archive](const std::uint8_t* data, std::size_t, std::size_t expected,
                                      std::vector<std::uint8_t>& out) {
    const std::uint64_t offset = static_cast<std::uint64_t>(data - archive);
    for (std::size_t i = 0; i < offsets->size() && i < inflated->size(); ++i) {
      if ((*offsets)[i] != offset) continue;
      if ((*inflated)[i].size() != expected)
        return Status::error(msg::io_zip_inflated_size, (*inflated)[i].size(), expected);
      out = std::move((*inflated)[i]);
      return Status::success();
    }
    return Status::error(msg::io_zip_not_preinflated);
  };
}

}  // namespace attn
