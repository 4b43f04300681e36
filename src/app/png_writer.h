// Writes 8-bit RGBA images as PNG files, without a compression library: the pixel data
// goes into "stored" (uncompressed) deflate blocks. Files are larger than they could be,
// which is fine for screenshots and exports that tests and people look at.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// rgba: width*height*4 bytes, rows top to bottom. Returns the PNG file's bytes.
std::vector<std::uint8_t> encode_png_rgba(const std::uint8_t* rgba, int width, int height);

// Writes the PNG to `path`; false (and `error` set) when the file cannot be written.
bool write_png_rgba(const std::string& path, const std::uint8_t* rgba, int width, int height,
                    std::string& error);

}  // namespace attn
