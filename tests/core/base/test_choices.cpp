// The tables of the lab's choices (core/base/choices.h): names both ways, the joined lists
// the error texts quote, and the columns that replace per-value ifs.
#include "core/base/choices.h"
#include "core/efficient/attention.h"

#include <catch2/catch.hpp>

#include <string>

using attn::EfficientKind;

namespace {

enum class Fruit { Apple, Pear, Plum };
struct FruitRow {
  Fruit value;
  const char* name;
  bool stone;
};
constexpr FruitRow kFruits[] = {{Fruit::Apple, "apple", false}, {Fruit::Pear, "pear", false}, {Fruit::Plum, "plum", true}};
static_assert(attn::choices_in_order(kFruits));
constexpr FruitRow kShuffled[] = {{Fruit::Pear, "pear", false}, {Fruit::Apple, "apple", false}};
static_assert(!attn::choices_in_order(kShuffled));

}  // namespace

TEST_CASE("a choice's table maps names to values and back, and joins its names", "[choices]") {
  REQUIRE(attn::choice_from_name(kFruits, "pear") == &kFruits[1]);
  CHECK(attn::choice_from_name(kFruits, "Pear") == nullptr);
  CHECK(attn::choice_from_name(kFruits, "") == nullptr);
  CHECK(std::string(attn::choice_row(kFruits, Fruit::Plum).name) == "plum");
  CHECK(attn::choice_names_joined(kFruits, ", ") == "apple, pear, plum");
  CHECK(attn::choice_names_joined(kFruits, "|", [](const FruitRow& r) { return !r.stone; }) == "apple|pear");
  CHECK(attn::join_names(attn::choice_names(kFruits), ", ", " or ") == "apple, pear or plum");
  CHECK(attn::join_names({"one"}, ", ", " or ") == "one");
  CHECK(attn::join_names({}, ", ") == "");
}

TEST_CASE("the efficient kinds' table: names, the variants, the causal column", "[choices][efficient]") {
  for (const attn::EfficientKindInfo& row : attn::kEfficientKinds) {
    EfficientKind parsed = EfficientKind::Exact;
    REQUIRE(attn::parse_efficient_kind(row.name, parsed));
    CHECK(parsed == row.value);
    CHECK(std::string(attn::efficient_kind_name(row.value)) == row.name);
    CHECK((row.parameter == nullptr) == (row.field == nullptr));
  }
  EfficientKind kind = EfficientKind::Window;
  CHECK_FALSE(attn::parse_efficient_kind("sparse", kind));
  CHECK(kind == EfficientKind::Window);
  CHECK(attn::efficient_variant_names() == "window, strided, blocksparse, linear, performer, linformer");
  CHECK(attn::efficient_variant_names(", ", " or ") == "window, strided, blocksparse, linear, performer or linformer");
  CHECK(attn::efficient_kind_names() == "exact, window, strided, blocksparse, linear, performer, linformer");
  CHECK_FALSE(attn::efficient_kind_info(EfficientKind::Exact).variant);
  CHECK_FALSE(attn::efficient_kind_info(EfficientKind::Linformer).causal);
  CHECK(attn::efficient_kind_info(EfficientKind::Performer).field == &attn::EfficientConfig::features);
}

TEST_CASE("causal is refused by the column, naming the kind", "[choices][efficient]") {
  attn::EfficientConfig config;
  config.causal = true;
  for (const attn::EfficientKindInfo& row : attn::kEfficientKinds) {
    config.kind = row.value;
    config.rank = 8;
    const attn::Status st = attn::validate_efficient_config(config, 8, 4);
    INFO(row.name << ": " << st.message);
    CHECK(st.ok == row.causal);
    if (!row.causal) CHECK(st.message == std::string(row.name) + " has no causal form (it mixes all positions): drop causal");
  }
}

TEST_CASE("a kind's parameter column is the one its check names", "[choices][efficient]") {
  for (const attn::EfficientKindInfo& row : attn::kEfficientKinds) {
    if (!row.field) continue;
    attn::EfficientConfig config;
    config.kind = row.value;
    config.*row.field = 0;
    const attn::Status st = attn::validate_efficient_config(config, 8, 4);
    CHECK(st.message == std::string(row.parameter) + " must be a whole number from 1 to 1048576, got 0");
  }
}
