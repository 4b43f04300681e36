// Writes 8-bit RGBA images as PNG files, in the browser and on the desktop alike: stb's
// PNG writer (stb_image_write.h: each row filtered with whichever filter leaves the smallest
// bytes) with zlib as its compressor and zlib's CRC-32 for the chunks. Rows arrive top to
// bottom; a caller holding GL's bottom-up rows turns them over first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// rgba: width*height*4 bytes, rows top to bottom. Returns the PNG file's bytes (none when
// there was no memory to encode them).
std::vector<std::uint8_t> encode_png_rgba(const std::uint8_t* rgba, int width, int height);

// Writes the PNG to `path`; false (and `error` set) when the file cannot be written.
bool write_png_rgba(const std::string& path, const std::uint8_t* rgba, int width, int height,
                    std::string& error);

}  // namespace attn
