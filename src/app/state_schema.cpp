// The table of the state's keys (app/state_schema.h): each key's record, and how a value of
// each kind is read into its field and written from it, with the refusal messages.
#include "app/state_schema.h"

#include "app/app_messages.h"
#include "app/panel_registry.h"
#include "app/tour.h"
#include "core/attention/positional.h"
#include "core/efficient/attention.h"
#include "core/io/import_attention.h"
#include "core/lm/evaluate.h"
#include "core/lm/language_model.h"
#include "core/train/model.h"
#include "files/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <utility>
#include <string>
#include <type_traits>
#include <vector>

namespace attn {

using json = nlohmann::json;

Status read_whole(const json& v, const std::string& name, long long lo, long long hi, long long& out) {
  if (!v.is_number() || std::floor(v.get<double>()) != v.get<double>()) return Status::error(msg::app_key_whole, name);
  const double d = v.get<double>();
  if (!(d >= static_cast<double>(lo) && d <= static_cast<double>(hi))) return Status::error(msg::app_key_between, name, lo, hi);
  out = static_cast<long long>(d);
  return Status::success();
}

namespace {

// ---- fields: where a value lives, and how each kind is read and written ----------------------

// The accessor of a member of Settings, or of a member of what `outer` reaches: a generic
// lambda, so that one accessor serves the reader (Settings&) and the writer (const Settings&).
template <class T>
auto at(T Settings::*member) {
  return [member](auto& s) -> auto& { return s.*member; };
}
template <class Outer, class T, class C>
auto at(Outer outer, T C::*member) {
  return [outer, member](auto& s) -> auto& { return outer(s).*member; };
}

// The field `ref` reaches (one of the accessors above), written as it is held (a number, a
// flag, a list of numbers) and read by `read`, which sets it from the JSON value or says what
// is wrong.
template <class Ref, class Read>
KeyField plain(Ref ref, Read read) {
  return {[ref](const Settings& s, json& out) { out = ref(s); },
          [ref, read](const json& v, KeyRead& r) { return read(v, r, ref(r.settings)); }};
}

// key's refusal, named inside the object that holds it when that is not the top level
// ("'scale' in 'compare'"): `plain_text` takes the key and args, `inside` the key, where and args.
template <class... A>
Status key_error(const MessageText& plain_text, const MessageText& inside, const KeyRead& r, const A&... args) {
  return r.where.empty() ? Status::error(plain_text, r.name, args...) : Status::error(inside, r.name, r.where, args...);
}

// A bound as a person writes it in a message: 10, -100, 0.05, 1e4, -1e30.
std::string bound_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e4) return std::to_string(static_cast<long long>(v));
  const double exponent = std::log10(std::fabs(v));
  if (exponent == std::floor(exponent)) return std::string(v < 0 ? "-" : "") + "1e" + std::to_string(static_cast<int>(exponent));
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// True when d lies in [lo, hi], or rounds to a float in [float(lo), float(hi)]: settings are
// floats, and the state writes a float bound such as 0.01f or -1e30f as the double it is
// (0.0099999998, -1.00000002e30), which must read back. Never casts a double beyond float's
// range (that cast is undefined).
bool within_as_float(double d, double lo, double hi) {
  if (d >= lo && d <= hi) return true;
  if (!(std::fabs(d) <= static_cast<double>(std::numeric_limits<float>::max()))) return false;
  const float f = static_cast<float>(d);
  return f >= static_cast<float>(lo) && f <= static_cast<float>(hi);
}

// true or false: "'presentation' must be true or false".
template <class Ref>
KeyField flag(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, bool& out) {
    if (!v.is_boolean()) return Status::error(msg::app_key_bool, r.name);
    out = v.get<bool>();
    return Status::success();
  });
}

// The same inside a feature's object: "'half' in 'lm' must be true or false".
template <class Ref>
KeyField flag_in(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, bool& out) {
    if (!v.is_boolean()) return Status::error(msg::app_key_bool_in, r.name, r.where);
    out = v.get<bool>();
    return Status::success();
  });
}

// A whole number in the key's range (3.0 counts).
template <class Ref>
KeyField whole(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, auto& out) {
    long long x = 0;
    if (Status st = read_whole(v, r.name, static_cast<long long>(r.key.min), static_cast<long long>(r.key.max), x); !st.ok)
      return st;
    out = static_cast<std::remove_reference_t<decltype(out)>>(x);
    return Status::success();
  });
}

// A JSON integer in the key's range, inside a feature's object: "'sinks' in 'modern' must be a
// whole number from 0 to 1024" (or `rule`, when the key has a message of its own).
template <class Ref>
KeyField integer_in(Ref ref, const MessageText* rule = nullptr) {
  return plain(ref, [rule](const json& v, KeyRead& r, auto& out) {
    const long long lo = static_cast<long long>(r.key.min), hi = static_cast<long long>(r.key.max);
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      return rule ? Status::error(*rule) : Status::error(msg::app_key_whole_range_in, r.name, r.where, lo, hi);
    out = static_cast<std::remove_reference_t<decltype(out)>>(v.get<long long>());
    return Status::success();
  });
}

// A number in the key's range (a float's rounding of a bound counts).
template <class Ref>
KeyField number(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, float& out) {
    if (!v.is_number()) return Status::error(msg::app_key_number, r.name);
    const double d = v.get<double>();
    if (!within_as_float(d, r.key.min, r.key.max))
      return Status::error(msg::app_key_between, r.name, json_text(json(r.key.min)), json_text(json(r.key.max)));
    out = static_cast<float>(d);
    return Status::success();
  });
}

// A number in the key's range, inside a feature's object: "'rowOffset' in 'modern' must be a
// number from -20 to 5".
template <class Ref>
KeyField number_in(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, float& out) {
    if (!v.is_number() || !(v.get<double>() >= r.key.min && v.get<double>() <= r.key.max))
      return Status::error(msg::app_key_number_range_in, r.name, r.where, static_cast<int>(r.key.min),
                           static_cast<int>(r.key.max));
    out = v.get<float>();
    return Status::success();
  });
}

// The name of one of a choice table's rows (core/base/choices.h), else `rule` with the names;
// `bool_rule`, when given, answers true and false (positional was a switch before version 3).
template <class Ref, class Row, std::size_t N>
KeyField choice(Ref ref, const Row (&table)[N], const MessageText& rule, const MessageText* bool_rule = nullptr) {
  const Row(*rows)[N] = &table;
  const MessageText* refusal = &rule;
  return {[ref, rows](const Settings& s, json& out) { out = choice_row(*rows, ref(s)).name; },
          [ref, rows, refusal, bool_rule](const json& v, KeyRead& r) {
            const Row* row = v.is_string() ? choice_from_name(*rows, v.get<std::string>()) : nullptr;
            if (!row && bool_rule && v.is_boolean()) return Status::error(*bool_rule, quoted_names(*rows));
            if (!row) return Status::error(*refusal, quoted_names(*rows));
            ref(r.settings) = row->value;
            return Status::success();
          }};
}

// A list of token indices: global and padding tokens.
template <class Ref>
KeyField token_list(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, std::vector<int>& out) {
    if (!v.is_array() || v.size() > static_cast<size_t>(kMaxTokens))
      return Status::error(msg::app_key_index_list, r.name, kMaxTokens);
    std::vector<int> list;
    for (const json& e : v) {
      if (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() >= kMaxTokens)
        return Status::error(msg::app_key_index_range, r.name, kMaxTokens - 1);
      list.push_back(static_cast<int>(e.get<long long>()));
    }
    out = list;
    return Status::success();
  });
}

// The lab's fixed-length lists within the key's range: q, k, kLong are points [x, y]; wq, wk,
// wv are 2 x 2 matrices, row by row.
template <class Ref>
KeyField lab_numbers(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, auto& out) {
    constexpr std::size_t n = std::tuple_size_v<std::remove_reference_t<decltype(out)>>;
    auto shape_error = [&] {
      return n == 2 ? Status::error(msg::app_lab_point, r.name, bound_text(r.key.max)) : Status::error(msg::app_lab_matrix, r.name, n);
    };
    if (!v.is_array() || v.size() != n) return shape_error();
    std::remove_reference_t<decltype(out)> read{};
    for (std::size_t i = 0; i < n; ++i) {
      if (!v[i].is_number() || v[i].get<double>() < r.key.min || v[i].get<double>() > r.key.max)
        return n == 2 ? shape_error() : Status::error(msg::app_lab_numbers_in, r.name, bound_text(r.key.min), bound_text(r.key.max));
      read[i] = v[i].get<float>();
    }
    out = read;
    return Status::success();
  });
}

// The lab's softmax row: 1 to `length` numbers within the key's range.
template <class Ref>
KeyField lab_row(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, std::vector<float>& out) {
    if (!v.is_array() || v.empty() || v.size() > static_cast<size_t>(r.key.length))
      return Status::error(msg::app_lab_row_count, r.key.length);
    std::vector<float> row;
    for (const json& x : v) {
      if (!x.is_number() || x.get<double>() < r.key.min || x.get<double>() > r.key.max)
        return Status::error(msg::app_lab_numbers_in, r.name, bound_text(r.key.min), bound_text(r.key.max));
      row.push_back(x.get<float>());
    }
    out = row;
    return Status::success();
  });
}

// The heads the language scene switches off: distinct numbers in the key's range, sorted.
template <class Ref>
KeyField head_list(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, std::vector<int>& out) {
    const long long max = static_cast<long long>(r.key.max);
    if (!v.is_array()) return Status::error(msg::app_lm_ablate_rule, static_cast<int>(max));
    std::vector<int> list;
    for (const json& e : v) {
      if (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() > max)
        return Status::error(msg::app_lm_ablate_rule, static_cast<int>(max));
      list.push_back(static_cast<int>(e.get<long long>()));
    }
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    out = list;
    return Status::success();
  });
}

// A text of activation patching's: a string of at most the key's max bytes (the job checks
// it against the model).
template <class Ref>
KeyField patch_text(Ref ref) {
  return plain(ref, [](const json& v, KeyRead& r, std::string& out) {
    if (!v.is_string() || v.get_ref<const std::string&>().size() > static_cast<std::size_t>(r.key.max))
      return Status::error(msg::app_patch_text_rule, r.name, static_cast<long long>(r.key.max));
    out = v.get<std::string>();
    return Status::success();
  });
}

// ---- the keys with readers of their own ------------------------------------------------------

// Where the tokens come from: "trained" and "imported" need their model or file loaded.
KeyField source_field() {
  return {[](const Settings& s, json& out) { out = to_string(s.source); },
          [](const json& v, KeyRead& r) {
            const SceneSourceInfo* row = v.is_string() ? choice_from_name(kSceneSources, v.get<std::string>()) : nullptr;
            if (!row) return Status::error(msg::app_source_rule, quoted_names(kSceneSources));
            if (row->needs == SceneSourceNeeds::TrainedModel && !r.state.train.trained)
              return Status::error(msg::app_trained_not_loaded_yet);
            if (row->needs == SceneSourceNeeds::ImportedFile && !r.state.imported)
              return Status::error(msg::app_imported_needs_file);
            r.settings.source = row->value;  // the language model: update_results asks for it if it is not here
            return Status::success();
          }};
}

KeyField sentence_field() {
  return {[](const Settings& s, json& out) { out = s.sentence; },
          [](const json& v, KeyRead& r) {
            if (!v.is_string()) return Status::error(msg::app_sentence_string);
            const std::string sentence = v.get<std::string>();
            if (Status st = check_sentence(sentence); !st.ok) return st;
            r.settings.sentence = sentence;
            return Status::success();
          }};
}

KeyField panel_field() {
  return {[](const Settings& s, json& out) { out = to_string(s.panel); },
          [](const json& v, KeyRead& r) {
            const std::optional<Panel> panel = v.is_string() ? panel_from_id(v.get<std::string>()) : std::nullopt;
            if (!panel) return Status::error(msg::app_panel_rule, panel_id_list());
            r.settings.panel = *panel;
            return Status::success();
          }};
}

// The variant panel's kind: one of the efficient kinds that are approximations.
KeyField variant_kind_field() {
  return {[](const Settings& s, json& out) { out = efficient_kind_name(s.variants.kind); },
          [](const json& v, KeyRead& r) {
            EfficientKind kind;
            if (!v.is_string() || !parse_efficient_kind(v.get<std::string>(), kind) || !efficient_kind_info(kind).variant)
              return Status::error(msg::app_variant_kind_rule, efficient_variant_names());
            r.settings.variants.kind = kind;
            return Status::success();
          }};
}

// "enum|number": one of `names` (each held as its kind) or a number in the key's range, held
// as the kind `numbered` and the value (`float_bounds`: a float's rounding of a bound counts).
// Refused with `rule` at the top level, `rule_in` inside compare.
template <class Kind, class Value, class E, std::size_t N>
KeyField name_or_number(Kind kind, Value value, std::array<std::pair<const char*, E>, N> names, E numbered,
                        bool float_bounds, const MessageText* rule, const MessageText* rule_in) {
  return {[=](const Settings& s, json& out) {
            for (const auto& [name, held] : names)
              if (kind(s) == held) {
                out = name;
                return;
              }
            out = value(s);
          },
          [=](const json& v, KeyRead& r) {
            for (const auto& [name, held] : names)
              if (v == name) {
                kind(r.settings) = held;
                return Status::success();
              }
            const double d = v.is_number() ? v.get<double>() : 0.0;
            const bool within = v.is_number() && (float_bounds ? within_as_float(d, r.key.min, r.key.max)
                                                               : d >= r.key.min && d <= r.key.max);
            if (!within) return key_error(*rule, *rule_in, r, bound_text(r.key.min), bound_text(r.key.max));
            kind(r.settings) = numbered;
            value(r.settings) = v.get<float>();
            return Status::success();
          }};
}

// A side's scale: "default" (1/sqrt(d_k)), "none" or a number in the key's range.
template <class Math>
KeyField scale_field(Math math) {
  const std::array<std::pair<const char*, ScaleKind>, 2> names = {{{"default", ScaleKind::Default}, {"none", ScaleKind::None}}};
  return name_or_number(at(math, &MathSettings::scale_kind), at(math, &MathSettings::custom_scale), names, ScaleKind::Custom,
                        false, &msg::app_scale_rule, &msg::app_scale_rule_in);
}

// A side's fill of masked scores: "-inf" or a finite number in the key's range.
template <class Math>
KeyField fill_field(Math math) {
  const std::array<std::pair<const char*, MaskFill>, 1> names = {{{"-inf", MaskFill::NegInfinity}}};
  return name_or_number(at(math, &MathSettings::fill), at(math, &MathSettings::finite_fill), names, MaskFill::Finite, true,
                        &msg::app_fill_rule, &msg::app_fill_rule_in);
}

template <class Math>
KeyField score_field(Math math) {
  auto score = at(math, &MathSettings::score);
  return {[score](const Settings& s, json& out) { out = to_string(score(s)); },
          [score](const json& v, KeyRead& r) {
            const ScoreFunctionInfo* row = v.is_string() ? choice_from_name(kScoreFunctions, v.get<std::string>()) : nullptr;
            if (!row) return key_error(msg::app_score_rule, msg::app_score_rule_in, r, quoted_names(kScoreFunctions));
            score(r.settings) = row->value;
            return Status::success();
          }};
}

// A side's painted cells: "row:col+ row:col-" (app/mask_edit.h).
template <class Mask>
KeyField painted_field(Mask mask) {
  return {[mask](const Settings& s, json& out) { out = encode_painted(mask(s).painted); },
          [mask](const json& v, KeyRead& r) {
            if (!v.is_string()) return Status::error(msg::app_painted_string, r.where);
            if (Status st = decode_painted(v.get<std::string>(), mask(r.settings).painted); !st.ok)
              return st.within(msg::app_painted_in, r.where);
            return Status::success();
          }};
}

// ---- the table ------------------------------------------------------------------------------

// The names of a choice's table (core/base/choices.h) whose rows keep() accepts.
template <class Row, std::size_t N, class Keep>
std::vector<const char*> choice_ids(const Row (&table)[N], Keep keep) {
  std::vector<const char*> ids;
  for (const Row& row : table)
    if (keep(row)) ids.push_back(row.name);
  return ids;
}

template <class Row, std::size_t N>
std::vector<const char*> choice_ids(const Row (&table)[N]) {
  return choice_ids(table, [](const Row&) { return true; });
}

// The positional choices that need an even d_k (the schema's needsEvenDk lists them).
std::vector<const char*> even_dk_positionals() {
  return choice_ids(kPositionals, [](const PositionalInfo& row) { return row.even_dk; });
}

std::vector<const char*> panel_ids() {
  std::vector<const char*> ids;
  for (const PanelInfo& p : kPanels) ids.push_back(p.id);
  return ids;
}

constexpr double kMaxSeed = 9007199254740991.0;  // 2^53 - 1: a JSON number holds it exactly

// The math keys of one side: side A's at the top level, side B's under "compare.".
template <class Math>
void add_math_keys(std::vector<StateKey>& k, const std::string& side, Math math) {
  auto mask = at(math, &MathSettings::mask);
  k.push_back({side + "scale", "enum|number", scale_field(math), -100, 100, {"default", "none"}});
  k.push_back({side + "temperature", "number", number(at(math, &MathSettings::temperature)), 0.01, 100});
  k.push_back({side + "score", "enum", score_field(math), 0, 0, choice_ids(kScoreFunctions)});
  k.push_back({side + "mask.causal", "bool", flag(at(mask, &MaskSettings::causal))});
  k.push_back({side + "mask.window", "int", whole(at(mask, &MaskSettings::window)), 0, kMaxTokens});
  k.push_back({side + "mask.stride", "int", whole(at(mask, &MaskSettings::stride)), 0, kMaxTokens});
  k.push_back({side + "mask.block", "int", whole(at(mask, &MaskSettings::block)), 0, kMaxTokens});
  k.push_back({side + "mask.global", "tokens", token_list(at(mask, &MaskSettings::global_tokens))});
  k.push_back({side + "mask.padding", "tokens", token_list(at(mask, &MaskSettings::padding_tokens))});
  k.push_back({side + "mask.painted", "cells", painted_field(mask)});
  k.push_back({side + "maskFill", "enum|number", fill_field(math), -1e30, 0, {"-inf"}});
}

// The keys of the scene and the view, at the top level (the features', the lab's and the two
// sides' math keys follow: all_keys).
std::vector<StateKey> make_keys() {
  return {
      // The sources any state may choose; the others need a model or a file first.
      {"source", "enum", source_field(), 0, 0,
       choice_ids(kSceneSources, [](const SceneSourceInfo& row) { return row.needs == SceneSourceNeeds::Nothing; }), 0,
       nullptr, nullptr, false, {},
       choice_ids(kSceneSources, [](const SceneSourceInfo& row) { return row.needs != SceneSourceNeeds::Nothing; })},
      {"sentence", "string", sentence_field()},
      {"panel", "enum", panel_field(), 0, 0, panel_ids()},
      {"dModel", "int", whole(at(&Settings::d_model)), 1, kMaxDModel},
      {"heads", "int", whole(at(&Settings::heads)), 1, kMaxHeads, {}, 0, nullptr, "dModel"},
      {"positional", "enum", choice(at(&Settings::positional), kPositionals, msg::app_positional_rule, &msg::app_positional_bool),
       0, 0, choice_ids(kPositionals), 0, nullptr, nullptr, false, even_dk_positionals()},
      {"ropeBase", "number", number(at(&Settings::rope_base)), 2, 1e7},
      {"ropePairing", "enum", choice(at(&Settings::rope_pairing), kRopePairings, msg::app_rope_pairing_rule), 0, 0,
       choice_ids(kRopePairings)},
      {"seed", "int", whole(at(&Settings::seed)), 0, kMaxSeed},
      {"cursor", "token", whole(at(&Settings::cursor)), -1, kMaxTokens - 1},
      {"cursorKey", "token", whole(at(&Settings::cursor_key)), -1, kMaxTokens - 1},
      // Imported files and trained models may have more heads and layers than a generated
      // scene (update_results clamps to what the scene has).
      {"head", "int", whole(at(&Settings::head)), 0, kImportMaxHeads - 1, {}, 0, "heads"},
      {"diffHead", "int", whole(at(&Settings::diff_head)), 0, kImportMaxHeads - 1, {}, 0, "heads"},
      {"layer", "int", whole(at(&Settings::layer)), 0, std::max(kImportMaxLayers, train::kMaxLayers) - 1, {}, 0, nullptr,
       nullptr, true},
      {"tour", "int", whole(at(&Settings::tour)), 0, kTourSteps},
      {"exercise", "int", whole(at(&Settings::exercise)), 0, kExercises},
      {"compare.enabled", "bool", flag(at(&Settings::compare))},
      {"theme", "enum", choice(at(&Settings::theme), kThemes, msg::app_theme_rule), 0, 0, choice_ids(kThemes)},
      {"weightRange", "enum", choice(at(&Settings::weight_range), kWeightRanges, msg::app_weight_range_rule), 0, 0,
       choice_ids(kWeightRanges)},
      {"presentation", "bool", flag(at(&Settings::presentation))},
      {"uiScale", "number", number(at(&Settings::ui_scale)), 0.5, 4.0},
      {"language", "enum", choice(at(&Settings::language), kUiLanguages, msg::app_language_rule), 0, 0, choice_ids(kUiLanguages)},
      {"hideSpecial", "bool", flag(at(&Settings::hide_special))},
      {"renormalise", "bool", flag(at(&Settings::renormalise))},
      {"acrossLayers", "enum", choice(at(&Settings::across), kAcrossLayers, msg::app_across_layers_rule), 0, 0,
       choice_ids(kAcrossLayers)},
      {"rolloutResidual", "number", number(at(&Settings::rollout_residual)), 0.0, 1.0},
  };
}

// The features' objects: the variants panel's, the modern panels' and the language scene's
// settings (their refusals name the object: "'rank' in 'variants' must be ...").
void add_feature_keys(std::vector<StateKey>& k) {
  const auto v = at(&Settings::variants);
  k.push_back({"variants.kind", "enum", variant_kind_field(), 0, 0,
               choice_ids(kEfficientKinds, [](const EfficientKindInfo& r) { return r.variant; })});
  k.push_back({"variants.window", "int", integer_in(at(v, &VariantSettings::window)), 1, 1024});
  k.push_back({"variants.stride", "int", integer_in(at(v, &VariantSettings::stride)), 1, 1024});
  k.push_back({"variants.block", "int", integer_in(at(v, &VariantSettings::block)), 1, 1024});
  k.push_back({"variants.features", "int", integer_in(at(v, &VariantSettings::features)), 1, 4096});
  k.push_back({"variants.rank", "int", integer_in(at(v, &VariantSettings::rank)), 1, 1024});
  k.push_back({"variants.causal", "bool", flag_in(at(v, &VariantSettings::causal))});
  k.push_back({"variants.seed", "int", integer_in(at(v, &VariantSettings::seed), &msg::app_variant_seed_rule), 0, kMaxSeed});
  // Raising it starts a cost chart (tens of seconds): a link keeps the default.
  k.push_back({"variants.costChartRequest", "int", integer_in(at(v, &VariantSettings::cost_chart_request)), 0, 1 << 30, {}, 0,
               nullptr, nullptr, true});
  k.push_back({"variants.paintAllow", "bool", flag_in(at(v, &VariantSettings::paint_allow))});
  const auto m = at(&Settings::modern);
  k.push_back({"modern.shift", "int", integer_in(at(m, &ModernSettings::shift)), 1, 256});
  k.push_back({"modern.kvHeads", "int", integer_in(at(m, &ModernSettings::kv_heads)), 1, kMaxHeads});
  k.push_back({"modern.layers", "int", integer_in(at(m, &ModernSettings::layers)), 1, 256});
  k.push_back({"modern.bytesPerValue", "int", integer_in(at(m, &ModernSettings::bytes_per_value)), 1, 8});
  k.push_back({"modern.decodeStep", "int", integer_in(at(m, &ModernSettings::decode_step)), 0, kMaxTokens});
  // Raising it measures decoding (a fraction of a second): a link keeps the default.
  k.push_back({"modern.decodeRequest", "int", integer_in(at(m, &ModernSettings::decode_request)), 0, 1 << 30, {}, 0, nullptr,
               nullptr, true});
  k.push_back({"modern.blockQ", "int", integer_in(at(m, &ModernSettings::block_q)), 1, kMaxTokens});
  k.push_back({"modern.blockK", "int", integer_in(at(m, &ModernSettings::block_k)), 1, kMaxTokens});
  k.push_back({"modern.flashCausal", "bool", flag_in(at(m, &ModernSettings::flash_causal))});
  k.push_back({"modern.flashStep", "int", integer_in(at(m, &ModernSettings::flash_step)), 0, 1 << 16});
  k.push_back({"modern.sinkWindow", "int", integer_in(at(m, &ModernSettings::sink_window)), 0, kMaxTokens});
  k.push_back({"modern.sinks", "int", integer_in(at(m, &ModernSettings::sinks)), 0, kMaxTokens});
  k.push_back({"modern.rowOffset", "number", number_in(at(m, &ModernSettings::row_offset)), -20, 5});
  const auto l = at(&Settings::lm);
  k.push_back({"lm.ablate", "indices", head_list(at(l, &LmSettings::ablated)), 0,
               lm::kLanguageModelLimits.layers * lm::kLanguageModelLimits.heads - 1});
  k.push_back({"lm.half", "bool", flag_in(at(l, &LmSettings::half))});
  k.push_back({"lm.tokens", "int", integer_in(at(l, &LmSettings::tokens)), 1, kMaxLmTokens});
  k.push_back({"lm.temperature", "number", number_in(at(l, &LmSettings::temperature)), 0, lm::kMaxTemperature});
  k.push_back({"lm.topK", "int", integer_in(at(l, &LmSettings::top_k)), 0, lm::kMaxVocabulary});
  k.push_back({"lm.seed", "int", integer_in(at(l, &LmSettings::seed)), 0, kMaxSeed});
  k.push_back({"lm.shown", "int", integer_in(at(l, &LmSettings::shown)), 0, kMaxLmTokens});
  k.push_back({"lm.playing", "bool", flag_in(at(l, &LmSettings::playing))});
  k.push_back({"lm.randomBeside", "bool", flag_in(at(l, &LmSettings::random_beside))});
  const auto pt = at(&Settings::patch);
  constexpr double prompt_bytes = static_cast<double>(kMaxPatchPromptBytes);
  k.push_back({"patch.clean", "string", patch_text(at(pt, &LmPatchSettings::clean)), 0, prompt_bytes});
  k.push_back({"patch.corrupt", "string", patch_text(at(pt, &LmPatchSettings::corrupt)), 0, prompt_bytes});
  k.push_back({"patch.answer", "string", patch_text(at(pt, &LmPatchSettings::answer)), 0, prompt_bytes});
  k.push_back({"patch.foil", "string", patch_text(at(pt, &LmPatchSettings::foil)), 0, prompt_bytes});
  k.push_back({"patch.by", "enum", choice(at(pt, &LmPatchSettings::by), lm::kPatchGrids, msg::app_patch_by_rule), 0, 0,
               choice_ids(lm::kPatchGrids)});
  k.push_back({"patch.position", "int", integer_in(at(pt, &LmPatchSettings::position)), lm::kAllPositions, kMaxTokens});
  const auto ov = at(&Settings::overview);
  k.push_back({"overview.layer", "int", integer_in(at(ov, &OverviewSettings::layer)), 0, kImportMaxLayers - 1});
  k.push_back({"overview.head", "int", integer_in(at(ov, &OverviewSettings::head)), 0, kImportMaxHeads - 1});
  k.push_back({"overview.block", "int", integer_in(at(ov, &OverviewSettings::block)), 0, kOverviewMaxTokens});
  k.push_back({"overview.pool", "enum", choice(at(ov, &OverviewSettings::pool), kBlockPools, msg::app_overview_pool_rule), 0, 0,
               choice_ids(kBlockPools)});
  k.push_back({"overview.causal", "bool", flag_in(at(ov, &OverviewSettings::causal))});
  k.push_back({"overview.q0", "int", integer_in(at(ov, &OverviewSettings::q0)), -1, kOverviewMaxTokens - 1});
  k.push_back({"overview.k0", "int", integer_in(at(ov, &OverviewSettings::k0)), -1, kOverviewMaxTokens - 1});
  k.push_back({"overview.side", "int", integer_in(at(ov, &OverviewSettings::side)), 1, kOverviewMaxRegion});
}

// The scaling and softmax lab's settings, under "lab".
void add_lab_keys(std::vector<StateKey>& k) {
  const auto lab = at(&Settings::scaling_lab);
  k.push_back({"lab.q", "vector", lab_numbers(at(lab, &ScalingLabSettings::q)), -10, 10, {}, 2});
  k.push_back({"lab.k", "vector", lab_numbers(at(lab, &ScalingLabSettings::k)), -10, 10, {}, 2});
  k.push_back({"lab.kLong", "vector", lab_numbers(at(lab, &ScalingLabSettings::k_long)), -10, 10, {}, 2});
  k.push_back({"lab.dk", "int", whole(at(lab, &ScalingLabSettings::dk)), 1, 1024});
  k.push_back({"lab.scaled", "bool", flag(at(lab, &ScalingLabSettings::scaled))});
  k.push_back({"lab.temperature", "number", number(at(lab, &ScalingLabSettings::temperature)), 0.05, 20});
  k.push_back({"lab.row", "list", lab_row(at(lab, &ScalingLabSettings::row)), -1e4, 1e4, {}, kScalingLabMaxRow});
  k.push_back({"lab.half", "bool", flag(at(lab, &ScalingLabSettings::half))});
  k.push_back({"lab.wq", "vector", lab_numbers(at(lab, &ScalingLabSettings::wq)), -10, 10, {}, 4});
  k.push_back({"lab.wk", "vector", lab_numbers(at(lab, &ScalingLabSettings::wk)), -10, 10, {}, 4});
  k.push_back({"lab.wv", "vector", lab_numbers(at(lab, &ScalingLabSettings::wv)), -10, 10, {}, 4});
}

std::vector<StateKey> all_keys() {
  std::vector<StateKey> k = make_keys();
  add_feature_keys(k);
  add_lab_keys(k);
  add_math_keys(k, "", at(&Settings::math));
  add_math_keys(k, "compare.", at(&Settings::compare_math));
  return k;
}

// Where a slider offers less than the state accepts: (path, min, max).
struct SliderRange {
  const char* path;
  double min, max;
};
constexpr SliderRange kSliderRanges[] = {
    {"dModel", 2, 128},       {"temperature", 0.05, 20}, {"scale", 0, 4},
    {"mask.window", 0, 64},   {"mask.stride", 0, 16},    {"mask.block", 0, 64},
    {"uiScale", 0.75, 3.0},   {"variants.features", 1, 512},
    {"lab.q", -5, 5},         {"lab.k", -5, 5},          {"lab.kLong", -5, 5},
    {"lab.row", -30, 30},  // the softmax panel's row; the stability panel offers the whole range
};

}  // namespace

const std::vector<StateKey>& state_keys() {
  static const std::vector<StateKey> k = all_keys();
  return k;
}

float KeyRange::clamp(float v, float fallback) const {
  if (!std::isfinite(v)) return fallback;
  return std::clamp(v, static_cast<float>(min), static_cast<float>(max));
}

int KeyRange::clamp(int v) const {
  return static_cast<int>(std::clamp(static_cast<double>(v), min, max));
}

KeyRange key_range(std::string_view path) {
  for (const StateKey& k : state_keys())
    if (k.path == path) return {k.min, k.max};
  // A range asked for a key the schema lacks is a mistake in the code, not in any input: stop
  // at once (every test that reads or clamps a state reaches each of these calls).
  std::fprintf(stderr, "state_schema: no key '%.*s'\n", static_cast<int>(path.size()), path.data());
  std::abort();
}

KeyRange slider_range(std::string_view path) {
  for (const SliderRange& r : kSliderRanges)
    if (path == r.path) return {r.min, r.max};
  return key_range(path);
}

}  // namespace attn
