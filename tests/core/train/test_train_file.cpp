// The model file (src/core/train/model_file.h): round trips, and every defect the loader must
// name: bad magic, unsupported version, truncation at every length, trailing bytes, checksum
// mismatch, shape mismatch, an invalid config, non-finite values; and random corruption
// never crashes it.
#include "core/base/bytes.h"
#include "core/base/crc32.h"
#include "core/base/rng.h"
#include "core/train/model_file.h"
#include "core/train/trainer.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace tr = attn::train;

namespace {

tr::TrainConfig small_config() {
  tr::TrainConfig c;
  c.task = tr::TrainTask::Copy;
  c.layers = 1;
  c.heads = 2;
  c.d_model = 8;
  c.batch = 4;
  c.seed = 5;
  return c;
}

std::vector<std::uint8_t> trained_bytes(bool with_optimizer = true) {
  tr::Trainer t;
  REQUIRE(t.reset(small_config()).ok);
  REQUIRE(t.step(3).ok);
  return t.save(with_optimizer);
}

// Rewrites the checksum so a deliberate edit reaches the checks after it.
void fix_checksum(std::vector<std::uint8_t>& bytes) {
  attn::store_le32(bytes.data() + bytes.size() - 4, attn::crc32(bytes.data(), bytes.size() - 4));
}

void put_u32(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t v) {
  attn::store_le32(bytes.data() + at, v);
}

// Offset of the config field `index`: 0 task, 1 vocab, 2 context, 3 layers, 4 heads, 5 d_model,
// 6 d_mlp, 7 flags, 8 init, 9 batch.
std::size_t config_field(int index) { return tr::kModelHeaderBytes + 4 * static_cast<std::size_t>(index); }

std::string parse_error(const std::vector<std::uint8_t>& bytes) {
  tr::ModelFile f;
  const attn::Status st = tr::parse_model_file(bytes.data(), bytes.size(), f);
  return st.ok ? std::string("ok") : st.message;
}

}  // namespace

TEST_CASE("train file: CRC-32 check value", "[train][file]") {
  const char* text = "123456789";
  REQUIRE(attn::crc32(reinterpret_cast<const std::uint8_t*>(text), 9) == 0xCBF43926u);
  REQUIRE(attn::crc32(nullptr, 0) == 0u);
}

TEST_CASE("train file: a run round-trips with everything in it", "[train][file]") {
  tr::Trainer a;
  REQUIRE(a.reset(small_config()).ok);
  REQUIRE(a.step(4).ok);
  for (bool with_optimizer : {true, false}) {
    const std::vector<std::uint8_t> bytes = a.save(with_optimizer);
    REQUIRE(!bytes.empty());
    REQUIRE(std::memcmp(bytes.data(), "ATTNLABM", 8) == 0);
    tr::Trainer b;
    const attn::Status st = b.load(bytes.data(), bytes.size());
    INFO(st.message);
    REQUIRE(st.ok);
    REQUIRE(b.steps() == 4);
    REQUIRE(b.parameters() == a.parameters());
    REQUIRE(b.loss_history() == a.loss_history());
    REQUIRE(b.accuracy_history() == a.accuracy_history());
    REQUIRE(b.config().d_model == 8);
    REQUIRE(b.config().seed == 5);
    REQUIRE(b.config().task == tr::TrainTask::Copy);
    REQUIRE(b.save(with_optimizer) == bytes);  // byte for byte
  }
  // Without the optimizer state the file is about a third of the size.
  REQUIRE(a.save(false).size() * 2 < a.save(true).size());
}

TEST_CASE("train file: bad magic and unsupported version", "[train][file]") {
  std::vector<std::uint8_t> bytes = trained_bytes();
  std::vector<std::uint8_t> magic = bytes;
  magic[0] = 'X';
  REQUIRE(parse_error(magic) == "not an Attention Lab model file (bad magic; expected \"ATTNLABM\")");
  std::vector<std::uint8_t> version = bytes;
  put_u32(version, 8, 2);
  REQUIRE(parse_error(version) == "unsupported model file version 2 (this build reads version 1)");
  const std::string npy = "\x93NUMPY";
  REQUIRE(parse_error(std::vector<std::uint8_t>(npy.begin(), npy.end())).find("truncated") == 0);
}

TEST_CASE("train file: truncated at every length, and trailing bytes", "[train][file]") {
  const std::vector<std::uint8_t> bytes = trained_bytes();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + n);
    const std::string err = parse_error(cut);
    INFO("length " << n << ": " << err);
    REQUIRE(err.rfind("truncated: ", 0) == 0);
  }
  std::vector<std::uint8_t> longer = bytes;
  longer.push_back(0);
  REQUIRE(parse_error(longer) == "1 trailing bytes after the " + std::to_string(bytes.size()) + "-byte model");
}

TEST_CASE("train file: checksum mismatch", "[train][file]") {
  const std::vector<std::uint8_t> bytes = trained_bytes();
  // A flipped bit anywhere after the header is caught by the checksum.
  for (std::size_t at : {std::size_t{24}, bytes.size() / 2, bytes.size() - 5, bytes.size() - 1}) {
    std::vector<std::uint8_t> bad = bytes;
    bad[at] ^= 0x10;
    INFO("flipped byte " << at);
    REQUIRE(parse_error(bad) == "checksum mismatch: the file is corrupt");
  }
}

TEST_CASE("train file: shape mismatch and invalid configs name the problem", "[train][file]") {
  const std::vector<std::uint8_t> bytes = trained_bytes();
  // d_model 8 -> 16 in the config: the tensor table no longer matches.
  std::vector<std::uint8_t> wider = bytes;
  put_u32(wider, config_field(5), 16);
  fix_checksum(wider);
  REQUIRE(parse_error(wider) == "shape mismatch: tensor 'token_embedding' is (17, 8), the config needs (17, 16)");
  // One tensor's recorded shape changed: the first one, token_embedding (17, 8) -> (17, 9).
  const std::size_t table = config_field(10) + 4 * 4 + 8 + 8;  // after the floats, seed and steps
  const std::size_t first_name_length = 15;                    // "token_embedding"
  std::vector<std::uint8_t> reshaped = bytes;
  put_u32(reshaped, table + 4 + 4 + first_name_length + 4, 9);
  fix_checksum(reshaped);
  REQUIRE(parse_error(reshaped) == "shape mismatch: tensor 'token_embedding' is (17, 9), the config needs (17, 8)");
  // A renamed tensor.
  std::vector<std::uint8_t> renamed = bytes;
  renamed[table + 4 + 4] = 'X';
  fix_checksum(renamed);
  REQUIRE(parse_error(renamed) == "shape mismatch: tensor 0 is 'Xoken_embedding', the config needs 'token_embedding'");
  // Three heads do not divide d_model 8.
  std::vector<std::uint8_t> heads = bytes;
  put_u32(heads, config_field(4), 3);
  fix_checksum(heads);
  REQUIRE(parse_error(heads) == "config: d_model 8 is not divisible by 3 heads");
  // An unknown task, and a vocabulary that is not the task's.
  std::vector<std::uint8_t> task = bytes;
  put_u32(task, config_field(0), 9);
  fix_checksum(task);
  REQUIRE(parse_error(task) == "config: unknown task 9");
  std::vector<std::uint8_t> vocab = bytes;
  put_u32(vocab, config_field(1), 20);
  fix_checksum(vocab);
  REQUIRE(parse_error(vocab) == "config: vocab 20 and context 33 do not match task copy (17, 33)");
  // A huge layer count is refused before anything is allocated.
  std::vector<std::uint8_t> layers = bytes;
  put_u32(layers, config_field(3), 0xFFFFFFFFu);
  fix_checksum(layers);
  REQUIRE(parse_error(layers) == "config: a model dimension is out of range");
}

TEST_CASE("train file: non-finite parameters are refused", "[train][file]") {
  std::vector<std::uint8_t> bytes = trained_bytes(false);
  // The parameters follow the tensor table: u32 count, then per tensor u32 length, name, u32 x 2.
  std::size_t at = config_field(10) + 4 * 4 + 8 + 8 + 4;
  for (const tr::TensorInfo& t : tr::parameter_layout(tr::model_config(small_config()))) at += 12 + t.name.size();
  tr::ModelFile f;
  REQUIRE(tr::parse_model_file(bytes.data(), bytes.size(), f).ok);
  float first;
  std::memcpy(&first, bytes.data() + at, 4);
  REQUIRE(first == f.parameters[0]);  // the offset is right
  put_u32(bytes, at, 0x7FC00000u);  // NaN
  fix_checksum(bytes);
  REQUIRE(parse_error(bytes) == "the parameters contain NaN or Inf");
}

TEST_CASE("train file: random corruption never crashes the loader", "[train][file]") {
  // Bytes flipped, then the checksum fixed so the parser goes past it: each result is either a
  // clean error or a valid model (a flipped float in the weights), never a crash or overread.
  const std::vector<std::uint8_t> bytes = trained_bytes();
  attn::Rng rng(77);
  int refused = 0, accepted = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<std::uint8_t> bad = bytes;
    const int flips = 1 + static_cast<int>(rng.next_u32() % 4);
    // Most flips land in the small header and table, where the parser has decisions to make.
    for (int f = 0; f < flips; ++f) {
      const std::size_t span = trial % 2 ? bad.size() - 4 : 400;
      bad[rng.next_u32() % span] ^= static_cast<std::uint8_t>(1u << (rng.next_u32() % 8));
    }
    if (trial % 3 == 0) bad.resize(rng.next_u32() % bad.size());
    else fix_checksum(bad);
    tr::Trainer t;
    const attn::Status st = t.load(bad.data(), bad.size());
    if (st.ok) {
      ++accepted;
      // A model that loads can be stepped: a flipped exponent may make the loss non-finite,
      // which step() reports as an error rather than training on.
      const attn::Status stepped = t.step(1);
      REQUIRE((stepped.ok || !stepped.message.empty()));
    } else {
      ++refused;
      REQUIRE(!st.message.empty());
      REQUIRE(!t.ready());  // and a refused file leaves the trainer as it was
    }
  }
  INFO(refused << " refused, " << accepted << " accepted");
  REQUIRE(refused > 100);
}
