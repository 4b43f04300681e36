// The PNG writer's deflate: zlib inflates what it writes back to the same bytes (natively,
// where zlib is linked), it compresses the kinds of images the lab exports, and the PNG it
// makes decodes (through zlib) to the pixels it was given.
#include "app/deflate.h"
#include "app/png_writer.h"
#include "core/base/rng.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#ifndef __EMSCRIPTEN__
#include <zlib.h>
#endif

namespace {

std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

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

#ifndef __EMSCRIPTEN__
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
#endif

}  // namespace

TEST_CASE("deflate: Adler-32 of known inputs", "[deflate]") {
  REQUIRE(attn::adler32(nullptr, 0) == 1u);
  const auto wiki = bytes_of("Wikipedia");
  REQUIRE(attn::adler32(wiki.data(), wiki.size()) == 0x11E60398u);
  // Past the 5552-byte blocks: a million 0xFF bytes, against the sums done in 64 bits.
  std::vector<std::uint8_t> ones(1000000, 0xFF);
  std::uint64_t a = 1, b = 0;
  for (std::uint8_t v : ones) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  REQUIRE(attn::adler32(ones.data(), ones.size()) == static_cast<std::uint32_t>((b << 16) | a));
}

TEST_CASE("deflate: compresses repetition and stays close to the size of noise", "[deflate]") {
  std::vector<std::uint8_t> flat(200000, 42);
  const auto z_flat = attn::zlib_compress(flat.data(), flat.size());
  REQUIRE(z_flat.size() < flat.size() / 100);
  std::vector<std::uint8_t> noise(50000);
  attn::Rng rng(3);
  for (auto& v : noise) v = static_cast<std::uint8_t>(rng.next_u32());
  const auto z_noise = attn::zlib_compress(noise.data(), noise.size());
  REQUIRE(z_noise.size() < noise.size() * 115 / 100);  // literals of 8 or 9 bits
  // The zlib header's check bits.
  REQUIRE(((z_flat[0] << 8) | z_flat[1]) % 31 == 0);
}

#ifndef __EMSCRIPTEN__
TEST_CASE("deflate: zlib inflates the stream back to the input, for every kind of input", "[deflate]") {
  attn::Rng rng(11);
  std::vector<std::vector<std::uint8_t>> inputs = {{}, bytes_of("a"), bytes_of("abcabcabcabcabcabcabcabcabcabc"),
                                                   std::vector<std::uint8_t>(70000, 0), figure_rgba(300, 200)};
  std::vector<std::uint8_t> text;  // matches at every distance up to the window and beyond
  for (int i = 0; i < 120000; ++i) text.push_back(static_cast<std::uint8_t>('a' + rng.next_u32() % 4));
  inputs.push_back(text);
  std::vector<std::uint8_t> far(100000);  // a block repeated 40000 bytes later: out of the window
  for (size_t i = 0; i < 40000; ++i) far[i] = far[i + 40000] = static_cast<std::uint8_t>(rng.next_u32());
  inputs.push_back(far);
  for (const auto& in : inputs) {
    INFO("input of " << in.size() << " bytes");
    const auto z = attn::zlib_compress(in.data(), in.size());
    REQUIRE(inflate_zlib(z, in.size()) == in);
  }
}

TEST_CASE("PNG: the file decodes to the pixels, and a figure compresses well", "[deflate][png]") {
  const int w = 300, h = 200;
  const auto px = figure_rgba(w, h);
  const auto png = attn::encode_png_rgba(px.data(), w, h);
  REQUIRE(png.size() < px.size() / 2);  // a third is noise, which does not compress
  // Chunks: IHDR, IDAT, IEND.
  REQUIRE(std::memcmp(png.data() + 12, "IHDR", 4) == 0);
  REQUIRE(be32(png.data() + 16) == static_cast<std::uint32_t>(w));
  REQUIRE(be32(png.data() + 20) == static_cast<std::uint32_t>(h));
  const size_t idat = 8 + 25;
  REQUIRE(std::memcmp(png.data() + idat + 4, "IDAT", 4) == 0);
  const std::vector<std::uint8_t> z(png.begin() + idat + 8, png.begin() + idat + 8 + be32(png.data() + idat));
  const size_t stride = static_cast<size_t>(w) * 4;
  const auto raw = inflate_zlib(z, (stride + 1) * h);
  REQUIRE(raw.size() == (stride + 1) * h);
  // Undo the filters and compare with the pixels.
  std::vector<std::uint8_t> out(stride * h);
  std::vector<int> filters_used(5, 0);
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
  REQUIRE(out == px);
  REQUIRE(filters_used[0] + filters_used[1] + filters_used[2] + filters_used[4] == h);
  REQUIRE(filters_used[0] < h);  // the flat and gradient rows chose a predicting filter
}
#endif
