#include "app/png_writer.h"

#include "core/import_attention.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace attn {
namespace {

// The zip CRC-32 of the core (PNG chunks use the same polynomial).
std::uint32_t crc32(const std::uint8_t* data, size_t size, std::uint32_t crc = 0) { return crc32_of(data, size, crc); }

void put_u32_be(std::vector<std::uint8_t>& out, std::uint32_t v) {
  out.push_back(static_cast<std::uint8_t>(v >> 24));
  out.push_back(static_cast<std::uint8_t>(v >> 16));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}

void put_chunk(std::vector<std::uint8_t>& out, const char type[4], const std::vector<std::uint8_t>& body) {
  put_u32_be(out, static_cast<std::uint32_t>(body.size()));
  const size_t type_at = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), body.begin(), body.end());
  put_u32_be(out, crc32(out.data() + type_at, body.size() + 4));
}

}  // namespace

std::vector<std::uint8_t> encode_png_rgba(const std::uint8_t* rgba, int width, int height) {
  // Raw scanlines, each led by filter type 0 (none).
  const size_t stride = static_cast<size_t>(width) * 4;
  std::vector<std::uint8_t> raw;
  raw.reserve((stride + 1) * height);
  for (int y = 0; y < height; ++y) {
    raw.push_back(0);
    raw.insert(raw.end(), rgba + y * stride, rgba + (y + 1) * stride);
  }
  // zlib stream: header, stored blocks of at most 65535 bytes, Adler-32 of the raw data.
  std::vector<std::uint8_t> z = {0x78, 0x01};
  size_t pos = 0;
  do {
    const size_t len = std::min<size_t>(65535, raw.size() - pos);
    const bool last = pos + len == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(static_cast<std::uint8_t>(len));
    z.push_back(static_cast<std::uint8_t>(len >> 8));
    z.push_back(static_cast<std::uint8_t>(~len));
    z.push_back(static_cast<std::uint8_t>(~len >> 8));
    z.insert(z.end(), raw.begin() + pos, raw.begin() + pos + len);
    pos += len;
  } while (pos < raw.size());
  std::uint32_t a = 1, b = 0;
  for (std::uint8_t byte : raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  put_u32_be(z, (b << 16) | a);

  std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<std::uint8_t> header;
  put_u32_be(header, static_cast<std::uint32_t>(width));
  put_u32_be(header, static_cast<std::uint32_t>(height));
  header.insert(header.end(), {8, 6, 0, 0, 0});  // 8 bits, RGBA, deflate, no filter set, no interlace
  put_chunk(png, "IHDR", header);
  put_chunk(png, "IDAT", z);
  put_chunk(png, "IEND", {});
  return png;
}

bool write_png_rgba(const std::string& path, const std::uint8_t* rgba, int width, int height,
                    std::string& error) {
  const std::vector<std::uint8_t> png = encode_png_rgba(rgba, width, height);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    error = "cannot open " + path + " for writing";
    return false;
  }
  const bool ok = std::fwrite(png.data(), 1, png.size(), f) == png.size();
  if (std::fclose(f) != 0 || !ok) {
    error = "could not write all of " + path;
    std::remove(path.c_str());
    return false;
  }
  return true;
}

}  // namespace attn
