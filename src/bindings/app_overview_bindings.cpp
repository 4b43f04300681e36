// Embind group "overview": the page's Worker runs the long-input overview's pass
// (app/overview_state.h) and reports here. web/overview-ui.mjs drives it:
//   overviewExternal()                      the page has a Worker: the app leaves the pass to it
//   overviewPending()                       "" or the JSON of the pass to run (marked sent)
//   overviewInputs()                        {q, k}: Float32Array copies of the pass's head
//   overviewProgress(request, p)            "" or why the report is refused
//   overviewResult(request, {pooled, keyTotals, rowMax, rowLse})   "" or why refused
//   overviewError(request, message)         the pass failed in the Worker
#include "app/app_messages.h"
#include "app/overview_state.h"
#include "bindings/app_handle.h"
#include "files/json_text.h"
#include "ui/app.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using attn::bindings::exposed_app;
using emscripten::val;

attn::OverviewState* overview_state() {
  attn::ui::App* app = exposed_app();
  return app ? &app->state().overview : nullptr;
}

void overview_external() {
  if (attn::OverviewState* st = overview_state()) st->external = true;
}

std::string overview_pending() {
  attn::OverviewState* st = overview_state();
  if (!st) return "";
  const nlohmann::json j = attn::overview_pending(*st);
  return j.is_null() ? "" : attn::json_text(j);
}

val copy_out(const attn::Mat& m) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(static_cast<std::size_t>(m.size()), m.data()));
}

val overview_inputs() {
  attn::OverviewState* st = overview_state();
  val out = val::object();
  if (!st) return out;
  out.set("q", copy_out(st->q));
  out.set("k", copy_out(st->k));
  return out;
}

std::string overview_progress(double request, double progress) {
  attn::OverviewState* st = overview_state();
  if (!st) return "the app is not running";
  return attn::bindings::refused(attn::overview_report_progress(*st, static_cast<std::uint64_t>(request), progress));
}

// A typed array's elements copied into `out` (`length` of them, or a refusal).
template <class T>
bool copy_in(const val& array, std::size_t length, T* out) {
  if (array.isUndefined() || array.isNull() || array["length"].as<std::size_t>() != length) return false;
  val(emscripten::typed_memory_view(length, out)).call<void>("set", array);
  return true;
}

std::string overview_result(double request, const val& r) {
  attn::OverviewState* st = overview_state();
  if (!st || !st->file) return "the app is not running";
  attn::OverviewResult result;
  const int rows = r["rows"].as<int>(), cols = r["cols"].as<int>();
  if (rows < 1 || cols < 1 || static_cast<std::int64_t>(rows) * cols > attn::kOverviewMaxPooledCells)
    return attn::bindings::refused(attn::Status::error(attn::msg::app_overview_shape));
  result.pooled.resize(rows, cols);
  result.key_totals.resize(st->file->n_k);
  result.stats.row_max.resize(st->file->n_q);
  result.stats.row_lse.resize(static_cast<std::size_t>(st->file->n_q));
  result.stats.scale = r["scale"].as<float>();
  if (!copy_in(r["pooled"], static_cast<std::size_t>(result.pooled.size()), result.pooled.data()) ||
      !copy_in(r["keyTotals"], static_cast<std::size_t>(result.key_totals.size()), result.key_totals.data()) ||
      !copy_in(r["rowMax"], static_cast<std::size_t>(result.stats.row_max.size()), result.stats.row_max.data()) ||
      !copy_in(r["rowLse"], result.stats.row_lse.size(), result.stats.row_lse.data()))
    return attn::bindings::refused(attn::Status::error(attn::msg::app_overview_shape));
  return attn::bindings::refused(attn::overview_report_result(*st, static_cast<std::uint64_t>(request), std::move(result)));
}

void overview_error(double request, const std::string& message) {
  if (attn::OverviewState* st = overview_state()) attn::overview_report_error(*st, static_cast<std::uint64_t>(request), message);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_overview) {
  emscripten::function("overviewExternal", &overview_external);
  emscripten::function("overviewPending", &overview_pending);
  emscripten::function("overviewInputs", &overview_inputs);
  emscripten::function("overviewProgress", attn::bindings::waking<&overview_progress>);
  emscripten::function("overviewResult", attn::bindings::waking<&overview_result>);
  emscripten::function("overviewError", attn::bindings::waking<&overview_error>);
}
