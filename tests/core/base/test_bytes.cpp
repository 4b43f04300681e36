// Little-endian bytes and the model files' frame (src/core/base/bytes.h, file_frame.h): the
// writer's exact bytes, the reader's values and its clean failure past the end, a frame's
// layout and every defect it names, and the saved model files' bytes, which must not change
// (a file saved before the shared frame and one saved after are the same file).
#include "core/base/bytes.h"
#include "core/base/crc32.h"
#include "core/base/file_frame.h"
#include "core/lm/language_model.h"
#include "core/train/model_file.h"

#include "support/sample_model_files.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<std::uint8_t>;

const attn::MessageText kTooShort{"test_too_short", "too short: {0} bytes"};
const attn::MessageText kBadMagic{"test_bad_magic", "bad magic"};
const attn::MessageText kBadVersion{"test_bad_version", "version {0}, reads {1}"};
const attn::MessageText kTruncated{"test_truncated", "has {0}, says {1}"};
const attn::MessageText kTrailing{"test_trailing", "{0} after {1}"};
const attn::MessageText kChecksum{"test_checksum", "checksum"};

const attn::FrameFormat kTestFrame{"TESTFRAM", 3, 28, kTooShort, kBadMagic, kBadVersion, kTruncated, kTrailing, kChecksum};

// A frame whose payload is one u32 and one f32.
Bytes test_frame() {
  attn::ByteWriter w = attn::begin_frame(kTestFrame);
  w.u32(0xCAFEF00Du);
  w.f32(-2.5f);
  return attn::finish_frame(std::move(w));
}

std::string open_error(const Bytes& b) {
  attn::ByteReader payload;
  const attn::Status st = attn::open_frame(b.data(), b.size(), kTestFrame, payload);
  return st.ok ? std::string("ok") : st.message;
}

// Saving a model gives the bytes it gave before the writers shared bytes.h and file_frame.h:
// `size` and `crc` are those of the old writer's file for the same model, the CRC-32 of every
// byte before the trailer (over a whole frame, trailer included, every CRC-32 is 0x2144DF1C).
void require_old_bytes(const Bytes& bytes, std::size_t size, std::uint32_t crc) {
  REQUIRE(bytes.size() == size);
  REQUIRE(attn::crc32(bytes.data(), bytes.size() - 4) == crc);
}

}  // namespace

TEST_CASE("bytes: the writer's values, lowest byte first", "[bytes]") {
  attn::ByteWriter w;
  w.u8(0xAB);
  w.u16(0x1234);
  w.u32(0xDEADBEEFu);
  w.u64(0x0102030405060708ull);
  w.i32(-2);
  w.f32(1.5f);  // 0x3FC00000
  w.raw("hi", 2);
  w.f32s({-0.0f});
  const Bytes want = {0xAB, 0x34, 0x12, 0xEF, 0xBE, 0xAD, 0xDE, 8, 7, 6, 5, 4, 3, 2, 1, 0xFE, 0xFF, 0xFF, 0xFF,
                      0x00, 0x00, 0xC0, 0x3F, 'h', 'i', 0x00, 0x00, 0x00, 0x80};
  REQUIRE(w.size() == want.size());
  REQUIRE(w.take() == want);
}

TEST_CASE("bytes: loads and stores at a pointer", "[bytes]") {
  std::uint8_t b[8] = {};
  attn::store_le16(b, 0xBEEF);
  REQUIRE((b[0] == 0xEF && b[1] == 0xBE));
  REQUIRE(attn::load_le16(b) == 0xBEEF);
  attn::store_le32(b, 0x89ABCDEFu);
  REQUIRE(attn::load_le32(b) == 0x89ABCDEFu);
  REQUIRE(b[0] == 0xEF);
  attn::store_le64(b, 0xF0E1D2C3B4A59687ull);
  REQUIRE(attn::load_le64(b) == 0xF0E1D2C3B4A59687ull);
  REQUIRE((b[0] == 0x87 && b[7] == 0xF0));
  REQUIRE(attn::float_from_bits(attn::float_bits(3.25f)) == 3.25f);
  REQUIRE(attn::float_bits(1.0f) == 0x3F800000u);
  REQUIRE(attn::double_bits(1.0) == 0x3FF0000000000000ull);
  REQUIRE(attn::double_from_bits(0x4000000000000000ull) == 2.0);
}

TEST_CASE("bytes: the reader gives back what the writer wrote", "[bytes]") {
  attn::ByteWriter w;
  w.u8(200);
  w.u16(65535);
  w.u32(4000000000u);
  w.u64(1ull << 40);
  w.i32(-123456);
  w.f32(0.1f);
  w.raw("text", 4);
  w.f32s({1.0f, -3.75f});
  const Bytes b = w.take();
  attn::ByteReader r(b.data(), b.size());
  std::uint8_t u8 = 0;
  std::uint16_t u16 = 0;
  std::uint32_t u32 = 0;
  std::uint64_t u64 = 0;
  std::int32_t i32 = 0;
  float f = 0;
  std::string s;
  std::vector<float> v;
  REQUIRE((r.u8(u8) && r.u16(u16) && r.u32(u32) && r.u64(u64) && r.i32(i32) && r.f32(f)));
  REQUIRE((u8 == 200 && u16 == 65535 && u32 == 4000000000u && u64 == (1ull << 40) && i32 == -123456));
  REQUIRE(f == 0.1f);
  REQUIRE(r.text(s, 4));
  REQUIRE(s == "text");
  REQUIRE(r.left() == 8);
  REQUIRE(r.f32s(v, 2));
  REQUIRE(v == std::vector<float>{1.0f, -3.75f});
  REQUIRE(r.left() == 0);
  REQUIRE(r.position() == b.size());
  REQUIRE_FALSE(r.failed());
}

TEST_CASE("bytes: a read past the end fails, changes nothing, and stays failed", "[bytes]") {
  const Bytes b = {1, 2, 3};
  attn::ByteReader r(b.data(), b.size());
  std::uint32_t u32 = 77;
  REQUIRE_FALSE(r.u32(u32));
  REQUIRE(u32 == 77);
  REQUIRE(r.failed());
  REQUIRE(r.position() == 0);
  REQUIRE(r.left() == 0);
  std::uint8_t u8 = 9;
  REQUIRE_FALSE(r.u8(u8));  // the bytes are there, but the reader has failed
  REQUIRE(u8 == 9);

  // A count whose bytes would overflow size_t is refused before anything is allocated.
  attn::ByteReader big(b.data(), b.size());
  std::vector<float> v = {5.0f};
  REQUIRE_FALSE(big.f32s(v, SIZE_MAX / 2));
  REQUIRE(v == std::vector<float>{5.0f});
  attn::ByteReader t(b.data(), b.size());
  std::string s = "kept";
  REQUIRE_FALSE(t.text(s, 4));
  REQUIRE(s == "kept");

  // Exactly to the end is fine; one more byte is not.
  attn::ByteReader e(b.data(), b.size());
  const std::uint8_t* p = nullptr;
  REQUIRE(e.take(p, 3));
  REQUIRE(p == b.data());
  REQUIRE_FALSE(e.u8(u8));
  attn::ByteReader empty;
  REQUIRE_FALSE(empty.u8(u8));
}

TEST_CASE("file frame: the layout, and the payload back", "[bytes][frame]") {
  const Bytes b = test_frame();
  REQUIRE(b.size() == 20 + 8 + 4);
  REQUIRE(std::memcmp(b.data(), "TESTFRAM", 8) == 0);
  REQUIRE(attn::load_le32(b.data() + 8) == 3);
  REQUIRE(attn::load_le64(b.data() + 12) == b.size());
  REQUIRE(attn::load_le32(b.data() + 20) == 0xCAFEF00Du);
  REQUIRE(attn::load_le32(b.data() + 28) == attn::crc32(b.data(), 28));

  attn::ByteReader payload;
  REQUIRE(attn::open_frame(b.data(), b.size(), kTestFrame, payload).ok);
  std::uint32_t u = 0;
  float f = 0;
  REQUIRE((payload.u32(u) && payload.f32(f)));
  REQUIRE((u == 0xCAFEF00Du && f == -2.5f));
  REQUIRE(payload.left() == 0);
}

TEST_CASE("file frame: each defect gives the format's own message", "[bytes][frame]") {
  const Bytes good = test_frame();
  REQUIRE(open_error(good) == "ok");
  REQUIRE(open_error(Bytes(good.begin(), good.begin() + 27)) == "too short: 27 bytes");
  REQUIRE(open_error({}) == "too short: 0 bytes");

  Bytes magic = good;
  magic[0] = 'X';
  REQUIRE(open_error(magic) == "bad magic");
  Bytes version = good;
  attn::store_le32(version.data() + 8, 7);
  REQUIRE(open_error(version) == "version 7, reads 3");
  Bytes cut = good;
  cut.pop_back();
  REQUIRE(open_error(cut) == "has 31, says 32");
  Bytes longer = good;
  longer.push_back(0);
  longer.push_back(0);
  REQUIRE(open_error(longer) == "2 after 32");
  Bytes flipped = good;
  flipped[22] ^= 0x10;
  REQUIRE(open_error(flipped) == "checksum");
  Bytes crc = good;
  crc.back() ^= 1;
  REQUIRE(open_error(crc) == "checksum");

  // seal_frame makes an edited frame whole again (for tests and fuzzers), with the new length.
  attn::seal_frame(flipped);
  REQUIRE(open_error(flipped) == "ok");
  attn::seal_frame(longer);
  REQUIRE(open_error(longer) == "ok");

  // On error the payload reader is left as it was.
  attn::ByteReader payload;
  REQUIRE_FALSE(attn::open_frame(magic.data(), magic.size(), kTestFrame, payload).ok);
  REQUIRE(payload.left() == 0);
}

TEST_CASE("saved files: a task model's bytes as before the shared frame", "[bytes][frame][file]") {
  const attn::train::ModelFile f = attn::test::sample_model_file();
  const Bytes bytes = attn::train::serialize_model_file(f);
  require_old_bytes(bytes, 12605, 0xBEB0AEE1u);
  attn::train::ModelFile back;
  REQUIRE(attn::train::parse_model_file(bytes.data(), bytes.size(), back).ok);
  REQUIRE((back.parameters == f.parameters && back.adam_m == f.adam_m && back.adam_v == f.adam_v));
  REQUIRE((back.loss_history == f.loss_history && back.accuracy_history == f.accuracy_history));
  REQUIRE(attn::train::serialize_model_file(back) == bytes);
}

TEST_CASE("saved files: a language model's bytes as before the shared frame", "[bytes][frame][file]") {
  attn::lm::LanguageModel back;
  const attn::lm::LanguageModel m = attn::test::sample_language_model();
  const Bytes bytes = attn::lm::serialize_language_model(m);
  require_old_bytes(bytes, 1675, 0x33B2F3B4u);
  REQUIRE(attn::lm::parse_language_model(bytes.data(), bytes.size(), back).ok);
  REQUIRE(attn::lm::serialize_language_model(back) == bytes);
  REQUIRE((back.parameters == m.parameters && back.notes == m.notes && back.samples == m.samples));
  REQUIRE(back.vocabulary.characters() == std::vector<std::uint32_t>{'a', 'b', 'c', 0x660E});
  REQUIRE((back.curve.size() == 2 && back.curve[1].held_out_chinese == 4.0f && back.steps == 10));
}
