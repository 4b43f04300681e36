#include "files/import_view.h"

#include "core/attention/softmax.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace attn {

// ---- 1 special tokens ---------------------------------------------------------------------

bool is_special_token(const std::string& raw) {
  std::string t = raw;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.erase(t.begin());
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.pop_back();
  static const char* const kSpecial[] = {"[CLS]", "[SEP]", "[PAD]", "[MASK]", "[UNK]", "<s>", "</s>", "<pad>",
                                         "<unk>", "<mask>", "<bos>", "<eos>", "<BOS>", "<EOS>", "<cls>", "<sep>"};
  for (const char* k : kSpecial)
    if (t == k) return true;
  // <|endoftext|>, <|begin_of_text|>, <|im_start|>, ...
  return t.size() >= 5 && t.compare(0, 2, "<|") == 0 && t.compare(t.size() - 2, 2, "|>") == 0;
}

// ---- 2 the layer as a trace -----------------------------------------------------------------

VisibleTokens visible_tokens(const ImportedAttention& data, bool hide_special) {
  VisibleTokens v;
  auto keep = [&](const std::vector<std::string>& tokens, int n, std::vector<int>& out) {
    for (int i = 0; i < n; ++i)
      if (!hide_special || i >= static_cast<int>(tokens.size()) || !is_special_token(tokens[i])) out.push_back(i);
    if (out.empty())
      for (int i = 0; i < n; ++i) out.push_back(i);
  };
  keep(data.query_tokens, data.n_q, v.rows);
  keep(data.key_tokens, data.n_k, v.cols);
  return v;
}

namespace {

Mat select(const Mat& m, const std::vector<int>& rows, const std::vector<int>* cols) {
  if (m.size() == 0) return m;
  const int nc = cols ? static_cast<int>(cols->size()) : static_cast<int>(m.cols());
  Mat out(static_cast<int>(rows.size()), nc);
  for (int i = 0; i < out.rows(); ++i)
    for (int j = 0; j < nc; ++j) out(i, j) = m(rows[i], cols ? (*cols)[j] : j);
  return out;
}

}  // namespace

Mat shown_weights(const ImportedAttention& data, int layer, int head, const VisibleTokens& visible, bool renormalise) {
  Mat w = select(data.head_weights(layer, head), visible.rows, &visible.cols);
  if (renormalise) {
    for (int i = 0; i < w.rows(); ++i) {
      const float sum = w.row(i).sum();
      if (sum > 0.0f) w.row(i) /= sum;
    }
  }
  return w;
}

float first_token_share(const Mat& w) {
  if (w.rows() == 0 || w.cols() == 0) return 0.0f;
  return w.col(0).mean();
}

Mat pooled(const Mat& m, int max_side) {
  const int rows = static_cast<int>(m.rows()), cols = static_cast<int>(m.cols());
  if (rows <= max_side && cols <= max_side) return m;
  const int out_r = std::min(rows, max_side), out_c = std::min(cols, max_side);
  Mat out = Mat::Zero(out_r, out_c);
  Mat count = Mat::Zero(out_r, out_c);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const int oi = static_cast<int>(static_cast<long long>(i) * out_r / rows);
      const int oj = static_cast<int>(static_cast<long long>(j) * out_c / cols);
      out(oi, oj) += m(i, j);
      count(oi, oj) += 1.0f;
    }
  return out.cwiseQuotient(count);
}

void model_grid(const std::vector<Mat>& weights, int heads, int layer, std::vector<Mat>& thumbnails,
                std::vector<float>& sink_share) {
  thumbnails.clear();
  sink_share.clear();
  for (const Mat& w : weights) thumbnails.push_back(pooled(w, kThumbnailSide));
  for (int h = 0; h < heads; ++h) {
    const std::size_t i = static_cast<std::size_t>(layer) * heads + h;
    sink_share.push_back(i < weights.size() ? first_token_share(weights[i]) : 0.0f);
  }
}

PipelineTrace imported_layer_trace(const ImportedAttention& data, int layer, const VisibleTokens& visible,
                                   bool renormalise, const PipelineConfig& config, float* max_difference) {
  const int n_q = static_cast<int>(visible.rows.size()), n_k = static_cast<int>(visible.cols.size());
  PipelineTrace trace;
  for (int h = 0; h < data.heads; ++h) {
    const Mat file_weights = shown_weights(data, layer, h, visible, renormalise);
    HeadTrace head;
    if (data.has_qkv) {
      // Recompute from Q, K, V with the lab's math settings (scale, temperature, mask).
      const Mat q = select(data.head_q(layer, h), visible.rows, nullptr);
      const Mat k = select(data.head_k(layer, h), visible.cols, nullptr);
      const Mat v = select(data.head_v(layer, h), visible.cols, nullptr);
      MaskSpec mask = config.mask;
      mask.global_tokens.clear();  // token indices of the text scene; not the file's
      mask.key_padding.clear();
      const BoolMat allowed = validate_mask(mask, n_q, n_k).ok ? build_mask(mask, n_q, n_k)
                                                               : BoolMat::Constant(n_q, n_k, true);
      head = run_head(q, k, v, allowed, Mat(), config, nullptr, h);
      if (max_difference) *max_difference = std::max(*max_difference, (head.weights - file_weights).cwiseAbs().maxCoeff());
    } else {
      // Weights only: the file's weights are the result; there are no scores to show.
      head.weights = file_weights;
      head.fully_masked_rows.assign(n_q, 0);
    }
    trace.heads.push_back(std::move(head));
  }
  return trace;
}

bool fill_thumbnails(const ImportedAttention& data, const VisibleTokens& visible, bool renormalise,
                     std::vector<Mat>& thumbnails, int& done, double budget_ms) {
  const int total = static_cast<int>(thumbnails.size());
  if (done >= total) return false;
  const auto start = std::chrono::steady_clock::now();
  do {
    const int i = done++;
    thumbnails[i] = pooled(shown_weights(data, i / data.heads, i % data.heads, visible, renormalise), kThumbnailSide);
  } while (done < total && std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < budget_ms);
  return true;
}

}  // namespace attn
