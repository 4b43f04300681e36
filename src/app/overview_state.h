// The long-input overview (core/attention/overview.h): a file with q and k of up to 32,768
// tokens and no weights, shown as softmax(q k^T * scale) pooled over b x b blocks with each
// key's total weight, and a region of exact weights under it. The pass is tens of seconds of
// work at 32k tokens, so it never runs inside a frame: on the page the Worker of the math
// module runs it (the page asks overview_pending what to run and reports back with
// overview_report, external = true); elsewhere (the desktop, the tests) advance_overview runs
// it a few rows a frame. The region, at most 1,024 a side, is computed here from the pass's
// row statistics (milliseconds).
//
// Sections: 1 settings  2 the record  3 operations
#pragma once

#include "core/attention/overview.h"
#include "core/base/choices.h"
#include "core/base/types.h"
#include "core/io/import_attention.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attn {

// ---- 1 settings ---------------------------------------------------------------------------

#define ATTNLAB_BLOCK_POOLS(X) X(Mean, "mean") X(Max, "max")
#define ATTNLAB_BLOCK_POOL_ROW(value, name) {BlockPool::value, name},
inline constexpr NamedChoice<BlockPool> kBlockPools[] = {ATTNLAB_BLOCK_POOLS(ATTNLAB_BLOCK_POOL_ROW)};
#undef ATTNLAB_BLOCK_POOL_ROW
static_assert(choices_in_order(kBlockPools));

// The pooled picture's largest side when the block is chosen for it (block 0).
inline constexpr int kOverviewShownSide = 512;
inline constexpr int kOverviewDefaultRegion = 256;

struct OverviewSettings {
  int layer = 0, head = 0;
  int block = 0;  // b; 0 = the smallest that keeps the pooled side at most kOverviewShownSide
  BlockPool pool = BlockPool::Mean;
  bool causal = false;
  int q0 = -1, k0 = -1;  // the region's first query and key; -1 = no region
  int side = kOverviewDefaultRegion;  // the region's rows and keys (fewer at the edges)
  bool operator==(const OverviewSettings&) const = default;
  // True when the pass itself differs (the region aside).
  bool same_pass(const OverviewSettings& o) const {
    return layer == o.layer && head == o.head && block == o.block && pool == o.pool && causal == o.causal;
  }
};

// The block the pass uses for n tokens under `s` (its own, or the automatic one).
int overview_block(const OverviewSettings& s, int n);

// ---- 2 the record -------------------------------------------------------------------------

struct OverviewState {
  std::shared_ptr<const ImportedAttention> file;  // q and k (and v) without weights
  std::string name;
  bool external = false;  // the page's Worker runs the pass (overview_pending / overview_report)

  // The pass: what it is for, its request number (bumped for each one asked), its progress.
  OverviewSettings pass_for;
  std::uint64_t request = 0;
  bool sent = false;  // external: the page took this request
  double progress = 0;
  bool done = false;
  Mat q, k;  // the pass's head (for the region)
  OverviewResult result;
  std::shared_ptr<OverviewJob> job;  // not external: the pass in frames
  Status status;                     // a refused pass or report
  std::uint64_t version = 0;         // bumped when the pooled picture changes (its heatmap's key)

  // The region under the pooled picture.
  Mat region;
  int region_q0 = -1, region_k0 = -1, region_side = 0;
  std::uint64_t region_version = 0;
};

// ---- 3 operations -------------------------------------------------------------------------

// Keeps a weightless file for the overview (its settings go back to layer 0, head 0, no region).
void set_overview_file(OverviewState& state, OverviewSettings& settings, ImportedAttention data, const std::string& name);

// Asks for a new pass when the file or the pass's settings changed, and computes the region
// when the pass is done and the region changed. True when anything changed.
bool update_overview(OverviewState& state, const OverviewSettings& settings);

// Not external: runs the pass's rows for about `budget_ms` (at least one tile). True when it ran.
bool advance_overview(OverviewState& state, double budget_ms);

// External: the pass the page should run, as the math module's overviewBegin takes it
// ({request, nq, nk, dk, block, pool, causal}), or null when there is none to send; marks it sent.
nlohmann::json overview_pending(OverviewState& state);

// External: the page's report for `request`: progress (0..1), then the result. A report of an
// older request is ignored; a malformed one is refused and changes nothing.
Status overview_report_progress(OverviewState& state, std::uint64_t request, double progress);
Status overview_report_result(OverviewState& state, std::uint64_t request, OverviewResult result);
// External: the pass failed in the page (its message is shown).
void overview_report_error(OverviewState& state, std::uint64_t request, const std::string& message);

// getState()'s figures.overview.
nlohmann::json overview_json(const OverviewState& state);

}  // namespace attn
