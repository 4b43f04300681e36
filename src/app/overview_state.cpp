#include "app/overview_state.h"

#include "app/app_messages.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace attn {

using nlohmann::json;

int overview_block(const OverviewSettings& s, int n) {
  if (s.block > 0) return s.block;
  return std::max(1, (n + kOverviewShownSide - 1) / kOverviewShownSide);
}

void set_overview_file(OverviewState& state, OverviewSettings& settings, ImportedAttention data, const std::string& name) {
  const bool external = state.external;
  const std::uint64_t request = state.request, version = state.version, region_version = state.region_version;
  state = OverviewState{};
  state.external = external;
  state.request = request;  // a report of the old file's pass is then ignored
  state.version = version + 1;
  state.region_version = region_version + 1;
  state.file = std::make_shared<const ImportedAttention>(std::move(data));
  state.name = name;
  settings.layer = 0;
  settings.head = 0;
  settings.q0 = settings.k0 = -1;
}

namespace {

// A new pass for `s`: the head's q and k, and (not external) its job begun.
void start_pass(OverviewState& st, const OverviewSettings& s) {
  const ImportedAttention& f = *st.file;
  st.pass_for = s;
  st.pass_for.layer = std::clamp(s.layer, 0, f.layers - 1);
  st.pass_for.head = std::clamp(s.head, 0, f.heads - 1);
  ++st.request;
  st.sent = false;
  st.progress = 0;
  st.done = false;
  st.status = Status::success();
  st.result = OverviewResult{};
  st.job.reset();
  st.region = Mat();
  st.region_q0 = st.region_k0 = -1;
  ++st.version;
  st.q = f.head_q(st.pass_for.layer, st.pass_for.head);
  st.k = f.head_k(st.pass_for.layer, st.pass_for.head);
  if (st.external) return;
  OverviewOptions o;
  o.block = overview_block(s, std::max(f.n_q, f.n_k));
  o.pool = s.pool;
  o.causal = s.causal;
  auto job = std::make_shared<OverviewJob>();
  if (Status e = job->begin(st.q, st.k, o); !e.ok) {
    st.status = e;
    return;
  }
  st.job = std::move(job);
}

// The region's exact weights from the pass's row statistics, when asked and changed.
bool update_region(OverviewState& st, const OverviewSettings& s) {
  if (!st.done || s.q0 < 0 || s.k0 < 0) {
    if (st.region.size() == 0) return false;
    st.region = Mat();
    st.region_q0 = st.region_k0 = -1;
    ++st.region_version;
    return true;
  }
  const int n_q = st.result.n_q, n_k = st.result.n_k;
  const int side = std::clamp(s.side, 1, kOverviewMaxRegion);
  const int q0 = std::clamp(s.q0, 0, std::max(n_q - 1, 0)), k0 = std::clamp(s.k0, 0, std::max(n_k - 1, 0));
  if (q0 == st.region_q0 && k0 == st.region_k0 && side == st.region_side && st.region.size() > 0) return false;
  Mat out;
  if (Status e = region_weights(st.q, st.k, st.result.stats, q0, std::min(q0 + side, n_q), k0, std::min(k0 + side, n_k), out);
      !e.ok) {
    st.status = e;
    return true;
  }
  st.region = std::move(out);
  st.region_q0 = q0;
  st.region_k0 = k0;
  st.region_side = side;
  ++st.region_version;
  return true;
}

}  // namespace

bool update_overview(OverviewState& st, const OverviewSettings& s) {
  if (!st.file) return false;
  bool changed = false;
  if (st.request == 0 || !st.pass_for.same_pass(s)) {
    start_pass(st, s);
    changed = true;
  }
  return update_region(st, s) || changed;
}

bool advance_overview(OverviewState& st, double budget_ms) {
  if (st.external || !st.job || st.done) return false;
  const auto start = std::chrono::steady_clock::now();
  do {
    if (Status e = st.job->step(32); !e.ok) {
      st.status = e;
      st.job.reset();
      return true;
    }
  } while (!st.job->done() &&
           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < budget_ms);
  st.progress = st.job->progress();
  if (st.job->done()) {
    st.result = st.job->take();
    st.done = true;
    st.job.reset();
    ++st.version;
  }
  return true;
}

json overview_pending(OverviewState& st) {
  if (!st.external || !st.file || st.sent || st.done || st.request == 0 || !st.status.ok) return nullptr;
  st.sent = true;
  const int n = std::max(st.file->n_q, st.file->n_k);
  return {{"request", st.request},
          {"nq", st.file->n_q},
          {"nk", st.file->n_k},
          {"dk", st.file->d_k},
          {"block", overview_block(st.pass_for, n)},
          {"pool", choice_row(kBlockPools, st.pass_for.pool).name},
          {"causal", st.pass_for.causal}};
}

Status overview_report_progress(OverviewState& st, std::uint64_t request, double progress) {
  if (!(progress >= 0.0 && progress <= 1.0)) return Status::error(msg::app_overview_progress);
  if (request != st.request || st.done) return Status::success();  // an older pass's: ignored
  st.progress = progress;
  return Status::success();
}

Status overview_report_result(OverviewState& st, std::uint64_t request, OverviewResult result) {
  if (request != st.request || !st.file) return Status::success();
  const int block = overview_block(st.pass_for, std::max(st.file->n_q, st.file->n_k));
  const Eigen::Index rows = (st.file->n_q + block - 1) / block, cols = (st.file->n_k + block - 1) / block;
  if (result.pooled.rows() != rows || result.pooled.cols() != cols || result.key_totals.size() != st.file->n_k ||
      result.stats.row_max.size() != st.file->n_q || result.stats.row_lse.size() != static_cast<std::size_t>(st.file->n_q))
    return Status::error(msg::app_overview_shape);
  result.n_q = st.file->n_q;
  result.n_k = st.file->n_k;
  result.block = block;
  result.pool = st.pass_for.pool;
  result.stats.causal = st.pass_for.causal;
  st.result = std::move(result);
  st.done = true;
  st.progress = 1.0;
  ++st.version;
  return Status::success();
}

void overview_report_error(OverviewState& st, std::uint64_t request, const std::string& message) {
  if (request != st.request) return;
  st.status = Status::error(message);
}

json overview_json(const OverviewState& st) {
  json j;
  j["loaded"] = static_cast<bool>(st.file);
  if (!st.file) return j;
  const ImportedAttention& f = *st.file;
  j["name"] = st.name;
  j["layers"] = f.layers;
  j["heads"] = f.heads;
  j["nq"] = f.n_q;
  j["nk"] = f.n_k;
  j["dk"] = f.d_k;
  j["request"] = st.request;
  j["progress"] = st.progress;
  j["done"] = st.done;
  j["error"] = st.status.message;
  j["block"] = overview_block(st.pass_for, std::max(f.n_q, f.n_k));
  j["pool"] = choice_row(kBlockPools, st.pass_for.pool).name;
  if (st.done) {
    const OverviewResult& r = st.result;
    j["rows"] = r.pooled.rows();
    j["cols"] = r.pooled.cols();
    j["pooledSum"] = static_cast<double>(r.pooled.cast<double>().sum());
    j["keyTotalsSum"] = static_cast<double>(r.key_totals.cast<double>().sum());
    Eigen::Index top = 0;
    r.key_totals.maxCoeff(&top);
    j["topKey"] = top;
    j["topKeyTotal"] = r.key_totals(top);
  }
  j["region"] = nullptr;
  if (st.region.size() > 0) {
    const Eigen::Index cols = st.region.cols();
    j["region"] = {{"q0", st.region_q0}, {"k0", st.region_k0}, {"rows", st.region.rows()}, {"cols", cols},
                   {"sum", static_cast<double>(st.region.cast<double>().sum())},
                   {"firstRow", std::vector<float>(st.region.data(), st.region.data() + cols)}};
  }
  return j;
}

}  // namespace attn
