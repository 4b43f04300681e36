// Embind group "overview": the block-pooled overview of long attention (core/attention/overview.h)
// as a job the caller runs in pieces, behind web/attnlab-core-overview.mjs. Arguments are checked
// against the core's caps; a refused one answers {error}, which the wrapper throws.
//   overviewBegin({q, k, nq, nk, dk, block, max, causal, scale}) -> {id, rows, cols, scale}
//   overviewStep(id, rows) -> {rowsDone, progress, done}
//   overviewResult(id) -> {pooled, rows, cols, keyTotals, rowMax, rowLse, scale}   once done
//   overviewRegion(id, q0, q1, k0, k1) -> {weights, rows, cols}                    once done
//   overviewFree(id) -> bool
#include "bindings/core_limits.h"
#include "bindings/js_interop.h"
#include "core/attention/overview.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <limits>
#include <vector>
#include <memory>

using emscripten::val;
using attn::bindings::ArgumentCheck;
using attn::bindings::error_result;

namespace {

// The jobs this instance holds (each keeps its q and k for regions): job id is slot id - 1,
// emptied by overviewFree. (A vector, not a map: the map's code for one more value type cost
// the module kilobytes.)
std::vector<std::unique_ptr<attn::OverviewJob>>& jobs() {
  static std::vector<std::unique_ptr<attn::OverviewJob>> held;
  return held;
}

attn::OverviewJob* find_job(int id) {
  return id >= 1 && id <= static_cast<int>(jobs().size()) ? jobs()[static_cast<std::size_t>(id - 1)].get() : nullptr;
}

val overview_begin_js(val args) {
  ArgumentCheck check;
  const int nq = check.whole_int("nq", args["nq"], 1, attn::kOverviewMaxTokens);
  const int nk = check.whole_int("nk", args["nk"], 1, attn::kOverviewMaxTokens);
  const int dk = check.whole_int("dk", args["dk"], 1, attn::kOverviewMaxDk);
  attn::OverviewOptions o;
  o.block = check.whole_int("block", args["block"], 1, attn::kOverviewMaxTokens);
  attn::Mat q, k;
  check.matrix("q", args["q"], nq, dk, q);
  check.matrix("k", args["k"], nk, dk, k);
  if (check.refused()) return check.error();
  o.pool = args["max"].as<bool>() ? attn::BlockPool::Max : attn::BlockPool::Mean;
  o.causal = args["causal"].as<bool>();
  if (args["scale"].isNumber()) o.scale = static_cast<float>(args["scale"].as<double>());
  auto job = std::make_unique<attn::OverviewJob>();
  if (const attn::Status s = job->begin(std::move(q), std::move(k), o); !s.ok) return error_result(s.message);
  val out = val::object();
  out.set("rows", static_cast<int>(job->result().pooled.rows()));
  out.set("cols", static_cast<int>(job->result().pooled.cols()));
  out.set("scale", job->result().stats.scale);
  jobs().push_back(std::move(job));
  out.set("id", static_cast<int>(jobs().size()));
  return out;
}

val overview_step_js(int id, val rows_js) {
  attn::OverviewJob* job = find_job(id);
  if (!job) return error_result("this overview was disposed");
  ArgumentCheck check;
  const int rows = check.whole_int("rows", rows_js, 1, attn::kOverviewMaxTokens);
  if (check.refused()) return check.error();
  if (job->active())
    if (const attn::Status s = job->step(rows); !s.ok) return error_result(s.message);
  val out = val::object();
  out.set("rowsDone", job->rows_done());
  out.set("progress", job->progress());
  out.set("done", job->done());
  return out;
}

val overview_result_js(int id) {
  const attn::OverviewJob* job = find_job(id);
  if (!job) return error_result("this overview was disposed");
  const attn::OverviewResult& r = job->result();
  if (!r.status.ok) return error_result(r.status.message);
  val out = val::object();
  out.set("pooled", attn::bindings::float32_copy(r.pooled.data(), r.pooled.size()));
  out.set("rows", static_cast<int>(r.pooled.rows()));
  out.set("cols", static_cast<int>(r.pooled.cols()));
  out.set("keyTotals", attn::bindings::float32_copy(r.key_totals.data(), r.key_totals.size()));
  out.set("rowMax", attn::bindings::float32_copy(r.stats.row_max.data(), r.stats.row_max.size()));
  const std::vector<double>& lse = r.stats.row_lse;
  out.set("rowLse", val::global("Float64Array").new_(emscripten::typed_memory_view(lse.size(), lse.data())));
  out.set("scale", r.stats.scale);
  return out;
}

val overview_region_js(int id, val q0_js, val q1_js, val k0_js, val k1_js) {
  const attn::OverviewJob* job = find_job(id);
  if (!job) return error_result("this overview was disposed");
  if (!job->done()) return error_result(job->result().status.message);
  ArgumentCheck check;
  const int big = attn::kOverviewMaxTokens;
  const int q0 = check.whole_int("q0", q0_js, 0, big), q1 = check.whole_int("q1", q1_js, 0, big);
  const int k0 = check.whole_int("k0", k0_js, 0, big), k1 = check.whole_int("k1", k1_js, 0, big);
  if (check.refused()) return check.error();
  attn::Mat w;
  if (const attn::Status s = attn::region_weights(job->q(), job->k(), job->result().stats, q0, q1, k0, k1, w); !s.ok)
    return error_result(s.message);
  val out = val::object();
  out.set("weights", attn::bindings::float32_copy(w.data(), w.size()));
  out.set("rows", static_cast<int>(w.rows()));
  out.set("cols", static_cast<int>(w.cols()));
  return out;
}

bool overview_free_js(int id) {
  if (!find_job(id)) return false;
  jobs()[static_cast<std::size_t>(id - 1)].reset();
  return true;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_overview) {
  emscripten::function("overviewBegin", &overview_begin_js);
  emscripten::function("overviewStep", &overview_step_js);
  emscripten::function("overviewResult", &overview_result_js);
  emscripten::function("overviewRegion", &overview_region_js);
  emscripten::function("overviewFree", &overview_free_js);
}
