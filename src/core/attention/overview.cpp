// The overview's streaming pass (overview.h): passes 1-4 per tile of query rows, the pooled
// rows closed as the rows go by, and the exact weights of a region from the row statistics.
//
// Sections: 1 checks  2 the job  3 one tile (passes 1-4)  4 entry points
#include "core/attention/overview.h"

#include "core/attention/attention.h"
#include "core/attention/attention_messages.h"
#include "core/base/finite.h"
#include "core/kernels/dispatch.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace attn {

namespace {

constexpr int kTileRows = 32;    // query rows per GEMM: the scores held are 32 x n_k floats
constexpr int kKeyChunk = 512;   // keys per packed panel set of K^T
constexpr int kFoldRows = 32;    // rows summed in float before the sums move to double
constexpr int kSumChunk = 256;   // keys summed in float before l_i moves to double

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// 1 / l_i as e^(m_i - lse_i): the pass and region_weights scale by this same float.
float inverse_sum(float m, double lse) { return static_cast<float>(std::exp(static_cast<double>(m) - lse)); }

// ---- 1 checks -------------------------------------------------------------------------------

Status check_inputs(const Mat& q, const Mat& k, const OverviewOptions& o) {
  if (q.rows() < 1 || k.rows() < 1 || q.cols() < 1) return Status::error(msg::att_overview_empty);
  if (k.cols() != q.cols()) return Status::error(msg::att_overview_width, k.cols(), q.cols());
  if (q.rows() > kOverviewMaxTokens || k.rows() > kOverviewMaxTokens)
    return Status::error(msg::att_overview_tokens, q.rows(), k.rows(), kOverviewMaxTokens);
  if (q.cols() > kOverviewMaxDk) return Status::error(msg::att_overview_dk, q.cols(), kOverviewMaxDk);
  if (o.block < 1) return Status::error(msg::att_overview_block, o.block);
  const std::int64_t rows = ceil_div(static_cast<int>(q.rows()), o.block), cols = ceil_div(static_cast<int>(k.rows()), o.block);
  if (rows * cols > kOverviewMaxPooledCells)
    return Status::error(msg::att_overview_pooled, o.block, rows, cols, kOverviewMaxPooledCells);
  if (!std::isnan(o.scale) && !std::isfinite(o.scale)) return Status::error(msg::att_scale_finite);
  if (!all_finite(q.data(), q.size())) return Status::error(msg::att_overview_finite, "q");
  if (!all_finite(k.data(), k.size())) return Status::error(msg::att_overview_finite, "k");
  return Status::success();
}

}  // namespace

// ---- 2 the job ------------------------------------------------------------------------------

Status OverviewJob::begin(Mat q, Mat k, const OverviewOptions& options) {
  release();
  if (Status s = check_inputs(q, k, options); !s.ok) return s;
  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows()), d_k = static_cast<int>(q.cols());
  for (int j0 = 0; j0 < n_k; j0 += kKeyChunk) {
    packed_k_.push_back(pack_gemm_b(k.data() + static_cast<std::ptrdiff_t>(j0) * d_k, d_k, d_k, std::min(kKeyChunk, n_k - j0), true));
    if (!packed_k_.back().data) {
      release();
      return Status::error(msg::att_overview_memory);
    }
  }
  q_ = std::move(q);
  k_ = std::move(k);
  options_ = options;
  const std::size_t keys = static_cast<std::size_t>(n_k);
  sum_f_.resize(keys);
  sum_d_.resize(keys);
  key_totals_.resize(keys);
  if (options.pool == BlockPool::Max) max_f_.resize(keys);
  rows_in_float_ = open_row_ = next_row_ = 0;
  cells_done_ = cells_total_ = 0.0;
  OverviewResult& r = result_;
  r.n_q = n_q;
  r.n_k = n_k;
  r.block = options.block;
  r.pool = options.pool;
  r.pooled = Mat::Zero(ceil_div(n_q, options.block), ceil_div(n_k, options.block));
  r.stats.scale = std::isnan(options.scale) ? default_scale(d_k) : options.scale;
  r.stats.causal = options.causal;
  r.stats.row_max = RowVec::Zero(n_q);
  r.stats.row_lse.assign(static_cast<std::size_t>(n_q), 0.0);
  r.status = Status::error(msg::att_overview_not_done);
  // Row i computes min(n_k, i + 1) cells with causal: a triangle, then full rows.
  const double nq = n_q, nk = n_k, tri = std::min(nq, nk);
  cells_total_ = options.causal ? tri * (tri + 1) / 2 + (nq - tri) * nk : nq * nk;
  active_ = true;
  return Status::success();
}

Status OverviewJob::step(int rows) {
  if (!active_) return Status::error(msg::att_overview_not_running);
  const int end = std::min(result_.n_q, next_row_ + std::max(rows, 1));
  for (int r0 = next_row_; r0 < end; r0 += kTileRows) process_tile(r0, std::min(end, r0 + kTileRows));
  next_row_ = end;
  if (next_row_ < result_.n_q) return Status::success();
  close_pooled_row();
  result_.key_totals.resize(result_.n_k);
  for (int j = 0; j < result_.n_k; ++j) result_.key_totals[j] = static_cast<float>(key_totals_[static_cast<std::size_t>(j)]);
  result_.status = Status::success();
  // The scratch goes; q and k stay for region_weights.
  release_scratch();
  active_ = false;
  done_ = true;
  return Status::success();
}

// Every buffer but q and k, and the result, emptied (the vectors' memory freed too).
void OverviewJob::release_scratch() {
  packed_k_ = std::vector<PackedPanels>();
  scores_ = Mat();
  sum_f_ = {};
  sum_d_ = {};
  max_f_ = {};
  key_totals_ = {};
}

void OverviewJob::release() {
  release_scratch();
  q_ = Mat();
  k_ = Mat();
  result_ = OverviewResult();
  active_ = done_ = false;
}

double OverviewJob::progress() const {
  if (done_) return 1.0;
  return cells_total_ > 0.0 ? cells_done_ / cells_total_ : 0.0;
}

OverviewResult OverviewJob::take() {
  OverviewResult r = std::move(result_);
  release();
  return r;
}

void OverviewJob::fold_float_sums() {
  for (std::size_t j = 0; j < sum_f_.size(); ++j) {
    sum_d_[j] += sum_f_[j];
    sum_f_[j] = 0.0f;
  }
  rows_in_float_ = 0;
}

// Pooled row open_row_ is complete: its blocks' means (or maxima) and its share of the key
// totals; the next pooled row opens.
void OverviewJob::close_pooled_row() {
  fold_float_sums();
  const int b = options_.block, n_k = result_.n_k;
  const int rows = std::min(b, result_.n_q - open_row_ * b);
  for (int c = 0, j0 = 0; j0 < n_k; ++c, j0 += b) {
    const int w = std::min(b, n_k - j0);
    float& cell = result_.pooled(open_row_, c);
    if (options_.pool == BlockPool::Max) {
      cell = *std::max_element(max_f_.begin() + j0, max_f_.begin() + j0 + w);
    } else {
      double s = 0.0;
      for (int j = j0; j < j0 + w; ++j) s += sum_d_[static_cast<std::size_t>(j)];
      cell = static_cast<float>(s / (static_cast<double>(rows) * w));
    }
  }
  for (std::size_t j = 0; j < sum_d_.size(); ++j) {
    key_totals_[j] += sum_d_[j];
    sum_d_[j] = 0.0;
  }
  std::fill(max_f_.begin(), max_f_.end(), 0.0f);
  ++open_row_;
}

// ---- 3 one tile (passes 1-4) ----------------------------------------------------------------

void OverviewJob::process_tile(int r0, int r1) {
  const kernels::KernelTable& kt = kernels::active_kernels();
  const int n_k = result_.n_k, d_k = static_cast<int>(q_.cols());
  const bool causal = options_.causal;
  if (scores_.rows() != kTileRows) scores_.resize(kTileRows, n_k);
  // 1 scores of the keys any row of the tile sees (causal: those up to its last row)
  const int seen = causal ? std::min(n_k, r1) : n_k;
  for (int c = 0, j0 = 0; j0 < seen; ++c, j0 += kKeyChunk) {
    kernels::GemmArgs g;
    g.m = r1 - r0;
    g.n = std::min(kKeyChunk, n_k - j0);
    g.k = d_k;
    g.a = q_.data() + static_cast<std::ptrdiff_t>(r0) * d_k;
    g.lda = d_k;
    g.b_packed = packed_k_[static_cast<std::size_t>(c)].data.get();
    g.c = scores_.data() + j0;
    g.ldc = n_k;
    g.alpha = result_.stats.scale;
    kt.gemm(g);
  }
  for (int i = r0; i < r1; ++i) {
    if (i / options_.block != open_row_) close_pooled_row();
    // 2 mask: row i's allowed keys are its first `len` (the rest are not read)
    const int len = causal ? std::min(n_k, i + 1) : n_k;
    float* s = scores_.data() + static_cast<std::ptrdiff_t>(i - r0) * n_k;
    Eigen::Map<RowVec> row(s, len);
    // 3 softmax, max-subtracted
    const float m = row.maxCoeff();
    row.array() -= m;
    kt.exp(s, s, len);
    double l = 0.0;
    for (int j0 = 0; j0 < len; j0 += kSumChunk) l += Eigen::Map<const RowVec>(s + j0, std::min(kSumChunk, len - j0)).sum();
    const double lse = static_cast<double>(m) + std::log(l);
    row *= inverse_sum(m, lse);
    result_.stats.row_max[i] = m;
    result_.stats.row_lse[static_cast<std::size_t>(i)] = lse;
    // 4 pool: sums (and maxima) over the open pooled row's rows, per key
    Eigen::Map<RowVec>(sum_f_.data(), len) += row;
    if (options_.pool == BlockPool::Max) {
      Eigen::Map<RowVec> mx(max_f_.data(), len);
      mx = mx.cwiseMax(row);
    }
    if (++rows_in_float_ == kFoldRows) fold_float_sums();
    cells_done_ += len;
  }
}

// ---- 4 entry points -------------------------------------------------------------------------

OverviewResult overview(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k, const OverviewOptions& options) {
  OverviewJob job;
  if (Status s = job.begin(Mat(q), Mat(k), options); !s.ok) {
    OverviewResult r;
    r.status = s;
    return r;
  }
  while (job.active()) job.step(kOverviewMaxTokens);
  return job.take();
}

Status region_weights(const Eigen::Ref<const Mat>& q, const Eigen::Ref<const Mat>& k, const OverviewRowStats& stats,
                      int q0, int q1, int k0, int k1, Mat& out) {
  const int n_q = static_cast<int>(q.rows()), n_k = static_cast<int>(k.rows());
  if (stats.row_max.size() != n_q || stats.row_lse.size() != static_cast<std::size_t>(n_q))
    return Status::error(msg::att_overview_stats, stats.row_max.size(), n_q);
  if (k.cols() != q.cols()) return Status::error(msg::att_overview_width, k.cols(), q.cols());
  if (q0 < 0 || q1 > n_q || q0 >= q1) return Status::error(msg::att_overview_region_rows, q0, q1, n_q);
  if (k0 < 0 || k1 > n_k || k0 >= k1) return Status::error(msg::att_overview_region_keys, k0, k1, n_k);
  const int rows = q1 - q0, cols = k1 - k0;
  if (rows > kOverviewMaxRegion || cols > kOverviewMaxRegion)
    return Status::error(msg::att_overview_region_cap, rows, cols, kOverviewMaxRegion);

  const kernels::KernelTable& kt = kernels::active_kernels();
  // 1 scores of the region alone
  Mat p(rows, cols);
  kernels::GemmArgs g;
  g.m = rows;
  g.n = cols;
  g.k = static_cast<int>(q.cols());
  g.a = q.row(q0).data();
  g.lda = static_cast<int>(q.outerStride());
  g.b = k.row(k0).data();
  g.ldb = static_cast<int>(k.outerStride());
  g.b_transposed = true;
  g.c = p.data();
  g.ldc = cols;
  g.alpha = stats.scale;
  kt.gemm(g);
  for (int r = 0; r < rows; ++r) {
    const int i = q0 + r;
    // 2 mask: the region's keys up to i when causal; 3 the row's softmax from its statistics
    const int allowed = stats.causal ? std::clamp(i + 1 - k0, 0, cols) : cols;
    Eigen::Map<RowVec> row(p.row(r).data(), allowed);
    row.array() -= stats.row_max[i];
    kt.exp(row.data(), row.data(), allowed);
    row *= inverse_sum(stats.row_max[i], stats.row_lse[static_cast<std::size_t>(i)]);
    p.row(r).tail(cols - allowed).setZero();
  }
  out = std::move(p);
  return Status::success();
}

}  // namespace attn
