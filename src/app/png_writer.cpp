#include "app/png_writer.h"

#include "app/deflate.h"
#include "core/base/crc32.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

namespace attn {
namespace {

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

// The Paeth predictor (PNG, filter type 4): whichever neighbour is closest to a + b - c.
int paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

}  // namespace

std::vector<std::uint8_t> encode_png_rgba(const std::uint8_t* rgba, int width, int height) {
  // Each scanline led by the filter that leaves the smallest sum of |byte| (the usual
  // heuristic): none, sub (the pixel to the left), up (the one above) or Paeth.
  const size_t stride = static_cast<size_t>(width) * 4;
  std::vector<std::uint8_t> raw;
  raw.reserve((stride + 1) * height);
  std::array<std::vector<std::uint8_t>, 4> rows;
  for (auto& r : rows) r.resize(stride);
  const std::array<std::uint8_t, 4> types = {0, 1, 2, 4};
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* x = rgba + y * stride;
    const std::uint8_t* above = y > 0 ? x - stride : nullptr;
    long best_sum = -1;
    int best = 0;
    for (int f = 0; f < 4; ++f) {
      long sum = 0;
      for (size_t i = 0; i < stride; ++i) {
        const int a = i >= 4 ? x[i - 4] : 0, b = above ? above[i] : 0, c = above && i >= 4 ? above[i - 4] : 0;
        int predicted = 0;
        if (types[f] == 1) predicted = a;
        else if (types[f] == 2) predicted = b;
        else if (types[f] == 4) predicted = paeth(a, b, c);
        const std::uint8_t v = static_cast<std::uint8_t>(x[i] - predicted);
        rows[f][i] = v;
        sum += v < 128 ? v : 256 - v;
      }
      if (best_sum < 0 || sum < best_sum) {
        best_sum = sum;
        best = f;
      }
    }
    raw.push_back(types[best]);
    raw.insert(raw.end(), rows[best].begin(), rows[best].end());
  }
  const std::vector<std::uint8_t> z = zlib_compress(raw.data(), raw.size());

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
