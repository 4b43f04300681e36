// Writes 8-bit RGBA images as PNG files, without a compression library: each row filtered
// (none, sub, up or Paeth, whichever leaves the smallest bytes) and the whole compressed by
// the project's own deflate (app/deflate.h), in the browser and on the desktop alike.
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
