// The PNG writer (files/png_writer.h): its file has the chunks a PNG needs with their CRCs,
// zlib inflates its image data, and undoing the row filters gives back the pixels it was
// given; a screenshot-like figure compresses well.
#include "core/base/crc32.h"
#include "core/base/rng.h"
#include "files/png_writer.h"

#include <catch2/catch.hpp>

#include <zlib.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

// A screenshot-like image: flat panels, a gradient, a noisy heatmap block.
std::vector<std::uint8_t> figure_rgba(int w, int h) {
  std::vector<std::uint8_t> px(static_cast<size_t>(w) * h * 4);
  attn::Rng rng(7);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p = &px[(static_cast<size_t>(y) * w + x) * 4];
      if (x < w / 3) p[0] = 30, p[1] = 30, p[2] = 36;
      else if (y < h / 2) p[0] = static_cast<std::uint8_t>(x), p[1] = static_cast<std::uint8_t>(y), p[2] = 128;
      else p[0] = static_cast<std::uint8_t>(rng.next_u32()), p[1] = static_cast<std::uint8_t>(rng.next_u32()), p[2] = 9;
      p[3] = 255;
    }
  return px;
}

std::vector<std::uint8_t> inflate_zlib(const std::vector<std::uint8_t>& z, size_t expected) {
  std::vector<std::uint8_t> out(expected + 16);
  uLongf size = static_cast<uLongf>(out.size());
  REQUIRE(uncompress(out.data(), &size, z.data(), static_cast<uLong>(z.size())) == Z_OK);
  out.resize(size);
  return out;
}

std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

struct Chunk {
  std::string type;
  std::vector<std::uint8_t> body;
};

// The chunks after the signature, each checked against its CRC (over type and body).
std::vector<Chunk> chunks_of(const std::vector<std::uint8_t>& png) {
  std::vector<Chunk> chunks;
  size_t at = 8;
  while (at + 12 <= png.size()) {
    const std::uint32_t length = be32(&png[at]);
    REQUIRE(at + 12 + length <= png.size());
    chunks.push_back({std::string(png.begin() + at + 4, png.begin() + at + 8),
                      std::vector<std::uint8_t>(png.begin() + at + 8, png.begin() + at + 8 + length)});
    REQUIRE(be32(&png[at + 8 + length]) == attn::crc32(&png[at + 4], length + 4));
    at += 12 + length;
  }
  REQUIRE(at == png.size());
  return chunks;
}

// The pixels of the PNG's image data (zlib-inflated, then each row's filter undone), and
// how many rows used each filter type.
std::vector<std::uint8_t> unfiltered_pixels(const std::vector<std::uint8_t>& idat, int w, int h,
                                            std::vector<int>& filters_used) {
  const size_t stride = static_cast<size_t>(w) * 4;
  const auto raw = inflate_zlib(idat, (stride + 1) * h);
  REQUIRE(raw.size() == (stride + 1) * h);
  std::vector<std::uint8_t> out(stride * h);
  filters_used.assign(5, 0);
  for (int y = 0; y < h; ++y) {
    const std::uint8_t f = raw[y * (stride + 1)];
    REQUIRE(f <= 4);
    ++filters_used[f];
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= 4 ? out[y * stride + i - 4] : 0, b = y > 0 ? out[(y - 1) * stride + i] : 0,
                c = y > 0 && i >= 4 ? out[(y - 1) * stride + i - 4] : 0;
      int pred = 0;
      if (f == 1) pred = a;
      if (f == 2) pred = b;
      if (f == 3) pred = (a + b) / 2;
      if (f == 4) {
        const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + i] = static_cast<std::uint8_t>(raw[y * (stride + 1) + 1 + i] + pred);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("png writer: the file decodes to the pixels, and a figure compresses well", "[png]") {
  const int w = 300, h = 200;
  const auto px = figure_rgba(w, h);
  const auto png = attn::encode_png_rgba(px.data(), w, h);
  REQUIRE(png.size() < px.size() / 2);  // a third is noise, which does not compress
  REQUIRE(std::memcmp(png.data(), "\x89PNG\r\n\x1A\n", 8) == 0);
  const std::vector<Chunk> chunks = chunks_of(png);
  REQUIRE(chunks.size() == 3);
  REQUIRE(chunks[0].type == "IHDR");
  REQUIRE(chunks[0].body.size() == 13);
  REQUIRE(be32(&chunks[0].body[0]) == static_cast<std::uint32_t>(w));
  REQUIRE(be32(&chunks[0].body[4]) == static_cast<std::uint32_t>(h));
  // 8 bits, RGBA, deflate, the standard filters, no interlace.
  REQUIRE(std::vector<std::uint8_t>(chunks[0].body.begin() + 8, chunks[0].body.end()) ==
          std::vector<std::uint8_t>{8, 6, 0, 0, 0});
  REQUIRE(chunks[1].type == "IDAT");
  REQUIRE(chunks[2].type == "IEND");
  REQUIRE(chunks[2].body.empty());
  std::vector<int> filters_used;
  REQUIRE(unfiltered_pixels(chunks[1].body, w, h, filters_used) == px);
  REQUIRE(filters_used[0] < h);  // the flat and gradient rows chose a predicting filter
}

TEST_CASE("png writer: a single pixel, row and column decode to their pixels", "[png]") {
  for (const auto& [w, h] : {std::pair{1, 1}, std::pair{257, 1}, std::pair{1, 300}}) {
    INFO(w << " x " << h);
    const std::vector<std::uint8_t> px(static_cast<size_t>(w) * h * 4, 200);
    const auto png = attn::encode_png_rgba(px.data(), w, h);
    const std::vector<Chunk> chunks = chunks_of(png);
    REQUIRE(chunks.size() == 3);
    std::vector<int> filters_used;
    REQUIRE(unfiltered_pixels(chunks[1].body, w, h, filters_used) == px);
  }
}
