// Embind binding of the lab's choices: choices() hands the JS module each choice's table
// (core/base/choices.h) as an array of rows {name, ...columns}, so web/attnlab-core*.mjs check
// names and properties against the core's tables instead of lists of their own, and
// cmake/steps/make-site.mjs writes the shipped .d.ts unions from the same rows. It carries the
// view's themes too (app/view_choices.h), which make-site writes into web/embed.mjs, whose
// theme= is checked before the app has loaded.
#include "app/view_choices.h"
#include "core/attention/pipeline.h"
#include "core/attention/positional.h"
#include "core/efficient/attention.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstddef>
#include <string>

using emscripten::val;

namespace {

// A table's rows as {name, ...columns}: columns(row, object) sets the columns.
template <class Row, std::size_t N, class Columns>
val rows_of(const Row (&table)[N], Columns columns) {
  val rows = val::array();
  for (std::size_t i = 0; i < N; ++i) {
    val row = val::object();
    row.set("name", std::string(table[i].name));
    columns(table[i], row);
    rows.set(i, row);
  }
  return rows;
}

// choices() -> {efficientKind: [{name, variant, causal, parameter}], positional: [{name,
//   encoding, inside, evenDk}], ropePairing: [{name}], scoreFunction: [{name, qk}], theme: [{name}]}
val choices_js() {
  val out = val::object();
  out.set("efficientKind", rows_of(attn::kEfficientKinds, [](const attn::EfficientKindInfo& r, val& row) {
    row.set("variant", r.variant);
    row.set("causal", r.causal);
    row.set("parameter", r.parameter ? val(std::string(r.parameter)) : val::null());
  }));
  out.set("positional", rows_of(attn::kPositionals, [](const attn::PositionalInfo& r, val& row) {
    row.set("encoding", r.encoding);
    row.set("inside", r.inside != attn::PositionalKind::None);
    row.set("evenDk", r.even_dk);
  }));
  out.set("ropePairing", rows_of(attn::kRopePairings, [](const attn::RopePairingInfo&, val&) {}));
  out.set("scoreFunction", rows_of(attn::kScoreFunctions, [](const attn::ScoreFunctionInfo& r, val& row) {
    row.set("qk", r.qk);
  }));
  out.set("theme", rows_of(attn::kThemes, [](const attn::NamedChoice<attn::Theme>&, val&) {}));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_core_choices) {
  emscripten::function("choices", &choices_js);
}
