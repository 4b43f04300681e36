#include "core/lm/runner.h"

#include "core/attention/softmax.h"
#include "core/lm/lm_messages.h"
#include "core/train/blocks.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::lm {

namespace tr = attn::train;

bool RunOptions::is_ablated(int layer, int head, int heads) const {
  const std::size_t i = static_cast<std::size_t>(layer) * heads + head;
  return i < ablated.size() && ablated[i] != 0;
}

Status check_options(const LanguageModel& model, const RunOptions& o) {
  if (!(o.attention_temperature >= kMinAttentionTemperature && o.attention_temperature <= kMaxAttentionTemperature))
    return Status::error(msg::lm_attention_temperature_range, "0.05", "20");
  const std::size_t heads = static_cast<std::size_t>(model.config.layers) * model.config.heads;
  if (o.ablated.size() > heads) {
    const int extra = static_cast<int>(o.ablated.size()) - 1;
    return Status::error(msg::lm_ablate_range, extra / model.config.heads, extra % model.config.heads,
                         model.config.layers, model.config.heads);
  }
  return Status::success();
}

Runner::Runner(const LanguageModel& model, RunOptions options) : model_(&model), options_(std::move(options)) {
  const tr::ModelConfig& c = model.config;
  keys_.assign(static_cast<std::size_t>(c.layers), Mat::Zero(c.context, c.d_model));
  values_.assign(static_cast<std::size_t>(c.layers), Mat::Zero(c.context, c.d_model));
}

std::size_t Runner::cache_bytes() const {
  return 2u * static_cast<std::size_t>(model_->config.layers) * filled_ * model_->config.d_model * sizeof(float);
}

namespace {

float maybe_half(float x, bool half) { return half ? round_to_half(x) : x; }

// Steps 1-5 of runner.h for the new rows [first, first + rows) of one layer: q (rows, d),
// the cache's keys and values (first + rows filled), heads (rows, d) out.
void attend(const Mat& q, const Mat& keys, const Mat& values, int first, int rows, int layer,
            const tr::ModelConfig& c, const RunOptions& o, Mat& heads, FeedTrace* trace) {
  const int d = c.d_model, h = c.heads, dk = d / h;
  const int total = first + rows;
  const bool half = o.half_precision;
  float scale = (c.scale_scores && o.scale) ? 1.0f / std::sqrt(static_cast<float>(dk)) : 1.0f;
  scale /= o.attention_temperature;
  const float fill = o.large_negative_fill ? -1e9f : -std::numeric_limits<float>::infinity();
  heads.setZero(rows, d);
  std::vector<float> s(static_cast<std::size_t>(total));
  for (int hh = 0; hh < h; ++hh) {
    const bool off = o.is_ablated(layer, hh, h);
    Mat* w = trace ? &trace->weights[static_cast<std::size_t>(layer) * h + hh] : nullptr;
    if (w) w->setZero(rows, total);
    for (int r = 0; r < rows; ++r) {
      const int i = first + r;
      const int last = o.causal ? i : total - 1;
      float row_max = -std::numeric_limits<float>::infinity();
      for (int j = 0; j < total; ++j) {
        if (j > last) {
          s[j] = maybe_half(fill, half);
        } else {
          float dot = 0;
          for (int t = 0; t < dk; ++t)
            dot += maybe_half(q(r, hh * dk + t), half) * maybe_half(keys(j, hh * dk + t), half);
          s[j] = maybe_half(dot * scale, half);
        }
        row_max = std::max(row_max, s[j]);
      }
      float sum = 0;
      for (int j = 0; j < total; ++j) {
        s[j] = (s[j] == -std::numeric_limits<float>::infinity()) ? 0.0f : std::exp(s[j] - row_max);
        sum += s[j];
      }
      for (int j = 0; j < total; ++j) {
        s[j] = maybe_half(s[j] / sum, half);
        if (w) (*w)(r, j) = s[j];
      }
      if (off) continue;
      for (int j = 0; j < total; ++j) {
        if (s[j] == 0.0f) continue;
        for (int t = 0; t < dk; ++t) heads(r, hh * dk + t) += s[j] * maybe_half(values(j, hh * dk + t), half);
      }
    }
  }
}

// The matrix of one site of a recorded run (Activations or const Activations).
template <class A>
auto& site_rows(A& a, PatchSite site, int layer) {
  const std::size_t l = static_cast<std::size_t>(layer);
  if (site == PatchSite::Residual) return a.residual[l];
  return site == PatchSite::Head ? a.heads[l] : a.mlp[l];
}

// The intervention at one site of a layer, whose values are the rows of positions first ..
// first + rows - 1: the patches naming it write the source's entries over them (a head's
// columns only), then the record keeps them as they now are.
void intervene(const Intervention* iv, PatchSite site, int layer, int first, int head_dim, Mat& values) {
  if (!iv) return;
  const int rows = static_cast<int>(values.rows()), width = static_cast<int>(values.cols());
  if (iv->source) {
    for (const Patch& p : iv->patches) {
      if (p.site != site || p.layer != layer) continue;
      const int lo = std::max(first, p.position == kAllPositions ? first : p.position);
      const int hi = std::min(first + rows, p.position == kAllPositions ? first + rows : p.position + 1);
      if (hi <= lo) continue;
      const int col = site == PatchSite::Head ? p.head * head_dim : 0;
      const int cols = site == PatchSite::Head ? head_dim : width;
      values.block(lo - first, col, hi - lo, cols) = site_rows(*iv->source, site, layer).block(lo, col, hi - lo, cols);
    }
  }
  if (iv->record) {
    Mat& kept = site_rows(*iv->record, site, layer);
    if (kept.rows() < first + rows || kept.cols() != width) kept.conservativeResize(first + rows, width);
    kept.middleRows(first, rows) = values;
  }
}

}  // namespace

void Runner::feed(const int* tokens, int count, Mat& logits, FeedTrace* trace, const Intervention* iv) {
  const tr::ModelConfig& c = model_->config;
  const int d = c.d_model, f = c.d_mlp, first = filled_;
  const tr::ModelTensors<const float*> p = tr::tensors_of<const float*>(c, model_->parameters.data());
  if (trace) {
    trace->first = first;
    trace->rows = count;
    trace->keys = first + count;
    trace->q.assign(static_cast<std::size_t>(c.layers), Mat());
    trace->k = trace->q;
    trace->v = trace->q;
    trace->weights.assign(static_cast<std::size_t>(c.layers) * c.heads, Mat());
  }
  if (iv && iv->record) {
    iv->record->residual.resize(static_cast<std::size_t>(c.layers) + 1);
    iv->record->heads.resize(static_cast<std::size_t>(c.layers));
    iv->record->mlp.resize(static_cast<std::size_t>(c.layers));
  }
  const int dk = model_->head_dim();
  Mat x(count, d), a(count, d), q(count, d), kv(count, d), heads(count, d), tmp(count, d);
  Mat hidden(count, f), act(count, f), gate(count, f);
  std::vector<float> mean(static_cast<std::size_t>(count)), rstd(mean.size());
  // Token embedding plus the embeddings of positions first .. first + count - 1.
  for (int r = 0; r < count; ++r)
    for (int t = 0; t < d; ++t)
      x(r, t) = p.token_embedding[static_cast<std::size_t>(tokens[r]) * d + t] +
                p.position_embedding[static_cast<std::size_t>(first + r) * d + t];
  for (int l = 0; l < c.layers; ++l) {
    const tr::LayerTensors<const float*>& L = p.layers[static_cast<std::size_t>(l)];
    intervene(iv, PatchSite::Residual, l, first, dk, x);
    tr::layer_norm_forward(a.data(), mean.data(), rstd.data(), x.data(), L.ln1_gain, L.ln1_bias, count, d);
    tr::linear_forward(q.data(), a.data(), L.wq, static_cast<const float*>(nullptr), count, d, d);
    tr::linear_forward(kv.data(), a.data(), L.wk, static_cast<const float*>(nullptr), count, d, d);
    keys_[l].middleRows(first, count) = kv;
    if (trace) trace->k[l] = kv;
    tr::linear_forward(kv.data(), a.data(), L.wv, static_cast<const float*>(nullptr), count, d, d);
    values_[l].middleRows(first, count) = kv;
    if (trace) {
      trace->v[l] = kv;
      trace->q[l] = q;
    }
    attend(q, keys_[l], values_[l], first, count, l, c, options_, heads, trace);
    intervene(iv, PatchSite::Head, l, first, dk, heads);
    tr::linear_forward(tmp.data(), heads.data(), L.wo, static_cast<const float*>(nullptr), count, d, d);
    x += tmp;
    tr::layer_norm_forward(a.data(), mean.data(), rstd.data(), x.data(), L.ln2_gain, L.ln2_bias, count, d);
    tr::linear_forward(hidden.data(), a.data(), L.w1, L.b1, count, d, f);
    tr::gelu_forward(act.data(), gate.data(), hidden.data(), count * f);
    tr::linear_forward(tmp.data(), act.data(), L.w2, L.b2, count, f, d);
    intervene(iv, PatchSite::Mlp, l, first, dk, tmp);
    x += tmp;
  }
  intervene(iv, PatchSite::Residual, c.layers, first, dk, x);
  tr::layer_norm_forward(a.data(), mean.data(), rstd.data(), x.data(), p.final_gain, p.final_bias, count, d);
  logits.resize(count, c.vocab);
  tr::linear_forward(logits.data(), a.data(), p.unembed, p.unembed_bias, count, d, c.vocab);
  filled_ = first + count;
}

void log2_softmax(const float* logits, int vocab, std::vector<double>& out) {
  out.resize(static_cast<std::size_t>(vocab));
  double m = logits[0];
  for (int j = 1; j < vocab; ++j) m = std::max(m, static_cast<double>(logits[j]));
  double sum = 0;
  for (int j = 0; j < vocab; ++j) sum += std::exp(static_cast<double>(logits[j]) - m);
  const double log_sum = std::log(sum) + m;
  for (int j = 0; j < vocab; ++j) out[j] = (static_cast<double>(logits[j]) - log_sum) / std::log(2.0);
}

}  // namespace attn::lm
