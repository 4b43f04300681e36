// Import of attention files: good .npy / .npz / JSON files give the right shapes, tokens and
// values; malformed ones (many kinds) give a clear message and leave the output alone.
#include "core/io/import_attention.h"
#include "core/io/import_job.h"
#include "core/io/zip.h"
#include "core/base/crc32.h"

#include <catch2/catch.hpp>

#ifndef __EMSCRIPTEN__
#include "files/native/file_import.h"
#include <zlib.h>
#endif

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace attn;

namespace {

using Bytes = std::vector<std::uint8_t>;

void put16(Bytes& b, std::uint32_t v) {
  b.push_back(v & 0xFF);
  b.push_back((v >> 8) & 0xFF);
}
void put32(Bytes& b, std::uint32_t v) {
  put16(b, v & 0xFFFF);
  put16(b, v >> 16);
}

struct Member {
  std::string name;
  Bytes data;
};

// A zip archive as np.savez writes one (stored members), or with deflate when `packed` holds
// each member's compressed bytes.
Bytes make_zip(const std::vector<Member>& members, const std::vector<Bytes>* packed = nullptr) {
  Bytes out, dir;
  for (size_t i = 0; i < members.size(); ++i) {
    const Member& m = members[i];
    const Bytes& body = packed ? (*packed)[i] : m.data;
    const std::uint32_t crc = attn::crc32(m.data.data(), m.data.size());
    const std::uint32_t offset = static_cast<std::uint32_t>(out.size());
    const int method = packed ? 8 : 0;
    put32(out, 0x04034b50);
    put16(out, 20);
    put16(out, 0);
    put16(out, method);
    put32(out, 0);
    put32(out, crc);
    put32(out, static_cast<std::uint32_t>(body.size()));
    put32(out, static_cast<std::uint32_t>(m.data.size()));
    put16(out, static_cast<std::uint32_t>(m.name.size()));
    put16(out, 0);
    out.insert(out.end(), m.name.begin(), m.name.end());
    out.insert(out.end(), body.begin(), body.end());
    put32(dir, 0x02014b50);
    put16(dir, 20);
    put16(dir, 20);
    put16(dir, 0);
    put16(dir, method);
    put32(dir, 0);
    put32(dir, crc);
    put32(dir, static_cast<std::uint32_t>(body.size()));
    put32(dir, static_cast<std::uint32_t>(m.data.size()));
    put16(dir, static_cast<std::uint32_t>(m.name.size()));
    put16(dir, 0);
    put16(dir, 0);
    put16(dir, 0);
    put16(dir, 0);
    put32(dir, 0);
    put32(dir, offset);
    dir.insert(dir.end(), m.name.begin(), m.name.end());
  }
  const std::uint32_t dir_offset = static_cast<std::uint32_t>(out.size());
  out.insert(out.end(), dir.begin(), dir.end());
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<std::uint32_t>(members.size()));
  put16(out, static_cast<std::uint32_t>(members.size()));
  put32(out, static_cast<std::uint32_t>(dir.size()));
  put32(out, dir_offset);
  put16(out, 0);
  return out;
}

// A .npy of float32 values 0, 1/100, 2/100, ... of the given shape.
Bytes ramp_npy(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) / 100.0f;
  return serialize_npy(NpyArray::from_float(shape, v.data()));
}

// A '<U{w}' .npy of strings, written by hand as np.save would.
Bytes strings_npy(const std::vector<std::string>& items, int width) {
  std::string header = "{'descr': '<U" + std::to_string(width) + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(items.size()) + ",), }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  put16(out, static_cast<std::uint32_t>(header.size()));
  out.insert(out.end(), header.begin(), header.end());
  for (const std::string& s : items) {
    for (int c = 0; c < width; ++c) put32(out, c < static_cast<int>(s.size()) ? static_cast<unsigned char>(s[c]) : 0);
  }
  return out;
}

Status import_bytes(const Bytes& b, ImportedAttention& out, ImportOptions options = {}) {
#ifndef __EMSCRIPTEN__
  return import_attention(b.data(), b.size(), options, native::zlib_inflate, out);
#else
  return import_attention(b.data(), b.size(), options, InflateFn(), out);
#endif
}

Status import_text(const std::string& text, ImportedAttention& out) {
  return import_bytes(Bytes(text.begin(), text.end()), out);
}

// The message of an import run as a job in steps of `budget` bytes ("" when it succeeds).
std::string stepped_message(const Bytes& b, std::size_t budget, ImportOptions options = {}) {
#ifndef __EMSCRIPTEN__
  const InflateFn inflate = native::zlib_inflate;
#else
  const InflateFn inflate;
#endif
  ImportJob job;
  Status s = job.begin(b.data(), b.size(), options, inflate);
  while (s.ok && job.active()) s = job.step(budget);
  return s.message;
}

// Runs a begun job to its end in steps of `budget` bytes, the progress rising every step to
// 1; returns the number of steps.
int run_in_steps(ImportJob& job, std::size_t budget) {
  double last = 0.0;
  int steps = 0;
  while (job.active()) {
    REQUIRE(job.step(budget).ok);
    CHECK(job.progress() > last);
    last = job.progress();
    ++steps;
  }
  CHECK(job.done());
  CHECK(last == 1.0);
  return steps;
}

// Importing must fail with a message containing `part`, and leave `out` as it was; the
// same import in the smallest steps stops with the same message.
void expect_refused(const Bytes& b, const std::string& part, ImportOptions options = {}) {
  ImportedAttention out;
  out.layers = 77;
  const Status s = import_bytes(b, out, options);
  INFO("message: " << s.message);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find(part) != std::string::npos);
  CHECK(out.layers == 77);
  CHECK(stepped_message(b, 1, options) == s.message);
}

}  // namespace

TEST_CASE("import: a bare .npy of shape (L, H, n_q, n_k) keeps every value", "[import]") {
  const Bytes b = ramp_npy({2, 3, 4, 5});
  ImportedAttention a;
  REQUIRE(import_bytes(b, a).ok);
  CHECK(a.format == ImportFormat::Npy);
  CHECK(a.layers == 2);
  CHECK(a.heads == 3);
  CHECK(a.n_q == 4);
  CHECK(a.n_k == 5);
  CHECK(a.cross_attention());
  CHECK_FALSE(a.tokens_given);
  CHECK(a.query_tokens == std::vector<std::string>{"0", "1", "2", "3"});
  CHECK(a.key_tokens.size() == 5);
  const Mat w = a.head_weights(1, 2);  // block index 1 * 3 + 2 = 5, element (2, 3)
  REQUIRE(w.rows() == 4);
  REQUIRE(w.cols() == 5);
  CHECK(w(2, 3) == Approx((5 * 20 + 2 * 5 + 3) / 100.0f));
  CHECK(a.head_weights(2, 0).size() == 0);  // out of range: empty
}

TEST_CASE("import: 2-d and 3-d weights gain the missing layer and head axes", "[import]") {
  ImportedAttention a;
  REQUIRE(import_bytes(ramp_npy({3, 3}), a).ok);
  CHECK((a.layers == 1 && a.heads == 1 && a.n_q == 3));
  REQUIRE(import_bytes(ramp_npy({4, 3, 3}), a).ok);
  CHECK((a.layers == 1 && a.heads == 4));
}

TEST_CASE("import: a 5-d array picks the batch entry", "[import]") {
  const Bytes b = ramp_npy({3, 2, 1, 2, 2});
  ImportOptions o;
  o.batch_index = 2;
  ImportedAttention a;
  REQUIRE(import_bytes(b, a, o).ok);
  CHECK(a.batch == 3);
  CHECK(a.batch_index == 2);
  CHECK(a.layers == 2);
  CHECK(a.head_weights(1, 0)(1, 1) == Approx((2 * 8 + 4 + 3) / 100.0f));
  o.batch_index = 3;
  expect_refused(b, "batch 3 does not exist", o);
}

TEST_CASE("import: float16 and bfloat16 weights decode exactly", "[import]") {
  NpyArray half;
  half.dtype = NpyDtype::Float16;
  half.shape = {2, 2};
  half.data = {0x00, 0x3C, 0x00, 0x38, 0x00, 0x34, 0x00, 0x00};  // 1, 0.5, 0.25, 0
  ImportedAttention a;
  REQUIRE(import_bytes(serialize_npy(half), a).ok);
  CHECK(a.head_weights(0, 0)(0, 1) == 0.5f);
  CHECK(a.head_weights(0, 0)(1, 0) == 0.25f);

  NpyArray bf = half;
  bf.dtype = NpyDtype::UInt16;
  bf.data = {0x80, 0x3F, 0x00, 0x3F, 0x80, 0x3E, 0x00, 0x00};  // bfloat16 1, 0.5, 0.25, 0
  expect_refused(serialize_npy(bf), "bfloat16 flag");
  ImportOptions o;
  o.uint16_is_bfloat16 = true;
  REQUIRE(import_bytes(serialize_npy(bf), a, o).ok);
  CHECK(a.head_weights(0, 0)(0, 0) == 1.0f);
  CHECK(a.head_weights(0, 0)(1, 0) == 0.25f);
}

TEST_CASE("import: an .npz with tokens, Q, K, V (stored members)", "[import]") {
  const Bytes b = make_zip({{"attentions.npy", ramp_npy({2, 2, 3, 3})},
                            {"tokens.npy", strings_npy({"[CLS]", "cat", "[SEP]"}, 5)},
                            {"input_ids.npy", ramp_npy({3})},  // not ours: ignored
                            {"q.npy", ramp_npy({2, 2, 3, 4})},
                            {"k.npy", ramp_npy({2, 2, 3, 4})},
                            {"v.npy", ramp_npy({2, 2, 3, 6})}});
  ImportedAttention a;
  const Status s = import_bytes(b, a);
  INFO(s.message);
  REQUIRE(s.ok);
  CHECK(a.format == ImportFormat::Npz);
  CHECK(a.tokens_given);
  CHECK(a.query_tokens == std::vector<std::string>{"[CLS]", "cat", "[SEP]"});
  CHECK(a.key_tokens == a.query_tokens);
  CHECK(a.has_qkv);
  CHECK(a.d_k == 4);
  CHECK(a.d_v == 6);
  CHECK(a.head_q(1, 1).rows() == 3);
  CHECK(a.head_v(1, 1)(2, 5) == Approx((3 * 18 + 2 * 6 + 5) / 100.0f));
}

TEST_CASE("import: cross-attention takes query_tokens and key_tokens", "[import]") {
  const Bytes good = make_zip({{"attentions.npy", ramp_npy({1, 2, 2, 3})},
                               {"query_tokens.npy", strings_npy({"le", "chat"}, 4)},
                               {"key_tokens.npy", strings_npy({"the", "cat", "sat"}, 3)}});
  ImportedAttention a;
  REQUIRE(import_bytes(good, a).ok);
  CHECK(a.query_tokens == std::vector<std::string>{"le", "chat"});
  CHECK(a.key_tokens == std::vector<std::string>{"the", "cat", "sat"});
  expect_refused(make_zip({{"attentions.npy", ramp_npy({1, 2, 2, 3})}, {"tokens.npy", strings_npy({"a", "b"}, 1)}}),
                 "cross-attention");
  expect_refused(make_zip({{"attentions.npy", ramp_npy({1, 2, 2, 3})}, {"query_tokens.npy", strings_npy({"a", "b"}, 1)}}),
                 "come together");
  expect_refused(make_zip({{"attentions.npy", ramp_npy({1, 1, 2, 2})}, {"tokens.npy", strings_npy({"a", "b", "c"}, 1)}}),
                 "3 query tokens for 2");
}

#ifndef __EMSCRIPTEN__
TEST_CASE("import: deflate-compressed members are inflated (zlib natively)", "[import]") {
  const std::vector<Member> members = {{"attentions.npy", ramp_npy({1, 1, 2, 2})}, {"tokens.npy", strings_npy({"a", "b"}, 1)}};
  std::vector<Bytes> packed;
  for (const Member& m : members) {
    z_stream z{};
    REQUIRE(deflateInit2(&z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    Bytes out(deflateBound(&z, m.data.size()));
    z.next_in = const_cast<Bytef*>(m.data.data());
    z.avail_in = static_cast<uInt>(m.data.size());
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    packed.push_back(out);
  }
  const Bytes b = make_zip(members, &packed);
  ImportedAttention a;
  REQUIRE(import_bytes(b, a).ok);
  CHECK(a.head_weights(0, 0)(1, 1) == Approx(0.03f));
  CHECK(a.query_tokens == std::vector<std::string>{"a", "b"});

  // Without an inflater: a clear message. With a damaged stream: another.
  ImportedAttention none;
  const Status s = import_attention(b.data(), b.size(), {}, InflateFn(), none);
  CHECK(s.message.find("no inflater") != std::string::npos);
  Bytes damaged = b;
  damaged[50] ^= 0xFF;  // inside the first member's deflate stream (after its 30 + 14 header bytes)
  ImportedAttention d;
  CHECK_FALSE(import_bytes(damaged, d).ok);
}
#endif

TEST_CASE("import: pre-inflated members stand in for an inflater (the browser's path)", "[import]") {
  const Member m = {"attentions.npy", ramp_npy({1, 1, 2, 2})};
  // A zip that claims deflate, with placeholder bytes; the "browser" inflated them already.
  const std::vector<Bytes> placeholder = {{1, 2, 3}};
  const Bytes b = make_zip({m}, &placeholder);
  std::vector<ZipMember> members;
  REQUIRE(list_zip_members(b.data(), b.size(), members).ok);
  REQUIRE(members.size() == 1);
  CHECK(members[0].method == 8);
  CHECK(members[0].compressed_size == 3);
  CHECK(members[0].uncompressed_size == m.data.size());
  const std::vector<std::uint64_t> offsets = {members[0].data_offset};
  std::vector<Bytes> inflated = {m.data};
  ImportedAttention a;
  REQUIRE(import_attention(b.data(), b.size(), {}, preinflated_members(&offsets, &inflated, b.data()), a).ok);
  CHECK(a.head_weights(0, 0)(0, 1) == Approx(0.01f));
}

TEST_CASE("import: the format from the first bytes, one rule for the parser and the page", "[import]") {
  auto sniff = [](const std::string& text) {
    const std::optional<ImportFormat> f =
        sniff_import_format(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    return f ? std::string(import_format_name(*f)) : std::string();
  };
  CHECK(sniff(std::string("PK\3\4", 4)) == "npz");
  CHECK(sniff(std::string("PK\5\6", 4) + std::string(18, '\0')) == "npz");  // an empty archive
  CHECK(sniff("\x93NUMPY\x01\x00") == "npy");
  CHECK(sniff(" \r\n\t{") == "json");
  CHECK(sniff("\xEF\xBB\xBF {\"format\"") == "json");  // a UTF-8 byte order mark
  CHECK(sniff("").empty());
  CHECK(sniff("PK\3").empty());  // too short for the signature
  CHECK(sniff("\x93NUMP").empty());
  CHECK(sniff("[1, 2]").empty());
  CHECK(sniff("x{").empty());
}

TEST_CASE("import in steps: the same result piece by piece, the weights in the file's own buffer", "[import]") {
  const std::vector<Member> members = {{"attentions.npy", ramp_npy({2, 2, 3, 3})},
                                       {"tokens.npy", strings_npy({"a", "b", "c"}, 1)},
                                       {"q.npy", ramp_npy({2, 2, 3, 4})},
                                       {"k.npy", ramp_npy({2, 2, 3, 4})},
                                       {"v.npy", ramp_npy({2, 2, 3, 2})}};
  const Bytes b = make_zip(members);
  ImportedAttention whole;
  REQUIRE(import_bytes(b, whole).ok);
  Bytes file = b;
  const std::uint8_t* address = file.data();
  ImportJob job;
  REQUIRE(job.begin(std::move(file), {}, InflateFn()).ok);
  CHECK(job.active());
  // The CRC-32 of the four array members, then their data (float32) moved into place.
  std::size_t crc_bytes = 0;
  for (const Member& m : members)
    if (m.name != "tokens.npy") crc_bytes += m.data.size();
  CHECK(job.work_bytes() == crc_bytes + 4 * (36 + 48 + 48 + 24));
  const int steps = run_in_steps(job, 100);
  CHECK(steps >= static_cast<int>(job.work_bytes() / 112));
  const ImportedAttention a = job.take();
  CHECK_FALSE(job.done());  // taken: empty again
  CHECK(a.weights.data == whole.weights.data);
  CHECK(a.weights.shape == whole.weights.shape);
  CHECK(a.q.data == whole.q.data);
  CHECK(a.k.data == whole.k.data);
  CHECK(a.v.data == whole.v.data);
  CHECK(a.query_tokens == whole.query_tokens);
  CHECK(a.head_v(1, 1)(2, 1) == Approx((3 * 6 + 2 * 2 + 1) / 100.0f));
  CHECK(a.weights.data.data() == address);  // moved to the front of the file's bytes: no copy

  // A bare .npy likewise: the weights are the file's buffer.
  Bytes npy = ramp_npy({1, 2, 4, 4});
  const std::uint8_t* npy_address = npy.data();
  REQUIRE(job.begin(std::move(npy), {}, InflateFn()).ok);
  while (job.active()) REQUIRE(job.step(16).ok);
  const ImportedAttention c = job.take();
  CHECK(c.weights.data.data() == npy_address);
  CHECK(c.weights.data.size() == 4 * 32);
  CHECK(c.head_weights(0, 1)(3, 2) == Approx((16 + 14) / 100.0f));
}

TEST_CASE("import in steps: damage found in a later step gives import_attention's message", "[import]") {
  std::vector<float> values(400, 0.25f);
  values[300] = std::numeric_limits<float>::infinity();
  const Bytes inf = serialize_npy(NpyArray::from_float({20, 20}, values.data()));
  ImportJob job;
  REQUIRE(job.begin(Bytes(inf), {}, InflateFn()).ok);
  Status s;
  int steps = 0;
  while (job.active() && s.ok) {
    s = job.step(64);
    ++steps;
  }
  CHECK(steps >= 18);  // element 300 lies in the 19th piece of 64 bytes
  CHECK_FALSE(s.ok);
  CHECK(s.message == "'the array' contains NaN or Inf at flat index 300");
  CHECK_FALSE(job.active());
  CHECK_FALSE(job.done());
  CHECK_FALSE(job.step(64).ok);  // nothing left to do
  ImportedAttention a;
  CHECK(import_bytes(inf, a).message == s.message);

  // A stored member whose data (not its header) is damaged: the CRC-32 step refuses it.
  Bytes zip = make_zip({{"attentions.npy", ramp_npy({1, 1, 8, 8})}});
  zip[30 + 14 + 128 + 100] ^= 1;
  REQUIRE(job.begin(Bytes(zip), {}, InflateFn()).ok);
  s = Status::success();
  while (job.active() && s.ok) s = job.step(32);
  CHECK(s.message == ".npz member 'attentions': CRC-32 mismatch: the archive is damaged");
  CHECK(import_bytes(zip, a).message == s.message);
}

TEST_CASE("import in steps: a JSON file is parsed a piece per step, the bar moving, with the same result", "[import]") {
  // 2 layers x 3 heads x 6 x 6 weights, tokens, and Q/K/V of width 2.
  std::string text = R"({"format": "attnlab-attention", "version": 1, "tokens": ["a", "b", "c", "d", "e", "f"], "attentions": [)";
  auto block = [](int l, int h, int rows, int cols, int salt) {
    std::string out = "[";
    for (int i = 0; i < rows; ++i) {
      out += i ? ", [" : "[";
      for (int j = 0; j < cols; ++j) out += (j ? ", " : "") + std::to_string((l * 7 + h * 5 + i * 3 + j + salt) % 10) + "e-1";
      out += "]";
    }
    return out + "]";
  };
  auto tensor = [&](int cols, int salt) {
    std::string out = "[";
    for (int l = 0; l < 2; ++l) {
      out += l ? ", [" : "[";
      for (int h = 0; h < 3; ++h) out += (h ? ", " : "") + block(l, h, 6, cols, salt);
      out += "]";
    }
    return out + "]";
  };
  text += tensor(6, 0).substr(1) + R"(, "q": )" + tensor(2, 1) + R"(, "k": )" + tensor(2, 2) + R"(, "v": )" + tensor(2, 3) + "}";
  ImportedAttention whole;
  REQUIRE(import_text(text, whole).ok);
  CHECK(whole.head_weights(1, 2)(5, 4) == Approx(((7 + 10 + 15 + 4) % 10) / 10.0f));

  ImportJob job;
  REQUIRE(job.begin(Bytes(text.begin(), text.end()), {}, InflateFn()).ok);
  CHECK(job.active());
  CHECK(job.work_bytes() == text.size());  // the text; its arrays are known once it is parsed
  int steps = run_in_steps(job, 64);
  const std::size_t array_bytes = 4 * (2 * 3 * 6 * 6 + 3 * (2 * 3 * 6 * 2));
  CHECK(job.work_bytes() == text.size() + array_bytes);
  // At most 64 bytes of text a step (and the token that crosses the mark): every piece of the text was a step.
  CHECK(steps >= static_cast<int>(text.size() / (64 + 32)));
  const ImportedAttention a = job.take();
  CHECK(a.format == ImportFormat::Json);
  CHECK(a.weights.data == whole.weights.data);
  CHECK(a.q.data == whole.q.data);
  CHECK(a.v.data == whole.v.data);
  CHECK(a.query_tokens == whole.query_tokens);

  // Damage near the end shows only in a late step, with import_attention's message.
  std::string damaged = text;
  damaged.insert(damaged.size() - 1, ", \"extra\": 1");
  ImportedAttention b;
  const Status refused = import_text(damaged, b);
  CHECK_FALSE(refused.ok);
  CHECK(refused.message.find("unknown key \"extra\"") != std::string::npos);
  REQUIRE(job.begin(Bytes(damaged.begin(), damaged.end()), {}, InflateFn()).ok);
  Status s;
  steps = 0;
  while (s.ok && job.active()) {
    s = job.step(256);
    ++steps;
  }
  CHECK(steps >= static_cast<int>(damaged.size() / 264));
  CHECK(s.message == refused.message);
  CHECK_FALSE(job.active());
}

TEST_CASE("import: the JSON format", "[import]") {
  ImportedAttention a;
  const Status s = import_text(R"({"format": "attnlab-attention", "version": 1,
      "attentions": [[[[0.75, 0.25], [0.5, 0.5]]], [[[1, 0], [0.1, 0.9]]]],
      "tokens": ["<s>", "\u732b"]})",
                               a);
  INFO(s.message);
  REQUIRE(s.ok);
  CHECK(a.format == ImportFormat::Json);
  CHECK(a.layers == 2);
  CHECK(a.heads == 1);
  CHECK(a.query_tokens[1] == "\xE7\x8C\xAB");  // 猫
  CHECK(a.head_weights(1, 0)(1, 1) == Approx(0.9f));

  REQUIRE(import_text(R"({"format":"attnlab-attention","version":1,"attentions":[[0.5,0.5,0]],
      "query_tokens":["x"],"key_tokens":["a","b","c"],
      "q":[[[[1,2]]]],"k":[[[[1,0],[0,1],[1,1]]]],"v":[[[[3],[4],[5]]]]})",
                          a)
              .ok);
  CHECK(a.has_qkv);
  CHECK(a.n_q == 1);
  CHECK(a.n_k == 3);
  CHECK(a.head_v(0, 0)(2, 0) == 5.0f);
}

TEST_CASE("import: malformed JSON is refused with a message", "[import]") {
  auto refused = [](const std::string& text, const std::string& part) {
    expect_refused(Bytes(text.begin(), text.end()), part);
  };
  const std::string head = R"({"format":"attnlab-attention","version":1,)";
  refused("{", "JSON");
  refused(R"({"format":"other","version":1})", "\"format\" must be");
  refused(R"({"format":"attnlab-attention","version":2})", "\"version\" must be 1");
  refused(head + R"("attentions":[[1,2],[3]]})", "not rectangular");
  refused(head + R"("attentions":[[1,"a"]]})", "mixes numbers");
  refused(head + R"("attentions":[[1e999]]})", "too large");
  refused(head + R"("attentions":[[1,2]], "extra": 1})", "unknown key");
  refused(head + R"("attentions":[[1]], "attentions": [[1]]})", "duplicate key");
  refused(head + R"("tokens":["a"]})", "no attention weights");
  refused(head + R"("attentions":[[NaN]]})", "expected a value");
  refused(head + R"("attentions":[[0.5]], "tokens": ["a\q"]})", "unknown escape");
  refused(head + R"("attentions":[[0.5]]} trailing)", "unexpected text");
  refused(std::string(100, '[') + std::string(100, ']'), "not a file");  // no object: not JSON to us
  refused("{\"a\":" + std::string(40, '[') + std::string(40, ']') + "}", "nesting deeper");
  refused(head + R"("attentions":[[[[[[0.5]]]]]]})", "2 to 5 dimensions");
}

TEST_CASE("import: a token label longer than the cap is refused at once, naming the entry", "[import]") {
  // One token of 2 MB froze an embed and its host page for minutes while it was drawn.
  const std::string head = R"({"format":"attnlab-attention","version":1,"attentions":[[0.5,0.5],[0.5,0.5]],)";
  ImportedAttention a;
  const std::string label(2 << 20, 'x');
  Status s = import_text(head + R"("tokens":["a",")" + label + R"("]})", a);
  REQUIRE_FALSE(s.ok);
  CHECK(s.message.find("'tokens' entry 1 is 2097152 bytes long; a token's label may be at most 256") != std::string::npos);
  const std::string longest(attn::kImportMaxTokenLabelBytes, 'y');
  s = import_text(head + R"("tokens":["a",")" + longest + R"("]})", a);
  INFO(s.message);
  REQUIRE(s.ok);
  CHECK(a.query_tokens[1] == longest);
  s = import_text(head + R"("query_tokens":["q",")" + longest + "z" + R"("],"key_tokens":["a","b"]})", a);
  CHECK(s.message.find("'query_tokens' entry 1 is 257 bytes long") != std::string::npos);
}

TEST_CASE("import: malformed archives and arrays are refused with a message", "[import]") {
  const Bytes good = make_zip({{"attentions.npy", ramp_npy({1, 1, 2, 2})}});
  expect_refused({}, "empty");
  expect_refused({'P', 'K', 3, 4}, "not a zip archive");
  expect_refused(Bytes(good.begin(), good.end() - 1), "end-of-central-directory");
  Bytes bad_crc = good;
  bad_crc[30 + 14 + 70] ^= 1;  // a data byte of the member
  expect_refused(bad_crc, "CRC-32");
  Bytes bad_offset = good;
  bad_offset[bad_offset.size() - 6] = 0xF0;  // directory offset far past the end
  expect_refused(bad_offset, "outside the file");
  Bytes truncated_member = good;
  truncated_member[18] = 0xFF;  // local header's compressed size: irrelevant, the directory's counts
  truncated_member[good.size() - 22 - 14 - 46 + 20] = 0xFF;  // directory's compressed size
  expect_refused(truncated_member, "");
  expect_refused(make_zip({{"tokens.npy", strings_npy({"a"}, 1)}}), "no attention weights");
  expect_refused(make_zip({{"attentions.npy", ramp_npy({1, 1, 2, 2})}, {"weights.npy", ramp_npy({2, 2})}}),
                 "two weight arrays");
  expect_refused(make_zip({{"attentions.npy", ramp_npy({2, 2})}, {"attentions.npy", ramp_npy({2, 2})}}), "two members named");
  expect_refused(make_zip({{"attentions.npy", ramp_npy({1, 1, 2, 2})}, {"q.npy", ramp_npy({1, 1, 2, 2})}}),
                 "come together");
  expect_refused(make_zip({{"attentions.npy", ramp_npy({1, 1, 2, 2})}, {"q.npy", ramp_npy({1, 1, 2, 2})},
                           {"k.npy", ramp_npy({1, 1, 2, 3})}, {"v.npy", ramp_npy({1, 1, 2, 2})}}),
                 "'q' has width 2 but 'k' has 3");
  expect_refused(make_zip({{"attentions.npy", ramp_npy({1, 1, 2, 2})}, {"q.npy", ramp_npy({1, 2, 2, 2})},
                           {"k.npy", ramp_npy({1, 1, 2, 2})}, {"v.npy", ramp_npy({1, 1, 2, 2})}}),
                 "to match the weights");
  expect_refused(make_zip({{"attentions.npy", ramp_npy({2, 2})}, {"tokens.npy", ramp_npy({2})}}),
                 "expected an array of strings");
  expect_refused(make_zip({{"attentions.npy", Bytes{0x93, 'N', 'U', 'M'}}}), "member 'attentions'");
  expect_refused(ramp_npy({2}), "2 to 5 dimensions");
  expect_refused(ramp_npy({1, 0, 2, 2}), "empty");
  expect_refused(ramp_npy({1, 1, 2, 1025}), "at most 1024");
  expect_refused(serialize_npy(NpyArray::from_bool({2, 2}, std::vector<std::uint8_t>{1, 0, 0, 1}.data())),
                 "attention must be float32");
  const float bad[4] = {0.5f, std::numeric_limits<float>::quiet_NaN(), 0, 1};
  expect_refused(serialize_npy(NpyArray::from_float({2, 2}, bad)), "NaN or Inf at flat index 1");
  expect_refused(Bytes{'h', 'e', 'l', 'l', 'o'}, "not a file the lab reads");
  ImportOptions small;
  small.max_file_bytes = 100;
  expect_refused(ramp_npy({4, 4}), "can be imported", small);
  ImportOptions batch;
  batch.batch_index = 1;
  expect_refused(ramp_npy({2, 2}), "no batch axis", batch);
}

TEST_CASE("import: q and k without weights, up to 32768 tokens, for the overview", "[import]") {
  // (n, d): one layer, one head; the weights are absent and every reader of them gets nothing.
  ImportedAttention a;
  Status s = import_bytes(make_zip({{"q.npy", ramp_npy({32768, 2})}, {"k.npy", ramp_npy({32768, 2})}}), a);
  INFO(s.message);
  REQUIRE(s.ok);
  CHECK_FALSE(a.has_weights);
  CHECK(a.weights.data.empty());
  CHECK(a.head_weights(0, 0).size() == 0);
  CHECK(a.has_qk);
  CHECK_FALSE(a.has_qkv);
  CHECK(a.layers == 1);
  CHECK(a.heads == 1);
  CHECK(a.n_q == 32768);
  CHECK(a.n_k == 32768);
  CHECK(a.d_k == 2);
  CHECK(a.head_k(0, 0).rows() == 32768);
  CHECK(a.head_k(0, 0)(32767, 1) == Approx(65535 / 100.0f));
  CHECK(a.head_v(0, 0).size() == 0);
  CHECK(a.key_tokens.back() == "32767");

  // (H, n, d) with v; (B, L, H, n, d) picks the batch, cross-attention with its tokens.
  REQUIRE(import_bytes(make_zip({{"q.npy", ramp_npy({2, 5, 3})}, {"k.npy", ramp_npy({2, 5, 3})},
                                 {"v.npy", ramp_npy({2, 5, 4})}}),
                       a)
              .ok);
  CHECK(a.heads == 2);
  CHECK(a.has_qkv);
  CHECK(a.d_v == 4);
  CHECK(a.head_v(0, 1)(4, 3) == Approx((20 + 4 * 4 + 3) / 100.0f));
  ImportOptions second;
  second.batch_index = 1;
  const Bytes batched = make_zip({{"q.npy", ramp_npy({2, 1, 1, 2, 3})}, {"k.npy", ramp_npy({2, 1, 1, 4, 3})},
                                  {"query_tokens.npy", strings_npy({"a", "b"}, 1)},
                                  {"key_tokens.npy", strings_npy({"w", "x", "y", "z"}, 1)}});
  REQUIRE(import_bytes(batched, a, second).ok);
  CHECK(a.batch == 2);
  CHECK(a.n_q == 2);
  CHECK(a.n_k == 4);
  CHECK(a.head_q(0, 0)(0, 0) == Approx(6 / 100.0f));
  CHECK(a.key_tokens[3] == "z");
  CHECK(stepped_message(batched, 1, second).empty());

  // The JSON format too.
  REQUIRE(import_text(R"({"format":"attnlab-attention","version":1,"q":[[1,2],[3,4]],"k":[[1,0],[0,1],[1,1]]})", a).ok);
  CHECK_FALSE(a.has_weights);
  CHECK(a.n_k == 3);
  CHECK(a.head_k(0, 0)(2, 1) == 1.0f);
}

TEST_CASE("import: q and k without weights are refused past their caps, naming the array", "[import]") {
  expect_refused(make_zip({{"q.npy", ramp_npy({32769, 1})}, {"k.npy", ramp_npy({4, 1})}}),
                 "32769 x 4 tokens: a file of q and k without weights may have at most 32768 per side");
  // With weights the explorer's cap of 1024 stays.
  expect_refused(make_zip({{"attentions.npy", ramp_npy({1, 1025})}}), "at most 1024 per side are shown");
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 1025})}, {"k.npy", ramp_npy({2, 1025})}}), "'q' has width 1025");
  expect_refused(make_zip({{"q.npy", ramp_npy({2})}, {"k.npy", ramp_npy({2})}}), "'q' must have 2 to 5 dimensions");
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 3})}, {"k.npy", ramp_npy({1, 2, 3})}}),
                 "'k' must have 2 dimensions like 'q', found shape (1, 2, 3)");
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 2, 3})}, {"k.npy", ramp_npy({3, 2, 3})}}),
                 "'k' must have shape (2, 2, d) to match 'q', found (3, 2, 3)");
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 3})}, {"k.npy", ramp_npy({2, 4})}}), "'q' has width 3 but 'k' has 4");
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 3})}, {"k.npy", ramp_npy({2, 3})}, {"v.npy", ramp_npy({3, 3})}}),
                 "'v' must have shape (2, d) to match 'q', found (3, 3)");
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 1, 1, 2, 3})}, {"k.npy", ramp_npy({3, 1, 1, 2, 3})}}),
                 "'k' has batch 3, 'q' 2");
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 0})}, {"k.npy", ramp_npy({2, 3})}}), "'q' is empty");
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 3})}}), "no attention weights");
  ImportOptions batch;
  batch.batch_index = 1;
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 3})}, {"k.npy", ramp_npy({2, 3})}}), "'q' has no batch axis", batch);
  const float bad[6] = {0, 1, 2, std::numeric_limits<float>::infinity(), 4, 5};
  expect_refused(make_zip({{"q.npy", ramp_npy({2, 3})}, {"k.npy", serialize_npy(NpyArray::from_float({2, 3}, bad))}}),
                 "'k' contains NaN or Inf at flat index 3");
}

TEST_CASE("import: no truncation of a good archive parses, and none crashes", "[import]") {
  const Bytes good = make_zip({{"attentions.npy", ramp_npy({1, 2, 3, 3})}, {"tokens.npy", strings_npy({"a", "b", "c"}, 1)}});
  for (size_t cut = 0; cut < good.size(); ++cut) {
    ImportedAttention a;
    CHECK_FALSE(import_bytes(Bytes(good.begin(), good.begin() + cut), a).ok);
  }
  // Every single-byte corruption either fails cleanly or (in padding) still gives the shape.
  for (size_t i = 0; i < good.size(); ++i) {
    Bytes b = good;
    b[i] ^= 0x5A;
    ImportedAttention a;
    const Status s = import_bytes(b, a);
    if (s.ok) CHECK(a.n_q == 3);
    else CHECK_FALSE(s.message.empty());
  }
}

TEST_CASE("npy strings: '<U' and '|S' arrays, and refusals", "[import][npy]") {
  std::vector<std::int64_t> shape;
  std::vector<std::string> out;
  const Bytes u = strings_npy({"ab", "", "xyz"}, 3);
  REQUIRE(parse_npy_strings(u.data(), u.size(), shape, out).ok);
  CHECK(shape == std::vector<std::int64_t>{3});
  CHECK(out == std::vector<std::string>{"ab", "", "xyz"});
  const Bytes f = ramp_npy({2});
  CHECK(parse_npy_strings(f.data(), f.size(), shape, out).message.find("array of strings") != std::string::npos);
  Bytes surrogate = strings_npy({"a"}, 1);
  const std::uint32_t bad = 0xD800;
  std::memcpy(surrogate.data() + surrogate.size() - 4, &bad, 4);
  CHECK(parse_npy_strings(surrogate.data(), surrogate.size(), shape, out).message.find("invalid code point") !=
        std::string::npos);
  Bytes short_data = strings_npy({"abc"}, 3);
  short_data.pop_back();
  CHECK(parse_npy_strings(short_data.data(), short_data.size(), shape, out).message.find("truncated") != std::string::npos);
}
