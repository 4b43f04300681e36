#include "files/png_writer.h"

#include <zlib.h>

#include <cstdio>
#include <cstdlib>

namespace attn {
namespace {

// stb's compressor hook: the zlib stream of the filtered rows, in a buffer stb frees with
// free(). `level` is stb's stbi_write_png_compression_level (8 unless set), on zlib's scale.
unsigned char* zlib_compress_for_stb(unsigned char* data, int size, int* out_size, int level) {
  uLongf bound = compressBound(static_cast<uLong>(size));
  auto* out = static_cast<unsigned char*>(std::malloc(bound));
  if (!out) return nullptr;
  if (compress2(out, &bound, data, static_cast<uLong>(size), level) != Z_OK) {
    std::free(out);
    return nullptr;
  }
  *out_size = static_cast<int>(bound);
  return out;
}

}  // namespace
}  // namespace attn

// stb_image_write's code lives in this file only; its functions stay private to it.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#define STBIW_ZLIB_COMPRESS attn::zlib_compress_for_stb
#define STBIW_CRC32(buffer, length) static_cast<unsigned int>(::crc32(0, buffer, static_cast<uInt>(length)))
#include <stb_image_write.h>

namespace attn {
namespace {

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(context);
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

std::vector<std::uint8_t> encode_png_rgba(const std::uint8_t* rgba, int width, int height) {
  std::vector<std::uint8_t> png;
  if (!stbi_write_png_to_func(append_bytes, &png, width, height, 4, rgba, width * 4)) png.clear();
  return png;
}

bool write_png_rgba(const std::string& path, const std::uint8_t* rgba, int width, int height,
                    std::string& error) {
  const std::vector<std::uint8_t> png = encode_png_rgba(rgba, width, height);
  if (png.empty()) {
    error = "not enough memory to encode " + path;
    return false;
  }
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
