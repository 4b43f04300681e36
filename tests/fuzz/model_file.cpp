// Fuzz target: the model file (src/core/train/model_file.h) through Trainer::load, the door for
// a model file a user opens in the page or passes to the CLI.
//
// Each input is tried twice: as it is (the fuzzer rarely guesses a CRC-32, so this mostly
// exercises the header, length and checksum checks), and with its length field and
// checksum rewritten to match, so mutations reach the config, the tensor table and the
// sections behind the checksum. A loaded run must draw its probe view and save bytes that
// load again to the same parameters.
#include "core/train/model_file.h"
#include "core/train/trainer.h"
#include "fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

void try_load_trained_model(const std::uint8_t* data, std::size_t size) {
  attn::train::Trainer trainer;
  const attn::Status st = trainer.load(data, size);
  if (!st.ok) {
    FUZZ_CHECK(!st.message.empty());
    FUZZ_CHECK(!trainer.ready());
    return;
  }
  const attn::train::ProbeView view = trainer.probe();
  FUZZ_CHECK(view.weights.size() == static_cast<std::size_t>(view.layers * view.heads));
  const std::vector<std::uint8_t> saved = trainer.save();
  attn::train::Trainer again;
  FUZZ_CHECK(again.load(saved.data(), saved.size()).ok);
  FUZZ_CHECK(again.parameters() == trainer.parameters());
  FUZZ_CHECK(again.steps() == trainer.steps());
}

}  // namespace

ATTNLAB_FUZZ_TARGET(model_file) {
  try_load_trained_model(data, size);
  if (size < attn::train::kModelHeaderBytes + 4) return 0;
  const std::vector<std::uint8_t> fixed = with_length_and_checksum(data, size);
  try_load_trained_model(fixed.data(), fixed.size());
  return 0;
}
